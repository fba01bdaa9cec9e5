"""The UNO feature: the /uno command group, tables, views and rendering."""

from __future__ import annotations

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    from cogs.uno.commands import UnoCog

    db = getattr(bot, "db", None)
    if db is None:
        raise RuntimeError("the bot must open the database before loading cogs.uno")
    await bot.add_cog(UnoCog(bot, db))
