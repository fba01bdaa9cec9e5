"""UNO Duo properties over many random matches (hypothesis).

Random legal play (UNO calls and catches out of turn included, sometimes a
removal) to the end of the match, under both deck and both challenge options.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    Give,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    TakeVolley,
)
from engine.builders import table_for_test
from engine.cards import Card, Colour, Face, duo_deck
from engine.duo import POINTS as DUO_POINTS
from engine.errors import IllegalAction
from engine.events import (
    CardPlayed,
    ChallengeResolved,
    ColourDumped,
    CutForPlayerOne,
    DraftPicked,
    DumpDeclined,
    Event,
    FirstCardTurned,
    MatchEnded,
    RoundEnded,
)
from engine.game import Game
from engine.match import SNAPSHOT_SCHEMA, DuoOptions, Match, from_snapshot, new_match, replay
from engine.views import Pending, Phase

card_points = DUO_POINTS.__getitem__

PLAYERS = ("ann", "bob")
MAX_ACTIONS = 20_000
ALL_CARDS = [Card.parse(code) for code in sorted(Card._interned)]
UNIVERSE: list[Action] = [
    KeepCard(),
    RejectCard(),
    Draw(),
    KeepDrawn(),
    TakeVolley(),
    Challenge(),
    Accept(),
    NoDump(),
    CallUno(),
    CatchUno(),
    *(ChooseColour(c) for c in Colour),
    *(Play(c, uno=u) for c in ALL_CARDS for u in (False, True)),
    *(Dump(c, uno=u) for c in ALL_CARDS for u in (False, True)),
    *(Give(c) for c in ALL_CARDS[:4]),
]
# Events that may name cards, and why that is public.
CARD_EVENTS = (CardPlayed, ColourDumped, DraftPicked, FirstCardTurned, CutForPlayerOne, RoundEnded)

options_st = st.builds(
    DuoOptions,
    target=st.sampled_from([40, 100, 200]),
    classic_deck=st.booleans(),
    classic_challenge=st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)

Step = Callable[[Game, str, Action, list[Event], dict[str, Any]], None]


def other(player: str) -> str:
    return PLAYERS[1 - PLAYERS.index(player)]


def choose(match: Match, rng: random.Random) -> tuple[str, Action]:
    """A random legal action; now and then an out-of-turn UNO call or catch."""
    waiting = match.waiting_for()[0]
    off_turn = match.legal_actions(other(waiting))
    if off_turn and rng.random() < 0.3:
        return other(waiting), rng.choice(off_turn)
    return waiting, rng.choice(match.legal_actions(waiting))


def play_out(
    seed: int,
    options: DuoOptions,
    *,
    remove_at: int | None = None,
    on_step: Step | None = None,
) -> tuple[Game, list[tuple[str, Action] | tuple[str, None]]]:
    match = new_match("duo", players=PLAYERS, seed=seed, options=options)
    assert isinstance(match, Game)
    rng = random.Random(seed)
    log: list[tuple[str, Action] | tuple[str, None]] = []
    while not match.is_over:
        assert len(log) < MAX_ACTIONS, "a match must end"
        if remove_at is not None and len(log) == remove_at:
            who = rng.choice(PLAYERS)
            match.remove_player(who)
            log.append((who, None))
            break
        before = match.to_snapshot() if on_step else {}
        who, action = choose(match, rng)
        events = match.apply(who, action)
        log.append((who, action))
        if on_step:
            on_step(match, who, action, events, before)
    return match, log


def card_count(snap: dict[str, Any]) -> Counter[str]:
    return Counter(
        snap["hands"][0] + snap["hands"][1] + snap["draw"] + snap["discard"] + snap["draft"]
    )


def card_fields(event: Event) -> list[Card]:
    found: list[Card] = []

    def walk(value: object) -> None:
        if isinstance(value, Card):
            found.append(value)
        elif isinstance(value, tuple):
            for v in value:
                walk(v)

    for name in event.__slots__:
        walk(getattr(event, name))
    return found


class Invariants:
    """Checked after every step of a random match."""

    def __init__(self, options: DuoOptions) -> None:
        self.options = options
        self.deck = Counter(c.code for c in duo_deck(classic=options.classic_deck))
        self.version = 0
        self.challenger: str | None = None
        self.ended = False

    def __call__(
        self,
        match: Game,
        who: str,
        action: Action,
        events: list[Event],
        before: dict[str, Any],
    ) -> None:
        snap = match.to_snapshot()
        # Every card exists exactly once (D1), at every step.
        assert card_count(snap) == self.deck
        # The version counts accepted actions.
        assert match.version == before["version"] + 1
        if who == self.challenger:
            self.challenger = None
        for event in events:
            if isinstance(event, ChallengeResolved):
                self.challenger = event.challenger
        self.check_events(events, before, snap)
        self.check_views(match, snap)
        self.check_scores(events, before)
        self.check_pending(match, action, events, before)

    def check_pending(
        self, match: Game, action: Action, events: list[Event], before: dict[str, Any]
    ) -> None:
        """Each pending decision is one the last step can have led to."""
        view = match.public_view()
        pending, top = view.pending, view.top
        if isinstance(action, CallUno | CatchUno):
            assert pending.value == before["pending"]
            return
        if view.phase is Phase.DRAFT:
            assert pending in (Pending.DRAFT_PICK, Pending.DRAFT_FORCED)
            return
        if view.phase is Phase.MATCH_OVER:
            assert pending is Pending.NONE
            return
        assert top is not None
        if pending is Pending.REVERSE_DUMP:  # D4, D9: only right after a Reverse
            assert top.face is Face.REVERSE
            assert any(
                isinstance(e, DumpDeclined)
                or (isinstance(e, CardPlayed) and e.card.face is Face.REVERSE)  # nothing to dump
                or (isinstance(e, ColourDumped) and e.cards[-1].face is Face.REVERSE)
                or (isinstance(e, FirstCardTurned) and e.card.face is Face.REVERSE)
                for e in events
            ), events
        elif pending is Pending.DUMP:
            assert top.face is Face.REVERSE
            assert isinstance(events[0], CardPlayed)
            assert events[0].card is top
        elif pending is Pending.VOLLEY:
            assert top.face is Face.DRAW_TWO
            assert view.pending_draw >= 2
            assert view.pending_draw % 2 == 0
        elif pending is Pending.WILD_DRAW:
            assert top.face is Face.WILD_DRAW_FOUR
            assert view.pending_draw == 4
        elif pending is Pending.COLOUR:
            assert top.is_wild
            assert view.active_colour is None
        elif pending is Pending.DRAWN_CARD:
            assert isinstance(action, Draw)
        else:
            assert pending is Pending.NONE
            assert view.active_colour is not None
        if pending is not Pending.VOLLEY and pending is not Pending.WILD_DRAW:
            assert view.pending_draw == 0

    def check_events(
        self, events: list[Event], before: dict[str, Any], snap: dict[str, Any]
    ) -> None:
        for event in events:
            cards = card_fields(event)
            if not isinstance(event, CARD_EVENTS):
                assert cards == [], event  # a drawn card is never named
            if isinstance(event, CardPlayed):
                assert event.card.code in before["hands"][PLAYERS.index(event.player)]
            elif isinstance(event, ColourDumped):
                held = Counter(before["hands"][PLAYERS.index(event.player)])
                assert not Counter(c.code for c in event.cards) - held
            elif isinstance(event, DraftPicked):
                # The kept card stays private: `shown` is the card that went face up.
                assert event.shown is not None
                depth = -2 if event.kept else -1
                assert event.shown.code == before["draw"][depth]
            elif isinstance(event, FirstCardTurned):
                assert snap["discard"][0] == event.card.code

    def check_views(self, match: Game, snap: dict[str, Any]) -> None:
        public = match.public_view()
        assert len(public.recent) <= 10
        if snap["discard"]:
            assert public.top is not None
            assert public.top.code == snap["discard"][-1]
        assert [c.code for c in public.draft_pile] == snap["draft"]
        for i, player in enumerate(PLAYERS):
            view = match.private_view(player)
            assert sorted(c.code for c in view.hand) == sorted(snap["hands"][i])
            mine = public.to_act == player
            if view.looking_at is not None:
                assert mine
                assert public.pending in (Pending.DRAFT_PICK, Pending.DRAFT_FORCED)
                assert view.looking_at.code == snap["draw"][-1]
            if view.drawn is not None:
                assert mine
                assert public.pending is Pending.DRAWN_CARD
                assert view.drawn in view.hand
            if view.revealed_hand is not None:
                assert self.challenger == player
            for action in view.legal:
                if isinstance(action, Play):
                    assert action.card in view.hand
                elif isinstance(action, Dump):
                    assert action.last in view.hand
            assert list(view.legal) == match.legal_actions(player)

    def check_scores(self, events: list[Event], before: dict[str, Any]) -> None:
        scores = dict(zip(PLAYERS, before["scores"], strict=True))
        for event in events:
            if isinstance(event, RoundEnded):
                points, hands = dict(event.points), dict(event.hands)
                loser = other(event.winner)
                assert hands[event.winner] == ()
                assert points[event.winner] == 0
                assert points[loser] == sum(card_points(c) for c in hands[loser])
                scores[loser] += points[loser]
                assert dict(event.scores) == scores
            elif isinstance(event, MatchEnded):
                self.ended = True
                final = dict(event.scores)
                assert final == scores
                loser = other(event.winner)
                assert final[loser] >= self.options.target
                assert final[event.winner] < final[loser]


@settings(deadline=None)
@given(seed=seeds, options=options_st, remove_at=st.none() | st.integers(200, 4000))
def test_prop_random_matches_keep_every_invariant(
    seed: int, options: DuoOptions, remove_at: int | None
) -> None:
    invariants = Invariants(options)
    match, log = play_out(seed, options, remove_at=remove_at, on_step=invariants)
    assert match.is_over
    assert invariants.ended or log[-1][1] is None
    assert match.waiting_for() == ()
    assert len(log) < MAX_ACTIONS
    assert card_count(match.to_snapshot()) == invariants.deck


@settings(deadline=None)
@given(
    seed=seeds,
    hands=st.tuples(st.integers(1, 12), st.integers(1, 12)),
    turn=st.sampled_from(PLAYERS),
)
def test_prop_a_test_state_plays_on_by_the_real_rules(
    seed: int, hands: tuple[int, int], turn: str
) -> None:
    """`Game.for_test` states are honest: random play from one keeps every invariant."""
    deck = duo_deck()
    random.Random(seed).shuffle(deck)
    top = next(c for c in deck if c.colour is not None)
    deck.remove(top)
    a, b = deck[: hands[0]], deck[hands[0] : hands[0] + hands[1]]
    match = table_for_test(
        "duo",
        hands=(a, b),
        discard=[top],
        players=PLAYERS,
        turn=turn,
        seed=seed,
        options=DuoOptions(),
    )
    options = DuoOptions()
    invariants = Invariants(options)
    rng = random.Random(seed)
    steps = 0
    while not match.is_over and steps < 600:
        before = match.to_snapshot()
        who, action = choose(match, rng)
        invariants(match, who, action, match.apply(who, action), before)
        steps += 1


@settings(deadline=None)
@given(
    seed=seeds,
    options=options_st,
    remove_at=st.none() | st.integers(0, 3000),
)
def test_prop_replay_reproduces_the_final_snapshot(
    seed: int, options: DuoOptions, remove_at: int | None
) -> None:
    match, log = play_out(seed, options, remove_at=remove_at)
    assert match.is_over
    again = replay("duo", players=PLAYERS, seed=seed, options=options, log=log)
    assert json.dumps(again.to_snapshot()) == json.dumps(match.to_snapshot())
    if log[-1][1] is None:  # X3: a removal ends the match, the opponent wins
        view = match.public_view()
        assert view.winner == other(log[-1][0])
        ended = view.recent[-1]
        assert isinstance(ended, MatchEnded)
        assert ended.forfeited == (log[-1][0],)


@settings(deadline=None)
@given(seed=seeds, options=options_st, cut=st.integers(0, 2000), more=st.integers(1, 400))
def test_prop_snapshot_round_trip_mid_game_continues_identically(
    seed: int, options: DuoOptions, cut: int, more: int
) -> None:
    match = new_match("duo", players=PLAYERS, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(cut):
        if match.is_over:
            break
        match.apply(*choose(match, rng))
    data = json.loads(json.dumps(match.to_snapshot()))  # through real JSON
    assert data["schema"] == SNAPSHOT_SCHEMA
    assert data["variant"] == "duo"
    copy = from_snapshot(data)
    assert json.dumps(copy.to_snapshot()) == json.dumps(match.to_snapshot())
    assert copy.public_view() == match.public_view()
    for player in PLAYERS:
        assert copy.private_view(player) == match.private_view(player)
    for _ in range(more):
        if match.is_over:
            break
        who, action = choose(match, rng)
        assert copy.apply(who, action) == match.apply(who, action)
    assert json.dumps(copy.to_snapshot()) == json.dumps(match.to_snapshot())


@settings(deadline=None)
@given(seed=seeds, options=options_st)
def test_prop_legal_actions_are_exactly_what_check_accepts(seed: int, options: DuoOptions) -> None:
    """Every legal action passes check; any other action is refused and changes nothing."""
    match = new_match("duo", players=PLAYERS, seed=seed, options=options)
    rng = random.Random(seed)
    steps = 0
    while not match.is_over and steps < 800:
        full = steps % 40 == 0
        for player in PLAYERS:
            legal = match.legal_actions(player)
            assert len(set(legal)) == len(legal)
            for action in legal:
                match.check(player, action)
            frozen = json.dumps(match.to_snapshot())
            version = match.version
            candidates = UNIVERSE if full else rng.sample(UNIVERSE, 6)
            for action in candidates:
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as refusal:
                    match.check(player, action)
                assert refusal.value.message
            illegal = rng.choice([a for a in UNIVERSE if a not in legal])
            with pytest.raises(IllegalAction):
                match.apply(player, illegal)
            assert json.dumps(match.to_snapshot()) == frozen
            assert match.version == version
        match.apply(*choose(match, rng))
        steps += 1


@settings(deadline=None)
@given(seed=seeds, options=options_st, at=st.integers(0, 3000))
def test_prop_timeout_actions_are_legal_and_deterministic(
    seed: int, options: DuoOptions, at: int
) -> None:
    match = new_match("duo", players=PLAYERS, seed=seed, options=options)
    rng = random.Random(seed)
    for step in range(at + 200):
        if match.is_over:
            break
        waiting = match.waiting_for()[0]
        action = match.timeout_action(waiting)
        assert action in match.legal_actions(waiting)
        assert match.timeout_action(waiting) == action
        if step >= at:  # play the timeouts themselves for a while
            match.apply(waiting, action)
        else:
            match.apply(*choose(match, rng))
