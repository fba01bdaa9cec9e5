"""Running tables written into the bot's database before it starts, as a restart finds them.

Reaching a rare decision (a Wild Draw 4 to challenge, a Draw 2 volley) or the last
round of a match by clicking through the bot costs a round trip per action and a whole
seeded match; the engine gets there in microseconds. `reach` plays random legal actions
in-process until a player is offered what the test wants (`late_round` : until a round
starts with a score near the target); `write_running_table` records that match with the
project's own repository exactly as the bot records one (its start, then each action in
order, with the rounds it finished), so the bot restores it at start-up
(`TableManager.restore_all`) and shows it like any table that was running when it
stopped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from db.database import Database
from db.models import RoundResult, Seat
from engine.actions import Action, to_json
from engine.events import Event, RoundEnded, RoundStarted
from engine.match import ClassicOptions, DuoOptions, Match, PizzaOptions, Variant, new_match

Wanted = Callable[[dict[str, Any]], bool]  # an action's JSON form (engine.actions.to_json)


@dataclass(frozen=True)
class Reached:
    """A match where `player` may now take an action `wanted` accepts."""

    variant: Variant
    players: tuple[str, ...]
    seed: int
    target: int
    path: tuple[tuple[str, Action], ...]  # the actions that led here, in order
    player: str
    house: tuple[str, ...] = ()  # classic house rules on (H1-H4), as the table stores them


def options(
    variant: Variant, target: int, house: Sequence[str] = ()
) -> DuoOptions | PizzaOptions | ClassicOptions:
    if variant == "classic":
        return ClassicOptions(target=target, **dict.fromkeys(house, True))
    return DuoOptions(target=target) if variant == "duo" else PizzaOptions(target=target)


def reach(
    variant: Variant,
    players: Sequence[str],
    wanted: Wanted,
    *,
    target: int,
    seeds: range = range(500),
    max_steps: int = 400,
    house: Sequence[str] = (),
    holding: Callable[[Match, str], bool] = lambda match, player: True,
) -> Reached:
    """Play random legal actions (mostly plays, as people do) until `wanted` is offered.

    Only round 1, so that the scores in the snapshot are the rounds the database holds.
    `house`: the classic house rules the table plays (`stacking`, `seven_o`, ...).
    `holding`: what else must be true of that player's seat (a hand of some shape).
    """

    def offered(match: Match, events: list[Event]) -> str | None:
        if any(isinstance(e, RoundEnded) for e in events):
            raise _NextSeed
        # The seats the match waits for first; then the others (a jump-in, H3).
        for player in dict.fromkeys([*match.waiting_for(), *match.players]):
            legal = match.legal_actions(player)
            if any(wanted(to_json(a)) for a in legal) and holding(match, player):
                return player
        return None

    return _search(variant, players, offered, target, seeds, max_steps, tuple(house))


def late_round(
    variant: Variant, players: Sequence[str], *, target: int, near: int, seeds: range = range(500)
) -> Reached:
    """A round that starts with someone within `near` points of the target."""

    def started(match: Match, events: list[Event]) -> str | None:
        if not any(isinstance(e, RoundStarted) for e in events) or match.is_over:
            return None
        if max(seat.score for seat in match.public_view().seats) < target - near:
            return None
        return match.waiting_for()[0]

    return _search(variant, players, started, target, seeds, 4000)


class _NextSeed(Exception):
    """The search left what it looks for (a round ended): try the next seed."""


def _search(
    variant: Variant,
    players: Sequence[str],
    found: Callable[[Match, list[Event]], str | None],
    target: int,
    seeds: range,
    max_steps: int,
    house: tuple[str, ...] = (),
) -> Reached:
    table_options = options(variant, target, house)
    for seed in seeds:
        match = new_match(variant, players=players, seed=seed, options=table_options)
        rng = random.Random(seed)
        path: list[tuple[str, Action]] = []
        events: list[Event] = []
        try:
            while len(path) < max_steps and not match.is_over:
                if (player := found(match, events)) is not None:
                    found_at = (seed, target, tuple(path), player, house)
                    return Reached(variant, tuple(players), *found_at)
                player = rng.choice(match.waiting_for())
                legal = match.legal_actions(player)
                plays = [a for a in legal if to_json(a)["type"] == "play"]
                action = rng.choice(plays if plays and rng.random() < 0.8 else legal)
                path.append((player, action))
                events = match.apply(player, action)
        except _NextSeed:
            continue
    raise LookupError(f"no {variant} match reached what the test wants")


async def write_running_table(
    db: Database, reached: Reached, *, guild_id: int, channel_id: int, names: Sequence[str]
) -> int:
    """Record the match as the bot would have; return its match id (the table id)."""
    match: Match = new_match(
        reached.variant,
        players=reached.players,
        seed=reached.seed,
        options=options(reached.variant, reached.target, reached.house),
    )
    host = int(reached.players[0])
    stored: dict[str, JsonValue] = {
        "target": reached.target,
        "host_id": host,
        "house_rules": list(reached.house),
    }
    match_id = await db.tables.start_match(
        guild_id=guild_id,
        channel_id=channel_id,
        variant=reached.variant,
        options=stored,
        seed=reached.seed,
        players=[
            Seat(user_id=int(p), display_name=n)
            for p, n in zip(reached.players, names, strict=True)
        ],
        state=match.to_snapshot(),
    )
    for seq, (player, action) in enumerate(reached.path, start=1):
        events = match.apply(player, action)
        ended = [e for e in events if isinstance(e, RoundEnded)]
        await db.tables.record_action(
            match_id,
            seq=seq,
            player_id=int(player),
            action=to_json(action),
            state=match.to_snapshot,  # called at once, only when a snapshot is due
            deadline=None,  # no timer: the test decides when the player acts
            round_start=any(isinstance(e, RoundStarted) for e in events),
            round_result=RoundResult(
                round_no=ended[0].round,
                winner_id=int(ended[0].winner),
                points={int(p): pts for p, pts in ended[0].points},
            )
            if ended
            else None,
        )
    return match_id
