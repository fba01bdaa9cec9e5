"""Pure functions from engine views and events to what Discord is sent.

No I/O and no state: the table message and the hand panels pass a `PublicView` /
`PrivateView` and a name lookup (player id -> display name) and get back embeds and
component specs, which `cogs.uno.transport.payloads` turns into the JSON Discord takes. Every
result stays within Discord's limits whatever the size of the hands.

Cards always carry words as well as a colour square (🟥 Red 7), so
colour-blind players and screen readers lose nothing.
"""

from __future__ import annotations

from cogs.uno.render.panel import TableFields, hand_panel, table_fields
from cogs.uno.render.rules import rules_details, rules_guide
from cogs.uno.render.specs import (
    BUTTON_LABEL,
    CONTENT_LIMIT,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_TITLE,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    FOOTER_TEXT,
    LOG_LINES,
    MAX_MISSED,
    NAME_LIMIT,
    NEUTRAL,
    OPEN_COMMANDS,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    OPTION_VALUE,
    PLACEHOLDER,
    ROW_BUTTONS,
    ROWS,
    SELECT_OPTIONS,
    VARIANT_NAMES,
    WILD_EMOJI,
    ButtonSpec,
    Component,
    HandPanel,
    OptionSpec,
    SelectSpec,
)
from cogs.uno.render.summaries import match_summary, round_summary
from cogs.uno.render.table import named_colour, table_components, table_embed
from cogs.uno.render.words import (
    card_label,
    card_title,
    clip,
    colour_emoji,
    colour_label,
    colour_value,
    describe_event,
    escape_name,
    escaped_name,
    fit_embed,
    hand_lines,
    name,
    plain_name,
    plural,
    seat_name,
    tidy_name,
    variant_name,
)

__all__ = [
    "BUTTON_LABEL",
    "CONTENT_LIMIT",
    "EMBED_DESCRIPTION",
    "EMBED_FIELDS",
    "EMBED_TITLE",
    "EMBED_TOTAL",
    "FIELD_NAME",
    "FIELD_VALUE",
    "FOOTER_TEXT",
    "LOG_LINES",
    "MAX_MISSED",
    "NAME_LIMIT",
    "NEUTRAL",
    "OPEN_COMMANDS",
    "OPTION_DESCRIPTION",
    "OPTION_LABEL",
    "OPTION_VALUE",
    "PLACEHOLDER",
    "ROWS",
    "ROW_BUTTONS",
    "SELECT_OPTIONS",
    "VARIANT_NAMES",
    "WILD_EMOJI",
    "ButtonSpec",
    "Component",
    "HandPanel",
    "OptionSpec",
    "SelectSpec",
    "TableFields",
    "card_label",
    "card_title",
    "clip",
    "colour_emoji",
    "colour_label",
    "colour_value",
    "describe_event",
    "escape_name",
    "escaped_name",
    "fit_embed",
    "hand_lines",
    "hand_panel",
    "match_summary",
    "name",
    "named_colour",
    "plain_name",
    "plural",
    "round_summary",
    "rules_details",
    "rules_guide",
    "seat_name",
    "table_components",
    "table_embed",
    "table_fields",
    "tidy_name",
    "variant_name",
]
