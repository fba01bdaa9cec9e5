"""The one interface the rest of the bot uses for either variant.

Modelled on pokerkit: ask `legal_actions`, `check` an action (raises
`IllegalAction` with a reason), `apply` it (returns events). An illegal action
changes nothing (X1). Randomness comes only from the match's own seeded
generator (X4), so `replay(seed, log)` rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engine.actions import Action
from engine.events import Event
from engine.views import PrivateView, PublicView

Variant = Literal["duo", "pizza"]
SNAPSHOT_SCHEMA = 1


@dataclass(frozen=True, slots=True)
class DuoOptions:
    """Table options of RULES.md for UNO Duo."""

    target: int = 200  # D14
    classic_deck: bool = False  # D1: 108 cards instead of 112
    classic_challenge: bool = False  # D10: only a card of the active colour counts


@dataclass(frozen=True, slots=True)
class PizzaOptions:
    """Table options of RULES.md for UNO Pocket Pizza Pizza."""

    target: int = 250  # P11


class Match(Protocol):
    """A match of rounds until the target score, for one variant."""

    variant: Variant
    players: tuple[str, ...]
    seed: int
    version: int  # accepted actions so far; part of every button's custom_id

    def legal_actions(self, player: str) -> list[Action]:
        """Everything `player` may do now, including UNO calls and catches."""
        ...

    def check(self, player: str, action: Action) -> None:
        """Raise `IllegalAction` (with a message for the player) unless allowed."""
        ...

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry the action out and return what happened; illegal: raise, no change."""
        ...

    def waiting_for(self) -> tuple[str, ...]:
        """Players whose decision the match waits for (empty when over)."""
        ...

    def timeout_action(self, player: str) -> Action:
        """The safe default when `player` lets their deadline pass (DESIGN.md)."""
        ...

    def remove_player(self, player: str) -> list[Event]:
        """X3: `player` leaves or is removed; a forfeit."""
        ...

    @property
    def is_over(self) -> bool: ...

    def public_view(self) -> PublicView: ...

    def private_view(self, player: str) -> PrivateView: ...

    def to_snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, with `schema` = SNAPSHOT_SCHEMA."""
        ...


def new_match(
    variant: Variant,
    *,
    players: Sequence[str],
    seed: int,
    options: DuoOptions | PizzaOptions | None = None,
) -> Match:
    """Start a match: Duo cuts for Player 1 and opens the draft; Pizza deals."""
    if variant == "duo":
        from engine.duo import DuoMatch

        assert options is None or isinstance(options, DuoOptions)
        return DuoMatch(players=tuple(players), seed=seed, options=options or DuoOptions())
    from engine.pizza import PizzaMatch

    assert options is None or isinstance(options, PizzaOptions)
    return PizzaMatch(players=tuple(players), seed=seed, options=options or PizzaOptions())


def from_snapshot(data: dict[str, Any]) -> Match:
    """Rebuild a match from `to_snapshot()`; ValueError on an unknown schema."""
    if data.get("schema") != SNAPSHOT_SCHEMA:
        raise ValueError(f"unknown snapshot schema {data.get('schema')!r}")
    if data["variant"] == "duo":
        from engine.duo import DuoMatch

        return DuoMatch.from_snapshot(data)
    from engine.pizza import PizzaMatch

    return PizzaMatch.from_snapshot(data)


def replay(
    variant: Variant,
    *,
    players: Sequence[str],
    seed: int,
    options: DuoOptions | PizzaOptions | None = None,
    log: Iterable[tuple[str, Action] | tuple[str, None]],
) -> Match:
    """Rebuild a match from its seed and action log (X4).

    A log entry `(player, None)` stands for `remove_player(player)`.
    """
    match = new_match(variant, players=players, seed=seed, options=options)
    for player, action in log:
        if action is None:
            match.remove_player(player)
        else:
            match.apply(player, action)
    return match
