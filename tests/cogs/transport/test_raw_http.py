"""raw_http.send_json against a real HTTP server on 127.0.0.1: what a click's answer and a
panel edit do with each kind of reply."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from discord.http import Route

from cogs.uno.transport.raw_http import send_json


class Server:
    """Answers each request with the next (status, body) in `replies`; keeps what it got."""

    def __init__(self, replies: list[tuple[int, Any]]) -> None:
        self.replies = replies
        self.got: list[tuple[str, str, Any]] = []

    async def handle(self, request: web.Request) -> web.Response:
        self.got.append((request.method, request.path, await request.json()))
        status, body = self.replies.pop(0)
        if body is None:
            return web.Response(status=status)
        # Discord's exact Content-Type: discord.py decodes a body only with this one.
        headers = {"Content-Type": "application/json"}
        return web.Response(body=json.dumps(body).encode(), status=status, headers=headers)


@pytest.fixture
async def base(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Server, str]]:
    server = Server([])
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", server.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    try:
        yield server, Route.BASE
    finally:
        await runner.cleanup()


async def send(server: Server, replies: list[tuple[int, Any]]) -> list[str]:
    """send_json once; returns what its fallback (`again`) was asked to do."""
    server.replies = replies
    asked: list[str] = []

    async def again() -> None:
        asked.append("again")

    http = discord.http.HTTPClient(asyncio.get_running_loop())
    async with aiohttp.ClientSession() as session:
        path = "/webhooks/1/tok/messages/@original"
        await send_json(session, "PATCH", path, {"a": 1}, http=http, again=again)
    return asked


async def test_a_2xx_is_done_and_sends_the_payload_as_json(base: tuple[Server, str]) -> None:
    server, _ = base
    assert await send(server, [(200, {"id": "5", "content": "x"})]) == []
    assert await send(server, [(204, None)]) == []
    assert server.got == [("PATCH", "/api/v10/webhooks/1/tok/messages/@original", {"a": 1})] * 2


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_a_429_or_server_error_goes_again_through_discord_py(
    base: tuple[Server, str], status: int
) -> None:
    server, _ = base
    assert await send(server, [(status, {"message": "slow down", "retry_after": 0.1})]) == ["again"]


@pytest.mark.parametrize(
    ("status", "error"),
    [(404, discord.NotFound), (403, discord.Forbidden), (400, discord.HTTPException)],
)
async def test_a_refusal_raises_discord_py_s_own_exception_with_its_code(
    base: tuple[Server, str], status: int, error: type[discord.HTTPException]
) -> None:
    server, _ = base
    with pytest.raises(error) as raised:
        await send(server, [(status, {"message": "Unknown interaction", "code": 10062})])
    assert raised.value.status == status
    assert raised.value.code == 10062
    assert json.dumps(server.got[0][2]) == '{"a": 1}'
