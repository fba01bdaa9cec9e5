"""The leaderboards' pages and a member's record, as answers."""

from __future__ import annotations

import io
from typing import Any

import discord

from cogs.uno import ids
from cogs.uno.boards import embeds as boards
from cogs.uno.boards import rating_board, rating_chart
from cogs.uno.i18n.l10n import member_language, server_language, speaking, t
from cogs.uno.render import ButtonSpec, escape_name, variant_name
from cogs.uno.transport import answers, payloads
from cogs.uno.transport.issued import click_data, issued
from db.database import Database
from db.models import LeaderboardPage, MemberStats, Rating, RatingBoardPage, RatingEntry, Variant

MIN_RANKED = 5  # matches before a member is ranked by skill

# A custom_id's text, checked.
VARIANTS: dict[str, Variant] = {"duo": "duo", "pizza": "pizza", "classic": "classic"}


class Scoreboards:
    """`/uno leaderboard`, its pager, and `/uno stats`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def first_page(
        self, interaction: discord.Interaction[Any], variant: Variant, *, by_rating: bool = True
    ) -> None:
        assert interaction.guild_id is not None
        if by_rating:
            data = await self._rating_data(interaction, interaction.guild_id, variant, 1)
        else:
            page = await self.db.scores.leaderboard(
                guild_id=interaction.guild_id, variant=variant, page=1
            )
            data = _board_data(interaction, page)
        await answers.send_private(interaction, _with_share(data))  # Share shows it to all

    async def _rating_data(
        self, interaction: discord.Interaction[Any], guild_id: int, variant: Variant, page: int
    ) -> dict[str, Any]:
        board = await rating_page(self.db, guild_id=guild_id, variant=variant, page=page)
        unranked = await self._unranked(guild_id, variant)
        embed, specs = rating_board.leaderboard(
            board, unranked, guild_name=interaction.guild.name if interaction.guild else ""
        )
        return {"embeds": [embed.to_dict()], "components": payloads.rows(specs)}

    async def _unranked(self, guild_id: int, variant: Variant) -> list[RatingEntry]:
        """Members with a rated match but fewer than MIN_RANKED, most matches first."""
        everyone = await self.db.ratings.leaderboard(
            guild_id=guild_id, variant=variant, page=1, page_size=100, min_played=1
        )
        short = [e for e in everyone.entries if e.played < MIN_RANKED]
        return sorted(short, key=lambda e: (-e.played, e.display_name.casefold()))

    async def turn_page(
        self, interaction: discord.Interaction[Any], control: ids.LeaderboardControl
    ) -> None:
        """A pager click: only one the bot drew on this message, for a known board."""
        variant = VARIANTS.get(control.variant)
        custom_id, values = click_data(interaction)
        drawn = issued(interaction.message, custom_id, values)
        if variant is None or interaction.guild_id is None or not drawn:
            await answers.reply(interaction, t("That button is no longer valid."))
            return
        private = interaction.message is not None and interaction.message.flags.ephemeral
        # A shared page is the channel's: it stays in the server's language.
        with speaking(member_language(interaction) if private else server_language(interaction)):
            data = await self._page_data(interaction, variant, control)
        await answers.update(interaction, _with_share(data) if private else data)

    async def _page_data(
        self,
        interaction: discord.Interaction[Any],
        variant: Variant,
        control: ids.LeaderboardControl,
    ) -> dict[str, Any]:
        assert interaction.guild_id is not None
        if control.by_rating:
            data = await self._rating_data(interaction, interaction.guild_id, variant, control.page)
        else:
            page = await board_page(
                self.db, guild_id=interaction.guild_id, variant=variant, page=control.page
            )
            data = _board_data(interaction, page)
        return data

    async def record(self, interaction: discord.Interaction[Any], who: discord.abc.User) -> None:
        """The member's record and skill in each game, with a chart of their last changes."""
        assert interaction.guild_id is not None
        embed, png = await self._record(interaction.guild_id, who.id, who.display_name)
        share = ids.share_custom_id(member=who.id)
        if png is None:
            data = answers.message_data(content=None, embed=embed, components=[])
            await answers.send_private(interaction, _with_share(data, share))
            return
        embed.set_image(url=f"attachment://{rating_chart.FILE_NAME}")
        view = discord.ui.View(timeout=None)  # only to carry the button: stopped at once,
        view.add_item(_share_button(share))  # the click is routed by its custom_id
        view.stop()
        await interaction.response.send_message(
            embed=embed, file=_chart_file(png), ephemeral=True, view=view
        )

    async def _record(
        self, guild_id: int, user_id: int, name: str
    ) -> tuple[discord.Embed, bytes | None]:
        """A member's record embed in the current language, and their chart if they have one."""
        records: dict[str, MemberStats | None] = {}
        ratings: dict[str, Rating | None] = {}
        series: dict[str, list[float]] = {}
        for game, variant in VARIANTS.items():
            records[game] = await self.db.scores.member_stats(
                guild_id=guild_id, user_id=user_id, variant=variant
            )
            ratings[game] = await self.db.ratings.rating(
                guild_id=guild_id, user_id=user_id, variant=variant
            )
            history = await self.db.ratings.history(
                guild_id=guild_id, user_id=user_id, variant=variant
            )
            series[game] = rating_chart.points(history)
        won, played = await self.db.scores.practice_record(guild_id=guild_id, user_id=user_id)
        embed = boards.stats(name, records, practice=played > 0)
        embed.description = "\n".join(
            f"**{variant_name(game)}:** {rating_board.rating_words(r, min_played=MIN_RANKED)}"
            for game, r in ratings.items()
        )
        if played:
            embed.add_field(
                name=t("Practice"),
                value=t("vs computer: {won} won of {played}", won=won, played=played),
            )
        if not any(len(line) >= 2 for line in series.values()):
            return embed, None
        return embed, rating_chart.chart_png(series, {g: variant_name(g) for g in series})

    async def _share_record(self, interaction: discord.Interaction[Any], member: int) -> None:
        """A record drawn again in the server's language, chart and all, for the channel."""
        assert interaction.guild_id is not None
        name = await _member_name(interaction, member)
        with speaking(server_language(interaction)):
            shared = t("Shared by {player}", player=escape_name(interaction.user.display_name))
            embed, png = await self._record(interaction.guild_id, member, name)
        if png is None:
            data = answers.message_data(content=shared, embed=embed, components=[])
            await answers.respond(interaction, data)
            return
        embed.set_image(url=f"attachment://{rating_chart.FILE_NAME}")
        await interaction.response.send_message(content=shared, embed=embed, file=_chart_file(png))

    async def share(self, interaction: discord.Interaction[Any], control: ids.Share) -> None:
        """Post the private board page or record the button is on, for the channel to see,
        in the server's language: a board's pager (anyone may page it), without Share."""
        message = interaction.message
        custom_id, values = click_data(interaction)
        if message is None or not message.embeds or not issued(message, custom_id, values):
            await answers.reply(
                interaction,
                t("That button is no longer valid: run `/uno leaderboard` or `/uno stats` again."),
            )
            return
        if control.member is not None:
            await self._share_record(interaction, control.member)
            return
        rows: list[dict[str, Any]] = []
        for row in message.components:
            if isinstance(row, discord.ActionRow):
                kept = [
                    dict(c.to_dict())
                    for c in row.children
                    if not str(getattr(c, "custom_id", None)).startswith(ids.SHARE_ID)
                ]
                if kept:
                    rows.append({"type": 1, "components": kept})
        with speaking(server_language(interaction)):  # the shared message is the channel's
            shared = t("Shared by {player}", player=escape_name(interaction.user.display_name))
            board = _shown_page(message)
            if board is not None:  # a board page: drawn again in the server's language
                variant = VARIANTS.get(board.variant)
                if variant is not None:
                    data = await self._page_data(interaction, variant, board)
                    await answers.respond(interaction, {**data, "content": shared})
                    return
        data = answers.message_data(content=shared, embed=None, components=rows)
        data["embeds"] = [embed.to_dict() for embed in message.embeds]
        await answers.respond(interaction, data)


def _shown_page(message: discord.Message) -> ids.LeaderboardControl | None:
    """The board page a message shows, read from its pager (Next names the page after)."""
    pages = [
        control
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(
            control := ids.parse_custom_id(getattr(child, "custom_id", None) or ""),
            ids.LeaderboardControl,
        )
    ]
    if not pages:
        return None
    after = max(pages, key=lambda p: p.page)
    return ids.LeaderboardControl(after.variant, max(1, after.page - 1), after.by_rating)


def _share_button(custom_id: str = ids.SHARE_ID) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(
        label=t("Share"), custom_id=custom_id, style=discord.ButtonStyle.secondary, emoji="📢"
    )


def _chart_file(png: bytes) -> discord.File:
    return discord.File(io.BytesIO(png), filename=rating_chart.FILE_NAME)


async def _member_name(interaction: discord.Interaction[Any], member: int) -> str:
    """The name to title a shared record with: the sharer's own, the server's name for a
    member the bot has seen, else their Discord name (one request, only for this)."""
    if member == interaction.user.id:
        return interaction.user.display_name
    guild = interaction.guild
    known = guild.get_member(member) if guild is not None else None
    if known is not None:
        return known.display_name
    try:
        user: discord.User = await interaction.client.fetch_user(member)
    except discord.HTTPException:  # a deleted account: the record still has its matches
        return str(member)
    return user.display_name


def _with_share(data: dict[str, Any], custom_id: str = ids.SHARE_ID) -> dict[str, Any]:
    """A private answer's payload with the Share button in a row of its own."""
    share = ButtonSpec(
        label=t("Share"), custom_id=custom_id, style=discord.ButtonStyle.secondary, emoji="📢"
    )
    return {**data, "components": [*data.get("components", []), *payloads.rows([share])]}


def _board_data(interaction: discord.Interaction[Any], page: LeaderboardPage) -> dict[str, Any]:
    embed, specs = boards.leaderboard(
        page, guild_name=interaction.guild.name if interaction.guild else ""
    )
    return {"embeds": [embed.to_dict()], "components": payloads.rows(specs)}


async def rating_page(
    db: Database, *, guild_id: int, variant: Variant, page: int
) -> RatingBoardPage:
    """Page `page` of the board by skill; its last page if the board shrank meanwhile."""
    board = await db.ratings.leaderboard(
        guild_id=guild_id, variant=variant, page=page, min_played=MIN_RANKED
    )
    if board.page > board.pages:
        board = await db.ratings.leaderboard(
            guild_id=guild_id, variant=variant, page=board.pages, min_played=MIN_RANKED
        )
    return board


async def board_page(
    db: Database, *, guild_id: int, variant: Variant, page: int
) -> LeaderboardPage:
    """Page `page` of the board; its last page if the board shrank since the button was drawn."""
    board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=page)
    if board.page > board.pages:
        board = await db.scores.leaderboard(guild_id=guild_id, variant=variant, page=board.pages)
    return board
