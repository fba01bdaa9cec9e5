"""Leaderboard and stats embeds (pure functions of the db models)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

import discord

from cogs.uno import ids
from cogs.uno.i18n.l10n import N_, t, tn
from cogs.uno.render import ButtonSpec, escape_name, plural, variant_name
from db.models import LeaderboardPage, MemberStats, Outcome

GOLD = 0xF1C40F
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
# How a member's recent match ended, as they would say it ("forfeited vs bob").
OUTCOME_WORDS: Final[Mapping[Outcome, str]] = {
    "won": N_("won vs {players}"),
    "lost": N_("lost vs {players}"),
    "forfeit": N_("forfeited vs {players}"),
}


def points_words(variant: str, points: int) -> str:
    """`120 points conceded` (Duo: points lose) or `120 points scored`."""
    if variant == "duo":
        return tn("{count} point conceded", "{count} points conceded", points)
    return tn("{count} point scored", "{count} points scored", points)


def pager(page: int, pages: int, custom_id: Callable[[int], str]) -> list[ButtonSpec]:
    """The Previous / Next buttons of a board's page."""

    def button(label: str, number: int, disabled: bool) -> ButtonSpec:
        return ButtonSpec(
            label=label,
            custom_id=custom_id(number),
            style=discord.ButtonStyle.secondary,
            emoji=None,
            disabled=disabled,
            row=0,
        )

    return [
        button(t("◀ Previous"), max(1, page - 1), page <= 1),
        button(t("Next ▶"), page + 1, page >= pages),
    ]


def leaderboard(
    page: LeaderboardPage, *, guild_name: str
) -> tuple[discord.Embed, list[ButtonSpec]]:
    """One page of the board, with previous / next buttons."""
    title = t("{game} leaderboard", game=variant_name(page.variant))
    embed = discord.Embed(title=title[:256], colour=GOLD)
    if guild_name:
        embed.set_author(name=guild_name[:256])
    lines = []
    for entry in page.entries:
        s = entry.stats
        medal = MEDALS.get(entry.place, f"**{entry.place}.**")
        record = t(
            "{won} won of {played} ({rate}), streak {streak} (best {best})",
            won=s.won,
            played=s.played,
            rate=format(s.win_rate, ".0%"),
            streak=s.current_streak,
            best=s.best_streak,
        )
        points = points_words(page.variant, s.points)
        lines.append(f"{medal} **{escape_name(s.display_name)}** — {record}, {points}")
    embed.description = "\n".join(lines)[:4096] or t("No finished matches here yet. Be the first!")
    embed.set_footer(
        text=t("Page {page} of {pages}", page=page.page, pages=page.pages)
        + f" · {plural(page.total, 'player')}"
    )
    specs = pager(page.page, page.pages, lambda n: ids.leaderboard_custom_id(page.variant, n))
    return embed, specs


def stats(
    name: str, records: Mapping[str, MemberStats | None], *, practice: bool = False
) -> discord.Embed:
    """A member's record in each variant with their latest matches.

    `practice`: they played the computer, which no record counts (shown apart).
    """
    embed = discord.Embed(title=t("{player} — UNO record", player=escape_name(name)), colour=GOLD)
    empty = (
        t("No scored match yet: games against the computer are practice.")
        if practice
        else t("No finished match yet.")
    )
    for variant, record in records.items():
        if record is None:
            embed.add_field(name=variant_name(variant), value=empty, inline=False)
            continue
        s = record.stats
        lines = [
            t(
                "{played} played · {won} won · {lost} lost ({forfeits}) · {rate} won",
                played=s.played,
                won=s.won,
                lost=s.lost,
                forfeits=tn("{count} forfeit", "{count} forfeits", s.forfeits),
                rate=format(s.win_rate, ".0%"),
            ),
            tn("{count} round won", "{count} rounds won", s.rounds_won)
            + " · "
            + points_words(variant, s.points),
            t("streak {streak} · best {best}", streak=s.current_streak, best=s.best_streak),
        ]
        for recent in record.recent:
            against = ", ".join(escape_name(seat.display_name) for seat in recent.opponents)
            outcome = t(OUTCOME_WORDS[recent.outcome], players=against)
            place = t("place {place}", place=recent.place)
            lines.append(
                f"• <t:{int(recent.ended_at.timestamp())}:d> {outcome} "
                f"({plural(recent.score, 'pt')}, {place})"
            )
        embed.add_field(name=variant_name(variant), value="\n".join(lines)[:1024], inline=False)
    return embed
