"""Classic UNO, docs/rules.md C1–C11, each rule with explicit cards."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import Accept, CallUno, CatchUno, Challenge, ChooseColour, Draw, Play
from engine.builders import table_for_test
from engine.cards import Card, Colour, Face, card, classic_deck
from engine.classic import POINTS
from engine.errors import CardDoesNotMatch
from engine.events import (
    CardReturned,
    CardsDrawn,
    ChallengeResolved,
    DrawReason,
    FirstCardTurned,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
)
from engine.game import Game
from engine.match import ClassicOptions, new_match
from engine.views import Pending

PLAYERS = ("a", "b", "c")


def classic(
    hands: dict[str, str],
    *,
    top: str,
    turn: str,
    draw: str = "",
    active: Colour | None = None,
    scores: list[int] | None = None,
    target: int = 500,
    under: str = "",
) -> Game:
    return table_for_test(
        "classic",
        players=list(hands),
        hands=list(hands.values()),
        discard=f"{under} {top}".strip(),
        draw=draw,
        turn=turn,
        active=active,
        scores=scores,
        options=ClassicOptions(target=target),
        rest="draw",
    )


def hand_of(m: Game, player: str) -> list[str]:
    return [c.code for c in m.private_view(player).hand]


def test_c1_deck_has_108_cards() -> None:
    deck = classic_deck()
    assert len(deck) == 108
    counts = Counter(c.code for c in deck)
    assert counts["R0"] == 1
    assert counts["R5"] == 2
    assert counts["RS"] == 2
    assert counts["R+2"] == 2
    assert counts["W"] == 4
    assert counts["W+4"] == 4
    assert not {"WSH", "WC", "WDIP", "W+2", "R+1"} & set(counts)


@pytest.mark.parametrize("n", [2, 4, 10])
def test_c2_deal_seven_each_left_of_the_dealer_plays_first(n: int) -> None:
    ids = [f"p{k}" for k in range(n)]
    m = new_match("classic", players=ids, seed=3)
    view = m.public_view()
    assert all(seat.cards in (7, 8, 9) for seat in view.seats)
    started = next(e for e in view.recent if isinstance(e, RoundStarted))
    dealer = ids.index(started.dealer)
    assert started.first == ids[(dealer + 1) % n]


def test_c2_the_deal_passes_left_each_round() -> None:
    m = classic({"a": "R5", "b": "G5 G6", "c": "B5"}, top="R3", turn="a")
    events = m.apply("a", Play(card("R5")))
    dealers = [e.dealer for e in events if isinstance(e, RoundStarted)]
    assert dealers == ["a"]  # the dealer of round 1 was "c", on a's right


def test_c3_a_wild_draw_four_first_card_goes_back() -> None:
    for seed in range(400):
        m = new_match("classic", players=PLAYERS, seed=seed)
        recent = m.public_view().recent
        if any(isinstance(e, CardReturned) for e in recent):
            turned = [e.card for e in recent if isinstance(e, FirstCardTurned)]
            assert turned[0].face is Face.WILD_DRAW_FOUR
            assert turned[-1].face is not Face.WILD_DRAW_FOUR
            return
    raise AssertionError("no seed turned up a Wild Draw 4 first")


def test_c3_a_draw_two_first_card_draws_two_and_skips() -> None:
    for seed in range(400):
        m = new_match("classic", players=PLAYERS, seed=seed)
        view = m.public_view()
        if view.top is not None and view.top.face is Face.DRAW_TWO:
            started = next(e for e in view.recent if isinstance(e, RoundStarted))
            draws = [e for e in view.recent if isinstance(e, CardsDrawn)]
            assert draws == [CardsDrawn(started.first, 2, DrawReason.FIRST_CARD)]
            assert TurnSkipped(started.first) in view.recent
            assert view.to_act != started.first
            return
    raise AssertionError("no seed turned up a Draw 2 first")


def test_c4_a_drawn_card_that_matches_may_be_played_at_once() -> None:
    m = classic({"a": "B1 B2", "b": "G5", "c": "Y5"}, top="R3", turn="a", draw="R9")
    m.apply("a", Draw())
    assert m.public_view().pending is Pending.DRAWN_CARD
    m.apply("a", Play(card("R9")))
    assert m.public_view().to_act == "b"


def test_c4_a_card_that_does_not_match_is_refused() -> None:
    m = classic({"a": "B1 B2", "b": "G5", "c": "Y5"}, top="R3", turn="a")
    with pytest.raises(CardDoesNotMatch):
        m.apply("a", Play(card("B1")))


def test_c5_skip_reverse_and_draw_two() -> None:
    m = classic({"a": "RS R+2 RR R1", "b": "G5 G6", "c": "Y5 Y6"}, top="R3", turn="a")
    m.apply("a", Play(card("RS")))
    assert m.public_view().to_act == "c"
    m = classic({"a": "RS R+2 RR R1", "b": "G5 G6", "c": "Y5 Y6"}, top="R3", turn="a")
    m.apply("a", Play(card("RR")))
    view = m.public_view()
    assert view.to_act == "c"
    assert not view.clockwise
    m = classic({"a": "RS R+2 RR R1", "b": "G5 G6", "c": "Y5 Y6"}, top="R3", turn="a", draw="B1 B2")
    events = m.apply("a", Play(card("R+2")))
    assert CardsDrawn("b", 2, DrawReason.DRAW_TWO) in events
    assert m.public_view().to_act == "c"
    assert hand_of(m, "b") == ["G5", "G6", "B1", "B2"]


def test_c5_with_two_players_a_reverse_acts_as_a_skip() -> None:
    m = classic({"a": "RR R1", "b": "G5 G6"}, top="R3", turn="a")
    m.apply("a", Play(card("RR")))
    assert m.public_view().to_act == "a"


def test_c6_a_wild_names_the_colour() -> None:
    m = classic({"a": "W R1", "b": "G5 G6", "c": "Y5"}, top="B3", turn="a")
    m.apply("a", Play(card("W")))
    m.apply("a", ChooseColour(Colour.GREEN))
    view = m.public_view()
    assert view.active_colour is Colour.GREEN
    assert view.to_act == "b"


def test_c6_accepting_a_wild_draw_four_draws_four_and_loses_the_turn() -> None:
    m = classic({"a": "W+4 R1 R2", "b": "G5", "c": "Y5"}, top="B3", turn="a", draw="B1 B2 B4 B5")
    m.apply("a", Play(card("W+4")))
    m.apply("a", ChooseColour(Colour.GREEN))
    assert m.public_view().pending is Pending.WILD_DRAW
    assert m.legal_actions("b") == [Challenge(), Accept()]
    m.apply("b", Accept())
    assert len(hand_of(m, "b")) == 5
    assert m.public_view().to_act == "c"


def test_c7_guilty_with_a_card_of_the_active_colour() -> None:
    m = classic({"a": "W+4 B9 R1", "b": "G5", "c": "Y5"}, top="B3", turn="a", draw="G1 G2 G3 G4")
    m.apply("a", Play(card("W+4")))
    m.apply("a", ChooseColour(Colour.GREEN))
    events = m.apply("b", Challenge())
    assert ChallengeResolved("b", "a", False) in events
    assert len(hand_of(m, "a")) == 6
    view = m.public_view()
    assert view.to_act == "b"
    assert view.active_colour is Colour.GREEN
    assert m.private_view("b").revealed_hand == (card("R1"), card("B9"))


def test_c7_a_matching_number_does_not_make_it_guilty() -> None:
    m = classic({"a": "W+4 R3", "b": "G5", "c": "Y5"}, top="B3", turn="a", draw="G1 G2 G3 G4 G6 G7")
    m.apply("a", Play(card("W+4")))
    m.apply("a", ChooseColour(Colour.GREEN))
    events = m.apply("b", Challenge())
    assert ChallengeResolved("b", "a", True) in events
    assert len(hand_of(m, "b")) == 7  # not guilty: the challenger draws 6
    assert m.public_view().to_act == "c"


def test_c8_uno_exposure_and_catch() -> None:
    m = classic({"a": "R1 R2", "b": "G5 G6", "c": "Y5"}, top="R3", turn="a", draw="B1 B2")
    m.apply("a", Play(card("R1")))
    assert m.public_view().seats[0].exposed
    m.apply("c", CatchUno())
    assert hand_of(m, "a") == ["R2", "B1", "B2"]


def test_c8_a_draw_two_victims_draw_does_not_close_the_window() -> None:
    m = classic({"a": "R+2 R2", "b": "G5 G6", "c": "Y5"}, top="R3", turn="a")
    m.apply("a", Play(card("R+2")))
    assert m.public_view().seats[0].exposed
    assert CatchUno() in m.legal_actions("b")
    m.apply("a", CallUno())
    assert not m.public_view().seats[0].exposed


def test_c9_the_discards_are_shuffled_into_a_new_draw_pile() -> None:
    deck = classic_deck()
    held = "R1 R2 G5 G6 Y5 Y6"
    others = Counter(deck) - Counter(Card.parse(c) for c in [*held.split(), "R3"])
    m = table_for_test(
        "classic",
        players=list(PLAYERS),
        hands=["R1 R2", "G5 G6", "Y5 Y6"],
        discard=[*others.elements(), card("R3")],
        turn="a",
        options=ClassicOptions(),
        rest="none",
    )
    events = m.apply("a", Draw())
    assert m.public_view().discard_pile == 1
    assert any(type(e).__name__ == "DrawPileRefilled" for e in events)


def test_c10_a_last_draw_two_is_still_drawn_and_counts() -> None:
    m = classic({"a": "R+2", "b": "G5", "c": "Y5"}, top="R3", turn="a", draw="B1 B2")
    events = m.apply("a", Play(card("R+2")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert dict(ended.points)["a"] == 5 + 1 + 2 + 5


def test_c10_a_last_wild_draw_four_is_drawn_and_cannot_be_challenged() -> None:
    m = classic({"a": "W+4", "b": "G5", "c": "Y5"}, top="R3", turn="a", draw="B1 B2 B4 B5")
    events = m.apply("a", Play(card("W+4")))
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert dict(ended.points)["a"] == 5 + 1 + 2 + 4 + 5 + 5


def test_c11_scoring_and_the_target() -> None:
    assert POINTS[card("R7")] == 7
    assert POINTS[card("RS")] == POINTS[card("RR")] == POINTS[card("R+2")] == 20
    assert POINTS[card("W")] == POINTS[card("W+4")] == 50
    m = classic({"a": "R5", "b": "W", "c": "GS"}, top="R3", turn="a", scores=[440, 0, 0])
    events = m.apply("a", Play(card("R5")))
    assert m.is_over
    assert [p.player for p in m.placings()] == ["a", "b", "c"]
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert dict(ended.scores)["a"] == 510


def test_c11_the_target_is_a_table_option() -> None:
    assert ClassicOptions().target == 500
    m = new_match("classic", players=PLAYERS, seed=1, options=ClassicOptions(target=100))
    assert m.public_view().target == 100


def test_x3_a_leavers_draw_four_is_cancelled_and_the_hit_player_plays() -> None:
    m = classic({"a": "W+4 R1 R2", "b": "G5 G6", "c": "Y5"}, top="B3", turn="a")
    m.apply("a", Play(card("W+4")))
    m.apply("a", ChooseColour(Colour.GREEN))
    events = m.remove_player("a")
    view = m.public_view()
    assert view.pending is Pending.NONE
    assert view.to_act == "b"
    assert view.pending_draw == 0
    assert hand_of(m, "b") == ["G5", "G6"]
    assert Play(card("G5")) in m.legal_actions("b")
    assert m.to_snapshot()["draw"][:2] == ["R2", "R1"]  # first card nearest the top
    assert events[-1].__class__.__name__ == "TurnStarted"


def test_x3_a_leavers_unnamed_colour_stays_the_colour_before() -> None:
    m = classic({"a": "W R1 R2", "b": "B5 G6 G7", "c": "Y5"}, top="B3", turn="a")
    m.apply("a", Play(card("W")))
    m.remove_player("a")
    view = m.public_view()
    assert view.active_colour is Colour.BLUE
    assert m.legal_actions("b") == [Play(card("B5")), Draw()]


def test_x3_a_first_card_wild_left_unnamed_is_named_by_the_next_player() -> None:
    for seed in range(400):
        m = new_match("classic", players=PLAYERS, seed=seed)
        view = m.public_view()
        if view.pending is Pending.COLOUR:
            break
    else:
        raise AssertionError("no seed turned up a Wild first")
    first = view.to_act
    assert first is not None
    m.remove_player(first)  # no colour was ever named: the next player names it
    view = m.public_view()
    assert view.pending is Pending.COLOUR
    nxt = view.to_act
    assert nxt is not None
    m.apply(nxt, ChooseColour(Colour.GREEN))
    assert m.public_view().to_act == nxt  # and then plays
    assert m.public_view().active_colour is Colour.GREEN
