"""The leaderboard by skill rating, and a member's rating, in plain words (pure)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.uno import ids
from cogs.uno.boards.embeds import GOLD, MEDALS, pager, points_words
from cogs.uno.i18n.l10n import N_, t, tn
from cogs.uno.render import ButtonSpec, escape_name, variant_name
from db.models import Rating, RatingBoardPage, RatingEntry

UNRANKED_SHOWN = 15  # names listed as "not ranked yet"; the rest are counted
EXPLAINED = N_(
    "Skill is a cautious estimate of how well you play: it rises as you beat "
    "strong players and settles as you play more."
)


def skill(value: float) -> str:
    """A rating as players read it ("skill 24.1")."""
    shown = f"{value:.1f}"
    return t("skill {value}", value=shown)


def rating_words(rating: Rating | None, *, min_played: int = 5) -> str:
    """A member's rating in one line, saying when it counts on the board."""
    if rating is None:
        return t("no rated match yet")
    words = skill(rating.conservative)
    if rating.matches < min_played:
        return t(
            "{skill} · not ranked yet ({count} of {limit} matches)",
            skill=words,
            count=rating.matches,
            limit=min_played,
        )
    return words


def leaderboard(
    page: RatingBoardPage, unranked: Sequence[RatingEntry], *, guild_name: str
) -> tuple[discord.Embed, list[ButtonSpec]]:
    """One page of the board by skill, members still short of matches below it."""
    title = t("{game} leaderboard", game=variant_name(page.variant))
    embed = discord.Embed(title=title, colour=GOLD)
    if guild_name:
        embed.set_author(name=guild_name[:256])
    lines = [
        f"{MEDALS.get(e.place, f'**{e.place}.**')} **{escape_name(e.display_name)}** — "
        + t(
            "{skill} · {won} won of {played} played · {points}",
            skill=skill(e.conservative),
            won=e.won,
            played=e.played,
            points=points_words(page.variant, e.points),
        )
        for e in page.entries
    ]
    empty = t(
        "Nobody has played {count} matches here yet: the board starts then.",
        count=page.min_played,
    )
    embed.description = "\n".join(lines)[:4096] or empty
    if unranked:
        shown = [
            t(
                "{player} ({count} of {limit} matches)",
                player=escape_name(e.display_name),
                count=e.played,
                limit=page.min_played,
            )
            for e in unranked[:UNRANKED_SHOWN]
        ]
        more = len(unranked) - len(shown)
        text = ", ".join(shown)
        if more > 0:
            text = t("{players} and {count} more", players=text, count=more)
        embed.add_field(name=t("Not ranked yet"), value=text[:1024], inline=False)
    ranked = tn("{count} ranked player", "{count} ranked players", page.total)
    embed.set_footer(
        text=t(EXPLAINED)
        + " "
        + t("Page {page} of {pages}", page=page.page, pages=page.pages)
        + f" · {ranked}"
    )
    return embed, pager(page.page, page.pages, lambda n: ids.rating_custom_id(page.variant, n))
