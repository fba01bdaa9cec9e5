"""Pizza under the product rules (X1, X3, X4), views, timeouts and snapshots."""

from __future__ import annotations

import json
import random

import pytest

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
    Play,
    TakeVolley,
)
from engine.cards import Card, Colour, Face, card
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    IllegalAction,
    MatchOver,
    NotYourTurn,
    UnknownPlayer,
    WrongMoment,
)
from engine.events import MatchEnded, PlayerRemoved, RoundEnded, TurnStarted
from engine.game import Game
from engine.match import PizzaOptions, from_snapshot, new_match, replay
from engine.views import Pending, Phase
from tests.engine.pizza_helpers import all_cards, count, hand, pizza, play_all, state

R, Y, G, B = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE

# ------------------------------------------------------------------- X1


@pytest.mark.parametrize(
    ("who", "action", "error", "message"),
    [
        ("b", Draw(), NotYourTurn, "It's not your turn"),
        ("z", Draw(), UnknownPlayer, "not playing"),
        ("a", Play(card("G2")), CardDoesNotMatch, "A Green 2 doesn't match Red 7"),
        ("a", Play(card("B5")), CardNotInHand, "You don't have a Blue 5"),
        ("a", KeepDrawn(), WrongMoment, "haven't drawn"),
        ("a", ChooseColour(R), WrongMoment, "no wild"),
        ("a", Accept(), WrongMoment, "no Wild Draw 2"),
        ("a", Challenge(), WrongMoment, "no Wild Draw 2"),
        ("a", Give(card("R1")), WrongMoment, "Dip"),
        ("a", CallUno(), WrongMoment, "UNO"),
        ("b", CatchUno(), WrongMoment, "Nobody"),
        ("a", KeepCard(), WrongMoment, "isn't part of UNO Pocket Pizza Pizza"),
        ("a", TakeVolley(), WrongMoment, "isn't part"),
        ("a", Dump(card("R1")), WrongMoment, "isn't part"),
        ("a", Play(card("R1"), uno=True), WrongMoment, "leaves you one card"),
    ],
)
def test_x1_refusal_says_why_and_changes_nothing(
    who: str, action: Action, error: type[IllegalAction], message: str
) -> None:
    m = pizza({"a": "R1 G2 Y3", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a")
    before = state(m)
    legal = m.legal_actions("a")
    with pytest.raises(error, match=message):
        m.apply(who, action)
    assert state(m) == before
    assert m.legal_actions("a") == legal
    assert m.version == 0


def test_x1_pending_decisions_refuse_everything_else() -> None:
    m = pizza({"a": "W+2 WDIP R1 R2", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="G8 G9 Y5", turn="a")
    m.apply("a", Play(card("W+2")))
    with pytest.raises(WrongMoment, match="Name a colour"):
        m.apply("a", Draw())
    m.apply("a", ChooseColour(B))
    with pytest.raises(WrongMoment, match="Accept the Wild Draw 2"):
        m.apply("b", Draw())
    with pytest.raises(NotYourTurn):
        m.apply("a", Play(card("R1")))
    m.apply("b", Accept())
    m.apply("c", Draw())
    m.apply("a", Play(card("WDIP")))
    m.apply("a", ChooseColour(B))
    with pytest.raises(WrongMoment, match="give away"):
        m.apply("a", Play(card("R1")))
    with pytest.raises(CardNotInHand):
        m.apply("a", Give(card("Y1")))


def test_x1_after_a_draw_only_the_drawn_card_may_be_played() -> None:
    m = pizza({"a": "R1 B2", "b": "Y1 Y2"}, top="R7", draw="R3", turn="a")
    m.apply("a", Draw())
    before = state(m)
    with pytest.raises(WrongMoment, match="Red 3"):
        m.apply("a", Play(card("R1")))
    with pytest.raises(WrongMoment, match="already drew"):
        m.apply("a", Draw())
    assert state(m) == before


def test_x1_nothing_more_once_the_match_is_over() -> None:
    m = pizza({"a": "R1", "b": "Y9"}, top="R7", turn="a", target=1)
    m.apply("a", Play(card("R1")))
    before = state(m)
    for who in ("a", "b", "stranger"):
        for action in (Draw(), Play(card("Y9")), KeepDrawn(), CallUno(), CatchUno()):
            with pytest.raises(IllegalAction):
                m.apply(who, action)
    assert state(m) == before
    with pytest.raises(MatchOver):
        m.apply("b", Draw())
    with pytest.raises(MatchOver):
        m.remove_player("b")
    assert m.legal_actions("a") == []


# ------------------------------------------------------------------- X2


def test_x2_a_wild_draw_two_bluff_is_allowed_and_nothing_else_is() -> None:
    m = pizza({"a": "W+2 R1 G2", "b": "Y1 Y2"}, top="R7", turn="a")
    assert Play(card("W+2")) in m.legal_actions("a")  # holding R1 that matches: a bluff
    assert Play(card("G2")) not in m.legal_actions("a")
    with pytest.raises(CardDoesNotMatch):
        m.apply("a", Play(card("G2")))


def test_x1_cards_that_are_not_interned_or_not_pizza_cards() -> None:
    m = pizza({"a": "R1 G2 Y3", "b": "Y1 Y2"}, top="R7", turn="a")
    before = state(m)
    with pytest.raises(CardNotInHand):
        m.apply("a", Play(Card(Colour.RED, Face.WILD)))  # no such card
    with pytest.raises(CardNotInHand):
        m.apply("a", Play(card("W+4")))  # a Duo card
    assert state(m) == before
    m.apply("a", Play(Card(Colour.RED, Face.ONE)))  # an equal copy of R1 is fine
    assert m.public_view().top == card("R1")


# ------------------------------------------------------------------- X3


def test_x3_forfeit_cards_go_to_the_bottom_of_the_draw_pile() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", draw="B1", turn="a")
    before = m.to_snapshot()["draw"]
    events = m.remove_player("c")
    assert events == [PlayerRemoved("c")]
    # Decided 2026-12: in hand order, the hand's first card nearest the top.
    assert m.to_snapshot()["draw"] == ["G2", "G1", *before]
    assert count(m, "c") == 0
    assert not next(s for s in m.public_view().seats if s.player == "c").seated
    assert m.version == 1
    assert sum(all_cards(m).values()) == 51
    with pytest.raises(UnknownPlayer, match="left"):
        m.apply("c", Draw())


def test_x3_turn_passes_on_when_the_player_to_act_leaves() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    events = m.remove_player("a")
    assert TurnStarted("b") in events
    assert m.waiting_for() == ("b",)
    assert m.players == ("a", "b", "c")


def test_x3_pending_give_is_cancelled() -> None:
    m = pizza({"a": "WDIP R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", draw="B4", turn="a")
    play_all(m, [("a", Play(card("WDIP"))), ("a", ChooseColour(Y))])
    m.remove_player("a")
    assert m.waiting_for() == ("b",)
    assert m.public_view().pending is Pending.NONE
    assert hand(m, "b") == ["Y1", "Y2"]
    assert sum(all_cards(m).values()) == 51


def test_x3_give_goes_to_the_new_next_player_when_the_receiver_leaves() -> None:
    m = pizza({"a": "WDIP R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", draw="B4", turn="a")
    play_all(m, [("a", Play(card("WDIP"))), ("a", ChooseColour(Y))])
    m.remove_player("b")
    m.apply("a", Give(card("B4")))
    assert hand(m, "c") == ["G1", "G2", "B4"]
    assert m.waiting_for() == ("c",)


def test_x3_wild_left_without_colour_keeps_the_colour_before_it() -> None:
    m = pizza({"a": "W R1 R2", "b": "Y1 R3", "c": "G1 G2"}, top="R7", turn="a")
    m.apply("a", Play(card("W")))
    m.remove_player("a")
    assert m.waiting_for() == ("b",)
    view = m.public_view()
    assert view.pending is Pending.NONE
    assert view.active_colour is R
    assert Play(card("R3")) in m.legal_actions("b")
    assert Play(card("Y1")) not in m.legal_actions("b")


def test_x3_wild_draw_two_cancelled_when_its_player_leaves() -> None:
    m = pizza({"a": "W+2 R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(Y))])
    m.remove_player("a")
    assert m.waiting_for() == ("b",)
    assert m.public_view().pending is Pending.NONE
    assert count(m, "b") == 2


def test_x3_hit_player_leaving_passes_the_turn_on() -> None:
    m = pizza({"a": "W+2 R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(Y))])
    m.remove_player("b")
    assert m.waiting_for() == ("c",)
    assert m.public_view().pending is Pending.NONE


def test_x3_last_player_left_wins_and_unfinished_round_is_not_scored() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a", scores={"b": 30})
    m.remove_player("a")
    events = m.remove_player("c")
    assert events[0] == PlayerRemoved("c")
    ended = events[-1]
    assert isinstance(ended, MatchEnded)
    assert ended.winner == "b"
    assert dict(ended.scores) == {"a": 0, "b": 30, "c": 0}
    assert ended.forfeited == ("a", "c")
    assert not any(isinstance(e, RoundEnded) for e in events)
    assert m.is_over
    assert m.public_view().phase is Phase.MATCH_OVER
    assert m.waiting_for() == ()


def test_x3_removed_players_are_skipped_by_the_next_deal() -> None:
    m = pizza({"a": "R1", "b": "Y1 Y2", "c": "G1 G2", "d": "B1"}, top="R7", turn="a", dealer="d")
    m.remove_player("b")
    m.apply("a", Play(card("R1")))
    assert count(m, "b") == 0
    assert sum(count(m, p) for p in "acd") >= 15
    assert sum(all_cards(m).values()) == 51


def test_x3_removing_twice_or_a_stranger_is_refused() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    m.remove_player("c")
    with pytest.raises(UnknownPlayer):
        m.remove_player("c")
    with pytest.raises(UnknownPlayer):
        m.remove_player("zz")


# ------------------------------------------------------------------- X4


def _random_log(seed: int, players: int, steps: int) -> list[tuple[str, Action]]:
    m = new_match("pizza", players=[str(i) for i in range(players)], seed=seed)
    rng = random.Random(seed)
    log: list[tuple[str, Action]] = []
    for _ in range(steps):
        if m.is_over:
            break
        who = m.waiting_for()[0]
        action = rng.choice(m.legal_actions(who))
        m.apply(who, action)
        log.append((who, action))
    return log


def test_x4_same_seed_same_deal() -> None:
    a = new_match("pizza", players="abc", seed=42)
    b = new_match("pizza", players="abc", seed=42)
    c = new_match("pizza", players="abc", seed=43)
    assert state(a) == state(b)
    assert state(a) != state(c)


def test_x4_replay_from_seed_and_log() -> None:
    log = _random_log(5, 4, 400)
    m = new_match("pizza", players=["0", "1", "2", "3"], seed=5)
    for who, action in log:
        m.apply(who, action)
    again = replay("pizza", players=["0", "1", "2", "3"], seed=5, log=log)
    assert json.dumps(again.to_snapshot()) == json.dumps(m.to_snapshot())


def test_x4_replay_includes_removals() -> None:
    m = new_match("pizza", players=["0", "1", "2"], seed=9)
    log: list[tuple[str, Action] | tuple[str, None]] = []
    m.remove_player("1")
    log.append(("1", None))
    rng = random.Random(1)
    for _ in range(60):
        who = m.waiting_for()[0]
        action = rng.choice(m.legal_actions(who))
        m.apply(who, action)
        log.append((who, action))
    again = replay("pizza", players=["0", "1", "2"], seed=9, log=log)
    assert again.to_snapshot() == m.to_snapshot()


def test_x4_snapshot_round_trip_continues_identically() -> None:
    log = _random_log(3, 5, 300)
    m = new_match("pizza", players=[str(i) for i in range(5)], seed=3)
    for who, action in log[:150]:
        m.apply(who, action)
    copy = from_snapshot(json.loads(json.dumps(m.to_snapshot())))
    assert isinstance(copy, Game)
    assert copy.public_view() == m.public_view()
    for who, action in log[150:]:
        assert m.apply(who, action) == copy.apply(who, action)
    assert copy.to_snapshot() == m.to_snapshot()


def test_x4_from_snapshot_refuses_other_schemas() -> None:
    snap = new_match("pizza", players="ab", seed=1).to_snapshot()
    with pytest.raises(ValueError, match="schema"):
        from_snapshot({**snap, "schema": 99})
    with pytest.raises(ValueError, match="more"):  # Pizza's cards are not Duo's
        from_snapshot({**snap, "variant": "duo"})


# --------------------------------------------------------- views & version


def test_views_public_and_private() -> None:
    m = pizza({"a": "W R9 B1 R1", "b": "Y1 Y2", "c": "G1"}, top="R7", turn="a", dealer="c")
    view = m.public_view()
    assert view.variant == "pizza"
    assert view.phase is Phase.PLAY
    assert view.to_act == "a"
    assert view.top == card("R7")
    assert view.active_colour is R
    assert view.dealer == "c"
    assert view.draft_pile == ()
    assert [(s.player, s.cards) for s in view.seats] == [("a", 4), ("b", 2), ("c", 1)]
    mine = m.private_view("a")
    assert [c.code for c in mine.hand] == ["R1", "R9", "B1", "W"]  # hand_order
    assert mine.legal == tuple(m.legal_actions("a"))
    assert m.private_view("b").legal == ()
    with pytest.raises(UnknownPlayer):
        m.private_view("zz")


def test_views_recent_is_bounded() -> None:
    m = new_match("pizza", players="abcde", seed=11)
    rng = random.Random(0)
    for _ in range(200):
        who = m.waiting_for()[0]
        m.apply(who, rng.choice(m.legal_actions(who)))
    assert 0 < len(m.public_view().recent) <= 10


def test_version_counts_accepted_actions_and_removals() -> None:
    m = pizza({"a": "R1 R2", "b": "Y1 Y2", "c": "G1 G2"}, top="R7", turn="a")
    m.apply("a", Play(card("R1")))
    assert m.version == 1
    m.apply("a", CallUno())
    assert m.version == 2
    with pytest.raises(IllegalAction):
        m.apply("a", CallUno())
    assert m.version == 2
    m.remove_player("c")
    assert m.version == 3


def test_options_and_players_are_validated() -> None:
    with pytest.raises(ValueError, match="2 to 5"):
        new_match("pizza", players=["a"], seed=1)
    with pytest.raises(ValueError, match="2 to 5"):
        new_match("pizza", players="abcdef", seed=1)
    with pytest.raises(ValueError, match="distinct"):
        new_match("pizza", players="aa", seed=1)
    m = new_match("pizza", players="ab", seed=1, options=PizzaOptions(target=100))
    assert m.public_view().target == 100


# -------------------------------------------------------------- timeouts


def test_timeout_draws_then_keeps_the_drawn_card() -> None:
    m = pizza({"a": "R1 B2", "b": "Y1 Y2"}, top="R7", draw="R3", turn="a")
    assert m.timeout_action("a") == Draw()
    m.apply("a", Draw())
    assert m.timeout_action("a") == KeepDrawn()
    with pytest.raises(NotYourTurn):
        m.timeout_action("b")


def test_timeout_names_the_colour_held_most_ties_by_colour_order() -> None:
    m = pizza({"a": "W G1 G2 B1 B2 Y1", "b": "Y2"}, top="R7", turn="a")
    m.apply("a", Play(card("W")))
    assert m.timeout_action("a") == ChooseColour(G)
    m = pizza({"a": "W WDIP", "b": "Y2"}, top="R7", turn="a")
    m.apply("a", Play(card("W")))
    assert m.timeout_action("a") == ChooseColour(R)  # no colour held: the first


def test_timeout_accepts_the_wild_draw_two_and_gives_the_lowest_card() -> None:
    m = pizza({"a": "W+2 WDIP R1 R9", "b": "Y1 Y2", "c": "G1"}, top="R7", draw="G8 G9 Y5", turn="a")
    play_all(m, [("a", Play(card("W+2"))), ("a", ChooseColour(B))])
    assert m.timeout_action("b") == Accept()
    m.apply("b", Accept())
    m.apply("c", Draw())
    play_all(m, [("a", Play(card("WDIP"))), ("a", ChooseColour(B))])
    assert m.timeout_action("a") == Give(card("R1"))
    assert m.timeout_action("a") in m.legal_actions("a")


def test_public_view_names_no_colour_while_a_wild_waits_for_one() -> None:
    from engine.actions import ChooseColour, Play
    from engine.cards import Colour, card
    from engine.views import Pending
    from tests.engine.pizza_helpers import pizza

    match = pizza({"ann": "W R1 R2", "bob": "G3 G4"}, top="R5", turn="ann")
    match.apply("ann", Play(card("W")))
    view = match.public_view()
    assert view.pending is Pending.COLOUR
    assert view.active_colour is None
    match.apply("ann", ChooseColour(Colour.BLUE))
    assert match.public_view().active_colour is Colour.BLUE
