"""X1 with one judgement per action: `apply` takes what `legal_actions` offered, or
what `check` just passed, in the same state without judging it again; anything
else is judged, and refused changes nothing."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine import legal
from engine.actions import Action, Draw, Play
from engine.builders import table_for_test
from engine.cards import card
from engine.errors import CardDoesNotMatch, IllegalAction
from engine.game import Game
from engine.match import ClassicOptions

Judged = list[tuple[int, Action]]


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> Judged:
    """Every judgement the engine makes, (seat, action), the real judge still judging."""
    seen: Judged = []
    real = legal.check

    def counting(t: object, rules: object, i: int, action: Action) -> None:
        seen.append((i, action))
        real(t, rules, i, action)  # type: ignore[arg-type]

    monkeypatch.setattr(legal, "check", counting)
    return seen


def classic() -> Game:
    return table_for_test(
        "classic",
        players=["a", "b", "c"],
        hands=["R5 G7 B1", "Y5 Y6", "G1 G2"],
        discard="R3",
        draw="B9",
        turn="a",
        options=ClassicOptions(),
    )


def decoded(action: Action) -> Action:
    """An equal action that is not the engine's instance, as a button's id decodes to."""
    twin = dataclasses.replace(action)
    assert twin == action
    assert twin is not action
    return twin


def frozen(m: Game) -> str:
    return json.dumps(m.to_snapshot(), sort_keys=True)


def test_x1_a_checked_click_is_judged_once(judged: Judged) -> None:
    m = classic()
    m.legal_actions("a")  # the panel was drawn from these
    click = decoded(Play(card("R5")))
    m.check("a", click)
    m.apply("a", click)
    assert judged == [(0, click)]
    assert m.public_view().top == card("R5")


def test_x1_an_offered_instance_is_not_judged_again(judged: Judged) -> None:
    m = classic()
    offer = next(a for a in m.legal_actions("a") if a == Play(card("R5")))
    m.apply("a", offer)
    assert judged == []
    assert m.public_view().to_act == "b"


def test_x1_an_unchecked_copy_is_judged(judged: Judged) -> None:
    m = classic()
    m.legal_actions("a")
    m.apply("a", decoded(Draw()))
    assert len(judged) == 1


def test_x1_only_the_checked_instance_passes_unjudged(judged: Judged) -> None:
    m = classic()
    click = decoded(Play(card("R5")))
    m.check("a", click)
    m.apply("a", decoded(click))
    assert len(judged) == 2


def test_x1_a_check_in_an_earlier_state_does_not_let_an_action_through(judged: Judged) -> None:
    m = classic()
    stale = decoded(Play(card("R5")))
    m.check("a", stale)
    m.apply("a", decoded(Draw()))  # the state moves on
    assert m.public_view().to_act == "b"
    before = frozen(m)
    with pytest.raises(IllegalAction):
        m.apply("a", stale)
    assert frozen(m) == before


def test_x1_a_check_for_one_seat_does_not_admit_it_for_another(judged: Judged) -> None:
    m = classic()
    click = decoded(Draw())
    m.check("a", click)
    before = frozen(m)
    with pytest.raises(IllegalAction):
        m.apply("b", click)
    assert frozen(m) == before


def test_x1_a_refused_check_admits_nothing(judged: Judged) -> None:
    m = classic()
    click = decoded(Play(card("G7")))
    with pytest.raises(CardDoesNotMatch):
        m.check("a", click)
    before = frozen(m)
    with pytest.raises(CardDoesNotMatch):
        m.apply("a", click)
    assert frozen(m) == before
    assert len(judged) == 2


def test_x1_a_check_before_any_offer_leaves_the_offers_whole(judged: Judged) -> None:
    m = classic()
    click = decoded(Draw())
    m.check("a", click)
    assert set(m.legal_actions("a")) == {Play(card("R5")), Draw()}
    m.apply("a", click)
    assert len(judged) == 1
