"""What a table plays with: the server's settings as they were when it opened.

A table reads its server's settings once, when its lobby opens; changing a
setting later never changes a match already under way. The options are kept
with the match in the database (its `options` JSON), so a restart restores the
same timer and pings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cogs.uno.i18n.l10n import N_, t, tn
from db.models import GuildSettings
from engine.match import ClassicOptions, DuoOptions, Options, PizzaOptions, Variant

# The classic house rules (docs/rules.md H1-H4), as a table names them.
HOUSE_RULE_WORDS = {
    "stacking": N_("stacking"),
    "seven_o": N_("Seven-O"),
    "jump_in": N_("jump-in"),
    "draw_to_match": N_("draw to match"),
}
# What each house rule does, in a few words (the settings panel's select).
HOUSE_RULE_HINTS = {
    "stacking": N_("Draw 2 on Draw 2, Wild Draw 4 on Wild Draw 4"),
    "seven_o": N_("a 7 swaps hands, a 0 passes every hand on"),
    "jump_in": N_("play an identical card out of turn"),
    "draw_to_match": N_("draw until a card can be played"),
}
# The house rules the engine plays (all of them, for classic tables only): a table
# never claims a rule it would not apply.
PLAYED_HOUSE_RULES: frozenset[str] = frozenset(HOUSE_RULE_WORDS)


@dataclass(frozen=True, slots=True)
class TableOptions:
    """One table's options; `turn_seconds` is the server's or the bot's default."""

    target: int
    turn_seconds: int
    classic_deck: bool = False
    classic_challenge: bool = False
    house_rules: tuple[str, ...] = ()
    mentions: bool = True
    thread: bool = False

    @classmethod
    def of(
        cls, settings: GuildSettings, variant: Variant, *, target: int | None, turn_seconds: int
    ) -> TableOptions:
        """The options a new table takes from its server's settings.

        `turn_seconds` is the bot's own default, used while the server has not
        chosen one (a stored choice, even of the model's default, wins).
        """
        chosen = "turn_seconds" in settings.model_fields_set
        duo = variant == "duo"
        return cls(
            target=settings.target(variant) if target is None else target,
            turn_seconds=settings.turn_seconds if chosen else turn_seconds,
            classic_deck=duo and settings.duo_deck == 108,
            classic_challenge=duo and settings.duo_classic_challenge,
            house_rules=tuple(
                r for r in settings.house_rules if r in PLAYED_HOUSE_RULES and variant == "classic"
            ),
            mentions=settings.turn_ping_mentions,
            thread=settings.thread_tables,
        )

    def engine(self, variant: Variant) -> Options:
        """The engine's options for a new match of `variant`."""
        if variant == "duo":
            return DuoOptions(
                target=self.target,
                classic_deck=self.classic_deck,
                classic_challenge=self.classic_challenge,
            )
        if variant == "classic":
            on = set(self.house_rules)
            return ClassicOptions(
                target=self.target,
                stacking="stacking" in on,
                seven_o="seven_o" in on,
                jump_in="jump_in" in on,
                draw_to_match="draw_to_match" in on,
            )
        return PizzaOptions(target=self.target)

    def data(self) -> dict[str, Any]:
        """What is stored with the match (beside the host) to restore the table."""
        return {
            "target": self.target,
            "turn_seconds": self.turn_seconds,
            "classic_deck": self.classic_deck,
            "classic_challenge": self.classic_challenge,
            "house_rules": list(self.house_rules),
            "mentions": self.mentions,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any], *, turn_seconds: int) -> TableOptions:
        """Back from the stored JSON; a table stored before settings existed gets defaults."""
        rules = data.get("house_rules")
        return cls(
            target=int(data.get("target", 0)),
            turn_seconds=int(data.get("turn_seconds", turn_seconds)),
            classic_deck=bool(data.get("classic_deck", False)),
            classic_challenge=bool(data.get("classic_challenge", False)),
            house_rules=tuple(str(r) for r in rules) if isinstance(rules, list) else (),
            mentions=bool(data.get("mentions", True)),
        )

    def words(self) -> str:
        """The options in play, as the table shows them ("30 s a turn · classic deck")."""
        parts = [t("{seconds} s a turn", seconds=self.turn_seconds)]
        if self.classic_deck:
            parts.append(tn("classic deck ({count} card)", "classic deck ({count} cards)", 108))
        if self.classic_challenge:
            parts.append(t("classic challenge (only the active colour counts)"))
        if self.house_rules:
            rules = ", ".join(t(HOUSE_RULE_WORDS.get(r, r)) for r in self.house_rules)
            parts.append(t("House rules: {rules}", rules=rules))
        return " · ".join(parts)
