"""The one interface the rest of the bot uses for every variant.

Modelled on pokerkit: ask `legal_actions`, `check` an action (raises
`IllegalAction` with a reason), `apply` it (returns events). An illegal action
changes nothing (X1). Randomness comes only from the match's own seeded
generator (X4), so `replay(seed, log)` rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from engine import classic, duo, pizza
from engine.actions import Action
from engine.codec import SNAPSHOT_SCHEMA
from engine.events import Event
from engine.game import Game
from engine.options import (
    OPTIONS,
    ClassicOptions,
    DuoOptions,
    Options,
    PizzaOptions,
    Variant,
    options_for,
)
from engine.placing import Placing
from engine.ruleset import Ruleset
from engine.views import PrivateView, PublicView

__all__ = [
    "SNAPSHOT_SCHEMA",
    "ClassicOptions",
    "DuoOptions",
    "Match",
    "Options",
    "PizzaOptions",
    "Placing",
    "Variant",
    "from_snapshot",
    "new_match",
    "options_for",
    "replay",
]

RULES: dict[str, Ruleset] = {"duo": duo.RULES, "pizza": pizza.RULES, "classic": classic.RULES}


class Match(Protocol):
    """A match of rounds until the target score, for one variant."""

    @property
    def variant(self) -> Variant: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def seed(self) -> int: ...

    @property
    def version(self) -> int:
        """Accepted actions so far; part of every button's custom_id."""
        ...

    def legal_actions(self, player: str) -> list[Action]:
        """Everything `player` may do now, including UNO calls and catches."""
        ...

    def check(self, player: str, action: Action) -> None:
        """Raise `IllegalAction` (with a message for the player) unless allowed."""
        ...

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry the action out and return what happened; illegal: raise, no change."""
        ...

    def apply_logged(self, player: str, action: Action) -> list[Event]:
        """`apply` an action read back from an action log, old logs included (D9)."""
        ...

    def waiting_for(self) -> tuple[str, ...]:
        """Players whose decision the match waits for (empty when over)."""
        ...

    def timeout_action(self, player: str) -> Action:
        """The safe default when `player` lets their deadline pass (docs/rules.md, "Deadlines")."""
        ...

    def remove_player(self, player: str) -> list[Event]:
        """X3: `player` leaves or is removed; a forfeit."""
        ...

    @property
    def is_over(self) -> bool: ...

    def public_view(self) -> PublicView: ...

    def private_view(self, player: str) -> PrivateView: ...

    def placings(self) -> tuple[Placing, ...]:
        """The final places once `is_over` (for scoreboards); ValueError before."""
        ...

    def to_snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, with `schema` = SNAPSHOT_SCHEMA."""
        ...


def new_match(
    variant: Variant,
    *,
    players: Sequence[str],
    seed: int,
    options: Options | None = None,
) -> Match:
    """Start a match: Duo cuts for Player 1 and opens the draft; the others deal."""
    rules = RULES[variant]
    if options is None:
        options = OPTIONS[variant]()
    if not isinstance(options, OPTIONS[variant]):
        raise TypeError(f"{type(options).__name__} are not options of {rules.title}")
    return Game.new(rules, players, seed, options)


def from_snapshot(data: dict[str, Any]) -> Match:
    """Rebuild a match from `to_snapshot()` (schema 1 too); ValueError if invalid."""
    if data.get("schema") not in (1, SNAPSHOT_SCHEMA):
        raise ValueError(f"unknown snapshot schema {data.get('schema')!r}")
    rules = RULES.get(data.get("variant", ""))
    if rules is None:
        raise ValueError(f"unknown variant {data.get('variant')!r}")
    return Game.from_snapshot(rules, data)


def replay(
    variant: Variant,
    *,
    players: Sequence[str],
    seed: int,
    options: Options | None = None,
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
            match.apply_logged(player, action)
    return match
