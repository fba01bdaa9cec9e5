"""Round and match summaries, and the short rules of `/uno rules`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import discord

from cogs.uno.render.specs import COLOUR_VALUES, CONTENT_LIMIT, EMBED_DESCRIPTION, NEUTRAL
from cogs.uno.render.words import (
    clip,
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
        rule = "D14: the player who went out scores 0; the other scores their hand."
    else:
        rule = "P11: the round winner scores the cards left in every other hand."
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
    rule = "the lower total wins (D14)" if lower_wins else "the first to the target wins (P11)"
    embed = discord.Embed(
        title=f"{variant_name(variant)}: {escaped_name(names, event.winner)} wins the match",
        description=fit_lines(lines, EMBED_DESCRIPTION - 80) + f"\n\nScoring: {rule}.",
        colour=COLOUR_VALUES[Colour.YELLOW],
    )
    return fit_embed(embed)


_RULES: Final = {
    "duo": "\n".join(
        (
            "**UNO Duo**: 2 players, 112 cards (D1).",
            "**D2** Both cut; the higher number is Player 1. Roles swap every round.",
            "**D3** No deal: draft 7 cards each. Look at the top card privately: keep it (the"
            " next goes face up on the draft pile) or reject it (it goes face up) and keep "
            "the next one.",
            "**D4** Player 2 goes first and carries out the first card's action.",
            "**D5** On your turn play a matching card or any wild, or draw one. A matching "
            "drawn card may be played at once.",
            "**D6** Skip: you play again.",
            "**D7** Draw 2 volley: stack a Draw 2 or take the running total.",
            "**D8** Wild Draw 4: name a colour; the opponent challenges or accepts (draws 4),"
            " then you play again.",
            "**D9** After a Reverse you may dump every other card of its colour; only the "
            "last one laid acts.",
            "**D10** Challenge a Wild Draw 4: a bluff costs its player 4; a fair play costs you 6.",
            "**D11** Call UNO when your play leaves you one card (or with the play). Caught "
            "first: draw 2.",
            "**D12** Empty draw pile: the discard pile (but its top card) becomes the draw pile.",
            "**D13/D14** Out of cards ends the round; the other player scores their hand "
            "(numbers face value, actions 10, wilds 15, Wild Draw 4 scores 20). "
            "Whoever reaches the target (200 by default) **loses**; the lower total wins.",
            "**X3** Leaving a match is a forfeit.",
        )
    ),
    "pizza": "\n".join(
        (
            "**UNO Pocket Pizza Pizza**: 2–5 players, 51 cards (P1).",
            "**P2** 5 cards each; the dealer moves left each round; the player left of the "
            "dealer starts.",
            "**P3** The first card acts on the first player (a Wild Draw 2 or Dip goes back "
            "into the deck).",
            "**P4** On your turn play a matching card or any wild, or draw one (always "
            "allowed). A matching drawn card may be played at once.",
            "**P5** Skip: the next player loses the turn. Reverse: the direction changes (a "
            "Skip with 2 players). Draw One: the next player draws 1 and loses the turn. No "
            "stacking.",
            "**P6** Wild: name a colour. Wild Draw 2: name a colour; the next player draws 2 "
            "and loses the turn, or challenges. Dip Into The Deck: name a colour, draw one, "
            "then give any card to the next player.",
            "**P7** Challenge a Wild Draw 2: a bluff costs its player 2; a fair play costs "
            "you 4 and your turn.",
            "**P8** Call UNO when you play your second-to-last card. Caught first: draw 2.",
            "**P9** Empty draw pile: the discard pile (but its top card) is shuffled into a "
            "new one.",
            "**P10/P11** Out of cards wins the round and scores every other hand (numbers "
            "face value, actions 20, wilds 50). The first to the target (250 by default) wins.",
            "**X3** Leaving a match is a forfeit.",
        )
    ),
    "classic": "\n".join(
        (
            "**Classic UNO**: 2–10 players, 108 cards: numbers, Skip, Reverse and Draw 2 in "
            "four colours, Wild and Wild Draw 4.",
            "**Deal:** 7 cards each; the dealer moves left each round; the player left of the "
            "dealer starts. The first card acts on the first player (a Wild Draw 4 goes back "
            "into the deck).",
            "**Your turn:** play a card that matches the colour, number or symbol, or any "
            "wild; or draw one (always allowed). A matching drawn card may be played at once.",
            "**Skip:** the next player loses the turn. **Reverse:** the direction changes (a "
            "Skip with 2 players). **Draw 2:** the next player draws 2 and loses the turn. No "
            "stacking.",
            "**Wild:** name a colour. **Wild Draw 4:** only when you hold no card of the "
            "colour in play (bluffing is allowed); the next player draws 4 and loses the turn, "
            "or challenges.",
            "**Challenge:** if the Wild Draw 4 was played while holding a card of the colour "
            "in play, its player draws 4; if it was fair, you draw 6 and lose your turn.",
            "**UNO:** call it when you play your second-to-last card. Caught before the next "
            "player plays or draws: draw 2.",
            "**Empty draw pile:** the discard pile (but its top card) is shuffled into a new one.",
            "**Scoring:** out of cards wins the round and scores every other hand (numbers face "
            "value, Skip, Reverse and Draw 2 20, wilds 50). The first to the target (500 by "
            "default) wins.",
            "Leaving a match is a forfeit.",
        )
    ),
}


def rules_text(variant: str) -> str:
    """A short private summary of a variant's rules, quoting rule ids."""
    try:
        return clip(_RULES[variant], CONTENT_LIMIT)
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}") from None
