"""The emulator's application emoji routes answer as Discord does: payload shapes, the name
and image rules, the limit, unknown emojis, and the CDN image."""

from __future__ import annotations

import base64
from typing import Any

import discord
import pytest

from cogs.uno.art import card_image
from playground import Emulator
from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot

PNG = card_image("B7")
DATA_URI = "data:image/png;base64," + base64.b64encode(PNG).decode()


async def create(bot: TinyBot, name: str, image: str = DATA_URI) -> Any:
    assert bot.application_id is not None
    return await bot.http.create_application_emoji(bot.application_id, name, image)


async def test_create_list_get_rename_delete(emu: Emulator, tiny_bot: TinyBot) -> None:
    made = await tiny_bot.create_application_emoji(name="uno_b7", image=PNG)
    assert made.is_application_owned()
    assert made.name == "uno_b7"
    assert not made.animated
    listed = await tiny_bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(made.id, "uno_b7")]
    assert listed[0].user is not None
    assert listed[0].user.id == emu.world.bot.id
    fetched = await tiny_bot.fetch_application_emoji(made.id)
    assert fetched.name == "uno_b7"
    renamed = await made.edit(name="uno_blue_7")
    assert renamed.name == "uno_blue_7"
    assert emu.world.emojis.names() == ["uno_blue_7"]
    await made.delete()
    assert await tiny_bot.fetch_application_emojis() == []
    statuses = [(c.method, c.status) for c in emu.log.calls if "/emojis" in c.route]
    assert statuses == [
        ("POST", 201),
        ("GET", 200),
        ("GET", 200),
        ("PATCH", 200),
        ("DELETE", 204),
        ("GET", 200),
    ]


@pytest.mark.parametrize(
    ("name", "image", "field", "reason"),
    [
        ("u", DATA_URI, "name", "BASE_TYPE_BAD_LENGTH"),
        ("u" * 33, DATA_URI, "name", "BASE_TYPE_BAD_LENGTH"),
        ("uno-r5", DATA_URI, "name", "STRING_TYPE_REGEX"),
        ("uno r5", DATA_URI, "name", "STRING_TYPE_REGEX"),
        ("uno_r5", base64.b64encode(PNG).decode(), "image", "IMAGE_INVALID"),
        ("uno_r5", "data:image/png;base64,not base64!", "image", "IMAGE_INVALID"),
        ("uno_r5", "data:image/jpeg;base64," + base64.b64encode(PNG).decode(), "image", ""),
        (
            "uno_r5",
            "data:image/png;base64," + base64.b64encode(PNG + bytes(256 * 1024)).decode(),
            "image",
            "BINARY_TYPE_MAX_SIZE",
        ),
    ],
)
async def test_a_bad_name_or_image_is_an_invalid_form_body(
    emu: Emulator, tiny_bot: TinyBot, name: str, image: str, field: str, reason: str
) -> None:
    with pytest.raises(discord.HTTPException) as raised:
        await create(tiny_bot, name, image)
    assert (raised.value.status, raised.value.code) == (400, 50035)
    violation = emu.log.of_kind("invalid_form_body")[-1].detail
    assert field in violation
    assert (reason or "IMAGE_INVALID") in violation
    assert emu.world.emojis.names() == []


async def test_a_taken_name_and_a_full_application_are_refused(
    emu: Emulator, tiny_bot: TinyBot
) -> None:
    await create(tiny_bot, "uno_r5")
    with pytest.raises(discord.HTTPException) as taken:
        await create(tiny_bot, "uno_r5")
    assert (taken.value.status, taken.value.code) == (400, 50035)
    assert "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" in emu.log.violations[-1].detail
    emu.world.emojis.limit = 2
    await create(tiny_bot, "uno_r6")
    with pytest.raises(discord.HTTPException) as full:
        await create(tiny_bot, "uno_r7")
    assert (full.value.status, full.value.code) == (400, 30008)
    assert emu.world.emojis.names() == ["uno_r5", "uno_r6"]


async def test_unknown_emoji_and_unknown_application(emu: Emulator, tiny_bot: TinyBot) -> None:
    app_id = tiny_bot.application_id
    assert app_id is not None
    with pytest.raises(discord.NotFound) as unknown:
        await tiny_bot.http.delete_application_emoji(app_id, 42)
    assert unknown.value.code == 10014
    with pytest.raises(discord.NotFound) as other_app:
        await tiny_bot.http.get_application_emojis(app_id + 1)
    assert other_app.value.code == 10002


async def test_refused_routes_answer_403(emu: Emulator, tiny_bot: TinyBot) -> None:
    emu.world.emojis.refused = True
    with pytest.raises(discord.Forbidden) as refused:
        await tiny_bot.fetch_application_emojis()
    assert refused.value.code == 50001
    assert emu.log.of_kind("emoji_refused")


async def test_a_button_or_option_with_an_unknown_custom_emoji_is_refused(
    emu: Emulator, tiny_bot: TinyBot, scene: Scene
) -> None:
    made = await tiny_bot.create_application_emoji(name="uno_b7", image=PNG)
    good = {"id": str(made.id), "name": made.name}
    gone = {"id": "42", "name": "uno_gone"}

    def row(emoji: dict[str, str], option_emoji: dict[str, str]) -> list[dict[str, Any]]:
        button = {"type": 2, "style": 1, "custom_id": "b", "label": "Blue 7", "emoji": emoji}
        option = {"label": "Blue 7", "value": "B7", "emoji": option_emoji}
        select = {"type": 3, "custom_id": "s", "options": [option]}
        return [{"type": 1, "components": [button]}, {"type": 1, "components": [select]}]

    await tiny_bot.post_raw(scene.channel.id, {"components": row(good, {"name": "🟦"})})
    with pytest.raises(discord.HTTPException) as raised:
        await tiny_bot.post_raw(scene.channel.id, {"components": row(gone, good)})
    assert (raised.value.status, raised.value.code) == (400, 50035)
    with pytest.raises(discord.HTTPException):
        await tiny_bot.post_raw(scene.channel.id, {"components": row(good, gone)})
    detail = [v.detail for v in emu.log.of_kind("invalid_form_body")]
    assert "BUTTON_COMPONENT_INVALID_EMOJI" in detail[0]
    assert "options" in detail[1]
    assert len([m for m in emu.world.messages.values() if m.channel is scene.channel]) == 1
