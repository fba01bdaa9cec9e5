"""Languages through the real bot: a member whose Discord speaks Croatian (`hr`) plays a
whole UNO Duo match in an English server. Everything only they see (their hand panels,
a refusal, `/uno rules`) is Croatian; the table, the lobby and the summaries, which the
whole channel reads, stay in the server's language, English. Also the commands as
synced: their Croatian names and descriptions.
"""

from __future__ import annotations

from pathlib import Path

from playground import Channel, Driver, Emulator, Message, Permission, User
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, TableWatch, load_truth

MAX_ACTIONS = 1500

# Words only the Croatian panel says, and their English counterparts.
CROATIAN_PANEL = ("Tvoja ruka", "ovo vidiš samo ti")
ENGLISH_PANEL = ("Your hand", "only you can see this")


def panels_of(driver: Driver, user: User, channel: Channel) -> list[Message]:
    """Every private hand panel the bot sent `user` (their embed has a hand in it)."""
    return [
        m
        for m in driver.visible(user, channel)
        if m.ephemeral_to is user and m.embeds and "·" in (m.embeds[0].get("title") or "")
    ]


class CroatianWatch:
    """After every action: each panel the Croatian member holds reads Croatian."""

    def __init__(self, driver: Driver, user: User, scene: Scene) -> None:
        self.driver, self.user, self.scene = driver, user, scene
        self.seen = 0

    def check(self) -> None:
        for panel in panels_of(self.driver, self.user, self.scene.channel):
            text = panel.text()
            assert all(word in text for word in CROATIAN_PANEL), text
            assert not any(word in text for word in ENGLISH_PANEL), text
            self.seen += 1


async def test_a_croatian_member_plays_in_croatian_while_the_table_stays_english(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, shared_database: Path
) -> None:
    ana = emu.add_user("ana", guild=scene.guild, locale="hr")
    assert scene.guild.preferred_locale == "en-US"
    table = ScriptedTable(driver, scene.channel, [scene.alice, ana], seed=3)
    lobby = await table.open("duo", opponent=ana, target=50)
    # The challenge's message became the table: public, in the server's English.
    assert "Round 1" in lobby.text()
    await table.open_hands()

    # A Croatian refusal: nobody has UNO to call or catch yet.
    refused = await table.press(ana, "uno")
    assert refused.message is not None
    assert "Trenutno nitko ne treba zvati UNO" in refused.message.text()

    croatian = CroatianWatch(driver, ana, scene)
    # The table message is compared with the English rendering of the saved game after
    # every action, so a Croatian word on it would fail the match.
    async with TableWatch(table, shared_database, driver) as watch:
        for checked in range(MAX_ACTIONS):
            if not await watch.check(exact=checked % 15 == 0):
                break  # the match is over
            if not await table.step():
                break
            croatian.check()
    assert await load_truth(shared_database, scene.channel.id) is None, "the match went on"
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)
    assert croatian.seen > 10

    # The English member's panels stayed English.
    for panel in panels_of(driver, scene.alice, scene.channel):
        assert "Your hand" in panel.text()
        assert "Tvoja ruka" not in panel.text()
    # Summaries and the last table: the channel's, in English.
    public = table.public_text()
    assert "wins the match" in public
    assert "Runda" not in public
    assert "pobjeđuje" not in public
    assert table.failures() == []

    # A command's private answer follows the member's language.
    rules = await driver.slash(ana, scene.channel, "uno rules", variant="duo")
    assert rules.message is not None
    assert "Posebne karte" in rules.message.text()
    english_rules = await driver.slash(scene.alice, scene.channel, "uno rules", variant="duo")
    assert english_rules.message is not None
    assert "Special cards" in english_rules.message.text()

    # Her record: privately in Croatian; shared, the channel reads it in English, chart too.
    record = await driver.slash(ana, scene.channel, "uno stats")
    assert record.message is not None
    assert record.message.ephemeral
    assert record.message.embeds[0]["title"] == "ana — UNO rezultati"
    assert [a.filename for a in record.message.attachments] == ["rating.png"]
    shared = (await driver.click(ana, record.message, label="Podijeli")).message
    assert shared is not None
    assert not shared.ephemeral
    assert shared.content == "Shared by ana"
    assert shared.embeds[0]["title"] == "ana — UNO record"
    assert "UNO Duo" in shared.text()
    assert [a.filename for a in shared.attachments] == ["rating.png"]
    assert shared.attachments[0].data != record.message.attachments[0].data  # redrawn
    assert not shared.components  # no Share under a shared record


async def test_a_croatian_server_shows_its_table_in_croatian(
    emu: Emulator, driver: Driver, uno_bot: BotProcess
) -> None:
    guild = emu.add_guild("UNO klub", locale="hr")
    channel = emu.add_text_channel(guild, "uno")
    alice = emu.add_user("alice", guild=guild)
    bob = emu.add_user("bob", guild=guild)
    emu.add_member(guild, emu.add_user("mod"), permissions=Permission.MANAGE_MESSAGES)
    await driver.wait_idle(quiet=0.3)  # the bot has taken in the new server
    table = ScriptedTable(driver, channel, [alice, bob], seed=4)
    await table.open("duo", opponent=bob, target=50)
    shown = await driver.wait_for(table.table_message, timeout=PATIENCE)
    assert "Runda" in shown.text()
    assert "Round" not in shown.text()
    # Members whose own Discord speaks English still get English panels.
    await table.open_hands()
    (panel,) = panels_of(driver, alice, channel)
    assert "Your hand" in panel.text()


async def test_commands_are_synced_with_croatian_names_and_descriptions(
    emu: Emulator, uno_bot: BotProcess
) -> None:
    (uno,) = [c for c in emu.world.commands.get(None, []) if c.name == "uno"]
    subcommands = {o["name"]: o for o in uno.payload()["options"]}
    classic = subcommands["classic"]
    assert classic["name_localizations"]["hr"] == "klasični"
    assert classic["description_localizations"]["hr"].startswith("Otvori predvorje")
    leaderboard = subcommands["leaderboard"]
    assert leaderboard["name_localizations"]["hr"] == "ljestvica"
    variant = next(o for o in leaderboard["options"] if o["name"] == "variant")
    assert variant["name_localizations"]["hr"] == "igra"
    names = {c["value"]: c.get("name_localizations", {}).get("hr") for c in variant["choices"]}
    assert names["classic"] == "klasični UNO"
    # Discord's rule: lowercase names without spaces, at most 32 characters (the
    # emulator refuses a sync that breaks it, so the bot would not have started).
    for option in subcommands.values():
        for name in option.get("name_localizations", {}).values():
            assert name == name.lower()
            assert " " not in name
            assert len(name) <= 32
