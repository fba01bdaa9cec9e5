"""Component specs -> the JSON Discord takes, built once per state and reused.

The bot never builds a `discord.ui.View`: every control is routed by its
custom_id (cogs/uno/ids.py), so the rows are plain data, cached per viewer and
state version by whoever draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import discord

from cogs.uno.render import ButtonSpec, Component, SelectSpec

Rows = list[dict[str, Any]]
BUTTON, STRING_SELECT, ROW = 2, 3, 1


def _emoji(text: str) -> dict[str, Any]:
    return dict(_parsed_emoji(text))  # a copy: a payload is the caller's to change


@lru_cache(maxsize=1024)
def _parsed_emoji(text: str) -> dict[str, Any]:
    """Parsed once per emoji: the few card and control emojis recur on every panel."""
    data = dict(discord.PartialEmoji.from_str(text).to_dict())
    if data.get("id") is not None:  # a snowflake as Discord writes it: a string (JSON
        data["id"] = str(data["id"])  # readers such as JavaScript lose digits of big ints)
    return data


def _button(spec: ButtonSpec) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": BUTTON,
        "style": spec.style.value,
        "label": spec.label,
        "custom_id": spec.custom_id,
        "disabled": spec.disabled,
    }
    if spec.emoji:
        data["emoji"] = _emoji(spec.emoji)
    return data


def _select(spec: SelectSpec) -> dict[str, Any]:
    options = []
    for option in spec.options:
        entry: dict[str, Any] = {"label": option.label, "value": option.value}
        if option.description:
            entry["description"] = option.description
        if option.emoji:
            entry["emoji"] = _emoji(option.emoji)
        options.append(entry)
    return {
        "type": STRING_SELECT,
        "custom_id": spec.custom_id,
        "placeholder": spec.placeholder,
        "min_values": 1,
        "max_values": 1,
        "options": options,
    }


def rows(specs: Sequence[Component]) -> Rows:
    """Action rows in the order of their row numbers, each control where its spec says."""
    by_row: dict[int, list[dict[str, Any]]] = {}
    for spec in specs:
        item = _button(spec) if isinstance(spec, ButtonSpec) else _select(spec)
        by_row.setdefault(spec.row, []).append(item)
    return [{"type": ROW, "components": by_row[row]} for row in sorted(by_row)]


def disabled(rows: Rows) -> Rows:
    """The same rows with every control disabled (a copy): shown, but not clickable yet."""
    return [
        {**row, "components": [{**item, "disabled": True} for item in row["components"]]}
        for row in rows
    ]
