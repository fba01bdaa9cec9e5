"""Hypothesis profiles for the whole suite, chosen once here instead of test by test.

`ci` (when CI=true, as CI runs `make test`) tries 100 examples a property, Hypothesis's
own default; `dev` (the default on a developer's machine) 10, for a quick `make test`:
a failing example, once found, is kept in `.hypothesis/` and tried first on every later run.
HYPOTHESIS_PROFILE=ci|dev picks one by hand. A test's own `@settings` still wins.
Neither has a deadline: the e2e and database properties wait on real files and processes,
whose timing says nothing about the code under test.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.postgres import PostgresServer

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Every bot the tests start (a few dozen) shares one cache of the drawn card pictures,
# keyed by the drawing code's version: drawing them is about a second of CPU a start.
os.environ.setdefault("ART_CACHE_DIR", str(Path(tempfile.gettempdir()) / "uno-bot-tests-art-cache"))

_default = "ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "dev"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or _default)


def _module_shared(item: pytest.Item) -> bool:
    """Whether the test uses a fixture kept for its module or package (a bot, a browser)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs[-1].scope in ("module", "package") for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under `-n`, a module whose tests share a fixture runs on one worker, in order.

    Every other test is handed out one by one (`--dist loadgroup`), so the workers stay
    busy; a module-scoped bot process or emulator is then started once, not once a worker.
    """
    for item in items:
        if isinstance(item, pytest.Function) and _module_shared(item):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else ""))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server (tests/postgres.py), one per test process, started when a
    test first needs it and removed at the end; each test makes a database of its own."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
