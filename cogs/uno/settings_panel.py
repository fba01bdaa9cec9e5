"""The `/uno settings` panel and its form, as the JSON Discord takes (pure).

One private message shows every setting in plain words; selects change the
choices, a button opens a form (modal) for the numbers. `numbers` reads the
form back and says plainly what is wrong with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from cogs.uno import ids
from cogs.uno.l10n import t
from cogs.uno.table_options import HOUSE_RULE_HINTS, HOUSE_RULE_WORDS
from db.models import TARGET_RANGE, TURN_SECONDS_RANGE, GuildSettings

BLURPLE = 0x5865F2
STRING_SELECT, BUTTON, ROW, TEXT_INPUT = 3, 2, 1, 4
# Form fields: (settings field, label). The targets of each game the bot offers.
NUMBER_FIELDS = (
    ("turn_seconds", "Seconds for each turn"),
    ("target_duo", "UNO Duo: points that lose the match"),
    ("target_pizza", "Pocket Pizza Pizza: points that win"),
    ("target_classic", "Classic UNO: points that win"),
)
TABLE_CHOICES = {
    "thread": ("Open each table in its own thread", "thread_tables"),
    "mention": ("Turn pings mention the player", "turn_ping_mentions"),
}


@dataclass(frozen=True, slots=True)
class PanelFacts:
    """What the panel shows besides the settings: the bot's own timer default."""

    default_seconds: int


def seconds_in_use(settings: GuildSettings, facts: PanelFacts) -> tuple[int, bool]:
    """The turn time new tables get, and whether the server chose it."""
    if "turn_seconds" in settings.model_fields_set:
        return settings.turn_seconds, True
    return facts.default_seconds, False


def panel_embed(settings: GuildSettings, facts: PanelFacts, *, note: str = "") -> discord.Embed:
    """Every setting, in plain words."""
    seconds, chosen = seconds_in_use(settings, facts)
    deck = "108 cards (the classic deck)" if settings.duo_deck == 108 else "112 cards (Duo's own)"
    challenge = (
        "classic: only a card of the colour in play counts against it"
        if settings.duo_classic_challenge
        else "Duo's: any other card that could have been played counts against it"
    )
    rules = [t(HOUSE_RULE_WORDS[r]) for r in settings.house_rules]
    lines = [
        f"**Turn time:** {seconds} seconds" + ("" if chosen else " (the bot's default)"),
        f"**Targets:** UNO Duo {settings.target_duo} · Pocket Pizza Pizza "
        f"{settings.target_pizza} · Classic UNO {settings.target_classic} points "
        "(a table opened without a target uses these)",
        f"**UNO Duo deck:** {deck}",
        f"**UNO Duo, challenging a Wild Draw 4:** {challenge}",
        t("**Classic house rules:** {rules}", rules=", ".join(rules) if rules else t("none")),
        "**Tables:** "
        + ("each in its own thread" if settings.thread_tables else "in the channel itself"),
        "**Turn pings:** "
        + ("mention the player" if settings.turn_ping_mentions else "name the player, no mention"),
        "",
        "Changes apply to tables opened from now on. Members can turn their own "
        "mentions off with `/uno pings off`.",
    ]
    if note:
        lines += ["", note]
    return discord.Embed(
        title="UNO settings for this server", description="\n".join(lines), colour=BLURPLE
    )


def _option(label: str, value: str, default: bool, description: str = "") -> dict[str, Any]:
    option: dict[str, Any] = {"label": label, "value": value, "default": default}
    if description:
        option["description"] = description
    return option


def _select(
    code: str, placeholder: str, options: list[dict[str, Any]], *, low: int = 1, high: int = 1
) -> dict[str, Any]:
    return {
        "type": ROW,
        "components": [
            {
                "type": STRING_SELECT,
                "custom_id": ids.settings_custom_id(code),
                "placeholder": placeholder,
                "min_values": low,
                "max_values": high,
                "options": options,
            }
        ],
    }


def panel_components(settings: GuildSettings) -> list[dict[str, Any]]:
    """Selects for the choices, buttons for the form and a reset."""
    classic_deck = settings.duo_deck == 108
    deck = _select(
        "deck",
        "UNO Duo deck",
        [
            _option("Duo deck: 112 cards", "112", not classic_deck),
            _option("Classic deck: 108 cards", "108", classic_deck, "no Shuffle Hands, no blanks"),
        ],
    )
    classic = settings.duo_classic_challenge
    challenge = _select(
        "challenge",
        "UNO Duo: challenging a Wild Draw 4",
        [
            _option("Duo challenge", "duo", not classic, "any other playable card counts"),
            _option("Classic challenge", "classic", classic, "only the colour in play counts"),
        ],
    )
    house = _select(
        "house",
        t("Classic UNO house rules"),
        [
            _option(t(words), name, getattr(settings, name), t(HOUSE_RULE_HINTS[name]))
            for name, words in HOUSE_RULE_WORDS.items()
        ],
        low=0,
        high=len(HOUSE_RULE_WORDS),
    )
    table = _select(
        "table",
        "Tables and pings",
        [
            _option(label, code, bool(getattr(settings, field)))
            for code, (label, field) in TABLE_CHOICES.items()
        ],
        low=0,
        high=len(TABLE_CHOICES),
    )
    buttons = {
        "type": ROW,
        "components": [
            _button("Turn time and targets…", "numbers", discord.ButtonStyle.primary),
            _button("Back to defaults", "reset", discord.ButtonStyle.secondary),
        ],
    }
    return [deck, challenge, house, table, buttons]


def _button(label: str, code: str, style: discord.ButtonStyle) -> dict[str, Any]:
    return {
        "type": BUTTON,
        "style": style.value,
        "label": label,
        "custom_id": ids.settings_custom_id(code),
    }


def panel_data(settings: GuildSettings, facts: PanelFacts, *, note: str = "") -> dict[str, Any]:
    return {
        "content": "",
        "embeds": [panel_embed(settings, facts, note=note).to_dict()],
        "components": panel_components(settings),
        "allowed_mentions": {"parse": []},
    }


def numbers_modal(settings: GuildSettings, facts: PanelFacts) -> dict[str, Any]:
    """The form for the turn time and the targets, filled in with what is in use."""
    current = {name: getattr(settings, name) for name, _ in NUMBER_FIELDS}
    current["turn_seconds"] = seconds_in_use(settings, facts)[0]
    rows = [
        {
            "type": ROW,
            "components": [
                {
                    "type": TEXT_INPUT,
                    "custom_id": name,
                    "label": label,
                    "style": 1,
                    "min_length": 1,
                    "max_length": 4,
                    "required": True,
                    "value": str(current[name]),
                }
            ],
        }
        for name, label in NUMBER_FIELDS
    ]
    return {
        "custom_id": ids.settings_custom_id("form"),
        "title": "Turn time and targets",
        "components": rows,
    }


def form_values(data: Mapping[str, Any]) -> dict[str, str]:
    """The text of each input of a submitted form, by its custom_id."""
    values: dict[str, str] = {}
    for row in data.get("components") or []:
        children = [row["component"]] if "component" in row else row.get("components") or []
        for child in children:
            if isinstance(child, dict) and "custom_id" in child:
                values[str(child["custom_id"])] = str(child.get("value") or "")
    return values


def numbers(values: Mapping[str, str]) -> dict[str, int] | str:
    """The form's numbers to store, or what is wrong with them, in plain words."""
    low_s, high_s = TURN_SECONDS_RANGE
    low_t, high_t = TARGET_RANGE
    chosen: dict[str, int] = {}
    problems = []
    for name, label in NUMBER_FIELDS:
        text = values.get(name, "").strip()
        low, high = (low_s, high_s) if name == "turn_seconds" else (low_t, high_t)
        if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
            what = "seconds" if name == "turn_seconds" else "points"
            problems.append(f"**{label}** must be a whole number from {low} to {high} {what}.")
            continue
        chosen[name] = int(text)
    if problems:
        return "Nothing was changed: " + " ".join(problems)
    return chosen
