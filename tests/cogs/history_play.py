"""A real match played by random legal moves and recorded as the bot records one, for
the history and replay tests (a real SQLite file, the real engine)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from cogs.uno.table.options import TableOptions
from cogs.uno.table.scoring import match_results
from db.database import Database
from db.models import RoundResult, Seat
from engine import actions as engine_actions
from engine.actions import Action, Play, SwapHands
from engine.cards import Card
from engine.events import Event, MatchEnded, RoundEnded, RoundStarted
from engine.match import Match, Variant, new_match
from engine.views import PublicView

GUILD = 1000


@dataclass
class Recorded:
    """What the table showed after each step, and each player's own hand then."""

    match_id: int
    match: Match
    publics: list[PublicView] = field(default_factory=list)
    hands: list[dict[str, tuple[Card, ...]]] = field(default_factory=list)
    events: list[tuple[Event, ...]] = field(default_factory=lambda: [()])
    swapped: set[str] = field(default_factory=set)  # H2 targets named in the log


def _seen(record: Recorded) -> None:
    match = record.match
    record.publics.append(match.public_view())
    seated = [s.player for s in match.public_view().seats]
    record.hands.append({p: match.private_view(p).hand for p in seated})


def _choose(match: Match, rng: random.Random) -> tuple[str, Action]:
    who = match.waiting_for()[0]
    legal = match.legal_actions(who)
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and rng.random() < 0.85:
        return who, rng.choice(plays)
    return who, rng.choice(legal)


async def record_match(
    db: Database,
    *,
    variant: Variant,
    users: list[int],
    play: TableOptions,
    seed: int,
    guild_id: int = GUILD,
    remove_at: int | None = None,
    ended_at: datetime | None = None,
) -> Recorded:
    """Play a whole match and store every action (a removal at step `remove_at`)."""
    match = new_match(
        variant, players=[str(u) for u in users], seed=seed, options=play.engine(variant)
    )
    match_id = await db.tables.start_match(
        guild_id=guild_id,
        channel_id=2000,
        variant=variant,
        options={**play.data(), "host_id": users[0]},
        seed=seed,
        players=[Seat(user_id=u, display_name=f"player{u}") for u in users],
        state=match.to_snapshot(),
    )
    record = Recorded(match_id, match)
    _seen(record)
    rng = random.Random(seed)
    while not match.is_over:
        player: str
        data: dict[str, Any]
        if remove_at is not None and match.version == remove_at:
            player = match.waiting_for()[0]
            events = match.remove_player(player)
            data = {"type": "remove"}
        else:
            player, action = _choose(match, rng)
            events = match.apply(player, action)
            data = engine_actions.to_json(action)
            if isinstance(action, SwapHands):
                record.swapped.add(action.target)
        record.events.append(tuple(events))
        _seen(record)
        await _store(db, match_id, match, int(player), data, events)
    if ended_at is not None:
        await db.execute_atomic(
            "UPDATE matches SET ended_at = ? WHERE match_id = ?",
            (round(ended_at.astimezone(UTC).timestamp() * 1000), match_id),
        )
    return record


async def _store(
    db: Database,
    match_id: int,
    match: Match,
    player: int,
    data: dict[str, Any],
    events: list[Event],
) -> None:
    """Record the action as the table service does: with its round and the match's end."""
    ended = any(isinstance(e, MatchEnded) for e in events)
    await db.tables.record_action(
        match_id,
        seq=match.version,
        player_id=player,
        action=data,
        state=match.to_snapshot,
        deadline=None,
        round_start=any(isinstance(e, RoundStarted) for e in events),
        round_result=_round(events),
        results=match_results(match) if ended else None,
    )


def _round(events: list[Event]) -> RoundResult | None:
    for event in events:
        if isinstance(event, RoundEnded):
            return RoundResult(
                round_no=event.round,
                winner_id=int(event.winner),
                points={int(p): pts for p, pts in event.points},
            )
    return None
