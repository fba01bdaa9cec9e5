"""Dependencies point one way: bot -> cogs -> (engine, db); engine and db stay apart.

The playground is Discord's stand-in: the product never imports it, and it knows the
bot only through Discord's public API.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("engine", {"discord", "asyncio", "aiosqlite", "sqlite3", "db", "cogs", "bot", "config"}),
        ("db", {"discord", "engine", "cogs", "bot"}),
        ("cogs", {"bot", "aiosqlite", "sqlite3", "playground"}),
        ("playground", {"bot", "cogs", "engine", "db", "tests"}),
    ],
)
def test_package_does_not_import(package: str, forbidden: set[str]) -> None:
    offenders = {
        path: sorted(names & forbidden)
        for path, names in imported_modules(package).items()
        if names & forbidden
    }
    assert offenders == {}


def test_the_check_sees_imports() -> None:
    # The scan must find the imports that do exist, or the tests above prove nothing.
    assert "engine" in imported_modules("engine")["engine/actions.py"]
