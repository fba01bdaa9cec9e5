"""The leaderboard's pages and a member's record, as answers."""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno import answers, boards, ids, payloads
from cogs.uno.issued import click_data, issued
from db.database import Database
from db.models import LeaderboardPage, MemberStats, Variant

# A custom_id's text, checked.
VARIANTS: dict[str, Variant] = {"duo": "duo", "pizza": "pizza", "classic": "classic"}


class Scoreboards:
    """`/uno leaderboard`, its pager, and `/uno stats`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def first_page(self, interaction: discord.Interaction[Any], variant: Variant) -> None:
        assert interaction.guild_id is not None
        page = await self.db.scores.leaderboard(
            guild_id=interaction.guild_id, variant=variant, page=1
        )
        await answers.respond(interaction, _board_data(interaction, page))

    async def turn_page(
        self, interaction: discord.Interaction[Any], control: ids.LeaderboardPage
    ) -> None:
        """A pager click: only one the bot drew on this message, for a known board."""
        variant = VARIANTS.get(control.variant)
        custom_id, values = click_data(interaction)
        drawn = issued(interaction.message, custom_id, values)
        if variant is None or interaction.guild_id is None or not drawn:
            await answers.reply(interaction, "That button is no longer valid.")
            return
        page = await board_page(
            self.db, guild_id=interaction.guild_id, variant=variant, page=control.page
        )
        await answers.update(interaction, _board_data(interaction, page))

    async def record(self, interaction: discord.Interaction[Any], who: discord.abc.User) -> None:
        assert interaction.guild_id is not None
        records: dict[str, MemberStats | None] = {
            variant: await self.db.scores.member_stats(
                guild_id=interaction.guild_id, user_id=who.id, variant=variant
            )
            for variant in VARIANTS.values()
        }
        embed = boards.stats(who.display_name, records)
        won, played = await self.db.scores.practice_record(
            guild_id=interaction.guild_id, user_id=who.id
        )
        if played:
            embed.add_field(name="Practice", value=f"vs computer: {won} won of {played}")
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _board_data(interaction: discord.Interaction[Any], page: LeaderboardPage) -> dict[str, Any]:
    embed, specs = boards.leaderboard(
        page, guild_name=interaction.guild.name if interaction.guild else ""
    )
    return {"embeds": [embed.to_dict()], "components": payloads.rows(specs)}


async def board_page(
    db: Database, *, guild_id: int, variant: Variant, page: int
) -> LeaderboardPage:
    """Page `page` of the board; its last page if the board shrank since the button was drawn."""
    board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=page)
    if board.page > board.pages:
        board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=board.pages)
    return board
