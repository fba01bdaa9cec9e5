"""The house rules (H1–H4) on a hand panel and the table: the new decisions as
controls, in plain words, and their codes read back to the same actions."""

from __future__ import annotations

from cogs.uno import ids, render
from cogs.uno.render import ButtonSpec, SelectSpec
from cogs.uno.render.rules import rules_details
from engine.actions import ChooseColour, Draw, JumpIn, Play, SwapHands
from engine.builders import table_for_test
from engine.cards import Colour, card
from engine.game import Game
from engine.match import ClassicOptions

NAMES = {"1": "Ann", "2": "Bob", "3": "Cid"}


def house(hands: list[str], *, turn: str, draw: str = "", **rules: bool) -> Game:
    return table_for_test(
        "classic",
        players=list(NAMES),
        hands=hands,
        discard="R3",
        draw=draw,
        turn=turn,
        options=ClassicOptions(**rules),
        rest="draw",
    )


def panel(m: Game, player: str) -> render.HandPanel:
    return render.hand_panel(
        m.private_view(player), m.public_view(), names=NAMES, table_id=7, version=m.version
    )


def test_h2_the_swap_choice_is_a_select_of_the_other_players() -> None:
    m = house(["R7 R1", "G5 G6 G7", "Y5 Y6"], turn="1", seven_o=True)
    m.apply("1", Play(card("R7")))
    shown = panel(m, "1")
    assert "choose whom to swap hands with" in shown.content
    selects = [c for c in shown.components if isinstance(c, SelectSpec)]
    assert len(selects) == 1
    options = selects[0].options
    assert [o.label for o in options] == ["Swap with Bob", "Swap with Cid"]
    assert [o.description for o in options] == ["3 cards", "2 cards"]
    assert [ids.decode_action(o.value) for o in options] == [SwapHands("2"), SwapHands("3")]
    table = render.table_embed(m.public_view(), names=NAMES, table_id=7, deadline=None)
    assert "**Ann** is choosing whom to swap hands with" in str(table.to_dict())


def test_h3_a_jump_in_button_on_the_panel_of_a_player_not_in_turn() -> None:
    m = house(["G1 G2", "B5 B6", "R3 Y6 Y7"], turn="1", jump_in=True)
    shown = panel(m, "3")
    assert "Waiting for **Ann**." in shown.content
    assert "Jump in" in shown.content
    buttons = [c for c in shown.components if isinstance(c, ButtonSpec)]
    jump = [b for b in buttons if b.label == "Jump in: Red 3"]
    assert len(jump) == 1
    control = ids.parse_custom_id(jump[0].custom_id)
    assert isinstance(control, ids.TableControl)
    assert control.action == JumpIn(card("R3"))
    assert not [c for c in panel(m, "2").components if "Jump" in getattr(c, "label", "")]


def test_h4_the_panel_shows_every_card_drawn_to_match() -> None:
    m = house(["G1 G2", "B5 B6", "Y5"], turn="1", draw="B1 Y2 R9", draw_to_match=True)
    m.apply("1", Draw())
    shown = panel(m, "1")
    assert "you drew 3 cards" in shown.content
    assert "Blue 1" in shown.content
    assert "Red 9" in shown.content


def test_h1_a_wild_draw_four_stack_is_named_on_panel_and_table() -> None:
    m = house(["W+4 R1 R2", "W+4 G5 G6", "W+4 Y5 Y6"], turn="1", stacking=True)
    m.apply("1", Play(card("W+4")))
    m.apply("1", ChooseColour(Colour.RED))
    assert "stack a Wild Draw 4" in panel(m, "2").content
    m.apply("2", Play(card("W+4")))
    m.apply("2", ChooseColour(Colour.BLUE))
    assert "Wild Draw 4 stack" in panel(m, "3").content
    table = render.table_embed(m.public_view(), names=NAMES, table_id=7, deadline=None)
    assert "Wild Draw 4 stack: **Cid** owes 8" in str(table.to_dict())


def test_h1_h4_classic_details_name_the_house_rules_as_table_options() -> None:
    details = rules_details("classic")
    for words in ("Stacking", "Seven-O", "Jump-in", "Draw to match", "/uno settings"):
        assert words in details
