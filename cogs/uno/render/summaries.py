"""Round and match summaries."""

from __future__ import annotations

from collections.abc import Mapping

import discord

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
        rule = "The player who went out scores 0; the other scores the cards left in their hand."
    else:
        rule = "The round winner scores the cards left in every other hand."
    embed = discord.Embed(
        title=f"Round {event.round}: {escaped_name(names, event.winner)} went out",
        description=f"{describe_event(event, names)}\n{rule}",
        colour=NEUTRAL,
    )
    for player, total in event.scores:
        left = hands.get(player, ())
        cards = fit_lines(hand_lines(left), 700) if left else "No cards left."
        value = f"{cards}\n+{plural(points.get(player, 0), 'point')} · total **{total}**"
        won = player == event.winner
        title = escaped_name(names, player) + (" 🏆" if won else "")
        status = "went out" if won and not left else f"{plural(len(left), 'card')} left"
        embed.add_field(name=f"{title} · {status}", value=value, inline=False)
    return fit_embed(embed)


def match_summary(event: MatchEnded, names: Mapping[str, str], variant: str) -> discord.Embed:
    """The end of the match: the winner and the final standings."""
    lower_wins = variant == "duo"  # D14: reaching the target loses
    ordered = sorted(event.scores, key=lambda ps: ps[1], reverse=not lower_wins)
    ordered.sort(key=lambda ps: ps[0] != event.winner)  # stable: the winner first
    lines = []
    for place, (player, total) in enumerate(ordered, start=1):
        mark = "🏆" if player == event.winner else f"{place}."
        left = " (forfeited)" if player in event.forfeited else ""
        lines.append(f"{mark} {name(names, player)} · {plural(total, 'point')}{left}")
    rule = "the lower total wins" if lower_wins else "the first to the target wins"
    embed = discord.Embed(
        title=f"{variant_name(variant)}: {escaped_name(names, event.winner)} wins the match",
        description=fit_lines(lines, EMBED_DESCRIPTION - 80) + f"\n\nScoring: {rule}.",
        colour=COLOUR_VALUES[Colour.YELLOW],
    )
    return fit_embed(embed)
