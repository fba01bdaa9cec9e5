"""X4: a finished match stepped through again (engine/replay.py) is the match played.

For random seeded matches of every variant, house rules included, with calls,
catches, jump-ins and now and then a player leaving: the replay's events are the
played ones, step by step, its final scores and places are the played ones, and
every step's public view is the one the table had then.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from engine.actions import Action, Play
from engine.events import Event
from engine.match import ClassicOptions, Match, Options, PizzaOptions
from engine.replay import CHECKPOINT_EVERY, Replay
from engine.unreplayable import Unreplayable
from engine.views import PublicView
from tests.engine.test_properties import eager, start, tables

Log = list[tuple[str, Action | None]]


def _step(match: Match, rng: random.Random, *, plays_first: bool) -> tuple[str, Action | None]:
    seated = [s.player for s in match.public_view().seats if s.seated]
    if match.variant != "duo" and len(seated) > 2 and rng.random() < 0.004:
        return rng.choice(seated), None  # X3
    for player in seated:
        reactions = [a for a in match.legal_actions(player) if player not in match.waiting_for()]
        if reactions and rng.random() < 0.2:  # a call, a catch or a jump-in (H3)
            return player, rng.choice(reactions)
    who = match.waiting_for()[0]
    legal = match.legal_actions(who)
    plays: list[Action] = [a for a in legal if isinstance(a, Play)]
    if plays and (plays_first or rng.random() < 0.6):
        return who, rng.choice(plays)
    return who, rng.choice(legal)


def _played(
    table: tuple[str, int, int, Options],
) -> tuple[Match, Log, list[tuple[Event, ...]], list[PublicView]]:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    rng = random.Random(seed)
    log: Log = []
    events: list[tuple[Event, ...]] = [()]
    views = [match.public_view()]
    while not match.is_over:
        player, action = _step(match, rng, plays_first=eager(options))
        done = match.remove_player(player) if action is None else match.apply(player, action)
        log.append((player, action))
        events.append(tuple(done))
        views.append(match.public_view())
    return match, log, events, views


@settings(deadline=None, max_examples=60)
@given(table=tables())
def test_x4_a_replay_reproduces_every_event_and_the_final_scores(
    table: tuple[str, int, int, Options],
) -> None:
    _, _, seed, options = table
    match, log, events, views = _played(table)
    replay = Replay(match.variant, players=match.players, seed=seed, options=options, log=log)
    assert replay.steps == len(log) == match.version
    assert replay.events == events
    assert replay.placings() == match.placings()
    assert replay.final.public_view() == match.public_view()
    rng = random.Random(seed)
    probes = {0, replay.steps, *(rng.randrange(replay.steps + 1) for _ in range(12))}
    for step in sorted(probes, key=lambda _: rng.random()):  # forwards and backwards
        frame = replay.frame(step, match.players[0])
        assert frame.public == views[step]
        assert frame.steps == replay.steps


@pytest.mark.parametrize("cut", ["short", "wrong player"])
def test_x4_a_log_that_no_longer_replays_is_refused(cut: str) -> None:
    table = ("pizza", 3, 11, PizzaOptions(target=40))
    match, log, _, _ = _played(table)
    broken = list(log[:-1])
    if cut == "wrong player":  # a play by someone whose turn it was not (no jump-in here)
        broken = list(log)
        at = next(i for i, (_, a) in enumerate(log) if isinstance(a, Play))
        player, action = log[at]
        broken[at] = (next(p for p in match.players if p != player), action)
    with pytest.raises(Unreplayable):
        Replay("pizza", players=match.players, seed=11, options=table[3], log=broken)


def test_x4_every_step_of_a_long_match_is_near_a_checkpoint() -> None:
    table = ("classic", 4, 5, ClassicOptions(target=500))
    match, log, _, views = _played(table)
    replay = Replay("classic", players=match.players, seed=5, options=table[3], log=log)
    assert replay.steps > 3 * CHECKPOINT_EVERY
    for step in (replay.steps, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, 1, replay.steps - 1):
        assert replay.frame(step, None).public == views[step]
        assert replay.frame(step, None).hand is None
