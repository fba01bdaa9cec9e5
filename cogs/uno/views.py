"""discord.ui glue: dynamic items that route every click to the TableManager.

Every control the bot draws is a `DynamicItem` whose custom_id names the
table, the state version and the action (cogs/uno/ids.py). Nothing is kept
per message: after a restart the same ids route again, and a click on an old
panel is recognised as stale by its version.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.uno import ids
from cogs.uno.render import ButtonSpec, SelectSpec

if TYPE_CHECKING:
    from cogs.uno.commands import UnoCog

_SELECT_CODE = r"sel(?:\.\d{1,2})?"
BUTTON_TEMPLATE = rf"uno:(?P<table>\d+):(?P<version>\d+):(?P<code>(?!{_SELECT_CODE}$)[^:]+)"
SELECT_TEMPLATE = rf"uno:(?P<table>\d+):(?P<version>\d+):(?P<code>{_SELECT_CODE})"


def _cog(interaction: discord.Interaction[Any]) -> UnoCog:
    cog = interaction.client.get_cog("UnoCog")
    if cog is None:
        raise RuntimeError("the UNO cog is not loaded")
    return cog  # type: ignore[no-any-return]


class _Rebuilt:
    """Rebuild a dynamic item around the component Discord sent back (no state kept)."""

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Any:
        return cls(item)  # type: ignore[call-arg]


class ControlButton(
    _Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE
):
    """Any button of a table, a lobby or a hand panel."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        control = ids.parse_custom_id(self.item.custom_id)
        await _cog(interaction).on_control(interaction, control, values=())


class ControlSelect(
    _Rebuilt, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE
):
    """A select of a hand panel; the chosen value is an action code."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        control = ids.parse_custom_id(self.item.custom_id)
        await _cog(interaction).on_control(interaction, control, values=tuple(self.item.values))


class PageButton(
    _Rebuilt, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LEADERBOARD_TEMPLATE
):
    """The leaderboard's previous / next buttons."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        page = ids.parse_custom_id(self.item.custom_id)
        await _cog(interaction).on_leaderboard_page(interaction, page)


DYNAMIC_ITEMS = (ControlButton, ControlSelect, PageButton)


def build_view(specs: Sequence[ButtonSpec | SelectSpec]) -> discord.ui.View:
    """A view of dynamic items only, so discord.py keeps nothing per message."""
    view = discord.ui.View(timeout=None)
    for spec in specs:
        if isinstance(spec, ButtonSpec):
            button: discord.ui.Button[Any] = discord.ui.Button(
                label=spec.label,
                custom_id=spec.custom_id,
                style=spec.style,
                emoji=spec.emoji,
                disabled=spec.disabled,
                row=spec.row,
            )
            item: discord.ui.Item[Any] = (
                PageButton(button)
                if spec.custom_id.startswith("uno:lb.")
                else ControlButton(button)
            )
        else:
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=spec.custom_id,
                placeholder=spec.placeholder,
                row=spec.row,
                options=[
                    discord.SelectOption(
                        label=option.label,
                        value=option.value,
                        description=option.description,
                        emoji=option.emoji,
                    )
                    for option in spec.options
                ],
            )
            item = ControlSelect(select)
        view.add_item(item)
    # Every item is dynamic, so discord.py never needs this view after sending it. A
    # stopped view is never stored; otherwise an ephemeral panel's view would be kept,
    # with a timer, for the 15 minutes its token lives.
    view.stop()
    return view
