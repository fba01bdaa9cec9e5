"""Entry point: settings, logging, database, bot, cogs; run.

`python bot.py` (or `make run`) starts the bot with the settings of
config.py. Exit status: 0 after a clean shutdown, 1 when Discord cannot be
reached or another process runs this one's shards, 2 when the configuration is
wrong (no token, a refused token, part of the shards on a SQLite file, a
database that cannot be opened or read).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Iterator
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands
from pydantic import ValidationError

from cogs.uno.art import CardEmojis, cached_images, every_card_image
from cogs.uno.cog import install
from cogs.uno.config import UnoSettings
from cogs.uno.i18n.translator import CommandTranslator
from cogs.uno.render import faces
from cogs.uno.transport import answers, budget, internals
from config import Settings
from db.database import Database
from db.errors import DatabaseError, ShardsTaken
from db.postgres_store import is_postgres_url
from db.shards import Shards

log = logging.getLogger("uno")


class SecretRedactor(logging.Filter):
    """Replace the token wherever it would appear in a log line."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secret:
            return True
        message = record.getMessage()
        if self._secret in message:
            record.msg = message.replace(self._secret, "[redacted token]")
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if self._secret in text:
                record.exc_text = text.replace(self._secret, "[redacted token]")
                record.exc_info = None
        return True


def setup_logging(settings: Settings) -> None:
    """Use discord.py's own handler and format, with the token redacted."""
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    token = settings.discord_token.get_secret_value() if settings.discord_token else ""
    for handler in logging.getLogger().handlers:
        handler.addFilter(SecretRedactor(token))


HTTP_CONNECTIONS = 32


class TablesNotRestored(Exception):
    """The database failed while the running tables were being restored."""

    def __init__(self, original: DatabaseError) -> None:
        super().__init__(str(original))
        self.original = original


def shards_of(settings: Settings) -> Shards | None:
    """The shards this process runs, when SHARD_COUNT names them; None: Discord decides."""
    if settings.shard_count is None:
        return None
    return Shards.of(settings.shard_count, settings.shard_ids)


def shard_problem(settings: Settings) -> str | None:
    """Why these settings cannot run, in one sentence: several processes share one
    database, and only PostgreSQL takes writers from several processes."""
    database_url = settings.database_url.get_secret_value() if settings.database_url else ""
    if not settings.runs_part_of_the_shards or is_postgres_url(database_url):
        return None
    return (
        f"SHARD_IDS runs only some of the {settings.shard_count} shards, so other processes "
        "run the rest, and processes can share only a PostgreSQL database: set DATABASE_URL "
        "to a postgresql:// URL (a SQLite file serves one process running every shard)."
    )


def database_setting(settings: Settings) -> str:
    """The setting naming the database this process uses, as its failures should say."""
    return "DATABASE_URL" if settings.database_url else "DATABASE_PATH"


class UnoBot(commands.AutoShardedBot):
    """The bot: app commands only, no privileged intents; the shards SHARD_COUNT and
    SHARD_IDS name, or as many as Discord recommends, in this process."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        # The bot has no voice features: don't warn about missing voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads for the tables
        intents.guild_messages = True  # to notice a table buried by chat; not message content
        self.shards_run = shards_of(settings)
        if self.shards_run is not None:
            kwargs.update(shard_count=self.shards_run.count, shard_ids=sorted(self.shards_run.ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            max_messages=None,  # the bot never reads old messages: keep no message cache
            # discord.py's default pool is unbounded: a burst of replies would keep hundreds
            # of idle connections (and their buffers) open. A few dozen serve any load one
            # process can produce.
            connector=aiohttp.TCPConnector(limit=HTTP_CONNECTIONS),
            http_trace=budget.watch_requests(),
            **kwargs,
        )
        # Every bot-token request waits for its slot in the process's share of the
        # application's budget (with the fast paths on or off).
        budget.configure(
            budget.share_of(
                settings.request_budget,
                None if settings.shard_ids is None else len(settings.shard_ids),
                settings.shard_count,
            )
        )
        # The bot never reads an edited message; the guild_messages intent it needs for
        # new ones also brings an edit event for each table edit it makes itself, which
        # discord.py would parse into a whole Message (embed, components): skipped, with
        # the embed of a clicked table control's message, when the fast paths are on.
        if settings.fast_paths:
            internals.filter_gateway(self)
        answers.use_fast_paths(settings.fast_paths)
        if not settings.fast_paths:
            log.info("Fast paths off: discord.py's own parsers and HTTP adapter only")
        self.settings = settings
        self.db: Database | None = None
        art_cache = settings.art_cache_dir or settings.database_path.parent / "art-cache"
        self.card_emojis = CardEmojis(lambda: cached_images(art_cache, every_card_image))
        self._emoji_sync: asyncio.Task[object] | None = None
        self.stop_requested = False
        self.closing = False

    async def setup_hook(self) -> None:
        if self.settings.discord_api_base:
            # Another API (a proxy, the test emulator) names its own gateway.
            _, url, _ = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        database_url = self.settings.database_url
        self.db = await Database.open(
            database_url.get_secret_value() if database_url else self.settings.database_path,
            whole_on_thread=self.settings.db_whole_on_thread,
            shards=self.shards_run,
        )
        log.info("Database open at %s", self.db.store.name)
        # Before any table is restored: no other process may be running these shards.
        await self.db.claim_shards()
        # The modules and settings loaded so far live as long as the process. Freezing
        # them keeps the collector from re-scanning them, so full collections run often
        # enough to free each click's reference cycles before they pile up in memory.
        gc.freeze()
        uno = UnoSettings(
            turn_seconds=self.settings.turn_seconds,
            table_seed=self.settings.table_seed,
            computer_delay=self.settings.computer_delay_ms / 1000,
            replay_days=self.settings.replay_days,
        )
        try:
            await install(self, self.db, uno)
        except DatabaseError as error:
            raise TablesNotRestored(error) from error
        # The commands' names and descriptions in each member's language (Croatian, English).
        await self.tree.set_translator(CommandTranslator())
        await self.sync_commands()
        # Cards show as words until their emojis are uploaded (about 2 s of drawing the
        # first time, a single GET after): the tables open meanwhile.
        faces.use(self.card_emojis)
        self._emoji_sync = asyncio.create_task(self.card_emojis.sync(self))

    async def sync_commands(self) -> None:
        """Sync to the development server instantly, or globally."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to development server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands", len(synced))

    def stop_soon(self, starting: asyncio.Task[Any]) -> None:
        """SIGINT or SIGTERM: cancel `starting` (the task running `start`), so no event
        is read any more, and `run` closes the bot (tables, timers, database).

        Only the first signal counts: Ctrl-C in a terminal reaches every process of the
        group, so a launcher that forwards it (the playground's) makes a second one, and
        a cancel then would cut the close short and leave the database open.
        """
        if self.stop_requested or self.closing:
            return
        self.stop_requested = True
        starting.cancel()

    async def close(self) -> None:
        self.closing = True
        if self.settings.fast_paths:
            internals.cancel_ready_tasks(self)
        if self._emoji_sync is not None and not self._emoji_sync.done():
            self._emoji_sync.cancel()
        await super().close()  # unloads the cogs first, which stop their timers
        if self.db is not None:
            await self.db.close()
            self.db = None
        log.info("%s", budget.summary())

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info(
            "Ready as %s (id %s) in %d servers, shards %s of %s",
            self.user,
            self.user.id,
            len(self.guilds),
            ",".join(str(shard) for shard in sorted(self.shards)),
            self.shard_count,
        )


async def run(settings: Settings) -> int:
    """Start the bot and run until it is closed; return the exit status."""
    assert settings.discord_token is not None
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
        # Emoji images (the table's top card) come from that Discord's own CDN.
        discord.asset.Asset.BASE = str(yarl.URL(settings.discord_api_base).origin())
    bot = UnoBot(settings)
    # The handlers stay until the bot is closed: a signal during the close is ignored, not
    # Python's KeyboardInterrupt halfway through it.
    with stop_signals(bot):
        async with bot:
            return await serve_until_stopped(bot, settings.discord_token.get_secret_value())


async def serve_until_stopped(bot: UnoBot, token: str) -> int:
    """Serve; return the exit status, with a sentence for a failure that is not a bug."""
    try:
        await serve(bot, token)
    except discord.LoginFailure:
        fail(
            "Discord refused DISCORD_TOKEN: copy a fresh token from the Bot page of "
            "your application in the Discord developer portal into .env."
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        fail("Discord refused the gateway intents; this bot needs no privileged intent.")
        return 2
    except ShardsTaken as error:
        # Exit status 1, not 2: a process whose machine stopped may hold them a few
        # seconds more, and a service manager starting this one again then succeeds.
        fail(f"This bot process cannot start: {error}.")
        return 1
    except DatabaseError as error:
        fail(f"The database at {database_setting(bot.settings)} cannot be used: {error}.")
        return 2
    except TablesNotRestored as error:
        # The UNO cog restores the running tables as it loads: a database that
        # opened but cannot be read is still the database's fault, not a bug to
        # show as a traceback.
        fail(
            f"The database at {database_setting(bot.settings)} cannot be used while "
            f"restoring the running tables: {error.original}."
        )
        return 2
    except OSError as error:
        fail(f"Could not reach Discord ({error.__class__.__name__}): check the network.")
        return 1
    return 0


@contextlib.contextmanager
def stop_signals(bot: UnoBot) -> Iterator[None]:
    """While inside, SIGINT (Ctrl-C) and SIGTERM stop the current task's `serve`."""
    starting = asyncio.current_task()
    assert starting is not None
    loop = asyncio.get_running_loop()
    for stop in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(stop, bot.stop_soon, starting)
    try:
        yield
    finally:
        for stop in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(stop)


async def serve(bot: UnoBot, token: str) -> None:
    """Run the bot until it is closed, or until `stop_signals` stops it."""
    try:
        await bot.start(token)
    except asyncio.CancelledError:
        if not bot.stop_requested:
            raise
        task = asyncio.current_task()
        assert task is not None
        task.uncancel()  # our own stop, not the caller's: `run` closes the bot


def fail(sentence: str) -> None:
    print(sentence, file=sys.stderr)


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in error.errors()
        )
        fail(f"The settings in the environment or .env are invalid ({problems}).")
        return 2
    problem = shard_problem(settings)
    if problem is not None:
        fail(problem)
        return 2
    if settings.discord_token is None:
        fail(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env "
            "file in the folder you start it from (copy .env.example)."
        )
        return 2
    setup_logging(settings)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
