"""`python bot.py` fails clearly on bad configuration and never logs the token."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path

import pytest
from aiohttp import web

import bot
from config import Settings
from db.shards import Shards

ROOT = Path(__file__).resolve().parents[2]
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.fake-token.DO-NOT-LOG-ME"


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(extra)
    return env


async def run_bot_beside(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`run_bot` without blocking the event loop, where a local stub API must keep serving."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode is not None
    return subprocess.CompletedProcess(
        [sys.executable, "bot.py"], process.returncode, stdout.decode(), stderr.decode()
    )


def run_bot(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # cwd is an empty folder so no developer .env is read.
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_token_exits_2_with_one_sentence(tmp_path: Path) -> None:
    result = run_bot(tmp_path, clean_env())
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN" in lines[0]
    assert ".env" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


def test_invalid_setting_exits_2_without_traceback(tmp_path: Path) -> None:
    result = run_bot(tmp_path, clean_env(DISCORD_TOKEN="x", TURN_SECONDS="many"))
    assert result.returncode == 2
    assert "TURN_SECONDS" in result.stderr
    assert "Traceback" not in result.stderr


def test_part_of_the_shards_on_a_sqlite_file_exits_2_with_one_sentence(tmp_path: Path) -> None:
    env = clean_env(DISCORD_TOKEN="x", SHARD_COUNT="4", SHARD_IDS="0-1")
    env.pop("DATABASE_URL", None)
    result = run_bot(tmp_path, env)
    assert result.returncode == 2
    [sentence] = result.stderr.strip().splitlines()
    assert sentence.startswith("SHARD_IDS runs only some of the 4 shards")
    assert "DATABASE_URL" in sentence
    assert "postgresql://" in sentence
    assert ". " not in sentence
    assert sentence.endswith(".")
    assert "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "data").exists()  # refused before any file is made


def test_only_part_of_the_shards_on_sqlite_is_a_problem() -> None:
    def problem(**fields: object) -> str | None:
        return bot.shard_problem(Settings(_env_file=None, **fields))  # type: ignore[arg-type]

    assert problem() is None  # one process: Discord's count, all of it
    assert problem(shard_count=4) is None
    assert problem(shard_count=4, shard_ids="0-3") is None
    assert problem(shard_count=4, shard_ids="0-1") is not None
    assert problem(shard_count=4, shard_ids="0-1", database_url="sqlite:///data/uno.db")
    assert problem(shard_count=4, shard_ids="0-1", database_url="postgresql://uno@db/uno") is None


def test_the_bot_runs_the_shards_it_is_given() -> None:
    def shards(**fields: object) -> object:
        return bot.shards_of(Settings(_env_file=None, **fields))  # type: ignore[arg-type]

    assert shards() is None  # discord.py asks Discord how many
    assert shards(shard_count=4) == Shards.of(4)
    assert shards(shard_count=4, shard_ids="1,3") == Shards.of(4, {1, 3})


@contextlib.asynccontextmanager
async def serve_api(routes: Mapping[str, Handler]) -> AsyncIterator[str]:
    """Serve GET `routes` under a local Discord-like API base; yield that base URL."""
    app = web.Application()
    for path, handler in routes.items():
        app.router.add_get(f"/api/v10{path}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


@pytest.fixture
async def refusing_discord() -> AsyncIterator[str]:
    """A local HTTP server that answers the login call like Discord does a bad token."""

    async def users_me(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    async with serve_api({"/users/@me": users_me}) as base:
        yield base


async def test_refused_token_exits_2_and_never_logs_it(
    tmp_path: Path, refusing_discord: str
) -> None:
    env = clean_env(
        DISCORD_TOKEN=FAKE_TOKEN,
        DISCORD_API_BASE=refusing_discord,
        LOG_LEVEL="DEBUG",
        DATABASE_PATH=str(tmp_path / "uno.db"),
    )
    result = await run_bot_beside(tmp_path, env)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "Discord refused DISCORD_TOKEN" in output
    assert FAKE_TOKEN not in output
    assert "Traceback" not in output


def discord_json(data: Mapping[str, object]) -> web.Response:
    # discord.py parses a body as JSON only under exactly this content type (no charset).
    return web.Response(
        body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


@pytest.fixture
async def welcoming_discord() -> AsyncIterator[str]:
    """A local HTTP server that accepts the token and names a gateway (never reached)."""
    user = {"id": "1", "username": "uno", "discriminator": "0", "avatar": None, "bot": True}

    async def users_me(request: web.Request) -> web.Response:
        return discord_json(user)

    async def application(request: web.Request) -> web.Response:
        return discord_json(
            {"id": "1", "name": "uno", "icon": None, "description": "", "bot_public": True,
             "bot_require_code_grant": False, "owner": user, "verify_key": "0" * 64, "flags": 0}
        )  # fmt: skip

    async def gateway(request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return discord_json({"url": "ws://127.0.0.1:9", "shards": 1, "session_start_limit": limit})

    routes = {
        "/users/@me": users_me,
        "/oauth2/applications/@me": application,
        "/gateway/bot": gateway,
    }
    async with serve_api(routes) as base:
        yield base


async def test_a_file_that_is_not_a_database_exits_2_and_says_so_without_traceback(
    tmp_path: Path, welcoming_discord: str
) -> None:
    not_a_database = tmp_path / "uno.db"
    not_a_database.write_text("these are my notes, not a database\n" * 200)
    env = clean_env(
        DISCORD_TOKEN=FAKE_TOKEN,
        DISCORD_API_BASE=welcoming_discord,
        DATABASE_PATH=str(not_a_database),
    )
    result = await run_bot_beside(tmp_path, env)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "The database at DATABASE_PATH cannot be used" in output
    assert "file is not a database" in output
    assert "Traceback" not in output


async def test_an_unreachable_database_url_is_named_as_database_url(
    tmp_path: Path, welcoming_discord: str
) -> None:
    # No server listens on a socket in this empty folder.
    url = f"postgresql://uno@/uno?host={tmp_path}&port=5432"
    env = clean_env(
        DISCORD_TOKEN=FAKE_TOKEN,
        DISCORD_API_BASE=welcoming_discord,
        DATABASE_URL=url,
        DATABASE_PATH=str(tmp_path / "unused.db"),
    )
    result = await run_bot_beside(tmp_path, env)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "The database at DATABASE_URL cannot be used: Database.open failed" in output
    assert "DATABASE_PATH" not in output
    assert "Traceback" not in output


def test_failures_name_the_database_setting_in_use() -> None:
    sqlite = Settings(_env_file=None, discord_token=FAKE_TOKEN)
    postgres = Settings(
        _env_file=None,
        discord_token=FAKE_TOKEN,
        database_url="postgresql://uno@db/uno",
    )
    assert bot.database_setting(sqlite) == "DATABASE_PATH"
    assert bot.database_setting(postgres) == "DATABASE_URL"


async def database_with_a_running_table(path: Path) -> None:
    from db.database import Database
    from db.models import Seat

    async with Database.open(path) as database:
        await database.tables.start_match(
            guild_id=1,
            channel_id=2,
            variant="duo",
            options={"target": 200},
            seed=1,
            players=[Seat(user_id=3, display_name="a"), Seat(user_id=4, display_name="b")],
            state="{}",
        )


def corrupt_the_running_tables(path: Path) -> None:
    """Break the b-tree page of the matches table: the file opens, reading it fails."""
    with sqlite3.connect(path) as conn:
        (root,) = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'matches'"
        ).fetchone()
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page_size] = 0  # an invalid page type
    path.write_bytes(bytes(data))


def delete_the_snapshots(path: Path) -> None:
    """Edit the file by hand: a running match without the snapshot it is restored from."""
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM snapshots")
    conn.close()


@pytest.mark.parametrize(
    ("spoil", "cause"),
    [
        (
            corrupt_the_running_tables,
            "TableRepo.running_tables failed: database disk image is malformed",
        ),
        (delete_the_snapshots, "running match 1 has no snapshot"),
    ],
    ids=["corrupt-page", "snapshot-deleted-by-hand"],
)
async def test_a_database_failing_while_tables_are_restored_exits_2_without_traceback(
    tmp_path: Path, welcoming_discord: str, spoil: Callable[[Path], None], cause: str
) -> None:
    path = tmp_path / "uno.db"
    await database_with_a_running_table(path)
    spoil(path)
    env = clean_env(
        DISCORD_TOKEN=FAKE_TOKEN, DISCORD_API_BASE=welcoming_discord, DATABASE_PATH=str(path)
    )
    result = await run_bot_beside(tmp_path, env)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert "Traceback" not in output
    [sentence] = [line for line in result.stderr.splitlines() if "DATABASE_PATH" in line]
    assert sentence.startswith("The database at DATABASE_PATH cannot be used while restoring")
    assert cause in sentence


def test_log_lines_carrying_the_token_are_redacted(capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(_env_file=None, discord_token=FAKE_TOKEN)
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        bot.setup_logging(settings)
        logger = logging.getLogger("uno.test")
        logger.warning("connecting with %s", FAKE_TOKEN)
        try:
            raise RuntimeError(f"bad header Bot {FAKE_TOKEN}")
        except RuntimeError:
            logger.exception("request failed")
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
    err = capsys.readouterr().err
    assert "connecting with [redacted token]" in err
    assert "request failed" in err
    assert FAKE_TOKEN not in err


async def test_the_http_pool_is_bounded() -> None:
    # discord.py's own pool is unbounded: a burst of replies would leave hundreds of idle
    # connections open, each with its buffers.
    client = bot.UnoBot(Settings(_env_file=None, discord_token=FAKE_TOKEN))
    try:
        assert client.http.connector.limit == bot.HTTP_CONNECTIONS
    finally:
        await client.http.connector.close()
