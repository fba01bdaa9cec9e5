"""Browser tests: the playground launched as `make run` does, and Debian's Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    Playwright,
    expect,
    sync_playwright,
)

from tests.browser.launcher import Launcher

# Every wait in these tests ends when the page shows what it waits for; this bound (ms)
# only has to outlast a machine whose cores are busy with other work. Playwright's own
# default, 5 s, does not.
PATIENCE_MS = 60_000
expect.set_options(timeout=PATIENCE_MS)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Every tab is a player: none may be slowed down as a hidden background tab.
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
]


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict[str, Any]:
    # The system's Chromium, never a browser downloaded by Playwright.
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args() -> dict[str, Any]:
    return {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    # pytest-playwright keeps one for the whole session, and its event loop would still be
    # marked running in the asyncio tests that follow: it lives and ends with this package.
    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="package")
def browser_type(playwright: Playwright) -> BrowserType:
    return playwright.chromium


@pytest.fixture(scope="package")
def browser(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any]
) -> Iterator[Browser]:
    launched = browser_type.launch(**browser_type_launch_args)
    yield launched
    launched.close()


@pytest.fixture(autouse=True)
def patient(request: pytest.FixtureRequest) -> None:
    """Clicks and waits of a test's pages share the same generous bound as `expect`."""
    if "context" in request.fixturenames:
        context: BrowserContext = request.getfixturevalue("context")
        context.set_default_timeout(PATIENCE_MS)


def stopped_cleanly(launched: Launcher) -> None:
    if launched.process is not None:
        code = launched.interrupt()
        log = launched.bot_log()
        assert "Traceback" not in log, log[-4000:]
        assert code == 0, launched.output()


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[Launcher]:
    launched = Launcher(tmp_path)
    yield launched
    stopped_cleanly(launched)


@pytest.fixture(scope="module")
def shared_playground(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One playground for a module whose tests don't disturb each other (other channels)."""
    launched = Launcher(tmp_path_factory.mktemp("playground"))
    yield launched.start()
    stopped_cleanly(launched)


@pytest.fixture
def playground(launcher: Launcher) -> str:
    """The page's URL, once the bot is connected and its commands synced."""
    return launcher.start()
