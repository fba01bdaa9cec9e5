"""Fixtures for the real bot (`python bot.py`) against the emulator.

Starting a bot process costs about 1.3 s of CPU, so bots are shared: `uno_bot` is one
bot process (and its emulator and database) for every module of this folder that a
worker runs in a row with the same `shared_bot_settings`, kept until the worker leaves
the folder (the fixtures live in one event loop per package, `SharedBots`). Each test
still gets a server of its own (`scene`: a fresh guild, channel and members, which the
emulator announces to a connected bot like Discord does) and a fresh emulator log, so
what a test asserts about failed interactions, 429s and violations is about its own
clicks only. A test that needs a bot of its own (other settings, a restart, a kill -9)
asks `bots` for it, on a database of its own and in a module with an emulator of its
own; a module does not mix the two, since two bots on one emulator would both answer
every click.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from playground import Emulator, Log, Permission
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene

BotFactory = Callable[..., BotProcess]
HERE = Path(__file__).resolve().parent
_SHARED: dict[int, BotProcess] = {}  # id(emulator) -> the module's running shared bot


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run this folder's tests in one event loop per package, the loop the emulators and
    the shared bots' connections live in (a loop that stops would stall them)."""
    in_package_loop = pytest.mark.asyncio(loop_scope="package")
    for item in items:
        if HERE in Path(str(item.fspath)).parents and pytest_asyncio.is_async_test(item):
            item.add_marker(in_package_loop, append=False)


def _shares_a_bot(request: pytest.FixtureRequest) -> bool:
    """Whether the requesting module's tests use the shared bot (`uno_bot`, `shared_bot`)."""
    return any(
        "shared_bot" in item.fixturenames
        for item in request.session.items
        if isinstance(item, pytest.Function) and item.module is request.module
    )


class SharedBots:
    """One emulator and one running bot per settings, for the modules that share a bot."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.running: dict[str, BotProcess] = {}
        self.stack = AsyncExitStack()

    async def get(self, settings: dict[str, Any]) -> BotProcess:
        key = json.dumps(settings, sort_keys=True)
        if key not in self.running:
            emulator = await self.stack.enter_async_context(Emulator())
            database = self.folder / f"shared-{len(self.running)}.db"
            bot = BotProcess(emulator, database=database, guild_id=None, **settings)
            await bot.start()
            self.running[key] = bot
        return self.running[key]

    async def close(self) -> list[str]:
        """Stop every bot (Ctrl-C) and the emulators; return what went wrong."""
        wrong = []
        for bot in self.running.values():
            code = await bot.stop()
            output = bot.output()
            if code != 0 or "Traceback" in output:
                wrong.append(f"exit status {code}: {output[-4000:]}")
        await self.stack.aclose()
        return wrong


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def shared_bots(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[SharedBots]:
    pool = SharedBots(tmp_path_factory.mktemp("shared-bots"))
    yield pool
    wrong = await pool.close()
    assert wrong == [], wrong[0]


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def emu(
    request: pytest.FixtureRequest, shared_bot_settings: dict[str, Any]
) -> AsyncIterator[Emulator]:
    """The shared bot's emulator, or (a module whose tests run bots of their own) a new one."""
    if _shares_a_bot(request):
        pool: SharedBots = request.getfixturevalue("shared_bots")
        yield (await pool.get(shared_bot_settings)).emulator
        return
    async with Emulator() as emulator:
        yield emulator


@pytest.fixture
def scene(emu: Emulator) -> Scene:
    """A server of the test's own, and a log that holds only what this test caused."""
    emu.world.log = Log()
    return new_scene(emu)


def new_scene(emu: Emulator) -> Scene:
    """A fresh server "Uno Club" with #uno, alice, bob and mod (Manage Messages)."""
    guild = emu.add_guild("Uno Club")
    channel = emu.add_text_channel(guild, "uno")
    alice = emu.add_user("alice", guild=guild)
    bob = emu.add_user("bob", guild=guild)
    mod = emu.add_user("mod")
    emu.add_member(guild, mod, permissions=Permission.MANAGE_MESSAGES)
    return Scene(guild, channel, alice, bob, mod)


@pytest.fixture(scope="module")
def shared_database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The shared bot's database, or a module's own (for a bot the module starts itself)."""
    if _shares_a_bot(request):
        bot: BotProcess = request.getfixturevalue("shared_bot")
        return bot.database
    return tmp_path_factory.mktemp("module-bot") / "uno.db"


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The database of the bot this test talks to: the module's, or one of its own."""
    if "uno_bot" in request.fixturenames:
        path: Path = request.getfixturevalue("shared_database")
        return path
    return tmp_path / "uno.db"


@pytest_asyncio.fixture(loop_scope="package")
async def bots(emu: Emulator, scene: Scene, database: Path) -> AsyncIterator[BotFactory]:
    """Make bot processes on the test's database; every one is stopped at the end."""
    made: list[BotProcess] = []

    def make(**settings: Any) -> BotProcess:
        assert id(emu) not in _SHARED, (
            "this module already runs the shared uno_bot, which would answer this bot's "
            "clicks too: put tests with a bot of their own in a module without uno_bot"
        )
        bot = BotProcess(emu, database=database, guild_id=scene.guild.id, **settings)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        if bot.process is not None and bot.process.returncode is None:
            # Stopped at whatever moment the test ended: still a clean shutdown.
            assert await bot.stop() == 0, bot.output()[-4000:]
    for bot in made:
        assert "Traceback" not in bot.output(), bot.output()[-4000:]


@pytest.fixture(scope="module")
def shared_bot_settings() -> dict[str, Any]:
    """BotProcess settings of the module's shared bot; a module overrides this fixture."""
    return {}


@pytest_asyncio.fixture(scope="module", loop_scope="package")
async def shared_bot(
    emu: Emulator, shared_bots: SharedBots, shared_bot_settings: dict[str, Any]
) -> AsyncIterator[BotProcess]:
    """The running `python bot.py` for these settings, with global commands (every test's
    guild); stopped, and its exit checked, when the worker leaves this folder."""
    bot = await shared_bots.get(shared_bot_settings)
    assert bot.emulator is emu
    start = len(bot.output())
    _SHARED[id(emu)] = bot
    yield bot
    del _SHARED[id(emu)]
    assert bot.process is not None
    assert bot.process.returncode is None, "the shared bot exited"
    logged = bot.output()[start:]
    assert "Traceback" not in logged, logged[-4000:]


# A rule id ("(D3)", "D14:", "X3") or an internal code a player would read. Rule ids
# stay in code, docs and logs; players read words.
RULE_ID = re.compile(r"\b[DPCHX]\d{1,2}\b|Traceback|\bNone\b")


def player_texts(payload: dict[str, Any]) -> Iterator[str]:
    """Every string of a message body that a player reads (not custom_ids or values)."""
    yield payload.get("content") or ""
    for embed in payload.get("embeds") or []:
        yield embed.get("title") or ""
        yield embed.get("description") or ""
        yield (embed.get("footer") or {}).get("text") or ""
        yield (embed.get("author") or {}).get("name") or ""
        for field in embed.get("fields") or []:
            yield field.get("name") or ""
            yield field.get("value") or ""
    for row in payload.get("components") or []:
        for item in row.get("components") or []:
            yield item.get("label") or ""
            yield item.get("placeholder") or ""
            for option in item.get("options") or []:
                yield option.get("label") or ""
                yield option.get("description") or ""


@pytest.fixture(autouse=True)
def plain_words(emu: Emulator) -> Iterator[list[str]]:
    """Every message and edit the bot sent in a test is scanned for rule ids and codes."""
    seen: list[str] = []

    def read(payload: dict[str, Any]) -> None:
        seen.extend(t for t in player_texts(payload) if RULE_ID.search(t))

    emu.world.readers.append(read)
    yield seen
    emu.world.readers.remove(read)
    assert seen == [], f"a player read a rule id or code: {seen[:5]}"


@pytest_asyncio.fixture(loop_scope="package")
async def uno_bot(shared_bot: BotProcess, scene: Scene) -> AsyncIterator[BotProcess]:
    """The module's bot; what it logs while this test runs holds no traceback."""
    start = len(shared_bot.output())
    yield shared_bot
    assert shared_bot.process is not None
    assert shared_bot.process.returncode is None, "the shared bot exited during the test"
    logged = shared_bot.output()[start:]
    assert "Traceback" not in logged, logged[-4000:]
