"""Refusals. Every message is written for the player who tried the action (X1).

A refusal is raised as an English template and its values,
`WrongMoment("Stack a Draw 2 or take the volley of {count} cards.", count=2)`:
`message` is the English sentence; `template` and `values` let the Discord side
say it in the player's language (its catalogue holds the templates).
"""

from __future__ import annotations

from engine.words import english


class IllegalAction(Exception):
    """An action the rules do not allow now; the match is left unchanged."""

    def __init__(self, message: str, /, **values: object) -> None:
        self.template = message
        self.values = values
        if values:
            message = message.format(**{k: english(k, v) for k, v in values.items()})
        super().__init__(message)
        self.message = message


class UnknownPlayer(IllegalAction):
    """The actor is not seated at this match."""


class NotYourTurn(IllegalAction):
    """Someone else must decide now ("It's Bob's turn")."""


class WrongMoment(IllegalAction):
    """The action exists but not at this point ("Pick a colour first")."""


class CardNotInHand(IllegalAction):
    """The player does not hold that card."""


class CardDoesNotMatch(IllegalAction):
    """The card cannot go on the pile ("A Blue 5 doesn't match Red 7")."""


class MatchOver(IllegalAction):
    """The match has ended; nothing more can be played."""
