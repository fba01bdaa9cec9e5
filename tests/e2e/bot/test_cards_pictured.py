"""The real bot shows cards as its own emojis: uploaded once (a restart uploads none),
on the hand panel's buttons, in the table's words, and the top card as the table's
thumbnail, served by the CDN; with the emojis refused, colour squares and words."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp

from cogs.uno.art import art_key, art_keys, card_image, emoji_name
from cogs.uno.render import named_colour
from playground import Driver, Emulator, Message
from tests.e2e.bot.conftest import BotFactory
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, load_truth

CARDS = len(art_keys())
CREATE = "POST /applications/{application_id}/emojis"
CUSTOM = re.compile(r"<:uno_[a-z0-9_]+:(\d+)>")


def creates(emu: Emulator, since: int = 0) -> int:
    return sum(f"{c.method} {c.route}" == CREATE for c in emu.log.calls[since:])


def thumbnail(message: Message | None) -> str | None:
    if message is None or not message.embeds:
        return None
    url: str | None = message.embeds[0].get("thumbnail", {}).get("url")
    return url


async def play_until_a_top_card(table: ScriptedTable, driver: Driver) -> str:
    """Through the draft to the first card on the pile; the table's thumbnail URL."""
    for _ in range(80):
        url = thumbnail(table.table_message())
        if url is not None:
            return url
        await table.step()
        await driver.wait_idle(quiet=0.1)
    raise AssertionError("the table never showed its top card")


async def test_cards_are_emojis_uploaded_once_on_buttons_words_and_thumbnail(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory, database: Path
) -> None:
    bot = bots(table_seed=7)
    await bot.start()
    await emu.world.wait_for(lambda: len(emu.world.emojis.names()) == CARDS, timeout=60)
    assert creates(emu) == CARDS

    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=3)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    url = await play_until_a_top_card(table, driver)

    # The thumbnail is the top card's own emoji image (a wild shows the colour named).
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    view = truth.match.public_view()
    assert view.top is not None
    colour = named_colour(view)
    key = art_key(view.top.code, colour.value if colour and view.top.is_wild else None)
    wanted = emoji_name(key, card_image(key))
    emoji_id = next(e.id for e in emu.world.emojis.by_id.values() if e.name == wanted)

    def shows_the_top_card() -> bool:
        shown = thumbnail(table.table_message()) or url
        return shown.startswith(f"{emu.base_url}/emojis/{emoji_id}.")

    await driver.wait_for(shows_the_top_card, timeout=PATIENCE)  # table edits are coalesced
    url = thumbnail(table.table_message()) or url
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        assert response.content_type == "image/png"
        assert await response.read() == emu.world.emojis.by_id[emoji_id].image

    # The panel's card buttons carry the card emojis; the table's words show them inline.
    def card_buttons() -> list[int]:
        panels = [table.panel(u) for u in table.users]
        return [
            int(c["emoji"]["id"])
            for panel in panels
            if panel is not None
            for c in panel.iter_components()
            if (c.get("emoji") or {}).get("id")
        ]

    for _ in range(20):  # a colour choice shows colours, not cards: play on to a card choice
        if card_buttons():
            break
        await table.step()
        await driver.wait_idle(quiet=0.1)
    assert card_buttons()
    assert set(card_buttons()) <= set(emu.world.emojis.by_id)
    shown = table.table_message()
    assert shown is not None
    assert {int(i) for i in CUSTOM.findall(shown.text())} <= set(emu.world.emojis.by_id)
    assert CUSTOM.search(shown.text()), shown.text()

    # A restart finds every emoji by name: not one upload.
    await bot.stop()
    before = len(emu.log.calls)
    again = bots(table_seed=7)
    await again.start()
    await emu.world.wait_for(lambda: again.output().count("Card emojis ready") == 2, timeout=60)
    assert creates(emu, before) == 0
    # Not one upload, edit or delete: the only emoji call is the one that lists them.
    emoji_calls = [f"{c.method} {c.route}" for c in emu.log.calls[before:] if "emoji" in c.route]
    assert emoji_calls == ["GET /applications/{application_id}/emojis"], emoji_calls
    ready = [line for line in again.output().splitlines() if "Card emojis ready" in line]
    assert f"0 uploaded, 0 deleted, {CARDS} kept" in ready[-1]
    await again.stop()


async def test_refused_emojis_leave_colour_squares_and_words(
    emu: Emulator, driver: Driver, scene: Scene, bots: BotFactory
) -> None:
    emu.world.emojis.refused = True
    bot = bots(table_seed=7)
    await bot.start()
    await emu.world.wait_for(lambda: "Card emojis unavailable" in bot.output(), timeout=60)
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=3)
    await table.open("duo", opponent=scene.bob, target=50)
    await table.open_hands()
    for _ in range(40):
        await table.step()
    await driver.wait_idle(quiet=0.2)
    shown = table.table_message()
    assert shown is not None
    assert thumbnail(shown) is None
    assert "<:uno_" not in shown.text()
    assert any(square in shown.text() for square in "🟥🟨🟩🟦")
    await table.open_hands()
    panels = [p for p in (table.panel(u) for u in table.users) if p is not None]
    emojis = [c["emoji"] for p in panels for c in p.iter_components() if c.get("emoji")]
    assert emojis
    assert all("id" not in e or e["id"] is None for e in emojis)
    assert table.failures() == []
    await bot.stop()
