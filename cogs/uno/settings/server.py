"""`/uno settings`: one private panel for members with Manage Server, and its clicks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs.uno import ids
from cogs.uno.i18n.l10n import N_, t
from cogs.uno.settings import panel
from cogs.uno.table.options import HOUSE_RULE_WORDS, PLAYED_HOUSE_RULES
from cogs.uno.transport import answers
from cogs.uno.transport.issued import click_data
from db.database import Database
from db.models import GuildSettings

REFUSED = N_("Only members with **Manage Server** can change the UNO settings of this server.")
SAVED = N_("✅ Saved. Tables opened from now on follow these settings.")


class ServerSettings:
    """Shows the panel and stores what a member with Manage Server changes in it."""

    def __init__(self, db: Database, *, default_seconds: int) -> None:
        self.db = db
        self.facts = panel.PanelFacts(default_seconds=default_seconds)

    @staticmethod
    def allowed(interaction: discord.Interaction[Any]) -> bool:
        """Checked on every use: the command's default permissions only hide it."""
        return interaction.guild_id is not None and interaction.permissions.manage_guild

    async def show(self, interaction: discord.Interaction[Any]) -> None:
        if not self.allowed(interaction):
            await answers.reply(interaction, t(REFUSED))
            return
        assert interaction.guild_id is not None
        settings = await self.db.settings.get(interaction.guild_id)
        await answers.send_private(interaction, panel.panel_data(settings, self.facts))

    async def click(
        self, interaction: discord.Interaction[Any], control: ids.SettingsControl
    ) -> None:
        """A select or button of the panel, or its submitted form."""
        if not self.allowed(interaction):
            await answers.reply(interaction, t(REFUSED))
            return
        assert interaction.guild_id is not None
        if control.code == "form":
            await self._submitted(interaction, interaction.guild_id)
            return
        custom_id, values = click_data(interaction)
        if not _drawn(interaction.message, custom_id, values):
            await answers.reply(interaction, t("That panel is out of date: use `/uno settings`."))
            return
        if control.code == "numbers":
            settings = await self.db.settings.get(interaction.guild_id)
            await answers.modal(interaction, panel.numbers_modal(settings, self.facts))
            return
        settings = await self._change(interaction.guild_id, control.code, values)
        await answers.update(interaction, panel.panel_data(settings, self.facts, note=t(SAVED)))

    async def _change(self, guild_id: int, code: str, values: Sequence[str]) -> GuildSettings:
        settings = self.db.settings
        if code == "reset":
            return await settings.reset(guild_id)
        if code == "deck":
            return await settings.update(guild_id, duo_deck=108 if "108" in values else 112)
        if code == "challenge":
            return await settings.update(guild_id, duo_classic_challenge="classic" in values)
        if code == "house":
            rules = {name: name in values for name in HOUSE_RULE_WORDS}
            played = {name: on for name, on in rules.items() if name in PLAYED_HOUSE_RULES}
            return await settings.update(guild_id, **played)
        return await settings.update(
            guild_id,
            thread_tables="thread" in values,
            turn_ping_mentions="mention" in values,
        )

    async def _submitted(self, interaction: discord.Interaction[Any], guild_id: int) -> None:
        data: Any = interaction.data or {}
        chosen = panel.numbers(panel.form_values(data))
        if isinstance(chosen, str):
            await answers.reply(interaction, chosen)
            return
        settings = await self.db.settings.update(guild_id, **chosen)
        await answers.send_private(
            interaction, panel.panel_data(settings, self.facts, note=t(SAVED))
        )


def _drawn(message: discord.Message | None, custom_id: str, values: Sequence[str]) -> bool:
    """The control is on the panel it came from, enabled, and offers every chosen value."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) != custom_id:
                continue
            if getattr(child, "disabled", False):
                return False
            options = getattr(child, "options", None)
            offered = {o.value for o in options} if options is not None else set()
            return set(values) <= offered
    return False
