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
from cogs.uno.i18n.l10n import N_, t
from cogs.uno.render.rule_words import CLASSIC_CHALLENGE, DUO_CHALLENGE, challenge_words
from cogs.uno.table.options import HOUSE_RULE_HINTS, HOUSE_RULE_WORDS
from db.models import TARGET_RANGE, TURN_SECONDS_RANGE, GuildSettings

BLURPLE = 0x5865F2
STRING_SELECT, BUTTON, ROW, TEXT_INPUT = 3, 2, 1, 4
# Form fields: (settings field, label). The targets of each game the bot offers.
NUMBER_FIELDS = (
    ("turn_seconds", N_("Seconds for each turn")),
    ("target_duo", N_("UNO Duo: points that lose the match")),
    ("target_pizza", N_("Pocket Pizza Pizza: points that win")),
    ("target_classic", N_("Classic UNO: points that win")),
)
TABLE_CHOICES = {
    "thread": (N_("Open each table in its own thread"), "thread_tables"),
    "mention": (N_("Turn pings mention the player"), "turn_ping_mentions"),
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
    if settings.duo_deck == 108:
        deck = t("108 cards (the classic deck)")
    else:
        deck = t("112 cards (Duo's own)")
    words = challenge_words(classic=settings.duo_classic_challenge)
    challenge = f"{t(words.name)}: {t(words.counts)}"
    rules = [t(HOUSE_RULE_WORDS[r]) for r in settings.house_rules]
    turn = t("**Turn time:** {seconds} seconds", seconds=seconds)
    lines = [
        turn if chosen else t("{turn_time} (the bot's default)", turn_time=turn),
        t(
            "**Targets:** UNO Duo {duo} · Pocket Pizza Pizza {pizza} · Classic UNO {classic} "
            "points (a table opened without a target uses these)",
            duo=settings.target_duo,
            pizza=settings.target_pizza,
            classic=settings.target_classic,
        ),
        t("**UNO Duo deck:** {deck}", deck=deck),
        t("**UNO Duo, challenging a Wild Draw 4:** {challenge}", challenge=challenge),
        t("**Classic house rules:** {rules}", rules=", ".join(rules) if rules else t("none")),
        t("**Tables:** each in its own thread")
        if settings.thread_tables
        else t("**Tables:** in the channel itself"),
        t("**Turn pings:** mention the player")
        if settings.turn_ping_mentions
        else t("**Turn pings:** name the player, no mention"),
        "",
        t(
            "Changes apply to tables opened from now on. Members can turn their own "
            "mentions off with `/uno pings off`."
        ),
    ]
    if note:
        lines += ["", note]
    return discord.Embed(
        title=t("UNO settings for this server"), description="\n".join(lines), colour=BLURPLE
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
        t("UNO Duo deck"),
        [
            _option(t("Duo deck: 112 cards"), "112", not classic_deck),
            _option(
                t("Classic deck: 108 cards"),
                "108",
                classic_deck,
                t("no Shuffle Hands, no blanks"),
            ),
        ],
    )
    classic = settings.duo_classic_challenge
    challenge = _select(
        "challenge",
        t("UNO Duo: challenging a Wild Draw 4"),
        [
            _option(t(words.name), code, chosen, t(words.hint))
            for code, words, chosen in (
                ("duo", DUO_CHALLENGE, not classic),
                ("classic", CLASSIC_CHALLENGE, classic),
            )
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
        t("Tables and pings"),
        [
            _option(t(label), code, bool(getattr(settings, field)))
            for code, (label, field) in TABLE_CHOICES.items()
        ],
        low=0,
        high=len(TABLE_CHOICES),
    )
    buttons = {
        "type": ROW,
        "components": [
            _button(t("Turn time and targets…"), "numbers", discord.ButtonStyle.primary),
            _button(t("Back to defaults"), "reset", discord.ButtonStyle.secondary),
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
                    "label": t(label),
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
        "title": t("Turn time and targets"),
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
            if name == "turn_seconds":
                wrong = N_("**{field}** must be a whole number from {low} to {high} seconds.")
            else:
                wrong = N_("**{field}** must be a whole number from {low} to {high} points.")
            problems.append(t(wrong, field=t(label), low=low, high=high))
            continue
        chosen[name] = int(text)
    if problems:
        return t("Nothing was changed: {problems}", problems=" ".join(problems))
    return chosen
