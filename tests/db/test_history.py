"""The history repository on every engine: a member's finished matches, a match's log
for its replay, the log's retention, and forgetting a member in the log (H2's target).

Matches are real ones, played by random legal moves and recorded as the bot records
them (tests/cogs/history_play.py).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from cogs.uno.history.render import history_page
from cogs.uno.i18n.l10n import speaking
from cogs.uno.table.options import TableOptions
from db.database import Database
from db.errors import UnknownMatch
from db.models import FORGOTTEN_NAME, Variant
from tests.cogs.history_play import GUILD, record_match

A, B, C = 101, 102, 103
HOUSE = TableOptions(
    target=60, turn_seconds=90, house_rules=("stacking", "seven_o", "jump_in", "draw_to_match")
)


async def test_history_pages_newest_first_by_game(db: Database) -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    ids = []
    for k in range(12):
        variant: Variant = "duo" if k % 3 else "pizza"
        users = [A, B] if variant == "duo" else [A, B, C]
        play = TableOptions(target=30, turn_seconds=90)
        recorded = await record_match(
            db, variant=variant, users=users, play=play, seed=k, ended_at=start + timedelta(hours=k)
        )
        ids.append((recorded.match_id, variant))
    first = await db.history.member_matches(guild_id=GUILD, user_id=A)
    assert (first.page, first.pages, first.total) == (1, 2, 12)
    assert [e.match_id for e in first.entries] == [m for m, _ in reversed(ids)][:10]
    second = await db.history.member_matches(guild_id=GUILD, user_id=A, page=2)
    assert [e.match_id for e in second.entries] == [m for m, _ in reversed(ids)][10:]
    pizza = await db.history.member_matches(guild_id=GUILD, user_id=C, variant="pizza")
    assert [e.match_id for e in pizza.entries] == [m for m, v in reversed(ids) if v == "pizza"]
    entry = first.entries[0]
    assert [p.place for p in entry.players] == sorted(p.place for p in entry.players)
    assert entry.rounds >= 1
    with speaking("en"):
        embed, specs = history_page(first, member=A, name="Ann", variant=None)
    assert f"match {entry.match_id}" in (embed.description or "")
    assert len(specs[0].options) == 10  # type: ignore[union-attr]
    assert "Page 1 of 2" in (embed.footer.text or "")


async def test_a_stored_match_is_its_whole_log_and_results(db: Database) -> None:
    play = TableOptions(target=30, turn_seconds=90)
    recorded = await record_match(db, variant="duo", users=[A, B], play=play, seed=2)
    stored = await db.history.stored_match(recorded.match_id)
    assert [a.seq for a in stored.actions] == list(range(1, recorded.match.version + 1))
    assert {r.user_id for r in stored.results} == {A, B}
    assert [r.place for r in stored.results] == sorted(r.place for r in stored.results)
    assert stored.match.seed == 2
    running = await db.tables.start_match(
        guild_id=GUILD, channel_id=1, variant="duo", options={}, seed=1,
        players=stored.match.players, state="{}",
    )  # fmt: skip
    for missing in (running, 999_999):  # only finished matches have a replay
        with pytest.raises(UnknownMatch):
            await db.history.stored_match(missing)


async def test_forget_names_the_seat_in_the_log_where_an_action_named_them(
    db: Database,
) -> None:
    for seed in range(1, 40):  # a classic match where someone swapped hands with B (H2)
        recorded = await record_match(db, variant="classic", users=[A, B, C], play=HOUSE, seed=seed)
        if str(B) in recorded.swapped:
            break
    else:
        raise AssertionError("no seed swapped hands with B")
    assert await db.scores.forget_member(B, guild_id=GUILD) == 1
    stored = await db.history.stored_match(recorded.match_id)
    placeholder = -(recorded.match.players.index(str(B)) + 1)
    targets = [json.loads(a.action_json).get("target") for a in stored.actions]
    assert str(B) not in targets
    assert str(placeholder) in targets
    assert B not in {a.player_id for a in stored.actions}
    assert placeholder in {a.player_id for a in stored.actions}
    assert FORGOTTEN_NAME in {s.display_name for s in stored.match.players}
    assert (await db.history.member_matches(guild_id=GUILD, user_id=B)).entries == []


async def test_drop_logs_keeps_the_matches(db: Database) -> None:
    play = TableOptions(target=30, turn_seconds=90)
    now = datetime.now(UTC)
    old = await record_match(
        db, variant="duo", users=[A, B], play=play, seed=5, ended_at=now - timedelta(days=31)
    )
    new = await record_match(
        db, variant="duo", users=[A, B], play=play, seed=6, ended_at=now - timedelta(days=29)
    )
    assert await db.history.drop_logs(ended_before=now - timedelta(days=30)) == old.match.version
    assert (await db.history.stored_match(old.match_id)).actions == []
    assert len((await db.history.stored_match(new.match_id)).actions) == new.match.version
    kept = await db.history.member_matches(guild_id=GUILD, user_id=A)
    assert {e.match_id for e in kept.entries} == {old.match_id, new.match_id}
