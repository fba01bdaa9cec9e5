"""Classic UNO's house rules, docs/rules.md H1–H4, each clause with explicit cards,
and the corners docs/rules.md decides."""

from __future__ import annotations

import json

import pytest

from engine.actions import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    JumpIn,
    KeepDrawn,
    Play,
    SwapHands,
    TakeVolley,
)
from engine.builders import table_for_test
from engine.cards import Card, Colour, card
from engine.classic import RULES
from engine.errors import IllegalAction, NotYourTurn, WrongMoment
from engine.events import (
    CardsDrawn,
    DrawReason,
    HandsPassed,
    HandsSwapped,
    JumpedIn,
    RoundEnded,
    TurnSkipped,
    VolleyRaised,
)
from engine.game import Game
from engine.match import ClassicOptions, Match, from_snapshot, new_match
from engine.seats import set_order
from engine.views import Pending


def house(
    hands: dict[str, str],
    *,
    top: str,
    turn: str,
    draw: str = "",
    active: Colour | None = None,
    rest: str = "draw",
    **rules: bool,
) -> Game:
    return table_for_test(
        "classic",
        players=list(hands),
        hands=list(hands.values()),
        discard=top,
        draw=draw,
        turn=turn,
        active=active,
        options=ClassicOptions(**rules),
        rest=rest,
    )


def hand_of(m: Game, player: str) -> list[str]:
    return sorted(c.code for c in m.table.hands[m.table.players.index(player)])


def hand_of_cards(m: Game | Match, player: str) -> tuple[Card, ...]:
    return m.private_view(player).hand


def test_house_rules_are_off_by_default_and_classic_plays_its_own_ruleset() -> None:
    options = ClassicOptions()
    assert not (options.stacking)
    assert not (options.seven_o)
    assert not (options.jump_in)
    assert not (options.draw_to_match)
    m = new_match("classic", players=("a", "b", "c"), seed=1)
    assert isinstance(m, Game)
    assert m.rules.tailor is None
    assert not m.rules.stacking
    assert not m.rules.jump_in
    assert m.rules.effect is RULES.effect
    assert m.rules.actions == RULES.actions


# H1 ------------------------------------------------------------------------------------


def test_h1_a_draw_two_may_be_stacked_and_the_total_grows() -> None:
    m = house(
        {"a": "R+2 R1 R2", "b": "G+2 G5 G6", "c": "Y5 Y6"},
        top="R3",
        turn="a",
        draw="B1 B2 B3 B4 B5",
        stacking=True,
    )
    events = m.apply("a", Play(card("R+2")))
    assert VolleyRaised("a", "b", 2) in events
    view = m.public_view()
    assert view.pending is Pending.VOLLEY
    assert view.to_act == "b"
    assert view.pending_draw == 2
    assert set(m.legal_actions("b")) == {Play(card("G+2")), TakeVolley()}
    events = m.apply("b", Play(card("G+2")))
    assert VolleyRaised("b", "c", 4) in events
    assert m.public_view().pending_draw == 4


def test_h1_the_first_who_cannot_stack_draws_the_total_and_loses_the_turn() -> None:
    m = house(
        {"a": "R+2 R1 R2", "b": "G+2 G5 G6", "c": "Y5 Y6"},
        top="R3",
        turn="a",
        draw="B1 B2 B3 B4 B5",
        stacking=True,
    )
    m.apply("a", Play(card("R+2")))
    m.apply("b", Play(card("G+2")))
    assert m.legal_actions("c") == [TakeVolley()]
    events = m.apply("c", TakeVolley())
    assert CardsDrawn("c", 4, DrawReason.VOLLEY) in events
    assert TurnSkipped("c") in events
    assert len(hand_of(m, "c")) == 6
    view = m.public_view()
    assert view.to_act == "a"
    assert view.pending is Pending.NONE
    assert view.pending_draw == 0


def test_h1_only_a_draw_two_stacks_on_a_draw_two() -> None:
    m = house({"a": "R+2 R1", "b": "W+4 R2 G5", "c": "Y5"}, top="R3", turn="a", stacking=True)
    m.apply("a", Play(card("R+2")))
    with pytest.raises(WrongMoment):
        m.apply("b", Play(card("W+4")))
    with pytest.raises(WrongMoment):
        m.apply("b", Play(card("R2")))


def test_h1_a_last_draw_two_ends_the_round_and_the_total_is_drawn() -> None:
    m = house(
        {"a": "R+2 R1", "b": "G+2", "c": "Y5 Y6"},
        top="R3",
        turn="a",
        draw="B1 B2 B3 B4 B5 B6",
        stacking=True,
    )
    m.apply("a", Play(card("R+2")))
    events = m.apply("b", Play(card("G+2")))
    assert CardsDrawn("c", 4, DrawReason.DRAW_TWO) in events
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.winner == "b"


def wd4_stack() -> Game:
    m = house(
        {"a": "W+4 R1 R2", "b": "W+4 G5 G6", "c": "Y5 Y6 W+4", "d": "B5 B6"},
        top="G3",
        turn="a",
        draw="B1 B2 B3 B4 B5 B6 B7 B8 B9",
        stacking=True,
    )
    m.apply("a", Play(card("W+4")))
    m.apply("a", ChooseColour(Colour.RED))
    return m


def test_h1_a_wild_draw_four_may_be_stacked_on_a_wild_draw_four() -> None:
    m = wd4_stack()
    assert set(m.legal_actions("b")) == {Challenge(), Accept(), Play(card("W+4"))}
    m.apply("b", Play(card("W+4")))
    events = m.apply("b", ChooseColour(Colour.BLUE))
    assert VolleyRaised("b", "c", 8) in events
    view = m.public_view()
    assert view.pending is Pending.VOLLEY
    assert view.to_act == "c"
    assert view.pending_draw == 8


def test_h1_only_the_first_wild_draw_four_of_a_stack_can_be_challenged() -> None:
    m = wd4_stack()
    m.apply("b", Play(card("W+4")))
    m.apply("b", ChooseColour(Colour.BLUE))
    assert Challenge() not in m.legal_actions("c")
    with pytest.raises(IllegalAction):
        m.apply("c", Challenge())
    m.apply("c", Play(card("W+4")))
    m.apply("c", ChooseColour(Colour.GREEN))
    assert m.legal_actions("d") == [TakeVolley()]
    events = m.apply("d", TakeVolley())
    assert CardsDrawn("d", 12, DrawReason.VOLLEY) in events
    assert m.public_view().to_act == "a"


def test_h1_the_hit_player_may_still_challenge_the_first_or_accept_four() -> None:
    m = wd4_stack()
    events = m.apply("b", Accept())
    assert CardsDrawn("b", 4, DrawReason.WILD_DRAW) in events
    assert m.public_view().to_act == "c"
    assert m.table.volley == 0
    m = wd4_stack()
    m.apply("b", Challenge())
    assert m.table.volley == 0
    assert m.public_view().pending is Pending.NONE


def test_h1_a_first_card_draw_two_is_still_drawn_by_itself() -> None:
    for seed in range(300):
        m = new_match(
            "classic", players=("a", "b", "c"), seed=seed, options=ClassicOptions(stacking=True)
        )
        view = m.public_view()
        if view.top is not None and view.top.code.endswith("+2"):
            assert view.pending is Pending.NONE
            assert any(isinstance(e, CardsDrawn) for e in view.recent)
            return
    raise AssertionError("no seed turned up a Draw 2 first")


def test_h1_off_a_draw_two_is_drawn_by_itself() -> None:
    m = house({"a": "R+2 R1", "b": "G+2 G5", "c": "Y5 Y6"}, top="R3", turn="a", draw="B1 B2")
    m.apply("a", Play(card("R+2")))
    assert m.public_view().to_act == "c"
    with pytest.raises(IllegalAction):
        m.apply("b", TakeVolley())


# H1 and X3 (decided 2026-12-06): a stack goes with the player whose card raised it ---------


def test_h1_x3_a_stack_is_cancelled_when_its_raiser_leaves() -> None:
    m = house(
        {"a": "R+2 R1 R2", "b": "G+2 G5 G6", "c": "Y5 Y6 G+2", "d": "B5 B6"},
        top="R3",
        turn="a",
        draw="B1 B2 B3 B4 B5",
        stacking=True,
    )
    m.apply("a", Play(card("R+2")))
    m.apply("b", Play(card("G+2")))
    m.remove_player("b")
    view = m.public_view()
    assert view.to_act == "c"
    assert view.pending is Pending.NONE
    assert view.pending_draw == 0
    assert m.table.volley == 0
    assert hand_of(m, "c") == ["G+2", "Y5", "Y6"]
    assert TakeVolley() not in m.legal_actions("c")
    assert Draw() in m.legal_actions("c")  # a normal turn
    m.apply("c", Play(card("G+2")))  # a plain play now: it starts a new stack on d
    assert m.public_view().pending_draw == 2
    assert m.public_view().to_act == "d"


def test_h1_x3_a_stacked_wild_draw_four_is_cancelled_when_its_raiser_leaves() -> None:
    m = wd4_stack()
    m.apply("b", Play(card("W+4")))
    m.apply("b", ChooseColour(Colour.BLUE))
    assert m.public_view().pending_draw == 8
    m.remove_player("b")
    view = m.public_view()
    assert view.to_act == "c"
    assert view.pending is Pending.NONE
    assert view.pending_draw == 0
    assert view.active_colour is Colour.BLUE  # the colour b named stands
    assert hand_of(m, "c") == ["W+4", "Y5", "Y6"]
    assert set(m.legal_actions("c")) == {Play(card("W+4")), Draw()}


def test_h1_x3_a_stacker_leaving_before_naming_the_colour_cancels_the_stack() -> None:
    m = wd4_stack()
    m.apply("b", Play(card("W+4")))
    m.remove_player("b")  # their Wild Draw 4 still waits for its colour
    view = m.public_view()
    assert view.to_act == "c"
    assert view.pending is Pending.NONE
    assert view.pending_draw == 0
    assert view.active_colour is Colour.RED  # the colour before b's wild stays
    assert m.table.wild_draw is None


def test_h1_x3_the_stack_stays_owed_when_an_earlier_stacker_leaves() -> None:
    m = house(
        {"a": "R+2 R1 R2", "b": "G+2 G5 G6", "c": "Y5 Y6", "d": "B5 B6"},
        top="R3",
        turn="a",
        draw="B1 B2 B3 B4 B5",
        stacking=True,
    )
    m.apply("a", Play(card("R+2")))
    m.apply("b", Play(card("G+2")))
    m.remove_player("a")  # b's card raised the total c owes, and b is still seated
    view = m.public_view()
    assert view.to_act == "c"
    assert view.pending is Pending.VOLLEY
    assert view.pending_draw == 4
    assert m.legal_actions("c") == [TakeVolley()]


def test_h1_x3_a_stack_survives_a_snapshot_and_goes_with_its_raiser() -> None:
    m = house(
        {"a": "R+2 R1 R2", "b": "G+2 G5 G6", "c": "Y5 Y6"},
        top="R3",
        turn="a",
        draw="B1 B2 B3 B4 B5",
        stacking=True,
    )
    m.apply("a", Play(card("R+2")))
    m.apply("b", Play(card("G+2")))
    copy = from_snapshot(json.loads(json.dumps(m.to_snapshot())))
    copy.remove_player("b")
    view = copy.public_view()
    assert (view.to_act, view.pending, view.pending_draw) == ("c", Pending.NONE, 0)


# H2 ------------------------------------------------------------------------------------


def test_h2_a_seven_asks_whom_to_swap_with_and_swaps() -> None:
    m = house({"a": "R7 R1", "b": "G5 G6 G7", "c": "Y5 Y6 Y7 Y8"}, top="R3", turn="a", seven_o=True)
    m.apply("a", Play(card("R7")))
    view = m.public_view()
    assert view.pending is Pending.SWAP
    assert view.to_act == "a"
    assert set(m.legal_actions("a")) == {SwapHands("b"), SwapHands("c")}
    events = m.apply("a", SwapHands("c"))
    assert HandsSwapped("a", "c") in events
    assert hand_of(m, "a") == ["Y5", "Y6", "Y7", "Y8"]
    assert hand_of(m, "c") == ["R1"]
    assert m.public_view().to_act == "b"


def test_h2_a_zero_passes_every_hand_in_the_direction_of_play() -> None:
    m = house({"a": "R0 R1", "b": "G5 G6", "c": "Y5 Y6 Y7"}, top="R3", turn="a", seven_o=True)
    events = m.apply("a", Play(card("R0")))
    assert HandsPassed("a", True) in events
    assert hand_of(m, "b") == ["R1"]  # a's hand went to the next seat, b
    assert hand_of(m, "c") == ["G5", "G6"]
    assert hand_of(m, "a") == ["Y5", "Y6", "Y7"]
    assert m.public_view().to_act == "b"


def test_h2_a_zero_passes_the_other_way_after_a_reverse() -> None:
    m = house({"a": "R0 R1", "b": "G5 G6", "c": "Y5 Y6 Y7"}, top="R3", turn="a", seven_o=True)
    m.table.clockwise = False
    set_order(m.table)
    m.apply("a", Play(card("R0")))
    assert hand_of(m, "c") == ["R1"]
    assert hand_of(m, "a") == ["G5", "G6"]
    assert m.public_view().to_act == "c"


def test_h2_going_out_on_a_seven_or_zero_ends_the_round_before_any_swap() -> None:
    for last in ("R7", "R0"):
        m = house({"a": last, "b": "G5 G6", "c": "Y5 Y6 Y7"}, top="R3", turn="a", seven_o=True)
        events = m.apply("a", Play(card(last)))
        ended = next(e for e in events if isinstance(e, RoundEnded))
        assert ended.winner == "a"
        assert not any(isinstance(e, HandsSwapped | HandsPassed) for e in events)


def test_h2_with_two_players_a_seven_swaps_at_once() -> None:
    m = house({"a": "R7 R1", "b": "G5 G6 G8"}, top="R3", turn="a", seven_o=True)
    events = m.apply("a", Play(card("R7")))
    assert HandsSwapped("a", "b") in events
    assert hand_of(m, "a") == ["G5", "G6", "G8"]
    assert m.public_view().to_act == "b"


def test_h2_a_swap_exposes_nobody_to_a_catch() -> None:
    m = house({"a": "R7 R1 R2", "b": "G5", "c": "Y5 Y6 Y7"}, top="R3", turn="a", seven_o=True)
    m.apply("a", Play(card("R7")))
    m.apply("a", SwapHands("b"))
    assert hand_of(m, "a") == ["G5"]
    assert all(not seat.exposed for seat in m.public_view().seats)
    assert CallUno() not in m.legal_actions("a")


def test_h2_the_swap_choice_is_checked_and_times_out_on_the_fewest_cards() -> None:
    m = house(
        {"a": "R7 R1", "b": "G5 G6 G7", "c": "Y5 Y6", "d": "B1 B2"},
        top="R3",
        turn="a",
        seven_o=True,
    )
    m.apply("a", Play(card("R7")))
    for wrong in (SwapHands("a"), SwapHands("zed"), Draw()):
        with pytest.raises(WrongMoment):
            m.apply("a", wrong)
    assert m.timeout_action("a") == SwapHands("c")  # 2 cards, before d in play order


def test_h2_a_pending_swap_survives_a_snapshot() -> None:
    m = house({"a": "R7 R1", "b": "G5 G6 G7", "c": "Y5 Y6"}, top="R3", turn="a", seven_o=True)
    m.apply("a", Play(card("R7")))
    copy = from_snapshot(json.loads(json.dumps(m.to_snapshot())))
    assert copy.legal_actions("a") == m.legal_actions("a")
    copy.apply("a", SwapHands("b"))


def test_h2_off_a_seven_is_a_plain_number() -> None:
    m = house({"a": "R7 R1", "b": "G5 G6 G7", "c": "Y5 Y6"}, top="R3", turn="a")
    m.apply("a", Play(card("R7")))
    assert m.public_view().to_act == "b"
    assert hand_of(m, "a") == ["R1"]


def test_h2_a_zero_pass_exposes_nobody_to_a_catch() -> None:
    m = house({"a": "R0 R1 R2", "b": "G5", "c": "Y5 Y6 Y7"}, top="R3", turn="a", seven_o=True)
    m.apply("a", Play(card("R0")))
    assert hand_of(m, "c") == ["G5"]  # b's single card reached c
    assert all(not seat.exposed for seat in m.public_view().seats)
    assert CallUno() not in m.legal_actions("c")


def test_h2_uno_is_called_with_a_seven_or_zero_on_the_cards_left_by_the_play() -> None:
    for face in ("R7", "R0"):
        m = house({"a": f"{face} R1", "b": "G5 G6 G7", "c": "Y5"}, top="R3", turn="a", seven_o=True)
        assert Play(card(face), uno=True) in m.legal_actions("a")  # leaves one card
        m = house({"a": f"{face} R1 R2", "b": "G5 G6", "c": "Y5"}, top="R3", turn="a", seven_o=True)
        assert Play(card(face), uno=True) not in m.legal_actions("a")  # leaves two
        with pytest.raises(WrongMoment):
            m.apply("a", Play(card(face), uno=True))


def test_h2_nobody_can_be_caught_while_a_swap_is_chosen() -> None:
    m = house({"a": "R7 R1", "b": "G5 G6 G7", "c": "Y5 Y6"}, top="R3", turn="a", seven_o=True)
    m.apply("a", Play(card("R7")))  # one card left, no UNO called: the swap comes first
    assert m.public_view().pending is Pending.SWAP
    assert all(not seat.exposed for seat in m.public_view().seats)
    assert CatchUno() not in m.legal_actions("b")
    m.apply("a", SwapHands("b"))
    assert all(not seat.exposed for seat in m.public_view().seats)


def test_h2_x3_a_swap_being_chosen_stays_open_when_a_leaver_leaves_two_seated() -> None:
    m = house({"a": "R7 R1", "b": "G5 G6 G7", "c": "Y5 Y6"}, top="R3", turn="a", seven_o=True)
    m.apply("a", Play(card("R7")))
    m.remove_player("c")
    view = m.public_view()
    assert view.pending is Pending.SWAP
    assert view.to_act == "a"
    assert m.legal_actions("a") == [SwapHands("b")]
    with pytest.raises(WrongMoment):
        m.apply("a", SwapHands("c"))
    events = m.apply("a", SwapHands("b"))
    assert HandsSwapped("a", "b") in events
    assert m.public_view().to_act == "b"


# H3 ------------------------------------------------------------------------------------


def test_h3_a_player_not_in_turn_may_jump_in_with_an_identical_card() -> None:
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "R3 Y6 Y7", "d": "B7 B8"},
        top="R3",
        turn="a",
        jump_in=True,
    )
    assert m.legal_actions("c") == [JumpIn(card("R3"))]
    assert m.legal_actions("b") == []
    events = m.apply("c", JumpIn(card("R3")))
    assert events[0] == JumpedIn("c")
    view = m.public_view()
    assert view.top == card("R3")
    assert view.to_act == "d"


def test_h3_only_an_identical_card_jumps_in_never_a_wild() -> None:
    m = house(
        {"a": "G1 G2", "b": "R4 B6", "c": "G3 W", "d": "B7 B8"}, top="R3", turn="a", jump_in=True
    )
    for who, code in (("b", "R4"), ("c", "G3"), ("c", "W")):
        assert m.legal_actions(who) == []
        with pytest.raises(NotYourTurn):
            m.apply(who, JumpIn(card(code)))


def test_h3_a_jump_in_closes_a_pending_uno_window() -> None:
    m = house({"a": "R5 G1", "b": "B5 B6", "c": "R5 Y6 Y7"}, top="R3", turn="a", jump_in=True)
    m.apply("a", Play(card("R5")))
    assert m.public_view().seats[0].exposed
    m.apply("c", JumpIn(card("R5")))
    assert not any(seat.exposed for seat in m.public_view().seats)
    assert m.public_view().to_act == "a"


def test_h3_a_jump_in_cancels_a_drawn_card_and_its_effect_applies() -> None:
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "RS Y6", "d": "B7 B8"},
        top="RS",
        turn="a",
        draw="R9",
        jump_in=True,
    )
    m.apply("a", Draw())
    assert m.public_view().pending is Pending.DRAWN_CARD
    events = m.apply("c", JumpIn(card("RS")))
    assert TurnSkipped("d") in events
    assert m.public_view().to_act == "a"
    assert m.table.drawn is None


def test_h3_no_jump_in_during_a_volley_colour_or_swap() -> None:
    m = house(
        {"a": "R+2 R1 R2", "b": "G5 G6", "c": "R+2 Y6"},
        top="R3",
        turn="a",
        jump_in=True,
        stacking=True,
    )
    m.apply("a", Play(card("R+2")))
    assert m.legal_actions("c") == []
    with pytest.raises(NotYourTurn):
        m.apply("c", JumpIn(card("R+2")))


def test_h3_a_jump_in_may_call_uno_and_go_out() -> None:
    m = house({"a": "G1 G2", "b": "B5 B6", "c": "R3 Y6"}, top="R3", turn="a", jump_in=True)
    m.apply("c", JumpIn(card("R3"), uno=True))
    assert not m.public_view().seats[2].exposed
    m = house({"a": "G1 G2", "b": "B5 B6", "c": "R3"}, top="R3", turn="a", jump_in=True)
    events = m.apply("c", JumpIn(card("R3")))
    assert next(e for e in events if isinstance(e, RoundEnded)).winner == "c"


def test_h3_off_nobody_jumps_in() -> None:
    m = house({"a": "G1 G2", "b": "B5 B6", "c": "R3 Y6"}, top="R3", turn="a")
    assert m.legal_actions("c") == []
    with pytest.raises(WrongMoment):
        m.apply("c", JumpIn(card("R3")))


def test_h3_the_first_card_turned_up_may_be_jumped_on() -> None:
    options = ClassicOptions(jump_in=True)
    for seed in range(2000):
        m = new_match("classic", players=("a", "b", "c", "d", "e"), seed=seed, options=options)
        view = m.public_view()
        top = view.top
        if view.pending is not Pending.NONE or top is None or top.colour is None:
            continue
        twins = [p for p in m.players if p != view.to_act and top in hand_of_cards(m, p)]
        if twins:
            break
    else:
        raise AssertionError("no seed dealt a twin of the first card")
    jumper = twins[0]
    assert JumpIn(top) in m.legal_actions(jumper)
    events = m.apply(jumper, JumpIn(top))
    assert events[0] == JumpedIn(jumper)
    assert m.public_view().top is top


def test_h3_the_player_who_laid_the_top_card_may_jump_in_on_it() -> None:
    m = house({"a": "R5 R5 G1 G2", "b": "B5 B6", "c": "Y6 Y7"}, top="R3", turn="a", jump_in=True)
    m.apply("a", Play(card("R5")))
    assert m.public_view().to_act == "b"
    assert m.legal_actions("a") == [JumpIn(card("R5"))]
    m.apply("a", JumpIn(card("R5")))
    assert m.public_view().to_act == "b"  # play goes on from a
    assert hand_of(m, "a") == ["G1", "G2"]


def test_h3_the_player_in_turn_plays_rather_than_jumps_in() -> None:
    m = house({"a": "R3 G1", "b": "B5 B6", "c": "Y6 Y7"}, top="R3", turn="a", jump_in=True)
    assert JumpIn(card("R3")) not in m.legal_actions("a")
    with pytest.raises(IllegalAction):
        m.apply("a", JumpIn(card("R3")))


def test_h3_no_jump_in_while_a_swap_is_chosen() -> None:
    m = house(
        {"a": "R7 R1", "b": "G5 G6", "c": "R7 Y6"},
        top="R3",
        turn="a",
        jump_in=True,
        seven_o=True,
    )
    m.apply("a", Play(card("R7")))
    assert m.public_view().pending is Pending.SWAP
    assert m.legal_actions("c") == []
    with pytest.raises(NotYourTurn):
        m.apply("c", JumpIn(card("R7")))


def test_h3_no_jump_in_while_a_wild_draw_four_is_answered() -> None:
    m = house(
        {"a": "W+4 R1 R2", "b": "G5 G6", "c": "W+4 Y6"},
        top="R3",
        turn="a",
        jump_in=True,
    )
    m.apply("a", Play(card("W+4")))
    assert m.legal_actions("c") == []  # while the colour is named
    m.apply("a", ChooseColour(Colour.BLUE))
    assert m.legal_actions("c") == []  # while b answers
    with pytest.raises(IllegalAction):
        m.apply("c", JumpIn(card("W+4")))


def test_h3_a_jumped_in_card_acts_from_the_jumpers_seat() -> None:
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "R7 Y6 Y7", "d": "B7 B8"},
        top="R7",
        turn="a",
        jump_in=True,
        seven_o=True,
    )
    m.apply("c", JumpIn(card("R7")))
    view = m.public_view()
    assert view.pending is Pending.SWAP
    assert view.to_act == "c"  # the jumper chooses whom to swap with
    m.apply("c", SwapHands("a"))
    assert m.public_view().to_act == "d"
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "R+2 Y6 Y7", "d": "B7 B8"},
        top="R+2",
        turn="a",
        jump_in=True,
        stacking=True,
    )
    events = m.apply("c", JumpIn(card("R+2")))
    assert VolleyRaised("c", "d", 2) in events
    assert m.public_view().to_act == "d"


# H4 ------------------------------------------------------------------------------------


def test_h4_a_draw_keeps_drawing_until_a_card_can_be_played() -> None:
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "Y5"},
        top="R3",
        turn="a",
        draw="B1 Y2 G7 R9 B2",
        draw_to_match=True,
    )
    events = m.apply("a", Draw())
    assert CardsDrawn("a", 4, DrawReason.TURN) in events
    view = m.private_view("a")
    assert view.drawn == card("R9")
    assert [c.code for c in view.drew] == ["B1", "Y2", "G7", "R9"]
    assert set(view.legal) == {Play(card("R9")), KeepDrawn()}
    m.apply("a", Play(card("R9")))
    assert m.public_view().to_act == "b"


def test_h4_the_card_found_may_be_kept() -> None:
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "Y5"},
        top="R3",
        turn="a",
        draw="B1 R9",
        draw_to_match=True,
    )
    m.apply("a", Draw())
    m.apply("a", KeepDrawn())
    assert len(hand_of(m, "a")) == 4
    assert m.public_view().to_act == "b"


def test_h4_with_nothing_left_to_draw_the_player_keeps_what_was_drawn_and_passes() -> None:
    m = house(
        {"a": "G1 G2", "b": "B5 B6", "c": "Y5"},
        top="R3",
        turn="a",
        draw="B1 Y2",
        rest="none",
        draw_to_match=True,
    )
    events = m.apply("a", Draw())
    assert CardsDrawn("a", 2, DrawReason.TURN) in events
    assert m.public_view().to_act == "b"
    assert m.public_view().pending is Pending.NONE


def test_h4_off_one_card_is_drawn() -> None:
    m = house({"a": "G1 G2", "b": "B5 B6", "c": "Y5"}, top="R3", turn="a", draw="B1 R9")
    m.apply("a", Draw())
    assert len(hand_of(m, "a")) == 3
    assert m.public_view().to_act == "b"
