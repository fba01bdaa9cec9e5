"""cogs/uno/transport/payloads.py: component specs become the rows Discord takes, no View built."""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno import ids
from cogs.uno.render import ButtonSpec, OptionSpec, SelectSpec
from cogs.uno.transport import payloads

SPECS = (
    ButtonSpec(
        label="Play", custom_id="uno:7:3:p.R5", style=discord.ButtonStyle.primary, emoji="🟥"
    ),
    ButtonSpec(
        label="Next ▶",
        custom_id=ids.leaderboard_custom_id("duo", 2),
        style=discord.ButtonStyle.secondary,
        row=1,
    ),
    SelectSpec(
        custom_id=f"uno:7:3:{ids.PICK}",
        placeholder="More cards",
        options=(OptionSpec(label="Red 5", value="p.R5"), OptionSpec(label="Blue 2", value="p.B2")),
        row=2,
    ),
)


def as_view(specs: tuple[ButtonSpec | SelectSpec, ...]) -> list[dict[str, Any]]:
    """What discord.py itself would send for the same controls."""
    view = discord.ui.View(timeout=None)
    for spec in specs:
        if isinstance(spec, ButtonSpec):
            view.add_item(
                discord.ui.Button(
                    label=spec.label,
                    custom_id=spec.custom_id,
                    style=spec.style,
                    emoji=spec.emoji,
                    disabled=spec.disabled,
                    row=spec.row,
                )
            )
        else:
            options = [discord.SelectOption(label=o.label, value=o.value) for o in spec.options]
            view.add_item(
                discord.ui.Select(
                    custom_id=spec.custom_id,
                    placeholder=spec.placeholder,
                    options=options,
                    row=spec.row,
                )
            )
    drawn: list[dict[str, Any]] = list(view.to_components())
    return drawn


async def test_rows_are_what_a_discord_py_view_sends() -> None:
    rows = payloads.rows(SPECS)
    drawn = [c["custom_id"] for row in rows for c in row["components"]]
    assert drawn == [spec.custom_id for spec in SPECS]
    expected = as_view(SPECS)
    for mine, theirs in zip(rows, expected, strict=True):
        for a, b in zip(mine["components"], theirs["components"], strict=True):
            for key in ("type", "custom_id", "label", "style", "options", "placeholder"):
                if key in b:
                    assert _same(a.get(key), b[key]), key


def _same(mine: object, theirs: object) -> bool:
    if isinstance(theirs, list):
        assert isinstance(mine, list)
        return [o["value"] for o in mine] == [o["value"] for o in theirs]
    return mine == theirs


def test_rows_follow_the_row_numbers_of_the_specs() -> None:
    rows = payloads.rows(SPECS)
    assert [len(row["components"]) for row in rows] == [1, 1, 1]
    assert rows[0]["components"][0]["emoji"]["name"] == "🟥"
