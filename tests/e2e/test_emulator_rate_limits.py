"""Discord's application-wide limits, broken on purpose: the global 50 bot-token requests a
second (interaction callbacks and interaction-token webhooks exempt), the rate-limit scope,
and the temporary ban that too many invalid requests earn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from playground import Driver, Emulator
from playground.clock import Clock
from playground.discordpy import running
from playground.invalid_requests import InvalidRequests
from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot


class Raw:
    """Plain HTTP to the emulator's API, with a token of our choosing (the bot's by default)."""

    def __init__(self, emu: Emulator, session: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.session = session

    async def call(
        self, method: str, path: str, *, token: str | None = None, body: Any = None
    ) -> tuple[int, dict[str, str], Any]:
        headers = {"Authorization": f"Bot {token or self.emu.token}"}
        url = self.emu.api_base + path
        async with self.session.request(method, url, headers=headers, json=body) as response:
            if response.content_type == "application/json":
                answer: Any = await response.json()
            else:
                answer = await response.text()
            return response.status, dict(response.headers), answer

    async def me(self, token: str | None = None) -> int:
        return (await self.call("GET", "/users/@me", token=token))[0]


@pytest.fixture
async def raw(emu: Emulator) -> AsyncIterator[Raw]:
    async with aiohttp.ClientSession() as session:
        yield Raw(emu, session)


async def fill_the_global_window(raw: Raw) -> None:
    """Make bot-token requests until the global limit refuses one."""
    limit = raw.emu.world.global_limit.limit
    assert limit is not None
    for _ in range(limit + 1):
        if await raw.me() == 429:
            return
    raise AssertionError("the global limit never refused a request")


async def test_the_51st_bot_token_request_within_a_second_gets_the_global_429(
    emu: Emulator, raw: Raw
) -> None:
    emu.clock.hold()  # the 51 fall within one second however slow the machine is
    answers = await asyncio.gather(*(raw.call("GET", "/users/@me") for _ in range(51)))
    statuses = sorted(status for status, _, _ in answers)
    assert statuses == [200] * 50 + [429]
    _, headers, body = next(a for a in answers if a[0] == 429)
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"]  # a 429 from Discord, not from Cloudflare: clients wait and retry
    assert int(headers["Retry-After"]) >= 1
    assert body["global"] is True
    assert body["message"] == "You are being rate limited."
    assert 0 < body["retry_after"] <= 1.0
    assert emu.log.kinds() == ["global_rate_limited"]
    emu.clock.advance(1.0)  # a second later the window is free again
    assert await raw.me() == 200


async def test_discord_py_waits_out_a_global_429_and_goes_on(
    emu: Emulator, scene: Scene, tiny_bot: TinyBot, raw: Raw
) -> None:
    await fill_the_global_window(raw)
    user = await tiny_bot.fetch_user(scene.alice.id)  # refused once, then sent again
    assert user.name == "alice"
    routes = [(c.route, c.status) for c in emu.log.calls if c.route == "/users/{user_id}"]
    assert routes == [("/users/{user_id}", 429), ("/users/{user_id}", 200)]


async def test_interaction_callbacks_and_token_webhooks_are_exempt(
    emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot, raw: Raw
) -> None:
    # A minute-long window stays full for the whole test, whatever the machine's pace.
    emu.world.global_limit.per = 60.0

    async def answer_followup_edit(interaction: discord.Interaction, *, text: str) -> None:
        await interaction.response.send_message("table")
        await interaction.followup.send("a followup")
        await interaction.edit_original_response(content="table, edited")

    tiny_bot.handlers["probe"] = answer_followup_edit
    await fill_the_global_window(raw)
    out = await driver.slash(scene.alice, scene.channel, "probe")
    await driver.wait_for(lambda: len(tiny_bot.calls) == 1 and out.message is not None)
    await driver.wait_for(lambda: out.message.content == "table, edited")  # type: ignore[union-attr]
    assert tiny_bot.errors == []
    assert not out.failed
    exempt = [c for c in emu.log.calls if c.route.startswith(("/interactions/", "/webhooks/"))]
    assert [c.status for c in exempt] == [200, 200, 200]  # answer, followup, edit
    assert await raw.me() == 429  # the window was full all along


async def test_a_per_route_429_says_its_scope_is_the_bots_own(emu: Emulator, raw: Raw) -> None:
    guild = emu.add_guild("Uno Club")
    channel = emu.add_text_channel(guild, "uno")
    status, _, posted = await raw.call(
        "POST", f"/channels/{channel.id}/messages", body={"content": "table"}
    )
    assert status == 200
    path = f"/channels/{channel.id}/messages/{posted['id']}"
    answers = [await raw.call("PATCH", path, body={"content": f"edit {i}"}) for i in range(6)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    _, headers, body = answers[-1]
    assert headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in headers
    assert body["global"] is False
    assert emu.world.invalid_requests.count(f"Bot {emu.token}") == 1  # it counts as invalid


async def test_too_many_invalid_requests_ban_the_token(
    emu: Emulator, scene: Scene, raw: Raw
) -> None:
    invalid = emu.world.invalid_requests
    invalid.limit = 20  # Discord's 10,000 within 10 minutes, made quick to reach
    emu.world.emojis.refused = True  # every emoji call is a 403
    emojis = f"/applications/{emu.world.application_id}/emojis"
    statuses = [(await raw.call("GET", emojis))[0] for _ in range(20)]
    assert statuses == [403] * 20
    assert emu.log.kinds().count("invalid_requests") == 1

    status, headers, page = await raw.call("GET", "/users/@me")  # a valid request, banned
    assert status == 429
    assert headers["Content-Type"].startswith("text/html")
    assert "Via" not in headers  # Cloudflare's answer: no Discord rate-limit headers
    assert not any(name.startswith("X-RateLimit") for name in headers)
    assert "1015" in page
    with pytest.raises(discord.HTTPException) as banned:  # discord.py gives up at once
        async with running(TinyBot(guild_id=scene.guild.id), emu):
            pass
    assert banned.value.status == 429

    assert await raw.me(token="another-token") == 401  # the ban is the token's own
    emu.clock.advance(invalid.ban_seconds)
    assert await raw.me() == 200
    assert "banned" in emu.log.kinds()


async def test_invalid_requests_older_than_the_window_are_forgotten(
    emu: Emulator, raw: Raw
) -> None:
    invalid = emu.world.invalid_requests
    invalid.limit = 3
    assert [await raw.me(token="wrong") for _ in range(2)] == [401, 401]
    emu.clock.advance(invalid.per)  # ten minutes later those two no longer count
    assert [await raw.me(token="wrong") for _ in range(2)] == [401, 401]
    assert invalid.count("Bot wrong") == 2
    assert await raw.me(token="wrong") == 401  # the third within the window: banned after it
    assert (await raw.call("GET", "/users/@me", token="wrong"))[0] == 429
    assert await raw.me() == 200  # the bot's own token was never refused


@pytest.mark.parametrize(
    ("status", "scope", "counts"),
    [
        (401, None, True),
        (403, None, True),
        (429, "user", True),
        (429, "global", True),
        (429, "shared", False),  # a resource's shared limit is not held against the bot
        (400, None, False),
        (404, None, False),
        (200, None, False),
    ],
)
def test_which_answers_count_as_invalid(status: int, scope: str | None, counts: bool) -> None:
    invalid = InvalidRequests(Clock(), limit=1)
    assert invalid.note("Bot token", status, scope) is counts  # the limit is 1: a ban
    assert (invalid.banned_for("Bot token") > 0) is counts
    assert invalid.banned_for("Bot another") == 0
