"""Properties of every variant (Duo; Pizza with 2-5 players; classic UNO with
2-10), on random play: cards are conserved, an illegal action changes nothing,
`legal_actions` is exactly what `check` accepts, every game ends, a snapshot
continues identically, a match replays from its seed and log.

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

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Dump, JumpIn, Play, SwapHands
from engine.cards import EVERY_CARD, Card, classic_deck, duo_deck, pizza_deck
from engine.errors import IllegalAction
from engine.match import (
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
            action = CALL if CALL in legal else CATCH
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
        plays = [a for a in legal if isinstance(a, Play)]
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
