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
    `check` passed in that same state, so a checked action is applied without a
    second judgement.
    """

    __slots__ = ("admitted", "index", "offered", "seat", "version", "waits")

    def __init__(self, players: tuple[str, ...]) -> None:
        self.index = {p: k for k, p in enumerate(players)}
        self.waits = tuple((p,) for p in players)  # `waiting_for` of each seat
        self.version = -1
        self.seat = -1
        self.offered: list[Action] = []
        self.admitted: Action | None = None

    def holds(self, version: int, seat: int) -> bool:
        """Whether what is kept was judged in this state, for this seat."""
        return self.version == version and self.seat == seat

    def keep(self, version: int, seat: int, offered: list[Action]) -> None:
        self.version = version
        self.seat = seat
        self.offered = offered
        self.admitted = None

    def admit(self, version: int, seat: int, action: Action) -> None:
        """`check` passed `action`: `apply` may take this very instance unjudged."""
        if not self.holds(version, seat):
            self.keep(version, seat, [])
        self.admitted = action

    def judged(self, action: Action) -> bool:
        """Whether `action`, this very instance, was offered or admitted (in the state
        and for the seat `holds`)."""
        if action is self.admitted:
            return True
        for offer in self.offered:  # by identity: an equal copy is judged
            if offer is action:
                break
        else:
            return False
        return True
