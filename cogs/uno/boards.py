"""Leaderboard and stats embeds (pure functions of the db models)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import discord

from cogs.uno import ids
from cogs.uno.render import ButtonSpec, escape_name, plural, variant_name
from db.models import LeaderboardPage, MemberStats, Outcome

GOLD = 0xF1C40F
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
# How a member's recent match ended, as they would say it ("forfeited vs bob").
OUTCOME_WORDS: Final[Mapping[Outcome, str]] = {
    "won": "won",
    "lost": "lost",
    "forfeit": "forfeited",
}


def leaderboard(
    page: LeaderboardPage, *, guild_name: str
) -> tuple[discord.Embed, list[ButtonSpec]]:
    """One page of the board, with previous / next buttons."""
    title = f"{variant_name(page.variant)} leaderboard"
    embed = discord.Embed(title=title[:256], colour=GOLD)
    if guild_name:
        embed.set_author(name=guild_name[:256])
    points = "conceded" if page.variant == "duo" else "scored"
    lines = []
    for entry in page.entries:
        s = entry.stats
        medal = MEDALS.get(entry.place, f"**{entry.place}.**")
        lines.append(
            f"{medal} **{escape_name(s.display_name)}** — {s.won} won of "
            f"{s.played} ({s.win_rate:.0%}), streak {s.current_streak} (best {s.best_streak}), "
            f"{plural(s.points, 'point')} {points}"
        )
    embed.description = "\n".join(lines)[:4096] or "No finished matches here yet. Be the first!"
    embed.set_footer(text=f"Page {page.page} of {page.pages} · {plural(page.total, 'player')}")
    specs = [
        ButtonSpec(
            label="◀ Previous",
            custom_id=ids.leaderboard_custom_id(page.variant, max(1, page.page - 1)),
            style=discord.ButtonStyle.secondary,
            emoji=None,
            disabled=page.page <= 1,
            row=0,
        ),
        ButtonSpec(
            label="Next ▶",
            custom_id=ids.leaderboard_custom_id(page.variant, page.page + 1),
            style=discord.ButtonStyle.secondary,
            emoji=None,
            disabled=page.page >= page.pages,
            row=0,
        ),
    ]
    return embed, specs


def stats(name: str, records: Mapping[str, MemberStats | None]) -> discord.Embed:
    """A member's record in each variant with their latest matches."""
    embed = discord.Embed(title=f"{escape_name(name)} — UNO record", colour=GOLD)
    for variant, record in records.items():
        if record is None:
            embed.add_field(
                name=variant_name(variant), value="No finished match yet.", inline=False
            )
            continue
        s = record.stats
        points = "conceded" if variant == "duo" else "scored"
        lines = [
            f"{s.played} played · {s.won} won · {s.lost} lost ({plural(s.forfeits, 'forfeit')}) · "
            f"{s.win_rate:.0%} won",
            f"{plural(s.rounds_won, 'round')} won · {plural(s.points, 'point')} {points}",
            f"streak {s.current_streak} · best {s.best_streak}",
        ]
        for recent in record.recent:
            against = ", ".join(escape_name(seat.display_name) for seat in recent.opponents)
            lines.append(
                f"• <t:{int(recent.ended_at.timestamp())}:d> {OUTCOME_WORDS[recent.outcome]} "
                f"vs {against} ({plural(recent.score, 'pt')}, place {recent.place})"
            )
        embed.add_field(name=variant_name(variant), value="\n".join(lines)[:1024], inline=False)
    return embed
