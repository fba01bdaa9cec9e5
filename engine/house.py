"""Classic UNO's house rules (docs/rules.md H1–H4): the ruleset a classic table plays
when its options turn some on. With every one off it is classic's own ruleset,
unchanged, so the classic game pays nothing for them.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from engine import seven_o, stacking
from engine.actions import JumpIn, SwapHands, TakeVolley
from engine.board import Board
from engine.cards import Card, Face
from engine.draw_to_match import draw_to_match
from engine.events import Event
from engine.options import ClassicOptions, Options
from engine.ruleset import Effect, Ruleset
from engine.views import Pending

_DRAW_TWO, _SEVEN, _ZERO = Face.DRAW_TWO, Face.SEVEN, Face.ZERO
_MADE: dict[tuple[str, bool, bool, bool, bool], Ruleset] = {}


def tailor(base: Ruleset, options: Options) -> Ruleset:
    """`base` with the house rules `options` turn on (`base` itself when none)."""
    if not isinstance(options, ClassicOptions):
        return base
    key = (
        base.variant,
        options.stacking,
        options.seven_o,
        options.jump_in,
        options.draw_to_match,
    )
    if not any(key[1:]):
        return base
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = _house(base, *key[1:])
    return made


def _house(base: Ruleset, stacks: bool, seven: bool, jumps: bool, to_match: bool) -> Ruleset:
    actions = set(base.actions)
    if stacks:
        actions.add(TakeVolley)
    if seven:
        actions.add(SwapHands)
    if jumps:
        actions.add(JumpIn)
    return dataclasses.replace(
        base,
        actions=frozenset(actions),
        effect=partial(_effect, base.effect, stacks, seven) if stacks or seven else base.effect,
        special_wild=stacking.stack_wild if stacks else base.special_wild,
        draw=draw_to_match if to_match else base.draw,
        stacking=stacks,
        jump_in=jumps,
        tailor=None,
    )


def _effect(
    base: Effect,
    stacks: bool,
    seven: bool,
    t: Board,
    i: int,
    card: Card,
    events: list[Event],
) -> tuple[int, Pending] | None:
    face = card.face
    if stacks and face is _DRAW_TWO:  # H1
        return stacking.draw_two(t, i, events)
    if seven and (face is _SEVEN or face is _ZERO):  # H2
        seven_o.effect(t, i, card, events)
        return None
    return base(t, i, card, events)
