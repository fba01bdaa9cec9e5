"""The leaderboard's pages and a member's record, as answers."""

from __future__ import annotations

from typing import Any

import discord

from cogs.uno import answers, boards, ids, payloads
from cogs.uno.issued import click_data, issued
from cogs.uno.render import ButtonSpec, escape_name
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
        await answers.send_private(interaction, _board_data(interaction, page, share=True))

    async def turn_page(
        self, interaction: discord.Interaction[Any], control: ids.LeaderboardPage
    ) -> None:
        """A pager click: only one the bot drew on this message, for a known board."""
        variant = VARIANTS.get(control.variant)
        custom_id, values = click_data(interaction)
        drawn = issued(interaction.message, custom_id, values)
        if variant is None or interaction.guild_id is None or not drawn:
            await answers.reply(
                interaction,
                "That button is no longer valid: run `/uno leaderboard` or `/uno stats` again.",
            )
            return
        page = await board_page(
            self.db, guild_id=interaction.guild_id, variant=variant, page=control.page
        )
        private = interaction.message is not None and interaction.message.flags.ephemeral
        await answers.update(interaction, _board_data(interaction, page, share=private))

    async def record(self, interaction: discord.Interaction[Any], who: discord.abc.User) -> None:
        assert interaction.guild_id is not None
        records: dict[str, MemberStats | None] = {
            variant: await self.db.scores.member_stats(
                guild_id=interaction.guild_id, user_id=who.id, variant=variant
            )
            for variant in VARIANTS.values()
        }
        embed = boards.stats(who.display_name, records)
        data = answers.message_data(
            content=None, embed=embed, components=payloads.rows([_share(ids.SHARE_ID)])
        )
        await answers.send_private(interaction, data)

    async def share(self, interaction: discord.Interaction[Any], control: ids.Share) -> None:
        """Post the private board page or record the button is on, for the channel to see."""
        message = interaction.message
        custom_id, values = click_data(interaction)
        variant = VARIANTS.get(control.variant or "")
        known = control.variant is None or variant is not None
        drawn = message is not None and message.embeds and issued(message, custom_id, values)
        if message is None or not drawn or not known or interaction.guild_id is None:
            await answers.reply(
                interaction,
                "That button is no longer valid: run `/uno leaderboard` or `/uno stats` again.",
            )
            return
        shared_by = f"Shared by {escape_name(interaction.user.display_name)}"
        if variant is not None:  # a board page, public with its pager: anyone may page it
            page = await board_page(
                self.db, guild_id=interaction.guild_id, variant=variant, page=control.page
            )
            await answers.respond(
                interaction, {"content": shared_by, **_board_data(interaction, page)}
            )
            return
        data = answers.message_data(
            content=shared_by,
            embed=None,
            components=[],  # the page as it was seen; /uno leaderboard pages on
        )
        data["embeds"] = [embed.to_dict() for embed in message.embeds]
        await answers.respond(interaction, data)


def _share(custom_id: str) -> ButtonSpec:
    return ButtonSpec(
        label="Share", custom_id=custom_id, style=discord.ButtonStyle.secondary, emoji="📢", row=1
    )


def _board_data(
    interaction: discord.Interaction[Any], page: LeaderboardPage, *, share: bool = False
) -> dict[str, Any]:
    """A board page; `share`: privately, with the button that shows it to the channel."""
    embed, specs = boards.leaderboard(
        page, guild_name=interaction.guild.name if interaction.guild else ""
    )
    if share:
        specs = [*specs, _share(ids.share_custom_id(page.variant, page.page))]
    return {"embeds": [embed.to_dict()], "components": payloads.rows(specs)}


async def board_page(
    db: Database, *, guild_id: int, variant: Variant, page: int
) -> LeaderboardPage:
    """Page `page` of the board; its last page if the board shrank since the button was drawn."""
    board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=page)
    if board.page > board.pages:
        board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=board.pages)
    return board
