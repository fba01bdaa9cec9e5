"""Whether a click names a control the bot really drew on the message it came from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord


def click_data(interaction: discord.Interaction[Any]) -> tuple[str, tuple[str, ...]]:
    """The clicked control's custom_id and the select's chosen values, as sent."""
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    values = data.get("values") or ()
    chosen = tuple(v for v in values if isinstance(v, str)) if isinstance(values, list) else ()
    return (custom_id if isinstance(custom_id, str) else "", chosen)


def issued(message: discord.Message | None, custom_id: str, values: Sequence[str]) -> bool:
    """True if `message` carries the control `custom_id` and offers every chosen value.

    Discord sends the message a control is on with each click; a custom_id or a
    select value that is not on it was never issued by the bot (or was forged).
    """
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) != custom_id:
                continue
            return _offers(child, values)
    return False


def _offers(child: Any, values: Sequence[str]) -> bool:
    if getattr(child, "disabled", False):
        return False
    options = getattr(child, "options", None)
    if options is None:  # a button: it sends no values
        return not values
    offered = {option.value for option in options}
    return len(values) == 1 and values[0] in offered
