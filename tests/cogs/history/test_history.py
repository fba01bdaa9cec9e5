"""Match history and replays (issue 26) on a real SQLite file, real engine matches.

A replay is built from nothing but the stored seed and action log; each step must
be what the table showed then, with the viewer's own hand and nobody else's cards.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.uno.history.library import ReplayLibrary
from cogs.uno.history.no_replay import NoReplay
from cogs.uno.history.render import EMBEDS_TOTAL, own_hand, replay_panel
from cogs.uno.history.retention import LogRetention
from cogs.uno.i18n.l10n import speaking
from cogs.uno.table.options import TableOptions
from db.database import Database
from db.models import FORGOTTEN_NAME
from engine.cards import classic_deck
from engine.match import new_match
from engine.replay_frame import Frame
from tests.cogs.history_play import GUILD, Recorded, record_match
from tests.e2e.replay_scan import cards_of, hand_read, others_only

A, B, C = 101, 102, 103
HOUSE = TableOptions(
    target=60,
    turn_seconds=90,
    house_rules=("stacking", "seven_o", "jump_in", "draw_to_match"),
)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(tmp_path / "uno.db") as database:
        yield database


async def _house_match_with_a_swap(db: Database) -> Recorded:
    """A classic match with every house rule, in which someone swapped hands with B."""
    for seed in range(1, 40):
        recorded = await record_match(db, variant="classic", users=[A, B, C], play=HOUSE, seed=seed)
        if str(B) in recorded.swapped:
            return recorded
    raise AssertionError("no seed swapped hands with B")


def _text(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


async def test_x4_every_step_is_what_the_table_showed_with_only_the_viewers_hand(
    db: Database,
) -> None:
    recorded = await record_match(
        db,
        variant="pizza",
        users=[A, B, C],
        play=TableOptions(target=50, turn_seconds=90),
        seed=7,
        remove_at=25,  # X3: a player leaves; the replay shows it too
    )
    library = ReplayLibrary(db, turn_seconds=90)
    loaded = await library.load(recorded.match_id, guild_id=GUILD)
    assert loaded.replay.steps == len(recorded.publics) - 1
    assert loaded.replay.events == recorded.events
    for step in range(loaded.replay.steps + 1):
        for viewer in (str(A), str(B), "555"):
            frame = loaded.replay.frame(step, viewer)
            assert frame.public == recorded.publics[step]
            own = recorded.hands[step].get(viewer)
            assert frame.hand == own  # None for someone who did not play
    # Stepping backwards (from a checkpoint) gives the same frames.
    for step in range(loaded.replay.steps, -1, -7):
        assert loaded.replay.frame(step, str(C)).public == recorded.publics[step]


async def test_x4_a_frame_names_no_card_only_another_player_held(db: Database) -> None:
    recorded = await _house_match_with_a_swap(db)
    loaded = await ReplayLibrary(db, turn_seconds=90).load(recorded.match_id, guild_id=GUILD)
    scanned = 0
    with speaking("en"):
        for step in range(loaded.replay.steps + 1):
            frame = loaded.replay.frame(step, str(A))
            payload = replay_panel(loaded, frame, viewer=str(A))
            embeds: list[dict[str, Any]] = payload["embeds"]
            hands = recorded.hands[step]
            mine = hands[str(A)]
            # A's own part is exactly A's hand then ...
            assert hand_read(embeds[1]["description"]) == cards_of(mine)
            # ... and no card that only the others held is in it or in the words around it.
            secret = others_only(mine, [hands[p] for p in hands if p != str(A)])
            scanned += len(secret)
            assert not secret & set(hand_read(embeds[1]["description"]))
            assert not secret & set(hand_read(str(payload["content"])))
            # The public part is the live table's own embed of that moment, and a round's
            # summary only on the step that ended it.
            assert embeds[0]["footer"]["text"].startswith(f"Table {recorded.match_id}")
            ended = frame.round_ended is not None
            assert (len(embeds) == 3) == ended
            assert sum(len(discord.Embed.from_dict(e)) for e in embeds) <= EMBEDS_TOTAL
    assert scanned > 100


async def test_x4_replays_survive_forget_and_show_a_deleted_member(db: Database) -> None:
    recorded = await _house_match_with_a_swap(db)  # the log names B as a swap target
    assert await db.scores.forget_member(B, guild_id=GUILD) == 1
    library = ReplayLibrary(db, turn_seconds=90)
    loaded = await library.load(recorded.match_id, guild_id=GUILD)
    assert FORGOTTEN_NAME in loaded.names.values()
    assert str(B) not in loaded.players
    with speaking("en"):
        last = replay_panel(loaded, loaded.replay.frame(loaded.replay.steps, str(A)), viewer=str(A))
        assert "Deleted member" in _text(last)
    with speaking("hr"):
        assert "Deleted member" not in _text(
            replay_panel(loaded, loaded.replay.frame(0, str(A)), viewer=str(A))
        )
    # B's history is gone; A's still lists the match, B's seat as a deleted member.
    gone = await db.history.member_matches(guild_id=GUILD, user_id=B)
    assert gone.entries == []
    kept = await db.history.member_matches(guild_id=GUILD, user_id=A)
    assert [e.match_id for e in kept.entries] == [recorded.match_id]
    assert FORGOTTEN_NAME in {p.display_name for p in kept.entries[0].players}


async def test_x4_a_log_the_rules_refuse_is_not_shown(db: Database) -> None:
    recorded = await record_match(
        db, variant="duo", users=[A, B], play=TableOptions(target=30, turn_seconds=90), seed=3
    )
    async with db.transaction() as conn:  # as if the rules had changed since
        await conn.execute(
            'UPDATE actions SET action = \'{"type":"draw"}\' WHERE match_id = ? AND seq = 20',
            (recorded.match_id,),
        )
    with pytest.raises(NoReplay) as refused:
        await ReplayLibrary(db, turn_seconds=90).load(recorded.match_id, guild_id=GUILD)
    assert refused.value.reason == "unreplayable"


async def test_replays_of_another_server_or_dropped_logs_are_refused(db: Database) -> None:
    recorded = await record_match(
        db, variant="duo", users=[A, B], play=TableOptions(target=30, turn_seconds=90), seed=4
    )
    library = ReplayLibrary(db, turn_seconds=90)
    with pytest.raises(NoReplay) as elsewhere:
        await library.load(recorded.match_id, guild_id=GUILD + 1)
    assert elsewhere.value.reason == "elsewhere"
    assert await db.history.drop_logs(ended_before=datetime.now(UTC) - timedelta(days=1)) == 0
    assert await db.history.drop_logs(ended_before=datetime.now(UTC) + timedelta(days=1)) > 0
    library.forget()
    with pytest.raises(NoReplay) as dropped:
        await library.load(recorded.match_id, guild_id=GUILD)
    assert dropped.value.reason == "dropped"
    # The match itself stays on the boards and in history.
    kept = await db.history.member_matches(guild_id=GUILD, user_id=A)
    assert [e.match_id for e in kept.entries] == [recorded.match_id]


async def test_retention_drops_only_moves_older_than_the_setting(db: Database) -> None:
    now = datetime.now(UTC)
    play = TableOptions(target=30, turn_seconds=90)
    old = await record_match(
        db, variant="duo", users=[A, B], play=play, seed=5, ended_at=now - timedelta(days=31)
    )
    new = await record_match(
        db, variant="duo", users=[A, B], play=play, seed=6, ended_at=now - timedelta(days=29)
    )
    forever = LogRetention(db, days=0)
    forever.start()  # 0 days: nothing is ever dropped, no task runs
    await forever.stop()
    assert await LogRetention(db, days=30).drop_old() > 0
    library = ReplayLibrary(db, turn_seconds=90)
    with pytest.raises(NoReplay):
        await library.load(old.match_id, guild_id=GUILD)
    assert (await library.load(new.match_id, guild_id=GUILD)).replay.steps > 0
    kept = await db.history.member_matches(guild_id=GUILD, user_id=A)
    assert {e.match_id for e in kept.entries} == {old.match_id, new.match_id}


def test_a_huge_hand_fits_what_the_table_leaves_of_a_message() -> None:
    match = new_match("classic", players=["1", "2"], seed=1)
    cards = tuple(classic_deck()[:80])  # every colour, most faces, twice or more
    frame = Frame(step=0, steps=0, public=match.public_view(), hand=cards, round_ended=None)
    with speaking("en"):
        hand = own_hand(frame, None, limit=300)
    assert len(hand.description or "") <= 300
    assert "more" in (hand.description or "")  # says that lines were left out
    assert hand.title == "Your hand · 80 cards"
