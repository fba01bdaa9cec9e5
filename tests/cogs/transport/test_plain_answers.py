"""With FAST_PATHS off a click's answer goes through discord.py's public
`interaction.response`, against a real HTTP server on 127.0.0.1, and touches none of
internals.py's private helpers."""

from __future__ import annotations

import inspect
import itertools
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import discord
import pytest
from aiohttp import web
from discord.http import Route

from cogs.uno.transport import answers, internals, payloads
from cogs.uno.transport.raw_http import close_connections

APPLICATION = 5
USER = {"id": "42", "username": "ana", "discriminator": "0", "avatar": None}
ROWS = [
    {
        "type": payloads.ROW,
        "components": [
            {"type": 2, "style": 1, "label": "Draw", "custom_id": "uno:1:2:d", "disabled": False},
            {"type": 2, "style": 2, "label": "🎬", "custom_id": "uno:1:2:k", "disabled": True},
        ],
    },
    {
        "type": payloads.ROW,
        "components": [
            {
                "type": 3,
                "custom_id": "uno:1:2:sel",
                "placeholder": "Play a card",
                "min_values": 1,
                "max_values": 1,
                "options": [{"label": "Red 5", "value": "p.R5", "emoji": {"name": "🟥"}}],
            }
        ],
    },
]
FORM = {
    "custom_id": "uno:set.form",
    "title": "Turn time and targets",
    "components": [
        {
            "type": payloads.ROW,
            "components": [
                {"type": 4, "custom_id": "turn_seconds", "label": "Turn", "style": 1, "value": "60"}
            ],
        }
    ],
}


def message(message_id: int, *, flags: int = 0) -> dict[str, Any]:
    return {
        "id": str(message_id),
        "channel_id": "9",
        "author": USER,
        "content": "",
        "timestamp": "2026-12-06T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": flags,
        "components": ROWS,
    }


class Discord:
    """Answers what discord.py asks as Discord would; keeps each request."""

    def __init__(self) -> None:
        self.got: list[tuple[str, str, Any]] = []

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json() if request.can_read_body else None
        self.got.append((request.method, request.path, body))
        if request.path.endswith("/users/@me"):
            return _json(USER)
        if request.path.endswith("/callback"):
            interaction = request.path.split("/")[-3]
            answer = {"id": interaction, "type": 3, "response_message_id": "77"}
            return _json({"interaction": answer})
        return _json(message(77, flags=64))


def _json(body: Any) -> web.Response:
    # Discord's exact Content-Type: discord.py decodes a body only with this one.
    headers = {"Content-Type": "application/json"}
    return web.Response(body=json.dumps(body).encode(), headers=headers)


@pytest.fixture
async def discord_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Discord]:
    server = Discord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", server.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10")
    try:
        yield server
    finally:
        await runner.cleanup()


@pytest.fixture
def used() -> Iterator[list[str]]:
    """The names of internals' functions called meanwhile (each still does its work)."""
    called: list[str] = []
    originals = {
        name: function
        for name, function in inspect.getmembers(internals, inspect.isfunction)
        if function.__module__ == internals.__name__
    }
    for name, function in originals.items():
        setattr(internals, name, _counted(name, function, called))
    try:
        yield called
    finally:
        for name, function in originals.items():
            setattr(internals, name, function)
        answers.use_fast_paths(True)


def _counted(name: str, function: Callable[..., Any], called: list[str]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        called.append(name)
        return function(*args, **kwargs)

    return counted


@pytest.fixture
async def client(discord_api: Discord) -> AsyncIterator[discord.Client]:
    bot = discord.Client(intents=discord.Intents.none())
    await bot.http.static_login("bot-token")
    try:
        yield bot
    finally:
        close_connections()
        await bot.close()


_IDS = itertools.count(1001)


def click(client: discord.Client) -> discord.Interaction[Any]:
    """A button click on an ephemeral panel, as the gateway would bring it."""
    data = {
        "id": str(next(_IDS)),
        "application_id": str(APPLICATION),
        "type": 3,
        "token": "click-token",
        "version": 1,
        "data": {"custom_id": "uno:1:2:d", "component_type": 2},
        "channel_id": "9",
        "user": USER,
        "message": message(66, flags=64),
        "attachment_size_limit": 8_000_000,
    }
    return discord.Interaction(data=data, state=client._connection)  # type: ignore[arg-type]


def panel() -> dict[str, Any]:
    return answers.message_data(
        content="Your hand", embed=discord.Embed(title="Table"), components=ROWS
    )


async def test_with_fast_paths_off_a_click_is_answered_through_the_public_api(
    client: discord.Client, discord_api: Discord, used: list[str]
) -> None:
    answers.use_fast_paths(False)
    await answers.send_private(click(client), panel())
    await answers.update(click(client), panel())
    await answers.defer(click(client), new_message=True)
    await answers.defer(click(client), new_message=False)
    await answers.modal(click(client), FORM)
    assert await answers.respond(click(client), panel()) == 77
    acknowledged = click(client)
    await answers.defer(acknowledged, new_message=False)
    await answers.edit_answer(acknowledged, panel())
    assert acknowledged.response.is_done()
    answers.release(acknowledged)
    await answers.update(click(client), {"components": []})  # the buttons off, nothing else
    assert used == []
    sent = [body["type"] for _, _, body in discord_api.got[1:] if "type" in body]
    # private panel, update, thinking, deferred update, form, public message, a deferred click
    assert sent == [4, 7, 5, 6, 9, 4, 6, 7]
    stripped = discord_api.got[-1][2]["data"]
    assert stripped["components"] == []
    assert not {"content", "embeds"} & set(stripped)
    private, updated = discord_api.got[1][2], discord_api.got[2][2]
    assert private["data"]["flags"] & answers.EPHEMERAL
    assert _controls(private["data"]["components"]) == _controls(ROWS)
    assert _controls(updated["data"]["components"]) == _controls(ROWS)
    assert updated["data"]["embeds"][0]["title"] == "Table"
    assert discord_api.got[5][2]["data"]["custom_id"] == FORM["custom_id"]
    method, path, edited = discord_api.got[-2]
    assert (method, path) == ("PATCH", "/api/v10/webhooks/5/click-token/messages/@original")
    assert _controls(edited["components"]) == _controls(ROWS)


async def test_with_fast_paths_on_the_answer_takes_the_private_helpers(
    client: discord.Client, discord_api: Discord, used: list[str]
) -> None:
    # The count above sees the helpers: the fast path calls them.
    answers.use_fast_paths(True)
    done = click(client)
    await answers.update(done, panel())
    answers.release(done)
    assert {"session_of", "mark_answered", "unlink"} <= set(used)
    assert discord_api.got[-1][2]["type"] == 7


def _controls(rows: list[dict[str, Any]]) -> list[list[tuple[Any, ...]]]:
    """What a player sees and clicks of each row: kind, id, label, disabled."""
    return [
        [
            (item["type"], item["custom_id"], item.get("label"), item.get("disabled", False))
            for item in row["components"]
        ]
        for row in rows
    ]
