"""Leaderboard paging, /uno stats, /uno rules and /uno hand through the real bot.

Results are put in the bot's SQLite file with the project's own repositories (the
module's bot is running; each test records in a server of its own, and the bot reads
boards from the file on every request), so every number a test reads back is one it
recorded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from cogs.uno import render
from cogs.uno.art import art_key
from cogs.uno.render import faces
from db.database import Database
from db.models import Outcome as MatchOutcome
from db.models import PlayerResult, RoundResult, Seat, Variant
from playground import CallbackType, Driver, Emulator, Message, Outcome, User
from tests.e2e.botproc import BotProcess
from tests.e2e.conftest import Scene
from tests.e2e.patience import PATIENCE
from tests.e2e.uno_table import (
    CARD_MARK,
    ScriptedTable,
    comparable,
    is_table_message,
    load_truth,
)

EPOCH = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)

# 23 players, three pages of 10. Winners never lose, losers never win. The
# expected board follows the documented order (db/scores.py): most wins, then
# win rate counted only from 5 matches up (so l01-l03, with 0 % over 5+
# matches, rank above losers with fewer matches), then fewer matches; equal
# members share a place and are listed by user id (here: by name).
WINS = {"w01": 8, "w02": 7, "w03": 6, "w04": 5, "w05": 4, "w06": 4, "w07": 3, "w08": 2}
WINS |= {"w09": 1, "w10": 1, "w11": 1}
LOSSES = {"l01": 6, "l02": 5, "l03": 5, "l04": 4, "l05": 4, "l06": 3, "l07": 3, "l08": 3}
LOSSES |= {"l09": 3, "l10": 2, "l11": 2, "l12": 2}
CONCEDED = 200  # each match is one round; the loser concedes this (D14)
SEATS = {
    name: Seat(user_id=base + i, display_name=name)
    for base, names in ((10_000, WINS), (20_000, LOSSES))
    for i, name in enumerate(sorted(names), start=1)
}


@dataclass(frozen=True)
class Line:
    """One leaderboard line as a member reads it."""

    place: int
    name: str
    won: int
    played: int


BOARD = [
    Line(1, "w01", 8, 8), Line(2, "w02", 7, 7), Line(3, "w03", 6, 6), Line(4, "w04", 5, 5),
    Line(5, "w05", 4, 4), Line(5, "w06", 4, 4), Line(7, "w07", 3, 3), Line(8, "w08", 2, 2),
    Line(9, "w09", 1, 1), Line(9, "w10", 1, 1),
    # page 2: the tie for 9th runs across the page break
    Line(9, "w11", 1, 1), Line(12, "l02", 0, 5), Line(12, "l03", 0, 5), Line(14, "l01", 0, 6),
    Line(15, "l10", 0, 2), Line(15, "l11", 0, 2), Line(15, "l12", 0, 2),
    Line(18, "l06", 0, 3), Line(18, "l07", 0, 3), Line(18, "l08", 0, 3),
    # page 3
    Line(18, "l09", 0, 3), Line(22, "l04", 0, 4), Line(22, "l05", 0, 4),
]  # fmt: skip

MEDALS = {"🥇": 1, "🥈": 2, "🥉": 3}
LINE_RE = re.compile(
    r"(?:(?P<medal>🥇|🥈|🥉)|\*\*(?P<place>\d+)\.\*\*) \*\*(?P<name>[^*]+)\*\* — "
    r"(?P<won>\d+) won of (?P<played>\d+) \(\d+%\), streak \d+ \(best \d+\), \d+ points \w+"
)
RULES_LIMIT = 2000  # Discord's message content limit


# -- recording results with the bot's own repositories ------------------------------------


class Clock:
    """Strictly increasing end times, so streaks and recent matches have a known order."""

    def __init__(self) -> None:
        self.n = 0

    def next(self) -> datetime:
        self.n += 1
        return EPOCH + timedelta(minutes=self.n)


async def record_match(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    variant: Variant,
    players: list[Seat],
    rounds: list[tuple[Seat, dict[Seat, int]]],
    results: dict[Seat, tuple[MatchOutcome, int]],
    ended_at: datetime,
) -> None:
    """Start, score and finish a match: `rounds` are (winner, points); results (outcome, place)."""
    match_id = await db.tables.start_match(
        guild_id=guild_id,
        channel_id=channel_id,
        variant=variant,
        options={"target": 200 if variant == "duo" else 250},
        seed=0,
        players=players,
        state="{}",  # finished matches keep no snapshot; the engine never reads this one
        started_at=ended_at - timedelta(minutes=1),
    )
    totals = dict.fromkeys(players, 0)
    for number, (winner, points) in enumerate(rounds, start=1):
        await db.tables.record_round(
            match_id,
            RoundResult(
                round_no=number,
                winner_id=winner.user_id,
                points={seat.user_id: p for seat, p in points.items()},
            ),
        )
        for seat, p in points.items():
            totals[seat] += p
    await db.tables.finish_match(
        match_id,
        [
            PlayerResult(user_id=seat.user_id, score=totals[seat], place=place, outcome=outcome)
            for seat, (outcome, place) in results.items()
        ],
        ended_at=ended_at,
    )


def pairings() -> Iterator[tuple[Seat, Seat]]:
    """(winner, loser) for every match of the 23-player board."""
    winners = [SEATS[name] for name, n in WINS.items() for _ in range(n)]
    losers = [SEATS[name] for name, n in LOSSES.items() for _ in range(n)]
    return zip(winners, losers, strict=True)


async def record_board(db: Database, *, guild_id: int, channel_id: int) -> None:
    clock = Clock()
    for winner, loser in pairings():
        await record_match(
            db,
            guild_id=guild_id,
            channel_id=channel_id,
            variant="duo",
            players=[winner, loser],
            rounds=[(winner, {loser: CONCEDED})],
            results={winner: ("won", 1), loser: ("lost", 2)},
            ended_at=clock.next(),
        )


async def with_board(database: Path, scene: Scene) -> None:
    async with Database.open(database) as db:
        await record_board(db, guild_id=scene.guild.id, channel_id=scene.channel.id)


# -- reading what members see --------------------------------------------------------------


def board_lines(message: Message) -> list[Line]:
    description = message.embeds[0]["description"]
    lines = []
    for text in description.splitlines():
        found = LINE_RE.fullmatch(text)
        assert found is not None, text
        place = MEDALS[found["medal"]] if found["medal"] else int(found["place"])
        lines.append(Line(place, found["name"], int(found["won"]), int(found["played"])))
    return lines


def footer(message: Message) -> str:
    return str(message.embeds[0]["footer"]["text"])


def enabled(message: Message, label: str) -> bool:
    return not message.find_button(label=label).get("disabled", False)


def private_to(outcome: Outcome, user: User) -> Message:
    """The answer, checked to be an ephemeral only `user` sees."""
    assert not outcome.failed
    message = outcome.message
    assert message is not None
    assert message.ephemeral_to is user
    return message


def clean_log(emu: Emulator) -> None:
    assert emu.log.failed == []
    assert [c for c in emu.log.calls if c.status == 429] == []
    assert emu.log.violations == []


# -- /uno leaderboard ----------------------------------------------------------------------


async def test_leaderboard_pages_through_every_player_in_order(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    await with_board(database, scene)
    opened = await driver.slash(
        scene.alice, scene.channel, "uno leaderboard", variant="duo", ranking="wins"
    )
    assert opened.response_type is CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    board = opened.message
    assert board is not None
    assert board.ephemeral_to is scene.alice  # asked privately: answered privately
    embed = board.embeds[0]
    assert embed["title"] == "UNO Duo leaderboard"
    assert embed["author"]["name"] == "Uno Club"
    assert board_lines(board) == BOARD[:10]
    assert embed["description"].splitlines()[0] == (
        "🥇 **w01** — 8 won of 8 (100%), streak 8 (best 8), 0 points conceded"
    )
    assert footer(board) == "Page 1 of 3 · 23 players"
    assert not enabled(board, "Previous")
    assert enabled(board, "Next")

    step = await driver.click(scene.alice, board, label="Next")
    assert step.response_type is CallbackType.UPDATE_MESSAGE  # the same message, edited
    assert board_lines(board) == BOARD[10:20]
    assert f"**l01** — 0 won of 6 (0%), streak 0 (best 0), {6 * CONCEDED} points conceded" in (
        board.text()
    )
    assert footer(board) == "Page 2 of 3 · 23 players"
    assert enabled(board, "Previous")
    assert enabled(board, "Next")

    await driver.click(scene.alice, board, label="Next")
    assert board_lines(board) == BOARD[20:]
    assert footer(board) == "Page 3 of 3 · 23 players"
    assert enabled(board, "Previous")
    assert not enabled(board, "Next")

    await driver.click(scene.alice, board, label="Previous")
    assert board_lines(board) == BOARD[10:20]
    await driver.click(scene.alice, board, label="Previous")
    assert board_lines(board) == BOARD[:10]
    assert not enabled(board, "Previous")

    # Only the one private board message: paging never posts a new one.
    assert driver.visible(scene.alice, scene.channel) == [board]
    assert driver.visible(scene.bob, scene.channel) == []

    # Share posts the page for the channel, with its pager and without Share.
    shared = await driver.click(scene.alice, board, label="Share")
    public = shared.message
    assert public is not None
    assert not public.ephemeral
    assert public.content == "Shared by alice"
    assert board_lines(public) == BOARD[:10]
    assert driver.visible(scene.bob, scene.channel) == [public]
    assert "Share" not in [b.get("label") for b in public.buttons()]
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


async def test_any_member_may_page_the_public_board(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    # A shared board is one public message whose buttons name only a variant and a
    # page (cogs/uno/ids.py), so it belongs to nobody: whoever clicks pages it
    # for everyone, as the pager of a shared scoreboard should.
    await with_board(database, scene)
    opened = await driver.slash(
        scene.alice, scene.channel, "uno leaderboard", variant="duo", ranking="wins"
    )
    assert opened.message is not None
    board = (await driver.click(scene.alice, opened.message, label="Share")).message
    assert board is not None

    by_bob = await driver.click(scene.bob, board, label="Next")
    assert by_bob.response_type is CallbackType.UPDATE_MESSAGE
    assert not by_bob.ephemeral
    assert footer(board) == "Page 2 of 3 · 23 players"
    assert board_lines(board) == BOARD[10:20]
    by_mod = await driver.click(scene.mod, board, label="Next")
    assert by_mod.response_type is CallbackType.UPDATE_MESSAGE
    assert footer(board) == "Page 3 of 3 · 23 players"

    # Everybody sees the page the last click chose, and nobody got a message of their own.
    for user in (scene.bob, scene.mod):
        assert driver.visible(user, scene.channel) == [board]
    assert board_lines(board) == BOARD[20:]
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


async def test_a_stale_page_button_after_results_change_shows_a_page_that_exists(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    await with_board(database, scene)
    opened = await driver.slash(
        scene.alice, scene.channel, "uno leaderboard", ranking="wins"
    )  # Duo by default
    board = opened.message
    assert board is not None
    await driver.click(scene.alice, board, label="Next")
    assert footer(board) == "Page 2 of 3 · 23 players"  # Next now asks for page 3

    # Ten members are forgotten meanwhile: 13 players are left, two pages.
    async with Database.open(database) as db:
        for n in range(1, 11):
            await db.scores.forget_member(SEATS[f"w{n:02}"].user_id, scene.guild.id)
    await driver.click(scene.alice, board, label="Next")
    assert footer(board) == "Page 2 of 2 · 13 players"
    assert board_lines(board) == [
        Line(8, "l09", 0, 3),
        Line(12, "l04", 0, 4),
        Line(12, "l05", 0, 4),
    ]
    assert not enabled(board, "Next")

    # Everyone is forgotten: the page still answers, with the empty board.
    async with Database.open(database) as db:
        for seat in SEATS.values():
            await db.scores.forget_member(seat.user_id, scene.guild.id)
    await driver.click(scene.alice, board, label="Previous")
    assert board.embeds[0]["description"] == "No finished matches here yet. Be the first!"
    assert footer(board) == "Page 1 of 1 · 0 players"
    assert not enabled(board, "Previous")
    assert not enabled(board, "Next")
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


# -- /uno stats ----------------------------------------------------------------------------


async def test_stats_of_a_member_without_matches_says_so_privately(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    await with_board(database, scene)  # other members have matches
    answer = private_to(await driver.slash(scene.mod, scene.channel, "uno stats"), scene.mod)
    embed = answer.embeds[0]
    assert embed["title"] == "mod — UNO record"
    assert [(f["name"], f["value"]) for f in embed["fields"]] == [
        ("UNO Duo", "No finished match yet."),
        ("UNO Pocket Pizza Pizza", "No finished match yet."),
        ("Classic UNO", "No finished match yet."),
    ]
    answer = private_to(
        await driver.slash(scene.alice, scene.channel, "uno stats", member=scene.bob), scene.alice
    )
    assert answer.embeds[0]["title"] == "bob — UNO record"
    assert "No finished match yet." in answer.text()
    assert [m for m in driver.visible(scene.bob, scene.channel) if m.ephemeral] == []
    # Share shows the record to the channel.
    shared = (await driver.click(scene.alice, answer, label="Share")).message
    assert shared is not None
    assert not shared.ephemeral
    assert shared.content == "Shared by alice"
    assert shared.embeds[0]["title"] == "bob — UNO record"
    assert driver.visible(scene.bob, scene.channel) == [shared]
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


async def test_stats_agree_with_the_recorded_matches(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    carol = emu.add_user("carol", guild=scene.guild)
    alice, bob, cara = (
        Seat(user_id=u.id, display_name=u.name) for u in (scene.alice, scene.bob, carol)
    )
    clock = Clock()
    ends = [clock.next() for _ in range(4)]
    async with Database.open(database) as db:
        where = {"guild_id": scene.guild.id, "channel_id": scene.channel.id}
        # Duo, in end order: alice forfeits, then wins twice (D14: she concedes 40 in all).
        await record_match(
            db, **where, variant="duo", players=[alice, bob], rounds=[],
            results={bob: ("won", 1), alice: ("forfeit", 2)}, ended_at=ends[0],
        )  # fmt: skip
        await record_match(
            db, **where, variant="duo", players=[alice, bob],
            rounds=[(alice, {bob: 120}), (bob, {alice: 40}), (alice, {bob: 90})],
            results={alice: ("won", 1), bob: ("lost", 2)}, ended_at=ends[1],
        )  # fmt: skip
        await record_match(
            db, **where, variant="duo", players=[bob, alice], rounds=[(alice, {bob: 200})],
            results={alice: ("won", 1), bob: ("lost", 2)}, ended_at=ends[2],
        )  # fmt: skip
        # Pizza: carol wins; alice scored 90 in the round she won (P11).
        await record_match(
            db, **where, variant="pizza", players=[alice, bob, cara],
            rounds=[(alice, {alice: 90}), (cara, {cara: 130}), (cara, {cara: 140})],
            results={cara: ("won", 1), alice: ("lost", 2), bob: ("lost", 3)}, ended_at=ends[3],
        )  # fmt: skip

    answer = private_to(
        await driver.slash(scene.bob, scene.channel, "uno stats", member=scene.alice), scene.bob
    )
    embed = answer.embeds[0]
    assert embed["title"] == "alice — UNO record"
    duo, pizza, classic = embed["fields"]
    assert classic == {"name": "Classic UNO", "value": "No finished match yet.", "inline": False}
    day = [f"<t:{int(end.timestamp())}:d>" for end in ends]
    assert duo["name"] == "UNO Duo"
    assert duo["value"].splitlines() == [
        "3 played · 2 won · 1 lost (1 forfeit) · 67% won",
        "3 rounds won · 40 points conceded",
        "streak 2 · best 2",
        f"• {day[2]} won vs bob (0 pts, place 1)",  # latest first
        f"• {day[1]} won vs bob (40 pts, place 1)",
        f"• {day[0]} forfeited vs bob (0 pts, place 2)",
    ]
    assert pizza["name"] == "UNO Pocket Pizza Pizza"
    assert pizza["value"].splitlines() == [
        "1 played · 0 won · 1 lost (0 forfeits) · 0% won",
        "1 round won · 90 points scored",
        "streak 0 · best 0",
        f"• {day[3]} lost vs bob, carol (90 pts, place 2)",
    ]
    # Without `member`, the caller's own record: bob lost two Duo matches and conceded 410.
    own = private_to(await driver.slash(scene.bob, scene.channel, "uno stats"), scene.bob)
    assert own.embeds[0]["title"] == "bob — UNO record"
    assert own.embeds[0]["fields"][0]["value"].splitlines()[:3] == [
        "3 played · 1 won · 2 lost (0 forfeits) · 33% won",
        "1 round won · 410 points conceded",
        "streak 0 · best 1",
    ]
    assert not any(m.ephemeral for m in driver.visible(scene.alice, scene.channel))
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


# -- /uno rules ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "key_words"),
    [
        ("duo", ["**UNO Duo**", "Keep the rest", "Wild Draw 4: name a colour", "you **lose**"]),
        ("pizza", ["**UNO Pocket Pizza Pizza**", "Dip Into The Deck", "Draw One", "(250) wins"]),
    ],
)
async def test_rules_of_each_variant_are_a_private_guide_with_details(
    emu: Emulator,
    driver: Driver,
    scene: Scene,
    uno_bot: BotProcess,
    variant: str,
    key_words: list[str],
) -> None:
    answer = private_to(
        await driver.slash(scene.alice, scene.channel, "uno rules", variant=variant), scene.alice
    )
    text = answer.content
    assert answer.embeds == []
    assert len(text) <= RULES_LIMIT
    for words in key_words:
        assert words in text
    assert not re.search(r"\b[DPX]\d", text)  # no rule ids: words
    assert CARD_MARK.sub("▣", text) == CARD_MARK.sub("▣", render.rules_guide(variant))
    (details,) = answer.buttons()
    assert details["label"] == "Details"
    fine = private_to(await driver.click(scene.alice, answer, details["custom_id"]), scene.alice)
    assert fine.content == render.rules_details(variant)
    assert "three turns in a row" in fine.content
    if variant == "duo":  # Duo is the default variant
        plain = private_to(await driver.slash(scene.bob, scene.channel, "uno rules"), scene.bob)
        assert plain.content == text
    assert driver.visible(scene.mod, scene.channel) == []
    clean_log(emu)


# -- /uno hand -----------------------------------------------------------------------------


class UploadedEmojis:
    """The card emojis the bot uploaded to the emulator, as `faces` reads them."""

    def __init__(self, emu: Emulator) -> None:
        # uno_<card>_<hash>: the card's slug is the name without its hash.
        self.by_slug = {
            name.rsplit("_", 1)[0]: discord.PartialEmoji(name=name, id=emoji_id)
            for emoji_id, name in ((e.id, e.name) for e in emu.world.emojis.by_id.values())
        }

    def _emoji(self, code: str, named: str | None) -> discord.PartialEmoji | None:
        slug = art_key(code, named).lower().replace("+", "p").replace("/", "_")
        return self.by_slug.get(f"uno_{slug}")

    def inline(self, code: str, named: str | None = None) -> str | None:
        emoji = self._emoji(code, named)
        return None if emoji is None else str(emoji)

    def url(self, code: str, named: str | None = None) -> str | None:
        emoji = self._emoji(code, named)
        return None if emoji is None else emoji.url


NOT_AT_A_TABLE = (
    "You're not playing at any table. Start one with `/uno duo`, `/uno pizza` or `/uno classic`."
)


async def test_hand_outside_a_table_is_refused_privately(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    answer = private_to(await driver.slash(scene.alice, scene.channel, "uno hand"), scene.alice)
    assert answer.content == NOT_AT_A_TABLE
    assert driver.visible(scene.bob, scene.channel) == []
    clean_log(emu)


async def test_hand_at_a_running_table_shows_the_callers_own_panel(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob], seed=31)
    await table.open("pizza", target=100)  # Pizza deals hands at once (P2)
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None

    panels: dict[int, Message] = {}
    for user in (scene.alice, scene.bob):
        panel = private_to(await driver.slash(user, scene.channel, "uno hand"), user)
        # Drawn with the bot's card emojis once they are uploaded, with words before.
        with_emojis = "<:uno_" in panel.content + json.dumps(panel.embeds)
        faces.use(UploadedEmojis(emu) if with_emojis else None)
        try:
            expected = render.hand_panel(
                truth.match.private_view(str(user.id)),
                truth.match.public_view(),
                names=truth.names,
                table_id=truth.table_id,
                version=truth.match.version,
            )
        finally:
            faces.use(None)
        assert CARD_MARK.sub("▣", panel.content) == CARD_MARK.sub("▣", expected.content)
        assert expected.embed is not None
        assert comparable(panel.embeds[0]) == comparable(expected.embed.to_dict())
        assert sorted(panel.custom_ids()) == sorted(spec.custom_id for spec in expected.components)
        hand = truth.match.private_view(str(user.id)).hand
        assert panel.embeds[0]["title"] == f"Your hand · {len(hand)} cards"
        # One line per colour ("🟨 Yellow: 2, Draw One"): every card of the hand is listed.
        listed = [
            face
            for line in panel.embeds[0]["description"].splitlines()
            if ": " in line
            for face in line.split(": ", 1)[1].split(", ")
        ]
        assert len(listed) == len(hand)
        panels[user.id] = panel
    assert panels[scene.alice.id].embeds[0] != panels[scene.bob.id].embeds[0]
    # Each panel is only visible to its player.
    assert panels[scene.alice.id] not in driver.visible(scene.bob, scene.channel)
    assert panels[scene.bob.id] not in driver.visible(scene.alice, scene.channel)

    # A member who is not seated is refused, even in the table's channel.
    answer = private_to(await driver.slash(scene.mod, scene.channel, "uno hand"), scene.mod)
    assert answer.content == NOT_AT_A_TABLE
    # From another channel, a player still gets the panel of their table.
    elsewhere = emu.add_text_channel(scene.guild, "lounge")
    away = private_to(await driver.slash(scene.bob, elsewhere, "uno hand"), scene.bob)
    assert away.embeds[0]["footer"]["text"] == f"Table {truth.table_id} · only you can see this"

    # The panel works like one opened with the Hand button: its controls play.
    (user, choices), *_ = table.who_can_act()
    await table.choose(user, choices[0])
    after = await load_truth(database, scene.channel.id)
    assert after is not None
    assert after.match.version == truth.match.version + 1
    assert table.failures() == []
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


async def test_hand_after_leaving_a_pizza_table_that_plays_on_is_refused(
    emu: Emulator, driver: Driver, scene: Scene, database: Path, uno_bot: BotProcess
) -> None:
    carol = emu.add_user("carol", guild=scene.guild)
    table = ScriptedTable(driver, scene.channel, [scene.alice, scene.bob, carol], seed=31)
    await table.open("pizza", target=100)
    left = private_to(await driver.slash(carol, scene.channel, "uno leave"), carol)
    assert "forfeit" in left.content
    truth = await load_truth(database, scene.channel.id)
    assert truth is not None  # X3: alice and bob play on

    # Carol left: she has no hand and no decision here any more (X3).
    answer = private_to(await driver.slash(carol, scene.channel, "uno hand"), carol)
    assert answer.content == NOT_AT_A_TABLE
    pressed = private_to(await table.press(carol, "hand"), carol)
    assert "You're watching this game" in pressed.content  # no hand: the table, as a spectator
    again = private_to(await driver.slash(carol, scene.channel, "uno leave"), carol)
    assert again.content == NOT_AT_A_TABLE

    # At a new table elsewhere, /uno hand here brings her the new table, not the old one.
    lounge = emu.add_text_channel(scene.guild, "lounge")
    duo = ScriptedTable(driver, lounge, [carol, scene.mod], seed=32)
    await duo.open("duo", opponent=scene.mod)
    new = await load_truth(database, lounge.id)
    assert new is not None
    assert new.table_id != truth.table_id
    answer = private_to(await driver.slash(carol, scene.channel, "uno hand"), carol)
    assert answer.embeds[0]["footer"]["text"] == f"Table {new.table_id} · only you can see this"
    clean_log(emu)  # and uno_bot: no traceback in the bot's log


async def test_hand_in_a_lobby_says_the_game_has_not_started(
    emu: Emulator, driver: Driver, scene: Scene, uno_bot: BotProcess
) -> None:
    opened = await driver.slash(scene.alice, scene.channel, "uno pizza")
    lobby = opened.message
    assert lobby is not None
    await driver.click(scene.bob, lobby, label="Join")
    # They sit at a lobby, so "start a table" would only lead to "you're already at one".
    for user in (scene.alice, scene.bob):
        answer = private_to(await driver.slash(user, scene.channel, "uno hand"), user)
        assert (
            driver.read(answer)
            == "The game in #uno hasn't started yet: your hand comes once it does."
        )
    answer = private_to(await driver.slash(scene.mod, scene.channel, "uno hand"), scene.mod)
    assert answer.content == NOT_AT_A_TABLE

    await driver.click(scene.alice, lobby, label="Start")
    # The lobby became the table.
    await driver.wait_for(lambda: is_table_message(lobby), timeout=PATIENCE)
    panel = private_to(await driver.slash(scene.bob, scene.channel, "uno hand"), scene.bob)
    assert panel.embeds[0]["title"].startswith("Your hand · ")
    clean_log(emu)
