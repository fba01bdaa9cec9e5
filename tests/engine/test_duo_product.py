"""UNO Duo as the bot uses it: refusals (X1), views, timeouts, snapshots, size."""

from __future__ import annotations

import copy
import gc
import json
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from engine.actions import (
    Accept,
    Action,
    CallUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    Give,
    KeepCard,
    KeepDrawn,
    NoDump,
    RejectCard,
    TakeVolley,
)
from engine.cards import Colour, card, cards, hand_order
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    IllegalAction,
    MatchOver,
    NotYourTurn,
    UnknownPlayer,
    WrongMoment,
)
from engine.events import TurnStarted
from engine.game import Game
from engine.match import SNAPSHOT_SCHEMA, DuoOptions, from_snapshot, new_match
from engine.views import Pending, Phase
from tests.engine.duo_helpers import A, B, act, duo, frozen, hand, play

# X1: refusals say why, and change nothing ------------------------------------------


@pytest.mark.parametrize(
    ("player", "action", "error", "message"),
    [
        ("zed", Draw(), UnknownPlayer, "not playing"),
        (A, Draw(), NotYourTurn, "It's not your turn — the other player is deciding"),
        (B, play("W+4"), CardNotInHand, "You don't have a Wild Draw 4"),
        (B, play("B5"), CardDoesNotMatch, "A Blue 5 doesn't match Red 7"),
        (B, ChooseColour(Colour.RED), WrongMoment, "play a card or draw"),
        (B, TakeVolley(), WrongMoment, "play a card or draw"),
        (B, Dump(card("R2")), WrongMoment, "right after a Reverse"),
        (B, Give(card("R2")), WrongMoment, "isn.t part of UNO Duo"),
        (B, KeepCard(), WrongMoment, "play a card or draw"),
        (B, CallUno(), WrongMoment, "nothing to call"),
    ],
)
def test_x1_refusals_say_why_and_change_nothing(
    player: str, action: Action, error: type[IllegalAction], message: str
) -> None:
    m = duo("G1 G2", "B5 R2 Y9", top="R7")
    before = frozen(m)
    version = m.version
    with pytest.raises(error, match=message):
        m.apply(player, action)
    assert frozen(m) == before
    assert m.version == version


def test_x1_a_wild_on_top_says_which_colour_was_named() -> None:
    m = duo("G1", "B5 R2", top="W", active=Colour.GREEN)
    with pytest.raises(CardDoesNotMatch, match="A Blue 5 doesn't match the Wild: Green was named"):
        m.check(B, play("B5"))


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("colour", "Name a colour"),
        ("volley", "Stack a Draw 2 or take the volley of 2 cards"),
        ("wild draw", "Accept the Wild Draw 4 or challenge it"),
        ("dump", "Dump your Red cards or keep them"),
        ("drawn", "Play the card you just drew, or keep it"),
    ],
)
def test_x1_each_pending_decision_names_what_is_expected(setup: str, message: str) -> None:
    m = duo("G1 G+2 G3", "W W+4 R+2 RR R5 B9", top="R7", draw="R1")
    if setup == "colour":
        act(m, B, play("W"))
        who = B
    elif setup == "volley":
        act(m, B, play("R+2"))
        who = A
    elif setup == "wild draw":
        act(m, B, play("W+4"))
        act(m, B, ChooseColour(Colour.RED))
        who = A
    elif setup == "dump":
        act(m, B, play("RR"))
        who = B
    else:
        act(m, B, Draw())
        who = B
    with pytest.raises(WrongMoment, match=message):
        m.apply(who, NoDump() if setup != "dump" else Draw())


def test_x1_nothing_is_accepted_once_the_match_is_over() -> None:
    m = duo("R5", "R6", top="R3", target=1)
    act(m, B, play("R6"))
    assert m.is_over
    assert m.legal_actions(A) == []
    with pytest.raises(MatchOver):
        m.check(A, Draw())
    with pytest.raises(MatchOver):
        m.timeout_action(A)


def test_the_version_counts_accepted_actions_and_removals() -> None:
    m = duo("G1 G2", "B5 R2 Y9", top="R7")
    assert m.version == 0
    act(m, B, play("R2"))
    assert m.version == 1
    with pytest.raises(IllegalAction):
        m.apply(B, Draw())
    assert m.version == 1
    m.remove_player(A)
    assert m.version == 2


# Waiting and timeouts ----------------------------------------------------------


def test_waiting_for_names_who_must_decide() -> None:
    m = duo("G1 G2", "R+2 R2 Y9", top="R7")
    assert m.waiting_for() == (B,)
    act(m, B, play("R+2"))
    assert m.waiting_for() == (A,)


@pytest.mark.parametrize(
    ("setup", "who", "expected"),
    [
        ("turn", B, Draw()),
        ("drawn", B, KeepDrawn()),
        ("volley", A, TakeVolley()),
        ("wild draw", A, Accept()),
        ("dump", B, NoDump()),
        ("reverse dump", A, Draw()),
    ],
)
def test_timeout_takes_the_safe_default(setup: str, who: str, expected: object) -> None:
    m = duo("G1 G+2 R3", "W+4 R+2 RR R5 B9", top="R7", draw="R1")
    if setup == "drawn":
        act(m, B, Draw())
    elif setup == "volley":
        act(m, B, play("R+2"))
    elif setup == "wild draw":
        act(m, B, play("W+4"))
        act(m, B, ChooseColour(Colour.RED))
    elif setup == "dump":
        act(m, B, play("RR"))
    elif setup == "reverse dump":
        act(m, B, play("RR"))
        act(m, B, NoDump())
    assert m.timeout_action(who) == expected
    assert m.timeout_action(who) in m.legal_actions(who)
    with pytest.raises(NotYourTurn):
        m.timeout_action(A if who == B else B)


def test_timeout_in_the_draft_keeps_the_card() -> None:
    m = new_match("duo", players=[A, B], seed=3)
    who = m.waiting_for()[0]
    assert m.timeout_action(who) == KeepCard()
    m.apply(who, RejectCard())
    assert m.timeout_action(who) == KeepCard()


@pytest.mark.parametrize(
    ("held", "colour"),
    [
        ("W B1 B2 G1", Colour.BLUE),  # the colour held most
        ("W Y1 G1 B1", Colour.YELLOW),  # ties go by Colour order
        ("W G1 R5", Colour.RED),
        ("W W+4", Colour.RED),  # only wilds: the first colour
    ],
)
def test_timeout_names_the_colour_held_most(held: str, colour: Colour) -> None:
    m = duo("G1", held, top="R7")
    act(m, B, play("W"))
    assert m.timeout_action(B) == ChooseColour(colour)


# Views -------------------------------------------------------------------------


def test_private_view_shows_the_own_hand_sorted_and_the_legal_actions() -> None:
    m = duo("G1 G2", "Y9 W B5 R2 R+2", top="R7")
    view = m.private_view(B)
    assert view.player == B
    assert list(view.hand) == sorted(cards("Y9 W B5 R2 R+2"), key=hand_order)
    assert list(view.legal) == m.legal_actions(B)
    assert view.looking_at is None
    assert view.drawn is None
    assert view.revealed_hand is None
    assert view.received is None
    assert view.given is None
    assert m.private_view(A).legal == ()


def test_public_view_shows_the_whole_public_state() -> None:
    m = duo("G1 G2", "R+2 R2 Y9", top="R7", under="R1", draw="B1 B2", fill=False, scores=(3, 4))
    act(m, B, play("R+2"))
    view = m.public_view()
    assert view.variant == "duo"
    assert view.round == 1
    assert view.target == 200
    assert view.phase is Phase.PLAY
    assert view.pending is Pending.VOLLEY
    assert [(s.player, s.cards, s.score, s.exposed, s.seated) for s in view.seats] == [
        (A, 2, 3, False, True),
        (B, 2, 4, False, True),
    ]
    assert view.to_act == A
    assert view.top == card("R+2")
    assert view.active_colour is Colour.RED
    assert (view.draw_pile, view.discard_pile, view.pending_draw) == (2, 3, 2)
    assert view.clockwise is True
    assert view.dealer == A
    assert view.draft_pile == ()
    assert view.winner is None


def test_recent_events_are_bounded_and_leave_out_turn_starts() -> None:
    m = new_match("duo", players=[A, B], seed=5)
    rng = random.Random(5)
    for _ in range(300):
        who = m.waiting_for()[0]
        m.apply(who, rng.choice(m.legal_actions(who)))
        recent = m.public_view().recent
        assert len(recent) <= 10
        assert not any(isinstance(e, TurnStarted) for e in recent)


def test_legal_actions_returns_a_fresh_list() -> None:
    m = duo("G1 G2", "R5 R2 Y9", top="R7")
    legal = m.legal_actions(B)
    legal.clear()
    assert m.legal_actions(B)
    assert m.legal_actions("zed") == []


def test_an_equal_but_new_action_object_is_accepted() -> None:
    m = duo("G1 G2", "R5 R2 Y9", top="R7")
    m.legal_actions(B)
    m.apply(B, copy.copy(play("R5")))
    assert hand(m, B) == ["R2", "Y9"]


# Snapshots ---------------------------------------------------------------------


def test_snapshot_is_json_with_schema_and_variant() -> None:
    m = new_match("duo", players=[A, B], seed=9)
    data = m.to_snapshot()
    assert data["schema"] == SNAPSHOT_SCHEMA
    assert data["variant"] == "duo"
    assert json.loads(json.dumps(data)) == data
    again = from_snapshot(data)
    assert isinstance(again, Game)
    assert again.to_snapshot() == data


def test_snapshot_keeps_options_and_test_states() -> None:
    m = duo("G1 G2", "W+4 B1", top="R7", classic_challenge=True, classic_deck=True, target=90)
    act(m, B, play("W+4"))
    act(m, B, ChooseColour(Colour.BLUE))
    act(m, A, Challenge())
    data = m.to_snapshot()
    again = from_snapshot(data)
    assert again.to_snapshot() == data
    assert again.private_view(A).revealed_hand == (card("B1"),)
    assert again.public_view().target == 90


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda d: d.update(schema=3),
        lambda d: d.update(variant="pizza"),
        lambda d: d["hands"][0].append("R99"),
        lambda d: d["hands"][0].extend(["WSH", "WSH"]),
        lambda d: d.update(turn=2),
        lambda d: d.update(pending="nonsense"),
        lambda d: d.update(rng=[3, [1, 2], None]),
        lambda d: d.update(extra=1),
        lambda d: d["recent"].append({"type": "NoSuchEvent"}),
    ],
)
def test_a_corrupt_snapshot_is_refused(corrupt: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(json.dumps(new_match("duo", players=[A, B], seed=9).to_snapshot()))
    corrupt(data)
    with pytest.raises(ValueError):  # noqa: PT011 - pydantic's ValidationError is one
        from_snapshot(data)


# Construction and size ---------------------------------------------------------------


def test_new_match_builds_a_duo_match_with_options() -> None:
    m = new_match("duo", players=[A, B], seed=1, options=DuoOptions(target=50))
    assert isinstance(m, Game)
    assert m.variant == "duo"
    assert m.players == (A, B)
    assert m.seed == 1
    assert m.public_view().target == 50
    with pytest.raises(ValueError):  # noqa: PT011
        new_match("duo", players=(A, A), seed=1)
    with pytest.raises(ValueError):  # noqa: PT011
        new_match("duo", players=(A, B, "c"), seed=1)


def test_a_live_match_stays_under_16_kib() -> None:
    rng = random.Random(1)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    live = []
    for seed in range(100):
        m = new_match("duo", players=(A, B), seed=seed)
        for _ in range(60):
            who = m.waiting_for()[0]
            m.apply(who, rng.choice(m.legal_actions(who)))
        m.public_view()
        m.private_view(A)
        live.append(m)
    gc.collect()
    size = (tracemalloc.get_traced_memory()[0] - before) / len(live)
    tracemalloc.stop()
    assert size < 16 * 1024


def test_a_card_built_outside_the_intern_table_is_played_like_the_real_one() -> None:
    from engine.actions import Play
    from engine.cards import Card, Face

    m = duo("G1 G2", "R5 R2 Y9", top="R7", draw="R1")
    m.apply(B, Play(Card(Colour.RED, Face.FIVE)))
    assert hand(m, B) == ["R2", "Y9"]
    assert m.public_view().top is card("R5")
    act(m, A, Draw())  # R1 matches: a drawn card that may be played
    m.apply(A, Play(Card(Colour.RED, Face.ONE)))
    assert m.public_view().top is card("R1")


def test_the_test_builder_refuses_states_no_deck_could_make() -> None:
    with pytest.raises(ValueError, match="more WSH"):
        duo("WSH", "WSH", top="R7")
    with pytest.raises(ValueError, match="named colour"):
        duo("R1", "R2", top="W")
    with pytest.raises(ValueError, match="REVERSE_DUMP"):
        duo("R1", "R2", top="R7", pending=Pending.REVERSE_DUMP)
    with pytest.raises(ValueError, match="pending"):
        duo("R1", "R2", top="R7", pending=Pending.VOLLEY)
    with pytest.raises(ValueError, match="WSH"):
        duo("R1", "R2", top="R7", classic_deck=True, under="WSH")
