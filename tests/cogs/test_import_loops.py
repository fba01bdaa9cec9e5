"""No import loop inside cogs/: each named part imports only parts below it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "cogs"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """The cogs modules `path` imports at run time (TYPE_CHECKING blocks excluded)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name in known}


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    known = set(files)
    return {name: imports(path, known) - {name} for name, path in files.items()}


def find_loop(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (loop := visit(nxt)):
                return loop
        state[node] = 2
        path.pop()
        return None

    for start in sorted(edges):
        if start not in state and (loop := visit(start)):
            return loop
    return None


def test_no_import_loop_inside_cogs() -> None:
    assert find_loop(graph()) is None, " -> ".join(find_loop(graph()) or [])


def test_the_loop_finder_finds_a_loop() -> None:
    assert find_loop({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_loop({"a": {"b"}, "b": set()}) is None


def test_the_cog_is_thin() -> None:
    # The cog holds the commands and the listeners; the parts it builds hold the rest.
    cog = graph()["cogs.uno.cog"]
    assert "cogs.uno.parts" in cog
    assert not {name for name in cog if name.startswith("cogs.uno.table.")}
    assert len((PACKAGE / "uno" / "cog.py").read_text("utf-8").splitlines()) <= 250
