"""Dependencies point one way: bot -> cogs -> (engine, db); engine and db stay apart.

The playground is Discord's stand-in: the product never imports it, and it knows the
bot only through Discord's public API.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import io
import re
import tokenize
from collections.abc import Container
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


def module_graph(package: str) -> dict[str, set[str]]:
    """Each module of `package` and the modules of the same package it imports,
    wherever the import stands (in a function, under TYPE_CHECKING: a loop all the same)."""
    paths = sorted((ROOT / package).rglob("*.py"))
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in paths
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[name] = {
            target
            for node in ast.walk(tree)
            for target in _targets(node, name, is_package, modules)
            if target != name
        }
    return graph


def _targets(node: ast.AST, module: str, is_package: bool, modules: Container[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in modules]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        keep = len(parts) - node.level + (1 if is_package else 0)
        base = ".".join(parts[:keep] + ([base] if base else []))
    # `from pkg import mod` imports the submodule `pkg.mod`; `pkg` itself only for a name
    # that is not a submodule (`pkg` runs first either way, but that is no loop).
    subs = [f"{base}.{alias.name}" for alias in node.names]
    found = [sub for sub in subs if sub in modules]
    if len(found) < len(subs) and base in modules:
        found.append(base)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop as a list of modules (first repeated last), or []."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


@pytest.mark.parametrize("package", ["engine", "cogs", "db", "playground"])
def test_no_import_loop_inside_a_package(package: str) -> None:
    # Type-only imports count too: a package's modules read one way, top to bottom
    # (db's repositories type their database as db.access.Access, not Database).
    assert find_cycle(module_graph(package)) == []


def test_the_loop_check_finds_a_loop() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []
    graph = module_graph("engine")
    assert "engine.cards" in graph["engine.actions"]  # the scan sees the imports


def test_no_import_loop_across_the_project() -> None:
    # The packages' own graphs cannot see a loop that leaves a package and comes back.
    graph = project_module_graph()
    assert find_cycle(graph) == []


def test_the_cog_is_thin() -> None:
    # The cog holds the commands and the listeners; the parts it builds hold the rest.
    cog = project_module_graph()["cogs.uno.cog"]
    assert "cogs.uno.parts" in cog
    assert not {name for name in cog if name.startswith("cogs.uno.table.")}
    assert len((ROOT / "cogs" / "uno" / "cog.py").read_text("utf-8").splitlines()) <= 250


def test_no_arrow_from_engine_or_db_into_cogs() -> None:
    graph = project_module_graph()
    arrows = {
        module: sorted(target for target in targets if target.split(".")[0] == "cogs")
        for module, targets in graph.items()
        if module.split(".")[0] in {"engine", "db"}
    }
    assert {module: found for module, found in arrows.items() if found} == {}


def test_the_project_graph_sees_arrows_between_packages() -> None:
    graph = project_module_graph()
    assert "config" in graph["bot"]
    assert any(
        module.startswith("cogs.") and any(target.startswith("db.") for target in targets)
        for module, targets in graph.items()
    )
    # An arrow back from the engine into the bot closes a loop the check must find.
    assert find_cycle({**graph, "engine.cards": {*graph["engine.cards"], "bot"}})


PRODUCT = ("engine", "db", "cogs", "playground", "bot.py", "config.py")


@functools.cache
def project_module_graph() -> dict[str, set[str]]:
    """Every module of the product (what `python bot.py` and the playground can load),
    and the product modules it imports, wherever the import stands."""
    paths = [
        path
        for top in PRODUCT
        for path in ([ROOT / top] if top.endswith(".py") else sorted((ROOT / top).rglob("*.py")))
    ]
    modules = {_module_name(path): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        graph[name] = {
            target
            for node in ast.walk(tree)
            for target in _targets(node, name, is_package, modules)
            if target != name
        }
    return graph


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


# Words that look like a file or a module of this project but name something else.
NOT_OURS = {"discord.py"}
SCANNED = ("engine", "db", "cogs", "playground", "tests", "bench", "bot.py", "config.py")
MD_FILE = re.compile(r"[\w./-]*\w\.md\b")
PY_FILE = re.compile(r"[\w./-]*\w\.py\b")
DOTTED = re.compile(r"(?<![\w./])(?:engine|db|cogs|playground|tests|config|bot)(?:\.\w+)+")


def test_every_file_and_module_named_in_docstrings_and_comments_exists() -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in _project_files(SCANNED)
        for line, text in _docstrings_and_comments(path)
        for name in _named(text)
        if not _exists(name, path)
    ]
    assert missing == []


def test_the_name_check_finds_a_missing_name() -> None:
    here = ROOT / "cogs" / "uno" / "render" / "__init__.py"
    assert _named("see docs/rules.md, RULES.md, `cogs.uno.views` and ids.py") == [
        "docs/rules.md",
        "RULES.md",
        "ids.py",
        "cogs.uno.views",
    ]
    assert [name for name in ("docs/rules.md", "README.md", "words.py") if _exists(name, here)]
    assert not _exists("RULES.md", here)
    assert not _exists("cogs.uno.views", here)
    assert _exists("engine.match.Match", here)
    assert not _exists("engine.match.Nothing", here)
    assert _docstrings_and_comments(ROOT / "tests" / "test_architecture.py")


def _project_files(tops: tuple[str, ...]) -> list[Path]:
    return [
        path
        for top in tops
        for path in ([ROOT / top] if top.endswith(".py") else sorted((ROOT / top).rglob("*.py")))
    ]


def _docstrings_and_comments(path: Path) -> list[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    found = [
        (node.body[0].lineno, doc)
        for node in ast.walk(ast.parse(source, filename=str(path)))
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and (doc := ast.get_docstring(node, clean=False))
    ]
    # Python's tokenizer is slow: only a file with a name after a `#` needs it.
    if any(_named(line.partition("#")[2]) for line in source.splitlines()):
        found += [
            (token.start[0], token.string)
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT
        ]
    return found


def _named(text: str) -> list[str]:
    files = MD_FILE.findall(text) + PY_FILE.findall(text)
    modules = [name for name in DOTTED.findall(text) if not name.endswith((".py", ".md"))]
    return [name for name in files + modules if name not in NOT_OURS]


def _exists(name: str, where: Path) -> bool:
    if name.endswith((".py", ".md")):
        # A path from the root or from the file's folder; a bare file name anywhere.
        return (
            (ROOT / name).is_file()
            or (where.parent / name).is_file()
            or ("/" not in name and any(_repository_files(name)))
        )
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        module = _module_path(parts[:end])
        if module is not None:
            rest = parts[end:]
            return not rest or rest[0] in _top_level_names(module)
    return False


@functools.cache
def _repository_files(basename: str) -> list[Path]:
    return [
        path
        for path in ROOT.rglob(basename)
        if not {".venv", ".git", "data"} & set(path.relative_to(ROOT).parts)
    ]


def _module_path(parts: list[str]) -> Path | None:
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def _top_level_names(path: Path) -> set[str]:
    """What `module.name` can reach: the module's own names and its submodules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    if path.name == "__init__.py":
        names |= {p.stem for p in path.parent.glob("*.py")}
        names |= {p.name for p in path.parent.iterdir() if (p / "__init__.py").is_file()}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


LINK = re.compile(r"\]\(([^)#\s]+)")
PROJECT_PATH = re.compile(
    r"(?<![\w/.-])(?:engine|db|cogs|playground|tests|bench|docs)/[\w./-]*\w\.(?:py|md|png|sql)\b"
)


def test_every_link_and_file_the_docs_name_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    pages += [ROOT / "db" / "README.md", ROOT / "playground" / "README.md"]
    missing = [
        f"{page.relative_to(ROOT)}: {name}"
        for page in pages
        for name in _named_in_markdown(page.read_text(encoding="utf-8"))
        if not ((page.parent / name).exists() or (ROOT / name).exists())
    ]
    assert missing == []


def test_the_docs_check_sees_links_and_files() -> None:
    text = "[the rules](docs/rules.md#d1), [x](https://a.b), RULES.md and cogs/uno/views.py"
    assert _named_in_markdown(text) == [
        "docs/rules.md",  # the link
        "docs/rules.md",  # a Markdown file's name
        "RULES.md",
        "docs/rules.md",  # a path in the project
        "cogs/uno/views.py",
    ]
    assert not (ROOT / "RULES.md").exists()


def _named_in_markdown(text: str) -> list[str]:
    links = [target for target in LINK.findall(text) if "://" not in target]
    return links + MD_FILE.findall(text) + PROJECT_PATH.findall(text)


TRANSPORT = "cogs/uno/transport/"
# discord.py's HTTP layer and its private modules: only the transport talks to them.
HTTP_MODULES = ("discord.http", "discord.webhook.async_", "discord.state", "discord.gateway")
PRIVATE_NAME = re.compile(
    r"\.(_session|_connection|_ready_task|_response_type|_original_response|_cs_response)\b"
)


def _imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_only_the_transport_imports_discord_http() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name for name in _imports_of(path) if name.startswith(HTTP_MODULES)
        )
        for path in _project_files(("cogs", "bot.py"))
        if not str(path.relative_to(ROOT)).startswith(TRANSPORT)
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_discord_py_private_names_are_used_in_one_module() -> None:
    users = sorted(
        str(path.relative_to(ROOT))
        for path in _project_files(("cogs", "bot.py"))
        if PRIVATE_NAME.search(path.read_text(encoding="utf-8"))
    )
    assert users == ["cogs/uno/transport/internals.py"]


def test_the_transport_checks_see_what_they_look_for() -> None:
    raw = _imports_of(ROOT / TRANSPORT / "raw_http.py")
    assert any(name.startswith(HTTP_MODULES) for name in raw)
    assert PRIVATE_NAME.search("interaction._session")


# Each part of a running table that is a record of its own has one module that writes
# it: LiveTable's field holding the record, the record's class, and its writer.
RECORDS = {
    "panels": ("cogs.uno.table.open_panels", "OpenPanels", "cogs/uno/table/panels.py"),
    "dumps": ("cogs.uno.table.dump_orders", "DumpOrders", "cogs/uno/table/clicks.py"),
    "shown": ("cogs.uno.table.shown", "ShownMessage", "cogs/uno/table/message.py"),
}
# The methods that change a list, dict or set in place.
MUTATORS = {
    "add", "append", "clear", "discard", "extend", "insert", "pop", "popitem", "remove",
    "setdefault", "sort", "update",
}  # fmt: skip


def record_writes(source: str, record: str, fields: Container[str]) -> list[int]:
    """The lines where `source` assigns, augments or deletes `<x>.<record>.<field>`
    (or an item of it), or calls a mutating method on it. What is reached through a
    local name (`panel = table.panels.by_player[p]`) is not followed."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            if any(_reaches(target, record, fields) for target in targets):
                lines.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and _reaches(node.func.value, record, fields)
        ):
            lines.append(node.lineno)
    return sorted(lines)


def _reaches(target: ast.AST, record: str, fields: Container[str]) -> bool:
    """Whether the target is `<x>.<record>.<field>`, an item or attribute of it, or a
    tuple holding one."""
    if isinstance(target, ast.Tuple | ast.List):
        return any(_reaches(item, record, fields) for item in target.elts)
    while isinstance(target, ast.Subscript | ast.Attribute | ast.Starred):
        if (
            isinstance(target, ast.Attribute)
            and target.attr in fields
            and isinstance(target.value, ast.Attribute)
            and target.value.attr == record
        ):
            return True
        target = target.value
    return False


@pytest.mark.parametrize("record", sorted(RECORDS))
def test_each_table_record_has_one_writer(record: str) -> None:
    module, name, owner = RECORDS[record]
    fields = {f.name for f in dataclasses.fields(getattr(importlib.import_module(module), name))}
    writers = {
        str(path.relative_to(ROOT)): found
        for path in _project_files(("cogs", "bot.py"))
        if (found := record_writes(path.read_text(encoding="utf-8"), record, fields))
    }
    assert set(writers) == {owner}, writers


def test_the_writer_check_sees_writes() -> None:
    fields = {"by_player", "behind"}
    source = """
t.panels.behind = True
t.panels.by_player[p] = x
t.panels.by_player.pop(p)
a, t.panels.behind = 1, False
del t.panels.by_player[p]
t.panels.by_player[p].token = "x"
t.panels.by_player.get(p)
t.panels.behind == True
self.panels.tell(t)
x = t.panels.behind
"""
    assert record_writes(source, "panels", fields) == [2, 3, 4, 5, 6, 7]


def feature_package(module: str) -> str:
    """What a module of cogs/uno belongs to: its subpackage (`cogs.uno.table`), or for
    a module of cogs/uno itself, that module (ids, config, parts, the cog: each its own
    layer)."""
    parts = module.split(".")
    return ".".join(parts[:3])


def package_pairs(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Each pair of cogs/uno's packages that import each other, with one arrow each way."""
    arrows = {
        (feature_package(module), feature_package(target))
        for module, targets in graph.items()
        if module.startswith("cogs.uno.")
        for target in targets
        if target.startswith("cogs.uno.")
    }
    return sorted((a, b) for a, b in arrows if a < b and (b, a) in arrows)


def test_no_two_packages_of_the_cog_import_each_other() -> None:
    # Imports inside functions and under TYPE_CHECKING count: the packages form layers
    # (render above i18n, table above transport, lobby above table, history above
    # table), and parts.py hands a lower one what it needs of a higher one.
    assert package_pairs(project_module_graph()) == []


def test_the_package_check_finds_a_pair() -> None:
    graph = {
        "cogs.uno.table.clicks": {"cogs.uno.transport.ack", "cogs.uno.ids"},
        "cogs.uno.transport.ack": {"cogs.uno.clock"},
        "cogs.uno.ids": set(),
    }
    assert package_pairs(graph) == []
    graph["cogs.uno.transport.ack"].add("cogs.uno.table.timers")
    assert package_pairs(graph) == [("cogs.uno.table", "cogs.uno.transport")]
    assert feature_package("cogs.uno.ids") == "cogs.uno.ids"
