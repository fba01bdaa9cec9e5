"""`Memo`: what a `Game` derives from its table to answer the bot quickly, kept
beside the `Table` (the rule state) and never saved: a snapshot rebuilds it.
"""

from __future__ import annotations

from engine.actions import Action


class Memo:
    """Seats by player, and the actions already judged in the table's current state.

    `offered` is the last `legal_actions` answer, for (`version`, `seat`): shared
    instances that `apply` accepts without judging them again (a property test
    holds every offer to what the judge accepts). `admitted` is the last action
    `check` passed, at `admitted_at`, so a checked action is applied without a
    second judgement.
    """

    __slots__ = ("admitted", "admitted_at", "index", "offered", "seat", "version", "waits")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.index = {p: k for k, p in enumerate(players)}
        self.waits = tuple((p,) for p in players)  # `waiting_for` of each seat
        self.version = -1
        self.seat = -1
        self.offered: list[Action] = []
        self.admitted: Action | None = None
        self.admitted_at = (-1, -1)  # (version, seat)

    def admit(self, version: int, seat: int, action: Action) -> None:
        """`check` passed `action`: `apply` may take this very instance unjudged."""
        self.admitted = action
        self.admitted_at = (version, seat)

    def passed(self, version: int, seat: int, action: Action) -> bool:
        """Whether `check` passed this very instance, in this state, for this seat."""
        return action is self.admitted and self.admitted_at == (version, seat)
