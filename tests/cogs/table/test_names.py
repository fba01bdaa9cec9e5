"""Member-chosen display names show as typed wherever Discord renders markdown.

A name is escaped once, where it goes into the text: its markup and mentions
never render, its characters are never doubled with backslashes, and the bot's
own `<@id>` mentions next to it stay mentions.
"""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest

from cogs.uno import render
from cogs.uno.boards import embeds as boards
from cogs.uno.lobby.lobby import Lobby
from cogs.uno.table.options import TableOptions
from db.models import (
    LeaderboardEntry,
    LeaderboardPage,
    MemberStats,
    PlayerStats,
    RecentMatch,
    Seat,
)
from engine.cards import cards
from engine.events import ChallengeResolved, MatchEnded, RoundEnded
from engine.views import PrivateView, PublicView, SeatView
from tests.cogs.builders import ANN, BOB, public_view

EVIL = "**evil**_name_"
EVIL_SHOWN = r"\*\*evil\*\*\_name\_"  # what Discord then displays: **evil**_name_
EVERYONE = "@everyone"
SNOWFLAKE = "123456789012345678"
MENTIONS = (EVERYONE, "@here", f"<@{SNOWFLAKE}>", f"<@&{SNOWFLAKE}>", f"<#{SNOWFLAKE}>")
COGS = Path(__file__).resolve().parents[3] / "cogs"


def rendered(embed: discord.Embed) -> str:
    """Every part of an embed Discord renders as markdown."""
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def assert_inert(text: str) -> None:
    """No mention in `text` would link or ping (the bot's own mentions aside)."""
    assert EVERYONE not in text
    assert "@here" not in text
    assert not re.search(r"<(@[!&]?|#)\d{17,20}>", text), text


# ---------------------------------------------------------------- the helper


def test_escape_name_escapes_markup_once() -> None:
    assert render.escape_name(EVIL) == EVIL_SHOWN
    assert render.escape_name("back\\slash") == "back\\\\slash"


@pytest.mark.parametrize("mention", MENTIONS)
def test_escape_name_leaves_no_mention_to_render(mention: str) -> None:
    shown = render.escape_name(f"hi {mention}")
    assert_inert(shown)
    assert shown.replace("\u200b", "") == f"hi {mention}"  # still reads as typed


def test_a_name_is_tidied_to_one_line_of_discord_length() -> None:
    assert render.escape_name("  a\n\tb  ") == "a b"
    assert len(render.tidy_name("x" * 100)) == render.NAME_LIMIT
    assert render.escape_name("   ") == "Player"


# ---------------------------------------------------------------- boards


def stats(name: str) -> PlayerStats:
    return PlayerStats(
        user_id=1,
        display_name=name,
        variant="duo",
        played=1,
        won=1,
        lost=0,
        forfeits=0,
        win_rate=1.0,
        rounds_won=1,
        points=0,
        current_streak=1,
        best_streak=1,
    )


def test_stats_title_and_opponents_are_escaped() -> None:
    match = RecentMatch(
        match_id=1,
        ended_at=datetime(2026, 3, 1, tzinfo=UTC),
        outcome="won",
        score=0,
        place=1,
        opponents=[Seat(user_id=2, display_name=EVIL), Seat(user_id=3, display_name=EVERYONE)],
    )
    embed = boards.stats(EVIL, {"duo": MemberStats(stats=stats(EVIL), recent=[match])})
    assert embed.title == f"{EVIL_SHOWN} — UNO record"
    line = (embed.fields[0].value or "").splitlines()[-1]
    assert f"won vs {EVIL_SHOWN}, @\u200beveryone (0 pts" in line
    assert_inert(rendered(embed))


def test_leaderboard_names_are_escaped_once_and_inert() -> None:
    entries = [
        LeaderboardEntry(place=1, stats=stats(EVIL)),
        LeaderboardEntry(place=2, stats=stats(f"<@{SNOWFLAKE}> {EVERYONE}")),
    ]
    page = LeaderboardPage(variant="duo", page=1, page_size=10, total=2, entries=entries)
    embed, _ = boards.leaderboard(page, guild_name="**Uno** Club")
    first, second = (embed.description or "").splitlines()
    assert first.startswith(f"🥇 **{EVIL_SHOWN}** — ")
    assert second.startswith("🥈 **<@\u200b")
    assert_inert(rendered(embed))
    assert embed.author.name == "**Uno** Club"  # author lines render no markdown


# ---------------------------------------------------------------- lobby


def test_lobby_host_and_seats_are_escaped_and_the_invite_stays_a_mention() -> None:
    lobby = Lobby(
        lobby_id=5,
        channel_id=1,
        guild_id=2,
        host_id=3,
        variant="duo",
        play=TableOptions(target=200, turn_seconds=90),
        seats=[(3, EVIL)],
        invited_id=int(SNOWFLAKE),
    )
    embed = lobby.embed()
    assert (embed.description or "").startswith(f"**{EVIL_SHOWN}** challenges <@{SNOWFLAKE}> ")
    assert embed.fields[0].value == f"• {EVIL_SHOWN}"
    pizza = Lobby(
        lobby_id=6,
        channel_id=1, guild_id=2, host_id=3, variant="pizza",
        play=TableOptions(target=250, turn_seconds=90),
        seats=[(3, EVIL), (4, EVERYONE)],
    )  # fmt: skip
    text = rendered(pizza.embed())
    assert f"**{EVIL_SHOWN}** opened" in text
    assert_inert(text)


# ---------------------------------------------------------------- the game's own texts


NAMES = {ANN: EVIL, BOB: EVERYONE}


def bob_gone(**changes: object) -> PublicView:
    """Ann's turn at a table Bob (named @everyone) has left."""
    seats = (SeatView(ANN, 7, 0, False, True), SeatView(BOB, 7, 0, False, False))
    return public_view(seats=seats, dealer=ANN, **changes)


def test_table_names_are_escaped_once_including_a_player_who_left() -> None:
    view = bob_gone()
    embed = render.table_embed(view, names=NAMES, table_id=1, deadline=None)
    players = (embed.fields[0].value or "").splitlines()
    assert players[0].startswith(f"▶ **{EVIL_SHOWN}** · ")
    assert players[1].startswith("~~@\u200beveryone~~ left")
    assert_inert(rendered(embed))


def test_summary_titles_and_field_names_are_escaped() -> None:
    ended = RoundEnded(
        round=1,
        winner=ANN,
        points=((ANN, 0), (BOB, 7)),
        scores=((ANN, 0), (BOB, 7)),
        hands=((ANN, ()), (BOB, tuple(cards("R7")))),
    )
    summary = render.round_summary(ended, NAMES, "duo")
    assert summary.title == f"Round 1: {EVIL_SHOWN} went out"
    assert [f.name for f in summary.fields] == [
        f"{EVIL_SHOWN} 🏆 · went out",
        "@\u200beveryone · 1 card left",
    ]
    match = render.match_summary(MatchEnded(ANN, ((ANN, 0), (BOB, 7)), ()), NAMES, "duo")
    assert match.title == f"UNO Duo: {EVIL_SHOWN} wins the match"
    assert_inert(rendered(summary) + rendered(match))


def test_the_revealed_hand_names_the_challenged_player_escaped() -> None:
    mine = PrivateView(
        player=BOB,
        hand=tuple(cards("R1")),
        legal=(),
        looking_at=None,
        drawn=None,
        revealed_hand=tuple(cards("Y4")),
        received=None,
        given=None,
    )
    pub = bob_gone(recent=(ChallengeResolved(BOB, ANN, legitimate=True),))
    panel = render.hand_panel(mine, pub, names=NAMES, table_id=1, version=1)
    assert panel.embed is not None
    assert panel.embed.fields[0].name == f"{EVIL_SHOWN}'s hand (only you see it)"
    assert_inert(panel.content + rendered(panel.embed))


# ---------------------------------------------------------------- no name slips through


def test_every_display_name_the_cog_formats_is_escaped() -> None:
    # The cog's commands answer through live interactions; this guards the f-strings
    # there (and everywhere in cogs/) that put a member's name into text.
    unescaped = []
    for path in sorted(COGS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.FormattedValue):
                continue
            names = {n.attr for n in ast.walk(node.value) if isinstance(n, ast.Attribute)}
            if "display_name" not in names:
                continue
            call = node.value
            func = call.func if isinstance(call, ast.Call) else None
            called = getattr(func, "attr", getattr(func, "id", None))
            if called != "escape_name":
                unescaped.append(f"{path.name}:{node.lineno}: {ast.unparse(call)}")
    assert unescaped == []
