"""`/uno pings`: whether the bot mentions a member, everywhere."""

from __future__ import annotations

from typing import Any, Literal

import discord

from cogs.uno.i18n.l10n import t
from cogs.uno.table.service import TableService
from cogs.uno.transport import answers
from db.database import Database


async def set_pings(
    db: Database,
    tables: TableService,
    interaction: discord.Interaction[Any],
    state: Literal["off", "on"],
) -> None:
    """Store the choice; a table the member plays at follows it at once."""
    user_id = interaction.user.id
    await db.prefs.update(user_id, pings=state == "on")
    tables.follow_pings(user_id, on=state == "on")
    await answers.reply(
        interaction,
        t("Done: the bot mentions you again when it's your turn or you're challenged.")
        if state == "on"
        else t(
            "Done: the bot won't mention you any more, in any server. "
            "It names you instead; `/uno pings on` undoes this."
        ),
    )
