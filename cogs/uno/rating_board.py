"""The leaderboard by skill rating, and a member's rating, in plain words (pure)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.uno import ids
from cogs.uno.boards import GOLD, MEDALS
from cogs.uno.render import ButtonSpec, escape_name, plural, variant_name
from db.models import Rating, RatingBoardPage, RatingEntry

UNRANKED_SHOWN = 15  # names listed as "not ranked yet"; the rest are counted
EXPLAINED = (
    "Skill is a cautious estimate of how well you play: it rises as you beat "
    "strong players and settles as you play more."
)


def skill(value: float) -> str:
    """A rating as players read it ("skill 24.1")."""
    return f"skill {value:.1f}"


def rating_words(rating: Rating | None, *, min_played: int = 5) -> str:
    """A member's rating in one line, saying when it counts on the board."""
    if rating is None:
        return "no rated match yet"
    words = skill(rating.conservative)
    if rating.matches < min_played:
        return f"{words} · not ranked yet ({rating.matches} of {min_played} matches)"
    return words


def leaderboard(
    page: RatingBoardPage, unranked: Sequence[RatingEntry], *, guild_name: str
) -> tuple[discord.Embed, list[ButtonSpec]]:
    """One page of the board by skill, members still short of matches below it."""
    embed = discord.Embed(title=f"{variant_name(page.variant)} leaderboard", colour=GOLD)
    if guild_name:
        embed.set_author(name=guild_name[:256])
    points = "conceded" if page.variant == "duo" else "scored"
    lines = [
        f"{MEDALS.get(e.place, f'**{e.place}.**')} **{escape_name(e.display_name)}** — "
        f"{skill(e.conservative)} · {e.won} won of {e.played} played · "
        f"{plural(e.points, 'point')} {points}"
        for e in page.entries
    ]
    empty = f"Nobody has played {page.min_played} matches here yet: the board starts then."
    embed.description = "\n".join(lines)[:4096] or empty
    if unranked:
        shown = [
            f"{escape_name(e.display_name)} ({e.played} of {page.min_played} matches)"
            for e in unranked[:UNRANKED_SHOWN]
        ]
        more = len(unranked) - len(shown)
        text = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
        embed.add_field(name="Not ranked yet", value=text[:1024], inline=False)
    embed.set_footer(
        text=f"{EXPLAINED} Page {page.page} of {page.pages} · {plural(page.total, 'ranked player')}"
    )
    return embed, _pager(page)


def _pager(page: RatingBoardPage) -> list[ButtonSpec]:
    def button(label: str, number: int, disabled: bool) -> ButtonSpec:
        return ButtonSpec(
            label=label,
            custom_id=ids.rating_custom_id(page.variant, number),
            style=discord.ButtonStyle.secondary,
            emoji=None,
            disabled=disabled,
            row=0,
        )

    return [
        button("◀ Previous", max(1, page.page - 1), page.page <= 1),
        button("Next ▶", page.page + 1, page.page >= page.pages),
    ]
