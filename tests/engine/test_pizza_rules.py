"""One or more tests per Pizza rule (docs/rules.md P1-P11), on explicitly dealt cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Give,
    KeepDrawn,
    Play,
)
from engine.cards import Card, Colour, card, pizza_deck
from engine.errors import CardDoesNotMatch, WrongMoment
from engine.events import (
    CardGiven,
    CardPlayed,
    CardReturned,
    CardsDrawn,
    ChallengeResolved,
    DirectionChanged,
    DrawPileRefilled,
    DrawReason,
    FirstCardTurned,
    MatchEnded,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoExposed,
)
from engine.game import Game
from engine.match import PizzaOptions, new_match
from engine.pizza import POINTS as PIZZA_POINTS
from engine.views import Pending
from tests.engine.pizza_helpers import (
    all_cards,
    count,
    hand,
    pizza,
    play_all,
    round_started,
    seed_with_first_card,
    state,
)

card_points = PIZZA_POINTS.__getitem__

R = Colour.RED
Y = Colour.YELLOW
G = Colour.GREEN
B = Colour.BLUE

# --------------------------------------------------------------------- P1 deck


def test_p1_deck_has_the_51_playing_cards() -> None:
    deck = pizza_deck()
    assert len(deck) == 51
    assert len(set(deck)) == 51  # every card is unique
    for c in "RYGB":
        assert [x.code for x in deck if x.code.startswith(c) and x.colour is not None] == [
            f"{c}{n}" for n in range(1, 10)
        ] + [f"{c}+1", f"{c}S", f"{c}R"]
    assert {x.code for x in deck if x.colour is None} == {"W", "WDIP", "W+2"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_p1_a_new_match_holds_every_card_once(players: int) -> None:
    m = new_match("pizza", players=[f"p{i}" for i in range(players)], seed=players)
    assert all_cards(m) == Counter(c.code for c in pizza_deck())


# --------------------------------------------------------------------- P2 deal


def test_p2_first_dealer_is_random() -> None:
    dealers = {round_started(new_match("pizza", players="abcd", seed=s)).dealer for s in range(40)}
    assert dealers == set("abcd")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_p2_deal_five_one_at_a_time_from_the_dealers_left(players: int) -> None:
    ids = [f"p{i}" for i in range(players)]
    m = new_match("pizza", players=ids, seed=7)
    # The same generator, the same draws: first the dealer, then the shuffle (X4).
    rng = random.Random(7)
    dealer = rng.randrange(players)
    deck = pizza_deck()
    rng.shuffle(deck)
    expected: dict[str, list[Card]] = {p: [] for p in ids}
    for _ in range(5):
        for k in range(1, players + 1):
            expected[ids[(dealer + k) % players]].append(deck.pop())
    assert round_started(m).dealer == ids[dealer]
    assert round_started(m).first == ids[(dealer + 1) % players]
    for p in ids:
        assert sorted(hand(m, p)) == sorted(c.code for c in expected[p])


def test_p2_player_left_of_dealer_goes_first_and_play_goes_left() -> None:
    _, m = seed_with_first_card(lambda c: c.face.number is not None, players=4)
    start = round_started(m)
    assert m.waiting_for() == (start.first,)
    assert m.public_view().clockwise
    assert m.players.index(start.first) == (m.players.index(start.dealer) + 1) % 4


def test_p2_deal_passes_left_and_direction_starts_left_each_round() -> None:
    m = pizza(
        {"a": "R5", "b": "B1 B2", "c": "G1"},
        top="R7",
        turn="a",
        dealer="c",
        clockwise=False,
    )
    events = m.apply("a", Play(card("R5")))
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert started.round == 2
    assert started.dealer == "a"  # left of c
    assert started.first == "b"
    first_card = [e.card for e in events if isinstance(e, FirstCardTurned)][-1]
    assert m.public_view().clockwise is (first_card.face.value != "R")  # P3 Reverse aside


# ------------------------------------------------------------ P3 first card


def test_p3_first_card_skip_skips_the_first_player() -> None:
    _, m = seed_with_first_card(lambda c: c.face.value == "S", players=3)
    start = round_started(m)
    first = m.players.index(start.first)
    assert TurnSkipped(start.first) in m.public_view().recent
    assert m.waiting_for() == (m.players[(first + 1) % 3],)


def test_p3_first_card_draw_one_draws_and_loses_the_turn() -> None:
    _, m = seed_with_first_card(lambda c: c.face.value == "+1", players=3)
    start = round_started(m)
    first = m.players.index(start.first)
    assert CardsDrawn(start.first, 1, DrawReason.FIRST_CARD) in m.public_view().recent
    assert count(m, start.first) == 6
    assert m.waiting_for() == (m.players[(first + 1) % 3],)


def test_p3_first_card_reverse_dealer_plays_first() -> None:
    _, m = seed_with_first_card(lambda c: c.face.value == "R", players=4)
    start = round_started(m)
    assert m.waiting_for() == (start.dealer,)
    assert not m.public_view().clockwise  # play goes right
    dealer = m.players.index(start.dealer)
    m.apply(start.dealer, Draw())
    if m.public_view().pending is Pending.DRAWN_CARD:
        m.apply(start.dealer, KeepDrawn())
    assert m.waiting_for() == (m.players[(dealer - 1) % 4],)


def test_p3_first_card_wild_first_player_names_colour_then_plays() -> None:
    _, m = seed_with_first_card(lambda c: c.code == "W", players=3)
    first = round_started(m).first
    assert m.waiting_for() == (first,)
    assert m.public_view().pending is Pending.COLOUR
    assert set(m.legal_actions(first)) == {ChooseColour(c) for c in Colour}
    m.apply(first, ChooseColour(G))
    view = m.public_view()
    assert view.active_colour is G
    assert view.pending is Pending.NONE
    assert m.waiting_for() == (first,)  # the same player now plays


def test_p3_a_wild_takes_only_one_of_the_four_colours() -> None:
    _, m = seed_with_first_card(lambda c: c.code == "W", players=3)
    first = round_started(m).first
    before = m.to_snapshot()
    for named in ("green", None, 3):
        with pytest.raises(WrongMoment, match="Name Red, Yellow, Green or Blue"):
            m.check(first, ChooseColour(named))  # type: ignore[arg-type]
        with pytest.raises(WrongMoment, match="Name Red, Yellow, Green or Blue"):
            m.apply(first, ChooseColour(named))  # type: ignore[arg-type]
    assert m.to_snapshot() == before  # X1: refused, nothing changed
    m.apply(first, ChooseColour(G))
    assert m.public_view().active_colour is G


def test_p3_first_card_draw_wilds_are_returned_and_another_turned() -> None:
    _, m = seed_with_first_card(lambda c: True, returned=True, players=2)
    recent = m.public_view().recent
    turned = [e.card for e in recent if isinstance(e, FirstCardTurned)]
    returned = [e.card for e in recent if isinstance(e, CardReturned)]
    assert returned == turned[:-1]
    assert all(c.code in ("W+2", "WDIP") for c in returned)
    assert m.public_view().top == turned[-1]
    assert turned[-1].code not in ("W+2", "WDIP")


@pytest.mark.parametrize("code", ["W+2", "WDIP"])
def test_p3_first_card_returned_goes_back_into_the_draw_pile(code: str) -> None:
    for seed in range(3000):
        m = new_match("pizza", players="ab", seed=seed)
        if CardReturned(card(code)) in m.public_view().recent:
            assert code in m.to_snapshot()["draw"]
            assert all_cards(m)[code] == 1
            return
    raise AssertionError("no seed returned " + code)


# ------------------------------------------------------------------ P4 turn


def test_p4_play_a_matching_card_by_colour_or_number_or_any_wild() -> None:
    m = pizza({"a": "R1 B7 G2 W", "b": "Y1 Y2"}, top="R7", turn="a")
    plays = {a.card.code for a in m.legal_actions("a") if isinstance(a, Play)}
    assert plays == {"R1", "B7", "W"}
    with pytest.raises(CardDoesNotMatch, match="A Green 2 doesn't match Red 7"):
        m.check("a", Play(card("G2")))


def test_p4_draw_is_allowed_even_when_a_card_could_be_played() -> None:
    m = pizza({"a": "R1 B2", "b": "Y1 Y2"}, top="R7", draw="G3", turn="a")
    assert Draw() in m.legal_actions("a")
    m.apply("a", Draw())
    assert hand(m, "a") == ["R1", "G3", "B2"]
    assert m.waiting_for() == ("b",)  # G3 does not match: kept, play passes


def test_p4_drawn_matching_card_may_be_played_at_once() -> None:
    m = pizza({"a": "B1 B2", "b": "Y1 Y2"}, top="R7", draw="R3", turn="a")
    m.apply("a", Draw())
    assert m.public_view().pending is Pending.DRAWN_CARD
    assert m.private_view("a").drawn == card("R3")
    assert set(m.legal_actions("a")) == {Play(card("R3")), KeepDrawn()}
    with pytest.raises(WrongMoment):
        m.check("a", Play(card("B1")))
    m.apply("a", Play(card("R3")))
    assert m.public_view().top == card("R3")
    assert m.waiting_for() == ("b",)


def test_p4_drawn_matching_card_may_be_kept() -> None:
    m = pizza({"a": "B1 B2", "b": "Y1 Y2"}, top="R7", draw="R3", turn="a")
    m.apply("a", Draw())
    m.apply("a", KeepDrawn())
    assert hand(m, "a") == ["R3", "B1", "B2"]
    assert m.waiting_for() == ("b",)
    assert m.private_view("a").drawn is None


# ---------------------------------------------------------------- P5 actions


def test_p5_skip_next_player_loses_the_turn() -> None:
    m = pizza({"a": "RS R1", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    events = m.apply("a", Play(card("RS")))
    assert TurnSkipped("b") in events
    assert m.waiting_for() == ("c",)


def test_p5_reverse_changes_direction() -> None:
    m = pizza({"a": "RR R1", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", draw="B9", turn="a")
    events = m.apply("a", Play(card("RR")))
    assert DirectionChanged(False) in events
    assert m.waiting_for() == ("c",)
    m.apply("c", Draw())
    assert m.waiting_for() == ("b",)


def test_p5_reverse_with_two_players_acts_as_a_skip() -> None:
    m = pizza({"a": "RR R1", "b": "Y1 Y2"}, top="R7", turn="a")
    events = m.apply("a", Play(card("RR")))
    assert TurnSkipped("b") in events
    assert m.waiting_for() == ("a",)


def test_p5_reverse_with_two_players_still_flips_the_direction_shown() -> None:
    m = pizza({"a": "RR GR R1", "b": "Y1 Y2"}, top="R7", turn="a")
    events = m.apply("a", Play(card("RR")))
    assert events[:3] == [CardPlayed("a", card("RR")), DirectionChanged(False), TurnSkipped("b")]
    assert not m.public_view().clockwise
    m.apply("a", Play(card("GR")))
    assert m.public_view().clockwise


def test_p5_reverse_acts_as_skip_once_only_two_remain() -> None:
    m = pizza({"a": "RR R1", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    m.remove_player("c")
    m.apply("a", Play(card("RR")))
    assert m.waiting_for() == ("a",)


def test_p5_draw_one_next_player_draws_one_and_loses_the_turn() -> None:
    m = pizza({"a": "R+1 R1", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", draw="B9", turn="a")
    events = m.apply("a", Play(card("R+1")))
    assert CardsDrawn("b", 1, DrawReason.DRAW_ONE) in events
    assert TurnSkipped("b") in events
    assert hand(m, "b") == ["Y1", "Y2", "B9"]
    assert m.waiting_for() == ("c",)


def test_p5_no_stacking_on_a_draw_one() -> None:
    m = pizza({"a": "R+1 R1 R2", "b": "Y+1 Y2", "c": "G1 G2"}, top="R7", turn="a", draw="B9")
    m.apply("a", Play(card("R+1")))
    assert m.legal_actions("b") == []  # the draw happened by itself; no answer
    assert hand(m, "b") == ["Y2", "Y+1", "B9"]


# ------------------------------------------------------------------ P6 wilds


def test_p6_wild_names_the_colour() -> None:
    m = pizza({"a": "W R1", "b": "Y1 Y2"}, top="R7", turn="a")
    m.apply("a", Play(card("W")))
    assert m.waiting_for() == ("a",)
    assert m.public_view().pending is Pending.COLOUR
    m.apply("a", ChooseColour(B))
    assert m.public_view().active_colour is B
    assert m.waiting_for() == ("b",)
    with pytest.raises(CardDoesNotMatch, match="Yellow 1 doesn't match the Wild: Blue was named"):
        m.check("b", Play(card("Y1")))


def test_p6_wild_draw_two_accept_draws_two_and_loses_the_turn() -> None:
    m = pizza({"a": "W+2 B1 B2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B8 B9", turn="a")
    m.apply("a", Play(card("W+2")))
    m.apply("a", ChooseColour(G))
    view = m.public_view()
    assert view.pending is Pending.WILD_DRAW
    assert view.pending_draw == 2
    assert m.waiting_for() == ("b",)
    assert set(m.legal_actions("b")) == {Accept(), Challenge()}
    events = m.apply("b", Accept())
    assert CardsDrawn("b", 2, DrawReason.WILD_DRAW) in events
    assert TurnSkipped("b") in events
    assert hand(m, "b") == ["Y1", "Y2", "B8", "B9"]
    assert m.waiting_for() == ("c",)


def test_p6_dip_draws_the_top_card_then_gives_one_away() -> None:
    m = pizza({"a": "WDIP R1 B4", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="G5", turn="a")
    m.apply("a", Play(card("WDIP")))
    events = m.apply("a", ChooseColour(Y))
    assert CardsDrawn("a", 1, DrawReason.DIP) in events
    assert hand(m, "a") == ["R1", "G5", "B4"]
    assert m.public_view().pending is Pending.GIVE
    assert set(m.legal_actions("a")) == {Give(card(c)) for c in ("R1", "G5", "B4")}
    events = m.apply("a", Give(card("B4")))
    assert CardGiven("a", "b") in events
    assert hand(m, "b") == ["Y1", "Y2", "B4"]


def test_p6_dip_next_player_keeps_turn() -> None:
    m = pizza({"a": "WDIP R1 B4", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="G5", turn="a")
    play_all(m, [("a", Play(card("WDIP"))), ("a", ChooseColour(Y)), ("a", Give(card("G5")))])
    assert m.waiting_for() == ("b",)
    assert m.public_view().pending is Pending.NONE
    assert hand(m, "b") == ["Y1", "Y2", "G5"]  # the card just drawn may be given


def test_p6_dip_only_giver_and_receiver_see_the_card() -> None:
    m = pizza({"a": "WDIP R1 B4", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="G5", turn="a")
    events = play_all(
        m, [("a", Play(card("WDIP"))), ("a", ChooseColour(Y)), ("a", Give(card("B4")))]
    )
    assert m.private_view("a").given == card("B4")
    assert m.private_view("b").received == card("B4")
    assert m.private_view("c").received is None
    assert m.private_view("c").given is None
    public = repr(events) + repr(m.public_view())
    assert "B4" not in public
    assert "G5" not in public  # the Dip draw is private too


# -------------------------------------------------------------- P7 challenge


def _wd2(hand_a: str, *, top: str = "R7", draw: str = "B8 B9 G8 G9") -> Game:
    m = pizza({"a": hand_a, "b": "Y1 Y2", "c": "G1"}, top=top, draw=draw, turn="a")
    m.apply("a", Play(card("W+2")))
    m.apply("a", ChooseColour(B))
    return m


def test_p7_illegitimate_wild_draw_two_player_draws_two_and_challenger_plays() -> None:
    m = _wd2("W+2 R1 Y5")  # R1 matched the Red 7
    events = m.apply("b", Challenge())
    assert ChallengeResolved("b", "a", legitimate=False) in events
    assert CardsDrawn("a", 2, DrawReason.CHALLENGE) in events
    assert count(m, "a") == 4
    assert count(m, "b") == 2
    assert m.waiting_for() == ("b",)
    assert m.public_view().pending is Pending.NONE
    assert m.public_view().active_colour is B  # the named colour stands


def test_p7_legitimate_challenger_draws_four_and_loses_the_turn() -> None:
    m = _wd2("W+2 Y5 G4")
    events = m.apply("b", Challenge())
    assert ChallengeResolved("b", "a", legitimate=True) in events
    assert CardsDrawn("b", 4, DrawReason.CHALLENGE) in events
    assert TurnSkipped("b") in events
    assert count(m, "b") == 6
    assert count(m, "a") == 2
    assert m.waiting_for() == ("c",)


@pytest.mark.parametrize(
    ("hand_a", "legitimate"),
    [
        ("W+2 Y7", False),  # same number
        ("W+2 W", False),  # wilds count (judged as in D10)
        ("W+2 WDIP", False),
        ("W+2 RS", False),  # colour
        ("W+2 YS G3", True),
    ],
)
def test_p7_any_other_legal_card_makes_it_illegitimate(hand_a: str, legitimate: bool) -> None:
    m = _wd2(hand_a)
    events = m.apply("b", Challenge())
    assert ChallengeResolved("b", "a", legitimate=legitimate) in events


def test_p7_judged_on_the_colour_named_for_a_wild_on_top() -> None:
    m = pizza({"a": "W+2 G3", "b": "Y1 Y2"}, top="W", active="G", draw="B8 B9", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(B))])
    assert ChallengeResolved("b", "a", legitimate=False) in m.apply("b", Challenge())


def test_p7_judged_on_the_hand_held_when_played_not_after_a_catch() -> None:
    m = pizza(
        {"a": "W+2 Y5", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="R1 R2 G8 G9 B2 B3", turn="a"
    )
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(B))])
    m.apply("c", CatchUno())  # a draws R1 R2, which would have matched
    assert count(m, "a") == 3
    events = m.apply("b", Challenge())
    assert ChallengeResolved("b", "a", legitimate=True) in events
    assert m.private_view("b").revealed_hand == (card("Y5"),)


def test_p7_wild_draw_two_played_straight_after_drawing_it() -> None:
    m = pizza({"a": "Y5 G4", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="W+2 B1 B2 B3 B4", turn="a")
    play_all(m, [("a", Draw()), ("a", Play(card("W+2"))), ("a", ChooseColour(B))])
    assert ChallengeResolved("b", "a", legitimate=True) in m.apply("b", Challenge())


def test_p7_challenger_alone_sees_the_hand_until_their_next_action() -> None:
    m = _wd2("W+2 R1 Y5")
    m.apply("b", Challenge())
    assert m.private_view("b").revealed_hand == (card("R1"), card("Y5"))
    assert m.private_view("c").revealed_hand is None
    assert m.private_view("a").revealed_hand is None
    assert "R1" not in repr(m.public_view())
    m.apply("b", Draw())
    assert m.private_view("b").revealed_hand is None


def test_p7_only_the_hit_player_may_challenge() -> None:
    m = _wd2("W+2 R1 Y5")
    assert Challenge() not in m.legal_actions("c")
    with pytest.raises(Exception, match="not your turn"):
        m.check("c", Challenge())


def test_p7_wild_draw_two_may_always_be_played() -> None:
    m = pizza({"a": "W+2 R1", "b": "Y1"}, top="R7", turn="a")
    assert Play(card("W+2")) in m.legal_actions("a")


# -------------------------------------------------------------------- P8 UNO


def test_p8_call_uno_with_the_play_never_exposed() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    events = m.apply("a", Play(card("R1"), uno=True))
    assert UnoCalled("a") in events
    assert not any(isinstance(e, UnoExposed) for e in events)
    assert CatchUno() not in m.legal_actions("b")


def test_p8_second_to_last_card_without_call_is_exposed_and_caught() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B1 B2", turn="a")
    events = m.apply("a", Play(card("R1")))
    assert UnoExposed("a") in events
    assert CallUno() in m.legal_actions("a")
    assert CatchUno() in m.legal_actions("b")
    assert CatchUno() in m.legal_actions("c")  # any other player, not only the next
    events = m.apply("c", CatchUno())
    assert UnoCaught("c", "a") in events
    assert CardsDrawn("a", 2, DrawReason.UNO_PENALTY) in events
    assert count(m, "a") == 3
    with pytest.raises(WrongMoment):  # the first catch wins
        m.check("b", CatchUno())


def test_p8_calling_while_exposed_ends_the_exposure() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    m.apply("a", Play(card("R1")))
    m.apply("a", CallUno())
    assert CatchUno() not in m.legal_actions("b")
    assert not any(s.exposed for s in m.public_view().seats)


def test_p8_window_closes_when_the_next_player_plays_or_draws() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B5", turn="a")
    m.apply("a", Play(card("R1")))
    m.apply("b", Draw())
    assert CatchUno() not in m.legal_actions("c")
    with pytest.raises(WrongMoment):
        m.check("a", CallUno())


def test_p8_draw_one_victims_draw_does_not_close_the_window() -> None:
    m = pizza({"a": "R+1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B5 B6 B7", turn="a")
    events = m.apply("a", Play(card("R+1")))
    assert UnoExposed("a") in events
    assert CatchUno() in m.legal_actions("b")
    m.apply("b", CatchUno())
    assert count(m, "a") == 3


def test_p8_calling_when_not_exposed_is_refused_without_penalty() -> None:
    m = pizza({"a": "R1 R2 R3", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    before = state(m)
    with pytest.raises(WrongMoment):
        m.apply("a", CallUno())
    with pytest.raises(WrongMoment):
        m.apply("b", CatchUno())
    with pytest.raises(WrongMoment):  # the uno flag only with the second-to-last card
        m.apply("a", Play(card("R1"), uno=True))
    assert state(m) == before


def test_p8_dip_exposure_is_judged_after_the_give() -> None:
    m = pizza({"a": "WDIP R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B5", turn="a")
    events = play_all(m, [("a", Play(card("WDIP"))), ("a", ChooseColour(R))])
    assert CatchUno() not in m.legal_actions("b")  # not yet: the play is not over
    events = m.apply("a", Give(card("B5")))
    assert UnoExposed("a") in events
    assert CatchUno() in m.legal_actions("c")


def test_p8_wild_exposure_starts_after_naming_the_colour() -> None:
    m = pizza({"a": "W R2", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    m.apply("a", Play(card("W")))
    assert CatchUno() not in m.legal_actions("b")
    assert UnoExposed("a") in m.apply("a", ChooseColour(R))


def test_p8_accepting_a_wild_draw_two_closes_the_window() -> None:
    m = pizza({"a": "W+2 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B5 B6", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(R))])
    assert CatchUno() in m.legal_actions("c")
    m.apply("b", Accept())
    assert CatchUno() not in m.legal_actions("c")


# ------------------------------------------------------------------ P9 refill


def test_p9_empty_draw_pile_keeps_top_and_shuffles_the_rest() -> None:
    m = pizza(
        {"a": "B1 B2", "b": "Y1 Y2"},
        top="R7",
        discard="G1 G2 G3 G4 G5 G6 G7 G8 G9",
        turn="a",
        rest="none",
    )
    events = m.apply("a", Draw())
    assert DrawPileRefilled(9) in events
    view = m.public_view()
    assert view.top == card("R7")
    assert view.discard_pile == 1
    assert view.draw_pile == 8
    snap = m.to_snapshot()
    drawn = next(c for c in hand(m, "a") if c.startswith("G"))
    pile = [*snap["draw"], drawn]
    assert sorted(pile) == [f"G{n}" for n in range(1, 10)]
    # Shuffled, not just flipped: across seeds the new pile is not always the same order.
    orders = set()
    for seed in range(5):
        m = pizza(
            {"a": "B1 B2", "b": "Y1 Y2"},
            top="R7",
            discard="G1 G2 G3 G4 G5 G6 G7 G8 G9",
            turn="a",
            rest="none",
            seed=seed,
        )
        m.apply("a", Draw())
        orders.add(tuple(m.to_snapshot()["draw"]))
    assert len(orders) > 1


def test_p9_nothing_left_anywhere_drops_the_rest_of_the_draw() -> None:
    m = pizza({"a": "W+2 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="B5", turn="a", rest="none")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(R))])
    events = m.apply("b", Accept())
    # B5 from the pile, then only R7 under the W+2 could be reshuffled.
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert drawn == [CardsDrawn("b", 2, DrawReason.WILD_DRAW)]
    m = pizza({"a": "B1", "b": "Y1 Y2"}, top="R7", turn="a", rest="none")
    events = m.apply("a", Draw())
    assert CardsDrawn("a", 0, DrawReason.TURN) in events
    assert m.waiting_for() == ("b",)  # drawing is a pass


# ---------------------------------------------------------------- P10 end


def test_p10_emptying_the_hand_wins_the_round() -> None:
    m = pizza({"a": "R1", "b": "Y1 Y2", "c": "GS"}, top="R7", turn="a")
    events = m.apply("a", Play(card("R1")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winner == "a"
    assert dict(ended.points) == {"a": 23, "b": 0, "c": 0}
    assert dict(ended.scores)["a"] == 23


def test_p10_final_draw_one_is_still_drawn_and_counts() -> None:
    m = pizza({"a": "R+1", "b": "Y1 Y2", "c": "GS"}, top="R7", draw="B9", turn="a")
    events = m.apply("a", Play(card("R+1")))
    assert CardsDrawn("b", 1, DrawReason.DRAW_ONE) in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert dict(ended.points)["a"] == 1 + 2 + 9 + 20
    assert dict(ended.hands)["b"] == (card("Y1"), card("Y2"), card("B9"))


def test_p10_final_wild_draw_two_is_drawn_without_challenge() -> None:
    m = pizza({"a": "W+2", "b": "Y1", "c": "G1"}, top="R7", draw="B8 B9", turn="a")
    events = m.apply("a", Play(card("W+2")))
    assert CardsDrawn("b", 2, DrawReason.WILD_DRAW) in events
    assert not any(isinstance(e, ChallengeResolved) for e in events)
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert dict(ended.points)["a"] == 1 + 8 + 9 + 1


def test_p10_final_dip_still_draws_and_hands_over() -> None:
    m = pizza({"a": "WDIP", "b": "Y1", "c": "G1"}, top="R7", draw="BS", turn="a")
    events = m.apply("a", Play(card("WDIP")))
    assert CardsDrawn("a", 1, DrawReason.DIP) in events
    assert CardGiven("a", "b") in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winner == "a"
    assert dict(ended.hands)["b"] == (card("Y1"), card("BS"))
    assert dict(ended.points)["a"] == 1 + 20 + 1


def test_p10_next_round_is_dealt_at_once() -> None:
    m = pizza({"a": "R1", "b": "Y1 Y2", "c": "GS"}, top="R7", turn="a", dealer="c")
    events = m.apply("a", Play(card("R1")))
    assert isinstance(events[-1], (RoundStarted, FirstCardTurned)) or m.waiting_for()
    assert m.public_view().round == 2
    assert all(count(m, p) >= 5 for p in "abc")
    assert sum(all_cards(m).values()) == 51


# -------------------------------------------------------------- P11 scoring


def test_p11_card_points() -> None:
    assert card_points(card("R7")) == 7
    assert card_points(card("B1")) == 1
    for code in ("GS", "G+1", "GR"):
        assert card_points(card(code)) == 20
    for code in ("W", "W+2", "WDIP"):
        assert card_points(card(code)) == 50


def test_p11_winner_scores_every_other_hand() -> None:
    m = pizza(
        {"a": "R1", "b": "Y9 W", "c": "GS G+1", "d": "BR B3"},
        top="R7",
        turn="a",
        scores={"a": 10, "b": 40},
    )
    events = m.apply("a", Play(card("R1")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert dict(ended.points) == {"a": 59 + 40 + 23, "b": 0, "c": 0, "d": 0}
    assert dict(ended.scores) == {"a": 10 + 122, "b": 40, "c": 0, "d": 0}


def test_p11_first_to_the_target_wins_the_match() -> None:
    m = pizza({"a": "R1", "b": "Y9 W"}, top="R7", turn="a", scores={"a": 191})
    events = m.apply("a", Play(card("R1")))
    ended = next(e for e in events if isinstance(e, MatchEnded))
    assert ended.winner == "a"
    assert dict(ended.scores) == {"a": 250, "b": 0}
    assert m.is_over
    assert m.waiting_for() == ()
    assert m.public_view().winner == "a"
    assert m.legal_actions("b") == []


def test_p11_target_is_a_table_option() -> None:
    m = pizza({"a": "R1", "b": "Y9"}, top="R7", turn="a", target=9)
    m.apply("a", Play(card("R1")))
    assert m.is_over
    assert PizzaOptions().target == 250
