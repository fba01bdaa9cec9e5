"""Properties of every variant (Duo; Pizza with 2-5 players; classic UNO with
2-10), on random play: cards are conserved, an illegal action changes nothing,
`legal_actions` is exactly what `check` accepts, every game ends, a snapshot
continues identically, a match replays from its seed and log, every step keeps
the invariants (`Watch`: events, views, scores, pending decisions), test tables
play on honestly, and timeouts alone play on.

A Dump (D9) may name any order of the cards it lays; `legal_actions` offers one
order per last card (the empty `order`: the other cards in hand order), so the
property for dumps is: `check` accepts an order exactly when the same Dump
without an order is offered and the order holds every card of the colour once,
ending with `last`.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import classic, duo, pizza
from engine.actions import Action, CallUno, CatchUno, Draw, Dump, JumpIn, Play, SwapHands
from engine.builders import table_for_test
from engine.cards import EVERY_CARD, Card, Face, classic_deck, duo_deck, pizza_deck
from engine.errors import IllegalAction
from engine.events import (
    CardGiven,
    CardPlayed,
    CardReturned,
    ChallengeResolved,
    ColourDumped,
    CutForPlayerOne,
    DraftPicked,
    Event,
    FirstCardTurned,
    MatchEnded,
    RoundEnded,
    RoundStarted,
)
from engine.match import (
    SNAPSHOT_SCHEMA,
    ClassicOptions,
    DuoOptions,
    Match,
    Options,
    PizzaOptions,
    Variant,
    from_snapshot,
    new_match,
    replay,
)
from engine.offers import (
    ACCEPT,
    CALL,
    CATCH,
    CHALLENGE,
    COLOURS,
    DRAW,
    DUMP,
    DUMP_UNO,
    GIVE,
    KEEP_CARD,
    KEEP_DRAWN,
    NO_DUMP,
    PLAY,
    PLAY_UNO,
    REJECT_CARD,
    TAKE_VOLLEY,
)
from engine.players import RandomPlayer
from engine.views import Pending, Phase

Log = list[tuple[str, Action] | tuple[str, None]]


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int, int, Options]:
    """A variant, its seat count, a seed and options with a small target (games end)."""
    variant = draw(st.sampled_from(["duo", "pizza", "classic", "house"]))
    target = draw(st.integers(1, 80))
    options: Options
    if variant == "duo":
        seats = 2
        options = DuoOptions(
            target=target, classic_deck=draw(st.booleans()), classic_challenge=draw(st.booleans())
        )
    elif variant == "pizza":
        seats = draw(st.integers(2, 5))
        options = PizzaOptions(target=target)
    else:  # classic, plain or with every house rule on (H1–H4)
        seats = draw(st.integers(2, 10))
        on = variant == "house"
        variant = "classic"
        options = ClassicOptions(
            target=target, stacking=on, seven_o=on, jump_in=on, draw_to_match=on
        )
    return variant, seats, draw(st.integers(0, 2**32)), options


def eager(options: Options) -> bool:
    """Random play that draws to match (H4) while holding a playable card makes
    near-endless rounds; on a house table the random player mostly plays."""
    return isinstance(options, ClassicOptions) and options.draw_to_match


def start(variant: str, seats: int, seed: int, options: Options) -> Match:
    players = [f"p{k}" for k in range(seats)]
    return new_match(variant, players=players, seed=seed, options=options)  # type: ignore[arg-type]


def deck_of(match: Match, options: Options) -> Counter[str]:
    if isinstance(options, DuoOptions):
        cards = duo_deck(classic=options.classic_deck)
    elif isinstance(options, PizzaOptions):
        cards = pizza_deck()
    else:
        cards = classic_deck()
    return Counter(c.code for c in cards)


def held(match: Match) -> Counter[str]:
    snap = match.to_snapshot()
    found = Counter(snap["draw"] + snap["discard"] + snap["draft"])
    for hand in snap["hands"]:
        found.update(hand)
    return found


def step(
    match: Match, rng: random.Random, log: Log, *, removals: bool, eager: bool = False
) -> None:
    """A reaction now and then (a call, a catch, a jump-in), a removal rarely (Pizza,
    Classic), else the decision."""
    seated = [s.player for s in match.public_view().seats if s.seated]
    if removals and match.variant != "duo" and len(seated) > 2 and rng.random() < 0.005:
        who = rng.choice(seated)
        match.remove_player(who)
        log.append((who, None))
        return
    for player in seated:
        legal = match.legal_actions(player)
        if (CALL in legal or CATCH in legal) and rng.random() < 0.3:
            action: Action = CALL if CALL in legal else CATCH
            match.apply(player, action)
            log.append((player, action))
            return
        jumps = [a for a in legal if isinstance(a, JumpIn)]
        if jumps and rng.random() < 0.3:  # H3
            action = jumps[rng.randrange(len(jumps))]
            match.apply(player, action)
            log.append((player, action))
            return
    who = match.waiting_for()[0]
    legal = match.legal_actions(who)
    if eager:
        plays: list[Action] = [a for a in legal if isinstance(a, Play)]
        legal = plays if plays and rng.random() < 0.9 else legal
    action = legal[rng.randrange(len(legal))]
    match.apply(who, action)
    log.append((who, action))


def play_out(
    match: Match, seed: int, *, limit: int, removals: bool = True, eager: bool = False
) -> Log:
    rng = random.Random(seed)
    log: Log = []
    while not match.is_over and len(log) < limit:
        step(match, rng, log, removals=removals, eager=eager)
    return log


def candidates(match: Match, player: str) -> list[Action]:
    """Every action worth asking about: the offers' kinds, with the player's cards and more."""
    snap = match.to_snapshot()
    hand = [Card.parse(c) for c in snap["hands"][match.players.index(player)]]
    some = [*hand, *random.Random(len(hand)).sample(EVERY_CARD, 6)]
    acts: list[Action] = [DRAW, KEEP_DRAWN, ACCEPT, CHALLENGE, NO_DUMP, KEEP_CARD]
    acts += [REJECT_CARD, TAKE_VOLLEY, CALL, CATCH, *COLOURS]
    acts += [SwapHands(p) for p in (*match.players, "stranger")]
    for c in some:
        acts += [PLAY[c], PLAY_UNO[c], GIVE[c], JumpIn(c), JumpIn(c, uno=True)]
        if c in DUMP:
            acts += [DUMP[c], DUMP_UNO[c]]
    return acts


def frozen(match: Match) -> str:
    return json.dumps(match.to_snapshot(), sort_keys=True)


@settings(deadline=None)
@given(table=tables())
def test_x4_every_game_ends_and_cards_are_conserved(table: tuple[str, int, int, Options]) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    deck = deck_of(match, options)
    rng = random.Random(seed)
    log: Log = []
    while not match.is_over and len(log) < 40_000:
        step(match, rng, log, removals=True, eager=eager(options))
        assert held(match) == deck  # D1, P1, C1: every card once, at every step
    assert match.is_over
    placings = match.placings()
    assert placings[0].place == 1
    assert {p.player for p in placings} == set(match.players)


def dump_orders(match: Match, player: str, dump: Dump) -> list[Dump]:
    """A few orders of a dump's cards: the property's samples of what `check` may accept."""
    snap = match.to_snapshot()
    hand = [Card.parse(c) for c in snap["hands"][match.players.index(player)]]
    same = [c for c in hand if c.colour is dump.last.colour]
    orders = itertools.islice(itertools.permutations(same), 6)
    return [Dump(dump.last, dump.uno, tuple(order)) for order in orders]


@settings(deadline=None)
@given(table=tables(), every=st.integers(3, 25))
def test_x1_legal_actions_are_exactly_what_check_accepts(
    table: tuple[str, int, int, Options], every: int
) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    rng = random.Random(seed)
    log: Log = []
    while not match.is_over and len(log) < 1500:
        if len(log) % every == 0:
            for player in match.players:
                check_agreement(match, player)
        step(match, rng, log, removals=True, eager=eager(options))


def check_agreement(match: Match, player: str) -> None:
    legal = match.legal_actions(player)
    for action in candidates(match, player):
        assert accepted(match, player, action) == (action in legal), action
    for action in legal:
        if isinstance(action, Dump):
            for ordered in dump_orders(match, player, action):
                valid = ordered.order[-1] is action.last
                assert accepted(match, player, ordered) == valid, ordered


def accepted(match: Match, player: str, action: Action) -> bool:
    try:
        match.check(player, action)
    except IllegalAction as refusal:
        return not refusal.message  # a refusal always says why (X1): False
    return True


@settings(deadline=None)
@given(table=tables(), at=st.integers(0, 400))
def test_x1_an_illegal_action_changes_nothing(
    table: tuple[str, int, int, Options], at: int
) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    play_out(match, seed, limit=at, eager=eager(options))
    if match.is_over:
        return
    before = frozen(match)
    for player in match.players:
        legal = match.legal_actions(player)
        for action in candidates(match, player):
            if action in legal:
                continue
            try:
                match.apply(player, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} was applied though not legal")
            assert frozen(match) == before


@settings(deadline=None)
@given(table=tables(), cut=st.integers(0, 600), more=st.integers(1, 300))
def test_x4_a_snapshot_continues_identically(
    table: tuple[str, int, int, Options], cut: int, more: int
) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    play_out(match, seed, limit=cut, eager=eager(options))
    copy = from_snapshot(json.loads(json.dumps(match.to_snapshot())))
    assert frozen(copy) == frozen(match)
    assert copy.public_view() == match.public_view()
    for player in match.players:
        assert copy.private_view(player) == match.private_view(player)
    rng = random.Random(seed + 1)
    for _ in range(more):
        if match.is_over:
            break
        who = match.waiting_for()[0]
        legal = match.legal_actions(who)
        assert copy.legal_actions(who) == legal
        action = legal[rng.randrange(len(legal))]
        twin = copy_of(action)  # an equal copy: judged by `check`, not by identity
        assert copy.apply(who, twin) == match.apply(who, action)
    assert frozen(copy) == frozen(match)


def copy_of(action: Action) -> Action:
    """An equal action that is not the instance `legal_actions` offered."""
    twin = dataclasses.replace(action)
    assert twin == action
    assert twin is not action
    return twin


@settings(deadline=None)
@given(table=tables(), limit=st.integers(1, 800))
def test_x4_a_match_replays_from_its_seed_and_log(
    table: tuple[str, int, int, Options], limit: int
) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    log = play_out(match, seed, limit=limit, eager=eager(options))
    again = replay(
        match.variant,
        players=match.players,
        seed=seed,
        options=options,
        log=log,
    )
    assert frozen(again) == frozen(match)


@settings(deadline=None)
@given(table=tables(), at=st.integers(0, 600))
def test_x1_the_timeout_action_is_legal_and_deterministic(
    table: tuple[str, int, int, Options], at: int
) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    play_out(match, seed, limit=at, eager=eager(options))
    if match.is_over:
        return
    who = match.waiting_for()[0]
    action = match.timeout_action(who)
    assert action in match.legal_actions(who)
    assert match.timeout_action(who) == action


@pytest.mark.parametrize("variant", ["duo", "pizza", "classic"])
def test_x1_nobody_outside_the_match_may_act_once_it_is_over(variant: Variant) -> None:
    """Found by hypothesis: once over, a stranger's missing seat (-1) matched the
    finished match's turn (-1) and was offered a draw from the last seat's hand."""
    match = new_match(variant, players=("a", "b"), seed=3)
    player = RandomPlayer(random.Random(3))
    while not match.is_over:
        actor = match.waiting_for()[0]
        match.apply(actor, player.choose(match, actor))
    for who in ("a", "b", "stranger"):
        assert match.legal_actions(who) == []
        with pytest.raises(IllegalAction):
            match.apply(who, DRAW)


# ------------------------------------------------------------- every step watched

# Events that may name a card, each only one everybody may see (D1, P1, C1 stay private).
CARD_EVENTS = (
    CardPlayed,
    ColourDumped,
    DraftPicked,
    FirstCardTurned,
    CutForPlayerOne,
    CardReturned,
    RoundEnded,
)
POINTS = {"duo": duo.POINTS, "pizza": pizza.POINTS, "classic": classic.POINTS}
DRAFTING = (Pending.DRAFT_PICK, Pending.DRAFT_FORCED)


class Watch:
    """What must hold after every step of a random match, in every variant: every
    card once, the version, one player awaited, public events, views that agree with
    the snapshot, the round and match scores (D14, P11, C11), and where a pending
    decision can come from."""

    def __init__(self, match: Match, deck: Counter[str]) -> None:
        self.match = match
        self.deck = deck
        self.snap = match.to_snapshot()
        self.challenger: str | None = None  # D10/P7/C7: who may see the judged hand
        self.gift: tuple[str, str] | None = None  # P6: the last Dip's giver and receiver
        self.scores = dict.fromkeys(match.players, 0)

    def __call__(self, who: str, action: Action | None, events: list[Event]) -> None:
        m, before = self.match, self.snap
        self.snap = snap = m.to_snapshot()
        assert (snap["schema"], snap["variant"]) == (SNAPSHOT_SCHEMA, m.variant)
        assert Counter(card_codes(snap)) == self.deck  # D1, P1, C1
        assert snap["version"] == before["version"] + 1
        assert len(m.waiting_for()) == (0 if m.is_over else 1)
        if who == self.challenger:  # shown until the challenger's next action
            self.challenger = None
        for event in events:
            self.follow(event, before, snap)
        self.check_views(snap, {who, *m.waiting_for()})
        if action is not None:
            self.check_pending(action, events, before)
        assert m.legal_actions("stranger") == []
        with pytest.raises(IllegalAction, match=r"\w"):
            m.check("stranger", DRAW)

    def follow(self, event: Event, before: dict[str, Any], snap: dict[str, Any]) -> None:
        if not isinstance(event, CARD_EVENTS):
            assert "Card(" not in repr(event), event  # a drawn or given card is never named
        match event:
            case CardPlayed():
                assert event.card.code in before["hands"][self.seat(event.player)]
            case ColourDumped():
                held = Counter(before["hands"][self.seat(event.player)])
                assert not Counter(c.code for c in event.cards) - held
            case DraftPicked():
                assert event.shown is not None  # the kept card stays private
                assert event.shown.code == before["draw"][-2 if event.kept else -1]
            case FirstCardTurned() if snap["discard"]:
                assert event.card.code in (snap["discard"][0], *snap["draw"])  # or returned
            case ChallengeResolved():
                self.challenger = event.challenger
            case CardGiven():
                self.gift = (event.giver, event.receiver)
            case RoundStarted():
                self.gift = None
            case RoundEnded():
                self.check_round(event)
                self.challenger = None
            case MatchEnded():
                self.check_match(event)

    def seat(self, player: str) -> int:
        return self.match.players.index(player)

    def check_round(self, event: RoundEnded) -> None:
        """D14: each loser scores their own hand; P11, C11: the winner scores them all."""
        hands, points = dict(event.hands), dict(event.points)
        worth = {p: sum(POINTS[self.match.variant][c] for c in hands.get(p, ())) for p in points}
        assert worth[event.winner] == 0
        if self.match.variant == "duo":
            assert points == worth
        else:
            assert points == {p: sum(worth.values()) if p == event.winner else 0 for p in points}
        for p, gained in points.items():
            self.scores[p] += gained
        assert dict(event.scores) == self.scores

    def check_match(self, event: MatchEnded) -> None:
        final = dict(event.scores)
        assert final == self.scores  # an unfinished round is not scored (X3)
        target = self.match.public_view().target
        others = [v for p, v in final.items() if p != event.winner]
        if len(event.forfeited) == len(final) - 1:  # X3: the last one seated wins
            assert event.winner not in event.forfeited
        elif self.match.variant == "duo":  # D14: reaching the target loses
            assert others[0] >= target > final[event.winner]
        else:  # P11, C11: the first to the target wins
            assert final[event.winner] >= target > max(others)

    def check_views(self, snap: dict[str, Any], focus: set[str]) -> None:
        """Every seat's view now and then, the actor's and the next one's always."""
        m = self.match
        public = m.public_view()
        assert len(public.recent) <= 10
        assert public.top is None or public.top.code == snap["discard"][-1]
        assert [c.code for c in public.draft_pile] == snap["draft"]
        everyone = snap["version"] % 4 == 0
        for k, player in enumerate(m.players):
            if not everyone and player not in focus:
                continue
            view = m.private_view(player)
            assert sorted(c.code for c in view.hand) == sorted(snap["hands"][k])
            mine = public.to_act == player
            if view.looking_at is not None:
                assert mine
                assert public.pending in DRAFTING
                assert view.looking_at.code == snap["draw"][-1]
            if view.drawn is not None:
                assert mine
                assert public.pending is Pending.DRAWN_CARD
                assert view.drawn in view.hand
            assert view.revealed_hand is None or player == self.challenger
            giver, receiver = self.gift or ("", "")
            assert view.given is None or player == giver
            assert view.received is None or player == receiver
            legal = m.legal_actions(player)
            assert list(view.legal) == legal
            assert len(set(legal)) == len(legal)
            for action in legal:
                if isinstance(action, Play):
                    assert action.card in view.hand
                elif isinstance(action, Dump):
                    assert action.last in view.hand

    def check_pending(self, action: Action, events: list[Event], before: dict[str, Any]) -> None:
        """Each pending decision is one the last step can have led to."""
        view = self.match.public_view()
        pending, top = view.pending, view.top
        if isinstance(action, CallUno | CatchUno):
            assert pending.value == before["pending"]
            return
        if view.phase is not Phase.PLAY:
            assert pending in (DRAFTING if view.phase is Phase.DRAFT else (Pending.NONE,))
            return
        assert top is not None
        if pending is Pending.REVERSE_DUMP or pending is Pending.DUMP:  # D4, D9
            assert top.face is Face.REVERSE
        elif pending is Pending.COLOUR:
            assert top.is_wild
            assert view.active_colour is None
        elif pending is Pending.DRAWN_CARD:
            assert isinstance(action, Draw)
        elif pending is Pending.GIVE:  # P6
            assert top.face is Face.WILD_DIP
        elif pending is Pending.NONE:
            assert view.active_colour is not None
        if self.match.variant == "duo":  # D7, D8: what a volley or a Wild Draw 4 owes
            self.check_owed(view.pending_draw, pending, top)

    @staticmethod
    def check_owed(owed: int, pending: Pending, top: Card) -> None:
        if pending is Pending.VOLLEY:
            assert top.face is Face.DRAW_TWO
            assert owed >= 2
            assert owed % 2 == 0
        elif pending is Pending.WILD_DRAW:
            assert top.face is Face.WILD_DRAW_FOUR
            assert owed == 4
        else:
            assert owed == 0


def card_codes(snap: dict[str, Any]) -> list[str]:
    return [*snap["draw"], *snap["discard"], *snap["draft"], *itertools.chain(*snap["hands"])]


def watched_step(match: Match, rng: random.Random) -> tuple[str, Action | None, list[Event]]:
    """Any seated player's offer now and then (calls, catches, moves out of turn), a
    removal rarely and likelier while a decision is pending (X3), else the decision."""
    seated = [s.player for s in match.public_view().seats if s.seated]
    pending = match.public_view().pending is not Pending.NONE
    if (len(seated) > 2 or match.variant == "duo") and rng.random() < (0.02 if pending else 0.002):
        who = rng.choice(seated)
        return who, None, match.remove_player(who)
    who = match.waiting_for()[0]
    if rng.random() < 0.3:
        others = [p for p in seated if p != who and match.legal_actions(p)]
        who = rng.choice(others) if others else who
    legal = match.legal_actions(who)
    action = legal[rng.randrange(len(legal))]
    return who, action, match.apply(who, action)


def play_watched(match: Match, options: Options, seed: int, *, steps: int) -> None:
    """Random legal steps until the match ends (at most `steps`), each one checked."""
    watch = Watch(match, deck_of(match, options))
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        watch(*watched_step(match, rng))


@settings(deadline=None)
@given(table=tables())
def test_x1_every_step_keeps_the_invariants(table: tuple[str, int, int, Options]) -> None:
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    play_watched(match, options, seed, steps=1500)


VARIANT_OPTIONS: dict[str, tuple[Options, int, int]] = {
    "duo": (DuoOptions(), 2, 2),
    "pizza": (PizzaOptions(), 2, 5),
    "classic": (ClassicOptions(), 2, 10),
}


@settings(deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANT_OPTIONS)),
    seed=st.integers(0, 2**32 - 1),
    sizes=st.lists(st.integers(1, 9), min_size=10, max_size=10),
)
def test_x4_a_test_table_plays_on_by_the_real_rules(
    variant: str, seed: int, sizes: list[int]
) -> None:
    """`table_for_test` states are honest: random play from one keeps every invariant."""
    options, low, high = VARIANT_OPTIONS[variant]
    n = low + seed % (high - low + 1)
    deck = {"duo": duo_deck, "pizza": pizza_deck, "classic": classic_deck}[variant]()
    random.Random(seed).shuffle(deck)
    top = next(c for c in deck if c.colour is not None)
    deck.remove(top)
    hands = [[deck.pop() for _ in range(k)] for k in sizes[:n]]
    players = [f"p{k}" for k in range(n)]
    match = table_for_test(
        variant,
        hands=hands,
        discard=[top],
        players=players,
        turn=players[seed % n],
        seed=seed,
        options=options,
    )
    play_watched(match, options, seed, steps=300)


@settings(deadline=None)
@given(table=tables(), at=st.integers(0, 600))
def test_x1_timeouts_alone_play_on(table: tuple[str, int, int, Options], at: int) -> None:
    """A table where nobody answers any more: every default is legal and the same
    twice, and carrying them out plays on (the safe defaults of docs/rules.md)."""
    variant, seats, seed, options = table
    match = start(variant, seats, seed, options)
    play_out(match, seed, limit=at)
    for _ in range(200):
        if match.is_over:
            break
        who = match.waiting_for()[0]
        action = match.timeout_action(who)
        assert action in match.legal_actions(who)
        assert match.timeout_action(who) == action
        match.apply(who, action)
