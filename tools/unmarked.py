"""List string literals in cogs/ that look like words a player reads but are not
marked for the catalogue: `python -m tools.unmarked`.

A helper for merging code written before a string went through `t`: it guesses
(a literal with a word of three letters or more and a space, or a capitalised
one, outside `t`/`tn`/`N_`, docstrings and log calls) and prints each guess with
its line. Some guesses are not player words (JSON keys, enum names): judge each.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

MARKERS = frozenset({"t", "tn", "N_", "NC_"})
NOT_SHOWN = frozenset(
    {"debug", "info", "warning", "error", "exception", "critical", "getLogger", "compile"}
)
WORDS = re.compile(r"[A-Za-z]{3,}")
SKIPPED = ("art", "locales")  # card pictures; the catalogues themselves


def _call_name(node: ast.AST) -> str:
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _guesses(tree: ast.Module) -> Iterator[tuple[int, str]]:
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        text = node.value
        if isinstance(parents.get(node), ast.Expr) or not WORDS.search(text):
            continue  # a docstring, or no word in it
        if " " not in text.strip() and not text[:1].isupper():
            continue
        above = parents.get(node)
        while above is not None and not isinstance(above, ast.FunctionDef | ast.ClassDef):
            name = _call_name(above)
            if name in MARKERS or name in NOT_SHOWN or name.endswith("Error"):
                break
            above = parents.get(above)
        else:
            yield node.lineno, text


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "cogs" / "uno"
    found = 0
    for path in sorted(root.rglob("*.py")):
        if any(part in SKIPPED for part in path.parts) or path.name in ("unmarked.py",):
            continue
        for line, text in _guesses(ast.parse(path.read_text(encoding="utf-8"))):
            print(f"{path}:{line}: {text[:100]!r}")
            found += 1
    print(f"{found} guesses", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
