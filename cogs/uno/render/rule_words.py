"""The words of each rule a table can choose, written once.

`/uno rules`, the settings panel and docs/rules.md ("What players read of a
table option") all say these words, so they cannot disagree; a test holds the
docs to them. `rule` is the docs' id, for that test only: players never read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cogs.uno.i18n.l10n import N_


@dataclass(frozen=True, slots=True)
class RuleWords:
    """One choice of a rule: its name, a few words, and the whole rule in a sentence."""

    rule: str
    name: str  # the choice, as a select option's label
    hint: str  # a few words, as that option's description
    counts: str  # what the rule says, as the settings panel and the rules card put it


# D10 and its classic option (C7): what counts against a challenged Wild Draw 4.
DUO_CHALLENGE: Final = RuleWords(
    rule="D10",
    name=N_("Duo challenge"),
    hint=N_("any other playable card counts"),
    counts=N_("any other card that could have been played counts against it"),
)
CLASSIC_CHALLENGE: Final = RuleWords(
    rule="C7",
    name=N_("Classic challenge"),
    hint=N_("only the colour in play counts"),
    counts=N_("only a card of the colour in play counts against it"),
)
ALL_RULE_WORDS: Final = (DUO_CHALLENGE, CLASSIC_CHALLENGE)


def challenge_words(*, classic: bool) -> RuleWords:
    """The Wild Draw 4 challenge a table plays: Duo's own (D10), or the classic one."""
    return CLASSIC_CHALLENGE if classic else DUO_CHALLENGE
