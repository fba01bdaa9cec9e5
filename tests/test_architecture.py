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


# The computer opponents see what a person in their seat sees: the two views. Only the
# match-based test players (random, greedy, play_out) and the table loop hold a Match.
MATCH_HOLDERS = {"random_player.py", "greedy_player.py", "play_out.py", "player.py", "table.py"}


def _engine_imports(path: Path) -> set[str]:
    """`module` and `module.Name` for every engine import of the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("engine")}


def test_computer_players_reach_no_match_and_no_rules() -> None:
    computers = sorted(
        p for p in (ROOT / "engine" / "players").glob("*.py") if p.name not in MATCH_HOLDERS
    )
    assert len(computers) >= 8
    offenders = {}
    for path in computers:
        bad = {
            name
            for name in _engine_imports(path)
            if name == "engine.match.Match"
            or name.split(".")[1].startswith(("duo", "pizza", "classic"))
        }
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}


def test_the_computer_check_sees_imports() -> None:
    assert "engine.match.Match" in _engine_imports(ROOT / "engine" / "players" / "table.py")
    assert "engine.match.from_snapshot" in _engine_imports(
        ROOT / "engine" / "players" / "search.py"
    )
