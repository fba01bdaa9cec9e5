"""Words for cards, colours, names and events; fitting text into Discord's limits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import discord
from discord.utils import escape_markdown, escape_mentions

from cogs.uno.l10n import t
from cogs.uno.render.faces import card_emoji
from cogs.uno.render.specs import (
    COLOUR_EMOJI,
    COLOUR_VALUES,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_TITLE,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    FOOTER_TEXT,
    NAME_LIMIT,
    NEUTRAL,
    VARIANT_NAMES,
    WILD_EMOJI,
)
from engine.cards import Card, Colour, Face, hand_order
from engine.events import (
    CardGiven,
    CardPlayed,
    CardReturned,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    ColourDumped,
    CutForPlayerOne,
    DirectionChanged,
    DraftPicked,
    DrawnCardKept,
    DrawPileRefilled,
    DrawReason,
    DumpDeclined,
    Event,
    FirstCardTurned,
    HandsPassed,
    HandsShuffled,
    HandsSwapped,
    JumpedIn,
    MatchEnded,
    PlayerRemoved,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    TurnStarted,
    UnoCalled,
    UnoCaught,
    UnoExposed,
    VolleyRaised,
)


def colour_emoji(colour: Colour | None) -> str:
    """The square for a colour; black for a wild (no colour)."""
    return WILD_EMOJI if colour is None else COLOUR_EMOJI[colour]


def colour_value(colour: Colour | None) -> int:
    """The embed colour for an active colour; neutral for none."""
    return NEUTRAL if colour is None else COLOUR_VALUES[colour]


def colour_label(colour: Colour) -> str:
    return f"{colour_emoji(colour)} {colour.title}"


def card_label(card: Card, active_colour: Colour | None = None) -> str:
    """`🟥 Red 7`; a wild with its named colour: `⬛ Wild → 🟩 Green`.

    With the card emojis synced the square is the card's picture (a wild's showing
    the colour named); the words stay for screen readers and colour-blind players.
    """
    mark = card_emoji(card, active_colour) or colour_emoji(card.colour)
    text = f"{mark} {card_title(card)}"
    if card.is_wild and active_colour is not None:
        text += f" → {colour_label(active_colour)}"
    return text


def card_title(card: Card) -> str:
    """The card's name as players say it: a blank wild is played as a plain Wild."""
    if card.face is Face.WILD_CUSTOMIZABLE:
        return "Blank Wild (plays as a Wild)"
    return card.title


def variant_name(variant: str) -> str:
    return VARIANT_NAMES.get(variant, f"UNO {variant}")


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + "…"


def tidy_name(raw: str) -> str:
    """A display name on one line, within Discord's length, not escaped."""
    return clip(" ".join(raw.split()), NAME_LIMIT) or "Player"


def escape_name(raw: str) -> str:
    """A member-chosen display name, tidied, for text Discord renders as markdown.

    Embed titles, descriptions, field names and values and message content all
    render markdown and mentions: the name's `**`, `_`, `@everyone`, `<@id>` or
    `<#id>` must show as typed, never as markup, a ping or a link. Escape the
    name alone, once, where it goes into the text: the bot's own mentions around
    it stay mentions, and escaping twice would show backslashes. Footers, author
    lines, labels and placeholders render nothing: give them `tidy_name`.
    """
    escaped = escape_mentions(escape_markdown(tidy_name(raw)))
    return escaped.replace("<#", "<\u200b#")  # escape_mentions leaves channel links


def plain_name(names: Mapping[str, str], player: str) -> str:
    """A player's display name, tidied, not escaped (see `escape_name`)."""
    return tidy_name(names.get(player) or f"Player …{player[-4:]}")


def escaped_name(names: Mapping[str, str], player: str) -> str:
    """A player's display name for markdown text, without the bold of `name`."""
    return escape_name(plain_name(names, player))


def name(names: Mapping[str, str], player: str) -> str:
    """A player's display name in bold, escaped; never a mention."""
    return f"**{escaped_name(names, player)}**"


def plural(count: int, word: str) -> str:
    """`1 card`, `0 cards`, `2 cards`: every count a player reads goes through here."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _face_words(card: Card) -> str:
    """`7`, `Skip`, `Wild Draw 4`: the title without the colour."""
    if card.colour is None:
        return card_title(card)
    return card.title[len(card.colour.title) + 1 :]


def hand_lines(cards: Iterable[Card], *, bold: frozenset[Card] = frozenset()) -> list[str]:
    """One line per colour, identical cards grouped: `🟥 Red: 3, **7 ×2**, Skip`."""
    counts = Counter(cards)
    by_colour: dict[Colour | None, list[Card]] = {}
    for card in sorted(counts, key=hand_order):
        by_colour.setdefault(card.colour, []).append(card)
    lines = []
    for colour, group in by_colour.items():
        words = []
        for card in group:
            word = _face_words(card) + (f" ×{counts[card]}" if counts[card] > 1 else "")
            word = f"**{word}**" if card in bold else word
            picture = card_emoji(card)
            words.append(word if picture is None else f"{picture} {word}")
        heading = "Wilds" if colour is None else colour.title
        lines.append(f"{colour_emoji(colour)} {heading}: " + ", ".join(words))
    return lines


def fit_lines(lines: Sequence[str], limit: int, *, keep_last: bool = False) -> str:
    """Join whole lines within `limit`, ending (or starting) with how many were left out."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    ordered = list(reversed(lines)) if keep_last else list(lines)
    word = "earlier" if keep_last else "more"
    kept: list[str] = []
    for line in ordered:
        note = f"… {len(ordered) - len(kept) - 1} {word}"
        room = limit - len("\n".join([*kept, note])) - 1
        if len(line) > room:
            if not kept:  # one huge line: show what fits of it
                kept.append(clip(line, max(room, 0)))
            break
        kept.append(line)
    kept.append(f"… {len(ordered) - len(kept)} {word}")
    if keep_last:
        kept.reverse()
    return clip("\n".join(kept), limit)


def fit_items(items: Sequence[str], limit: int, *, sep: str = ", ") -> str:
    """Join items in order within `limit`, ending with `… +N more` when cut."""
    text = sep.join(items)
    if len(text) <= limit:
        return text
    for n in range(len(items) - 1, -1, -1):
        text = sep.join(items[:n]) + f"{sep if n else ''}… +{len(items) - n} more"
        if len(text) <= limit:
            return text
    return clip(plural(len(items), "card"), limit)


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip every part of `embed` to Discord's limits, longest parts first."""
    if embed.title is not None:
        embed.title = clip(str(embed.title), EMBED_TITLE)
    if embed.description is not None:
        embed.description = clip(str(embed.description), EMBED_DESCRIPTION)
    while len(embed.fields) > EMBED_FIELDS:
        embed.remove_field(EMBED_FIELDS)
    for i, field in enumerate(embed.fields):
        embed.set_field_at(
            i,
            name=clip(str(field.name or "\u200b"), FIELD_NAME) or "\u200b",
            value=clip(str(field.value or "\u200b"), FIELD_VALUE) or "\u200b",
            inline=bool(field.inline),
        )
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER_TEXT))
    while len(embed) > EMBED_TOTAL:
        excess = len(embed) - EMBED_TOTAL
        sizes = [(len(str(f.value)), i) for i, f in enumerate(embed.fields)]
        description = len(embed.description or "")
        longest, index = max(sizes, default=(0, -1))
        if description >= longest and description > 1:
            embed.description = clip(str(embed.description), max(description - excess, 1))
        elif longest > 1:
            field = embed.fields[index]
            embed.set_field_at(
                index,
                name=str(field.name),
                value=clip(str(field.value), max(longest - excess, 1)),
                inline=bool(field.inline),
            )
        else:
            embed.set_footer(text=None)
            embed.title = clip(str(embed.title or ""), max(len(embed.title or "") - excess, 1))
            break
    return embed


_DRAW_REASONS: Final = {
    DrawReason.TURN: "",
    DrawReason.VOLLEY: " (volley)",
    DrawReason.DRAW_ONE: " (Draw One)",
    DrawReason.DRAW_TWO: " (Draw 2)",
    DrawReason.WILD_DRAW: " (wild draw)",
    DrawReason.CHALLENGE: " (challenge)",
    DrawReason.UNO_PENALTY: " (UNO penalty)",
    DrawReason.DIP: " (Dip Into The Deck)",
    DrawReason.FIRST_CARD: " (first card)",
}
_LIST_CARDS: Final = 12  # a dump longer than this is summarised


def describe_event(
    event: Event, names: Mapping[str, str], *, variant: str | None = None
) -> str | None:
    """One line of words for the table log; None for events not worth a line."""
    describe = _DESCRIBERS.get(type(event))
    return None if describe is None else describe(event, names, variant)


def _round_started(event: RoundStarted, n: Mapping[str, str], variant: str | None) -> str:
    if variant == "duo":
        return f"Round {event.round} starts: {name(n, event.first)} plays first"
    if variant in ("pizza", "classic"):
        return (
            f"Round {event.round} starts: {name(n, event.dealer)} deals, "
            f"{name(n, event.first)} plays first"
        )
    return f"Round {event.round} starts: {name(n, event.first)} plays first"


def _cut(event: CutForPlayerOne, n: Mapping[str, str], _: str | None) -> str:
    cuts = ", ".join(f"{name(n, p)} {card_label(c)}" for p, c in event.cuts)
    return f"Cut: {cuts}; {name(n, event.winner)} cut highest"


def _draft(event: DraftPicked, n: Mapping[str, str], _: str | None) -> str:
    who = name(n, event.player)
    if event.kept:
        if event.shown is None:
            return f"{who} kept a draft card"
        return f"{who} kept a draft card; {card_label(event.shown)} goes face up"
    if event.shown is None:
        return f"{who} rejected a draft card and must keep the next"
    return f"{who} rejected {card_label(event.shown)} and must keep the next card"


def _drawn(event: CardsDrawn, n: Mapping[str, str], _: str | None) -> str:
    who = name(n, event.player)
    reason = _DRAW_REASONS.get(event.reason, "")
    if event.count <= 0:
        return f"{who} had nothing left to draw{reason}"
    what = "a card" if event.count == 1 else f"{event.count} cards"
    return f"{who} drew {what}{reason}"


def _dumped(event: ColourDumped, n: Mapping[str, str], _: str | None) -> str:
    labels = [card_label(c) for c in event.cards]
    if len(labels) > _LIST_CARDS:
        shown = ", ".join(labels[:3]) + f", … {len(labels) - 4} more, " + labels[-1]
    else:
        shown = ", ".join(labels)
    return f"{name(n, event.player)} dumped {plural(len(labels), 'card')}: {shown}"


def _match_ended(event: MatchEnded, n: Mapping[str, str], _: str | None) -> str:
    text = f"Match over: {name(n, event.winner)} wins"
    if event.forfeited:
        text += " (" + ", ".join(name(n, p) for p in event.forfeited) + " forfeited)"
    return text


def _direction(event: DirectionChanged) -> str:
    if event.clockwise:
        return "Play now goes clockwise ↻ (seat order)"
    return "Play now goes counter-clockwise ↺"


def _volley(event: VolleyRaised, n: Mapping[str, str]) -> str:
    if event.total <= 2:  # the first Draw 2 starts the volley: nothing is stacked yet
        return f"{name(n, event.player)} plays a Draw 2: {name(n, event.target)} owes 2"
    # D7 stacks Draw 2s, H1 Wild Draw 4s too: the card played is on the line before.
    return t(
        "{player} stacks it: {target} now owes {total}",
        player=name(n, event.player),
        target=name(n, event.target),
        total=event.total,
    )


def _challenge(event: ChallengeResolved, n: Mapping[str, str]) -> str:
    verdict = "the play was legitimate" if event.legitimate else "it was a bluff"
    return f"{name(n, event.challenger)} challenged {name(n, event.challenged)}: {verdict}"


Describer = Callable[[Any, Mapping[str, str], "str | None"], "str | None"]
_DESCRIBERS: dict[type[Event], Describer] = {
    RoundStarted: _round_started,
    CutForPlayerOne: _cut,
    DraftPicked: _draft,
    FirstCardTurned: lambda e, n, v: f"First card: {card_label(e.card)}",
    CardReturned: lambda e, n, v: f"{card_label(e.card)} turned up first goes back into the deck",
    CardPlayed: lambda e, n, v: f"{name(n, e.player)} played {card_label(e.card)}",
    ColourChosen: lambda e, n, v: f"{name(n, e.player)} named {colour_label(e.colour)}",
    CardsDrawn: _drawn,
    DrawnCardKept: lambda e, n, v: f"{name(n, e.player)} kept the drawn card",
    TurnSkipped: lambda e, n, v: f"{name(n, e.player)} is skipped",
    DirectionChanged: lambda e, n, v: _direction(e),
    VolleyRaised: lambda e, n, v: _volley(e, n),
    ChallengeResolved: lambda e, n, v: _challenge(e, n),
    ColourDumped: _dumped,
    DumpDeclined: lambda e, n, v: f"{name(n, e.player)} chose not to dump",
    CardGiven: lambda e, n, v: f"{name(n, e.giver)} gave a card to {name(n, e.receiver)}",
    HandsSwapped: lambda e, n, v: t(
        "{player} swapped hands with {other}", player=name(n, e.player), other=name(n, e.other)
    ),
    HandsPassed: lambda e, n, v: t(
        "{player} played a 0: every hand passed to the next player", player=name(n, e.player)
    ),
    JumpedIn: lambda e, n, v: t("{player} jumped in!", player=name(n, e.player)),
    HandsShuffled: lambda e, n, v: (
        f"{name(n, e.player)} shuffled the hands together and dealt them again"
    ),
    DrawPileRefilled: lambda e, n, v: (
        f"The discard pile became the new draw pile ({plural(e.size, 'card')})"
    ),
    UnoExposed: lambda e, n, v: f"{name(n, e.player)} has one card and hasn't called UNO!",
    UnoCalled: lambda e, n, v: f"{name(n, e.player)} called UNO!",
    UnoCaught: lambda e, n, v: (
        f"{name(n, e.player)} was caught by {name(n, e.catcher)} without calling UNO and draws 2"
    ),
    TurnStarted: lambda e, n, v: None,  # the table shows whose turn it is
    PlayerRemoved: lambda e, n, v: f"{name(n, e.player)} left the table (forfeit)",
    RoundEnded: lambda e, n, v: _describe_round(e, n),
    MatchEnded: _match_ended,
}


def _describe_round(event: RoundEnded, names: Mapping[str, str]) -> str:
    points = dict(event.points)
    won = points.get(event.winner, 0)
    if won > 0:  # Pizza: the winner scores the other hands
        return f"Round {event.round}: {name(names, event.winner)} wins {plural(won, 'point')}"
    others = ", ".join(
        f"{name(names, p)} +{pts}" for p, pts in event.points if p != event.winner and pts
    )
    text = f"Round {event.round}: {name(names, event.winner)} went out"
    return f"{text}; {others}" if others else text
