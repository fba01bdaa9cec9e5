"""`/uno rules`: the short guide, and the details its button opens."""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno import ids, render
from cogs.uno.i18n.l10n import N_, t
from cogs.uno.render import ButtonSpec
from cogs.uno.transport import answers, payloads
from db.database import Database

OUT_OF_DATE = N_("That control is out of date. Press **Hand** on your table for a fresh one.")


async def show_rules(db: Database, interaction: discord.Interaction[Any], variant: str) -> None:
    """The guide to `variant`, privately, with a button for the details."""
    details = ButtonSpec(
        label=t("Details"),
        custom_id=ids.rules_custom_id(variant),
        style=discord.ButtonStyle.secondary,
        emoji="📖",
    )
    # Duo's challenge as this server plays it, in the settings panel's words.
    classic = False
    if interaction.guild_id is not None and variant == "duo":
        settings = await db.settings.get(interaction.guild_id)
        classic = settings.duo_classic_challenge
    guide = render.rules_guide(variant, classic_challenge=classic)
    data = answers.message_data(content=guide, embed=None, components=payloads.rows([details]))
    await answers.send_private(interaction, data)


async def show_details(interaction: discord.Interaction[Any], variant: str) -> None:
    try:
        text = render.rules_details(variant)
    except ValueError:
        await answers.reply(interaction, t(OUT_OF_DATE))
        return
    await answers.send_private(
        interaction, answers.message_data(content=text, embed=None, components=[])
    )
