"""Hypothesis properties: random Pizza matches, 2-5 players, played to the end.

Each example drives a real match with random legal actions, random UNO calls
and catches, random removals (X3) and random illegal attempts (X1), checking
the invariants at every step.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
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
from engine.cards import Card, Colour, pizza_deck
from engine.errors import IllegalAction
from engine.events import (
    CardGiven,
    CardPlayed,
    CardReturned,
    ChallengeResolved,
    Event,
    FirstCardTurned,
    MatchEnded,
    RoundEnded,
    RoundStarted,
)
from engine.game import Game
from engine.match import PizzaOptions, from_snapshot, new_match, replay
from engine.pizza import POINTS as PIZZA_POINTS

card_points = PIZZA_POINTS.__getitem__

DECK = Counter(c.code for c in pizza_deck())
UNIVERSE: list[Action] = [
    *(Play(c, uno=u) for c in set(pizza_deck()) | {Card.parse("W+4")} for u in (False, True)),
    *(Give(c) for c in set(pizza_deck())),
    *(ChooseColour(c) for c in Colour),
    Draw(),
    KeepDrawn(),
    Accept(),
    Challenge(),
    CallUno(),
    CatchUno(),
    KeepCard(),
    RejectCard(),
    TakeVolley(),
    NoDump(),
    Dump(Card.parse("R5")),
]
# Events that may name a card: each only names one that everybody may see.
CARD_EVENTS = (CardPlayed, FirstCardTurned, CardReturned, RoundEnded)

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
games = st.tuples(
    st.integers(0, 2**32 - 1),  # seed of the match
    st.integers(2, 5),  # players
    st.sampled_from([40, 80, 150]),  # target: short matches, many rounds
)


@dataclass
class Driver:
    """Plays one random match, checking invariants after every step."""

    seed: int
    n: int
    target: int
    removals: bool = True
    illegal: bool = True
    full_legal_check: bool = False
    max_steps: int = 30_000
    rng: random.Random = field(init=False)
    match: Game = field(init=False)
    log: list[tuple[str, Action | None]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    gift: tuple[str, str] | None = None
    revealed_to: str | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed ^ 0x5EED)
        self.players = [f"p{i}" for i in range(self.n)]
        m = new_match(
            "pizza", players=self.players, seed=self.seed, options=PizzaOptions(self.target)
        )
        assert isinstance(m, Game)
        self.match = m
        self.events.extend(m.public_view().recent)

    def seated(self) -> list[str]:
        return [s.player for s in self.match.public_view().seats if s.seated]

    def step(self) -> None:
        m, rng = self.match, self.rng
        if self.illegal:
            self.try_random_actions(1)
        if self.full_legal_check and rng.random() < 0.2:
            self.check_legal_equals_check()
        roll = rng.random()
        exposed = [s.player for s in m.public_view().seats if s.exposed]
        if exposed and roll < 0.4:
            others = [p for p in self.seated() if p != exposed[0]]
            who = exposed[0] if roll < 0.2 else rng.choice(others)
            action: Action = CallUno() if who == exposed[0] else CatchUno()
            self.apply(who, action)
        elif self.removals and roll > (0.97 if m.public_view().pending.value != "none" else 0.998):
            # Removals are rare, but likelier during a pending decision (X3 corner cases).
            who = rng.choice(self.seated())
            before = m.version
            events = m.remove_player(who)
            assert m.version == before + 1
            self.log.append((who, None))
            self.after(who, None, events)
        else:
            who = m.waiting_for()[0]
            legal = m.legal_actions(who)
            plays = [a for a in legal if isinstance(a, Play)]
            # Mostly play when possible, so matches end in a reasonable number of steps.
            self.apply(who, rng.choice(plays if plays and rng.random() < 0.8 else legal))

    def apply(self, who: str, action: Action) -> None:
        before = self.match.version
        assert action in self.match.legal_actions(who)
        events = self.match.apply(who, action)
        assert self.match.version == before + 1
        self.log.append((who, action))
        self.after(who, action, events)

    def after(self, who: str, action: Action | None, events: list[Event]) -> None:
        m = self.match
        if who == self.revealed_to:
            self.revealed_to = None
        for event in events:
            if isinstance(event, RoundStarted):
                self.gift = None
                self.revealed_to = None
            elif isinstance(event, CardGiven):
                self.gift = (event.giver, event.receiver)
            elif isinstance(event, ChallengeResolved):
                self.revealed_to = event.challenger
            elif isinstance(event, RoundEnded):
                self.check_round_score(event)
                self.revealed_to = None
            elif isinstance(event, MatchEnded):
                self.check_match_end(event)
            self.events.append(event)
        self.check_cards_once()
        self.check_privacy(action, events)
        if not m.is_over:
            assert len(m.waiting_for()) == 1

    # ------------------------------------------------------------ invariants

    def check_cards_once(self) -> None:
        snap = json.loads(json.dumps(self.match.to_snapshot()))  # always JSON-ready
        found: Counter[str] = Counter(snap["draw"]) + Counter(snap["discard"])
        for h in snap["hands"]:
            found.update(h)
        assert found == DECK

    def check_privacy(self, action: Action | None, events: list[Event]) -> None:
        m = self.match
        hands = {p: set(m.private_view(p).hand) for p in self.players}
        for event in events:
            if isinstance(event, CardPlayed):
                assert isinstance(action, Play)
                assert event.card == action.card
            elif not isinstance(event, CARD_EVENTS):
                assert "Card(" not in repr(event), event
        public = m.public_view()
        assert public.top is None or all(public.top not in h for h in hands.values())
        for e in public.recent:
            assert isinstance(e, CARD_EVENTS) or "Card(" not in repr(e)
        for p in self.players:
            view = m.private_view(p)
            assert view.drawn is None or view.drawn in hands[p]
            if view.received is not None or view.given is not None:
                assert self.gift is not None
                giver, receiver = self.gift
                assert view.given is None or p == giver
                assert view.received is None or p == receiver
            if view.revealed_hand is not None:
                assert p == self.revealed_to
            assert list(view.legal) == m.legal_actions(p)

    def check_round_score(self, event: RoundEnded) -> None:
        hands = dict(event.hands)
        expected = sum(card_points(c) for p, h in hands.items() if p != event.winner for c in h)
        assert hands.get(event.winner, ()) == ()
        points = dict(event.points)
        assert points[event.winner] == expected
        assert all(v == 0 for p, v in points.items() if p != event.winner)
        previous = self.totals()
        scores = dict(event.scores)
        for p in self.players:
            assert scores[p] == previous.get(p, 0) + points[p]

    def totals(self) -> dict[str, int]:
        for e in reversed(self.events):
            if isinstance(e, RoundEnded):
                return dict(e.scores)
        return {}

    def check_match_end(self, event: MatchEnded) -> None:
        scores = dict(event.scores)
        if event.forfeited and len(event.forfeited) == self.n - 1:
            assert event.winner not in event.forfeited
        else:
            assert scores[event.winner] >= self.target
            assert all(v < self.target for p, v in scores.items() if p != event.winner)
        assert scores == self.totals() or not self.totals()

    def try_random_actions(self, k: int) -> None:
        m, rng = self.match, self.rng
        for _ in range(k):
            who = rng.choice([*self.players, "stranger"])
            action = rng.choice(UNIVERSE)
            if action in m.legal_actions(who):
                m.check(who, action)
                continue
            before = json.dumps(m.to_snapshot())
            with pytest.raises(IllegalAction, match=r"\w"):  # refused, with a reason
                m.apply(who, action)
            assert json.dumps(m.to_snapshot()) == before

    def check_legal_equals_check(self) -> None:
        m = self.match
        for who in self.players:
            accepted = set()
            for action in UNIVERSE:
                try:
                    m.check(who, action)
                except IllegalAction:
                    continue
                accepted.add(action)
            legal = m.legal_actions(who)
            assert len(legal) == len(set(legal))
            assert set(legal) == accepted

    def run(self) -> Game:
        for _ in range(self.max_steps):
            if self.match.is_over:
                if self.illegal:
                    self.try_random_actions(10)  # X1: nothing is accepted once over
                return self.match
            self.step()
        raise AssertionError("the match did not end")


@SETTINGS
@given(games)
def test_prop_every_card_exactly_once_and_nothing_private_leaks(game: tuple[int, int, int]) -> None:
    Driver(*game, illegal=False).run()


@SETTINGS
@given(games)
def test_prop_x1_illegal_actions_refused_and_state_unchanged(game: tuple[int, int, int]) -> None:
    Driver(*game, illegal=True).run()


@settings(SETTINGS, max_examples=20)
@given(games)
def test_prop_legal_actions_is_exactly_what_check_accepts(game: tuple[int, int, int]) -> None:
    Driver(*game, illegal=False, full_legal_check=True).run()


@SETTINGS
@given(games)
def test_prop_p11_every_match_ends_and_scores_follow_the_rules(
    game: tuple[int, int, int],
) -> None:
    m = Driver(*game, illegal=False, removals=False).run()
    view = m.public_view()
    assert view.winner is not None
    winner = next(s for s in view.seats if s.player == view.winner)
    assert winner.score >= game[2]


@SETTINGS
@given(games)
def test_prop_x4_replay_reproduces_the_final_snapshot(game: tuple[int, int, int]) -> None:
    driver = Driver(*game, illegal=False)
    m = driver.run()
    seed, _, target = game
    again = replay(
        "pizza",
        players=driver.players,
        seed=seed,
        options=PizzaOptions(target),
        log=driver.log,
    )
    assert json.dumps(again.to_snapshot()) == json.dumps(m.to_snapshot())


@SETTINGS
@given(games, st.floats(0.0, 1.0))
def test_prop_x4_snapshot_round_trip_mid_game_continues_identically(
    game: tuple[int, int, int], where: float
) -> None:
    driver = Driver(*game, illegal=False)
    driver.run()
    seed, _, target = game
    cut = int(len(driver.log) * where)
    m = new_match("pizza", players=driver.players, seed=seed, options=PizzaOptions(target))
    for who, action in driver.log[:cut]:
        if action is None:
            m.remove_player(who)
        else:
            m.apply(who, action)
    copy = from_snapshot(json.loads(json.dumps(m.to_snapshot())))
    assert copy.public_view() == m.public_view()
    for who, action in driver.log[cut:]:
        if action is None:
            assert copy.remove_player(who) == m.remove_player(who)
        else:
            assert copy.legal_actions(who) == m.legal_actions(who)
            assert copy.apply(who, action) == m.apply(who, action)
    assert copy.is_over
    assert json.dumps(copy.to_snapshot()) == json.dumps(m.to_snapshot())


@SETTINGS
@given(games)
def test_prop_timeout_action_is_always_legal(game: tuple[int, int, int]) -> None:
    seed, n, target = game
    m = new_match(
        "pizza", players=[str(i) for i in range(n)], seed=seed, options=PizzaOptions(target)
    )
    for _ in range(5000):
        if m.is_over:
            break
        who = m.waiting_for()[0]
        action = m.timeout_action(who)
        assert action in m.legal_actions(who)
        assert action == m.timeout_action(who)  # deterministic
        m.apply(who, action)
