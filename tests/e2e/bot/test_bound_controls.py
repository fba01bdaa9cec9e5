"""Every control counts only where it was drawn: its message, channel, server and member."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp import web

from playground import Driver, Emulator, Message, Permission
from playground.rest import Answer
from tests.e2e.bot.forge import forge, private_text
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import ScriptedTable, is_table_message, load_truth, lobby_id


def seated_names(lobby: Message) -> str:
    fields = lobby.embeds[0].get("fields") or []
    return str(fields[0]["value"]) if fields else ""


async def open_lobby(driver: Driver, scene: Scene, command: str = "uno duo") -> Message:
    outcome = await driver.slash(scene.alice, scene.channel, command)
    assert outcome.message is not None
    assert not outcome.message.ephemeral
    return outcome.message


async def test_a_join_forged_from_another_channel_seats_nobody(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    lobby = await open_lobby(driver, scene)
    other = emu.add_text_channel(scene.guild, "elsewhere")
    forged = await forge(emu, scene.bob, other, lobby, lobby_id(lobby, "join"))
    assert "somewhere else" in private_text(forged)
    assert "bob" not in seated_names(lobby)
    # The same button, pressed where it was drawn, works.
    await driver.click(scene.bob, lobby, lobby_id(lobby, "join"))
    await driver.wait_for(lambda: is_table_message(lobby), timeout=PATIENCE)
    assert emu.log.failed == []


async def test_a_join_forged_from_another_server_seats_nobody(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    lobby = await open_lobby(driver, scene, "uno pizza")
    server = emu.add_guild("Other Club")
    there = emu.add_text_channel(server, "uno")
    mallory = emu.add_user("mallory", guild=server)
    forged = await forge(emu, mallory, there, lobby, lobby_id(lobby, "join"))
    assert "somewhere else" in private_text(forged)
    assert "mallory" not in seated_names(lobby)
    assert emu.log.failed == []


async def test_only_the_challenged_member_can_take_a_challenge(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    carol = emu.add_user("carol", guild=scene.guild)
    opened = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob)
    lobby = opened.message
    assert lobby is not None
    accept = lobby_id(lobby, "accept")
    refused = await driver.click(carol, lobby, accept)
    assert "Only the challenged member" in private_text(refused)
    # A Join that this lobby never drew (the old ids let it take bob's seat).
    join = accept.rsplit(":", 1)[0] + ":join"
    forged = await forge(emu, carol, scene.channel, lobby, join)
    assert "changed just now" in private_text(forged)
    assert "carol" not in seated_names(lobby)
    await driver.click(scene.bob, lobby, accept)
    await driver.wait_for(lambda: is_table_message(lobby), timeout=PATIENCE)


async def test_a_challenge_accepted_before_the_bot_has_read_its_lobbys_id_starts_the_table(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    """The lobby is on the screen once Discord has it; the bot learns the message's id
    from Discord's answer a moment later. An Accept pressed in that moment starts the
    table in the lobby's message, as any later one does."""
    clicked = asyncio.Event()
    held: list[str] = []

    async def answer_late(request: web.Request, answer: Answer) -> web.StreamResponse:
        response = await answer()  # the lobby is posted: the members see it
        if not held:  # the command's answer reaches the bot only after the click
            held.append(request.path)
            await asyncio.wait_for(clicked.wait(), timeout=PATIENCE)
        return response

    route = "POST /interactions/{interaction_id}/{token}/callback"
    emu.rest.route_hooks[route] = answer_late
    try:
        opened = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob)
        lobby = opened.message
        assert lobby is not None
        accepted = await driver.click(scene.bob, lobby, lobby_id(lobby, "accept"))
        clicked.set()
    finally:
        clicked.set()
        del emu.rest.route_hooks[route]
    assert held, "the command's answer was not held"
    refusal = accepted.message if accepted.ephemeral else None
    assert refusal is None, refusal.text()
    await driver.wait_for(lambda: is_table_message(lobby), timeout=PATIENCE)
    assert emu.log.failed == []


async def test_a_table_click_forged_from_another_channel_is_refused(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    message = table.table_message()
    assert message is not None
    other = emu.add_text_channel(scene.guild, "elsewhere")
    hand = next(c for c in message.custom_ids() if c.endswith(":hand"))
    forged = await forge(emu, scene.alice, other, message, hand)
    assert "somewhere else" in private_text(forged)
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None
    assert truth.match.version == 0


async def test_challenging_the_same_member_again_waits_a_minute(
    driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    opened = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob)
    assert opened.message is not None
    await driver.slash(scene.alice, scene.channel, "uno leave")  # the host leaves: closed
    again = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob)
    assert "challenged" in private_text(again)
    assert "again in" in private_text(again)
    # Anyone else may still be challenged, and an open lobby needs no cooldown.
    other = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.mod)
    assert other.message is not None
    assert not other.message.ephemeral


async def test_a_server_holds_at_most_ten_open_lobbies(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    channels = []
    for n in range(10):
        host = emu.add_user(f"host{n}", guild=scene.guild)
        channels.append(emu.add_text_channel(scene.guild, f"uno-{n}"))
        opened = await driver.slash(host, channels[-1], "uno pizza")
        assert opened.message is not None
        assert not opened.message.ephemeral
    eleventh = await driver.slash(scene.alice, scene.channel, "uno pizza")
    assert "as many open lobbies as it may" in private_text(eleventh)
    # One closes: its place frees up.
    await driver.slash(scene.mod, channels[0], "uno end")
    opened = await driver.slash(scene.alice, scene.channel, "uno pizza")
    assert opened.message is not None
    assert not opened.message.ephemeral


async def test_forget_erases_ones_own_record_and_needs_manage_server_for_anothers(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess, database: Path
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=7)
    await table.open("duo", opponent=scene.bob)
    await driver.slash(scene.bob, scene.channel, "uno leave")  # a forfeit ends the match
    await driver.wait_for(lambda: "wins the match" in table.public_text(), timeout=PATIENCE)

    refused = await driver.slash(scene.bob, scene.channel, "uno forget", member=scene.alice)
    assert "Manage Server" in private_text(refused)
    mine = await driver.slash(scene.bob, scene.channel, "uno forget")
    assert "Your record in this server is erased" in private_text(mine)
    stats = await driver.slash(scene.bob, scene.channel, "uno stats")
    assert "1 lost" not in private_text(stats)
    alice_before = await driver.slash(scene.alice, scene.channel, "uno stats")
    assert "1 won" in private_text(alice_before)

    admin = emu.add_user("admin")
    emu.add_member(scene.guild, admin, permissions=Permission.MANAGE_GUILD)
    # A member who left can't be picked any more: their id still reaches the record.
    theirs = await driver.slash(admin, scene.channel, "uno forget", user_id=str(scene.alice.id))
    assert "record in this server is erased" in private_text(theirs)
    stats = await driver.slash(admin, scene.channel, "uno stats", member=scene.alice)
    assert "1 won" not in private_text(stats)
    assert emu.log.failed == []
