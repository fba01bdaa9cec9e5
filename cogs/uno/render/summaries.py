"""Round and match summaries."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from cogs.uno.i18n.l10n import t, tn
from cogs.uno.render.specs import COLOUR_VALUES, EMBED_DESCRIPTION, NEUTRAL
from cogs.uno.render.words import (
    describe_event,
    escaped_name,
    fit_embed,
    fit_lines,
    hand_lines,
    name,
    plural,
    variant_name,
)
from engine.cards import Colour
from engine.events import (
    MatchEnded,
    RoundEnded,
)


def round_summary(event: RoundEnded, names: Mapping[str, str], variant: str) -> discord.Embed:
    """The end of a round: cards left per player in words, points, totals."""
    points = dict(event.points)
    hands = dict(event.hands)
    if variant == "duo":
        rule = t("The player who went out scores 0; the other scores the cards left in their hand.")
    else:
        rule = t("The round winner scores the cards left in every other hand.")
    embed = discord.Embed(
        title=t(
            "Round {round}: {winner} went out",
            round=event.round,
            winner=escaped_name(names, event.winner),
        ),
        description=f"{describe_event(event, names)}\n{rule}",
        colour=NEUTRAL,
    )
    for player, total in event.scores:
        left = hands.get(player, ())
        cards = fit_lines(hand_lines(left), 700) if left else t("No cards left.")
        scored = tn(
            "+{count} point · total **{total}**",
            "+{count} points · total **{total}**",
            points.get(player, 0),
            total=total,
        )
        value = f"{cards}\n{scored}"
        won = player == event.winner
        title = escaped_name(names, player) + (" 🏆" if won else "")
        if won and not left:
            status = t("went out")
        else:
            status = tn("{count} card left", "{count} cards left", len(left))
        embed.add_field(name=f"{title} · {status}", value=value, inline=False)
    return fit_embed(embed)


def match_summary(
    event: MatchEnded, names: Mapping[str, str], variant: str, *, match_id: int | None = None
) -> discord.Embed:
    """The end of the match: the winner and the final standings (and the match's number,
    which `/uno replay` takes)."""
    lower_wins = variant == "duo"  # D14: reaching the target loses
    ordered = sorted(event.scores, key=lambda ps: ps[1], reverse=not lower_wins)
    ordered.sort(key=lambda ps: ps[0] != event.winner)  # stable: the winner first
    lines = []
    for place, (player, total) in enumerate(ordered, start=1):
        mark = "🏆" if player == event.winner else f"{place}."
        left = " " + t("(forfeited)") if player in event.forfeited else ""
        lines.append(f"{mark} {name(names, player)} · {plural(total, 'point')}{left}")
    if lower_wins:
        rule = t("Scoring: the lower total wins.")
    else:
        rule = t("Scoring: the first to the target wins.")
    embed = discord.Embed(
        title=t(
            "{game}: {winner} wins the match",
            game=variant_name(variant),
            winner=escaped_name(names, event.winner),
        ),
        description=fit_lines(lines, EMBED_DESCRIPTION - 80) + f"\n\n{rule}",
        colour=COLOUR_VALUES[Colour.YELLOW],
    )
    if match_id is not None:
        embed.set_footer(text=t("Match {match} · /uno replay to watch it again", match=match_id))
    return fit_embed(embed)
