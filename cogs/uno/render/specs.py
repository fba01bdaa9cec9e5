"""Discord's limits, and the component specs that `cogs.uno.transport.payloads`
turns into Discord's JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import discord

from cogs.uno.i18n.l10n import N_
from engine.cards import Colour

# Discord's limits (https://discord.com/developers/docs/resources/message).
CONTENT_LIMIT: Final = 2000
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
EMBED_FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER_TEXT: Final = 2048
EMBED_TOTAL: Final = 6000
ROWS: Final = 5
ROW_BUTTONS: Final = 5
SELECT_OPTIONS: Final = 25
BUTTON_LABEL: Final = 80
OPTION_LABEL: Final = 100
OPTION_VALUE: Final = 100
OPTION_DESCRIPTION: Final = 100
PLACEHOLDER: Final = 150

NAME_LIMIT: Final = 32  # Discord display names are at most 32 characters
LOG_LINES: Final = 8  # events shown on the table
MAX_MISSED: Final = 3  # turns missed in a row before a player is removed (a forfeit)

NEUTRAL: Final = 0x2B2D31
COLOUR_VALUES: Final = {
    Colour.RED: 0xD72600,
    Colour.YELLOW: 0xECD407,
    Colour.GREEN: 0x379711,
    Colour.BLUE: 0x0956BF,
}
COLOUR_EMOJI: Final = {
    Colour.RED: "🟥",
    Colour.YELLOW: "🟨",
    Colour.GREEN: "🟩",
    Colour.BLUE: "🟦",
}
WILD_EMOJI: Final = "⬛"
OPEN_COMMANDS: Final = N_("`/uno duo`, `/uno pizza` or `/uno classic`")
"""The commands that open a table, as a sentence ends: "Start one with ..." (read
it through `t`: its words are the catalogue's)."""
VARIANT_NAMES: Final = {
    "duo": N_("UNO Duo"),
    "pizza": N_("UNO Pocket Pizza Pizza"),
    "classic": N_("Classic UNO"),
}


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    label: str
    custom_id: str
    style: discord.ButtonStyle
    emoji: str | None = None
    disabled: bool = False
    row: int = 0


@dataclass(frozen=True, slots=True)
class OptionSpec:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[OptionSpec, ...]
    row: int


Component = ButtonSpec | SelectSpec


@dataclass(frozen=True, slots=True)
class HandPanel:
    content: str
    embed: discord.Embed | None
    components: list[Component]
