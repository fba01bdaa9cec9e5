"""cogs/uno/views.py: the views the bot sends are drawn, routed by pattern, never kept."""

from __future__ import annotations

import discord

from cogs.uno import ids
from cogs.uno.render import ButtonSpec, OptionSpec, SelectSpec
from cogs.uno.views import ControlButton, ControlSelect, PageButton, build_view

SPECS = (
    ButtonSpec(label="Play", custom_id="uno:7:3:p.r5", style=discord.ButtonStyle.primary),
    ButtonSpec(
        label="Next ▶",
        custom_id=ids.leaderboard_custom_id("duo", 2),
        style=discord.ButtonStyle.secondary,
        row=1,
    ),
    SelectSpec(
        custom_id=f"uno:7:3:{ids.PICK}",
        placeholder="More cards",
        options=(OptionSpec(label="Red 5", value="p.r5"), OptionSpec(label="Blue 2", value="p.b2")),
        row=2,
    ),
)


async def test_a_built_view_is_finished_so_discord_py_stores_no_copy_of_it() -> None:
    # discord.py keeps every unfinished view it sends (an ephemeral one for 15 minutes,
    # with a timer); the dynamic items route clicks without it.
    view = build_view(SPECS)
    assert view.is_finished()
    assert view.timeout is None


async def test_a_built_view_draws_every_spec_with_its_dynamic_item() -> None:
    view = build_view(SPECS)
    kinds = [type(item) for item in view.children]
    assert kinds == [ControlButton, PageButton, ControlSelect]
    drawn = [child["custom_id"] for row in view.to_components() for child in row["components"]]
    assert drawn == [spec.custom_id for spec in SPECS]
    for item, spec in zip(view.children, SPECS, strict=True):
        assert item.__discord_ui_compiled_template__.fullmatch(spec.custom_id)  # type: ignore[attr-defined]
