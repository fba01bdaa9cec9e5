"""Words for cards, colours, names and events; fitting text into Discord's limits."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

import discord
from discord.utils import escape_markdown, escape_mentions

from cogs.uno.i18n.l10n import N_, language, t, tn
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


COLOUR_NAMES: Final = {
    Colour.RED: N_("Red"),
    Colour.YELLOW: N_("Yellow"),
    Colour.GREEN: N_("Green"),
    Colour.BLUE: N_("Blue"),
}
# Translators: a colour's cards, as in "dump your Red cards".
COLOUR_CARDS: Final = {
    Colour.RED: N_("Red cards"),
    Colour.YELLOW: N_("Yellow cards"),
    Colour.GREEN: N_("Green cards"),
    Colour.BLUE: N_("Blue cards"),
}
FACE_NAMES: Final = {
    Face.SKIP: N_("Skip"),
    Face.REVERSE: N_("Reverse"),
    Face.DRAW_TWO: N_("Draw 2"),
    Face.DRAW_ONE: N_("Draw One"),
    Face.WILD: N_("Wild"),
    Face.WILD_DRAW_FOUR: N_("Wild Draw 4"),
    Face.WILD_DRAW_TWO: N_("Wild Draw 2"),
    Face.WILD_DIP: N_("Wild Dip Into The Deck"),
    Face.WILD_SHUFFLE_HANDS: N_("Wild Shuffle Hands"),
    Face.WILD_CUSTOMIZABLE: N_("Wild Customizable"),
}


def colour_name(colour: Colour) -> str:
    """`Red`, in the language spoken."""
    return t(COLOUR_NAMES[colour])


def colour_label(colour: Colour) -> str:
    return f"{colour_emoji(colour)} {colour_name(colour)}"


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
    key = (card, language())
    title = _TITLES.get(key)
    if title is None:
        if len(_TITLES) >= _TITLES_KEPT:  # only a card outside every deck gets here often
            _TITLES.clear()
        title = _TITLES[key] = _card_title(card)
    return title


# Every panel names most of a hand's cards: each name is looked up and formatted once
# per language (a deck has 54 kinds of card, two languages).
_TITLES: Final[dict[tuple[Card, str], str]] = {}
_TITLES_KEPT: Final = 1024


def _card_title(card: Card) -> str:
    if card.face is Face.WILD_CUSTOMIZABLE:
        return t("Blank Wild (plays as a Wild)")
    face = face_title(card)
    if card.colour is None:
        return face
    # Translators: a card's name, "Red 7", "Blue Skip".
    return t("{colour} {face}", colour=colour_name(card.colour), face=face)


def face_title(card: Card) -> str:
    """`7`, `Skip`, `Wild Draw 4`: the card's name without its colour."""
    words = FACE_NAMES.get(card.face)
    return card.face.value if words is None else t(words)


def variant_name(variant: str) -> str:
    known = VARIANT_NAMES.get(variant)
    return f"UNO {variant}" if known is None else t(known)


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + "…"


def tidy_name(raw: str) -> str:
    """A display name on one line, within Discord's length, not escaped."""
    return _tidy(raw) or t("Player")


@lru_cache(maxsize=4096)
def _tidy(raw: str) -> str:
    """Tidied once per name: a table's names are drawn on every panel and table edit."""
    return clip(" ".join(raw.split()), NAME_LIMIT)


def escape_name(raw: str) -> str:
    """A member-chosen display name, tidied, for text Discord renders as markdown.

    Embed titles, descriptions, field names and values and message content all
    render markdown and mentions: the name's `**`, `_`, `@everyone`, `<@id>` or
    `<#id>` must show as typed, never as markup, a ping or a link. Escape the
    name alone, once, where it goes into the text: the bot's own mentions around
    it stay mentions, and escaping twice would show backslashes. Footers, author
    lines, labels and placeholders render nothing: give them `tidy_name`.
    """
    return _escaped(tidy_name(raw))


@lru_cache(maxsize=4096)
def _escaped(tidy: str) -> str:
    """Escaping runs several regular expressions; a table's few names are drawn on every
    panel and table edit, so each is escaped once (language-free: the tidied name)."""
    escaped = escape_mentions(escape_markdown(tidy))
    return escaped.replace("<#", "<\u200b#")  # escape_mentions leaves channel links


STRENGTH_WORDS: Final = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
_COMPUTER: Final = re.compile(r"Computer \((\w+)\)")


def seat_name(raw: str, *, number: int | None = None) -> str:
    """A seat's stored name as players read it: a computer's ("Computer (hard)", as
    stored) in the language spoken; a member's as they chose it.

    `number`: the computer seat's number, given when a table has more than one, so
    the seats, the last moves and the summaries tell them apart.
    """
    found = _COMPUTER.fullmatch(raw)
    if found is None or found[1] not in STRENGTH_WORDS:
        return raw
    strength = t(STRENGTH_WORDS[found[1]])
    if number is None:
        return t("Computer ({strength})", strength=strength)
    return t("Computer {number} ({strength})", number=number, strength=strength)


def computer_number(players: Iterable[str | int], player: str | int) -> int | None:
    """A computer seat's number among `players` (a table's or lobby's seats), or None
    when it is the only computer there. The number is its seat id, stored with the
    table, so it stays the same after a restart."""
    if not _computer_id(player):
        return None
    computers = sum(1 for p in players if _computer_id(p))
    return int(player) if computers > 1 else None


def _computer_id(player: str | int) -> bool:
    text = str(player)
    return len(text) == 1 and text.isdigit()  # computers: ids 1-9


def plain_name(names: Mapping[str, str], player: str) -> str:
    """A player's display name, tidied, not escaped (see `escape_name`)."""
    raw = names.get(player)
    if not raw:
        return tidy_name(t("Player …{digits}", digits=player[-4:]))
    if len(player) != 1:  # a member; computers have ids 1-9
        return tidy_name(raw)
    return tidy_name(seat_name(raw, number=computer_number(names, player)))


def escaped_name(names: Mapping[str, str], player: str) -> str:
    """A player's display name for markdown text, without the bold of `name`."""
    return escape_name(plain_name(names, player))


def name(names: Mapping[str, str], player: str) -> str:
    """A player's display name in bold, escaped; never a mention."""
    return f"**{escaped_name(names, player)}**"


_COUNTED: Final[dict[str, Callable[[int], str]]] = {
    "card": lambda n: tn("{count} card", "{count} cards", n),
    "pt": lambda n: tn("{count} pt", "{count} pts", n),
    "point": lambda n: tn("{count} point", "{count} points", n),
    "player": lambda n: tn("{count} player", "{count} players", n),
    "match": lambda n: tn("{count} match", "{count} matches", n),
    "win": lambda n: tn("{count} win", "{count} wins", n),
    "past game": lambda n: tn("{count} past game", "{count} past games", n),
    "round": lambda n: tn("{count} round", "{count} rounds", n),
    "turn": lambda n: tn("{count} turn", "{count} turns", n),
    "game": lambda n: tn("{count} game", "{count} games", n),
}


def plural(count: int, word: str) -> str:
    """`1 card`, `0 cards`, `2 cards`, in the language spoken (the catalogue's plural
    forms). New text says `tn("{count} card", "{count} cards", n)` itself."""
    counted = _COUNTED.get(word)
    if counted is not None:
        return counted(count)
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _face_words(card: Card) -> str:
    """`7`, `Skip`, `Wild Draw 4`: the title without the colour."""
    if card.colour is None:
        return card_title(card)
    return face_title(card)


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
        heading = t("Wilds") if colour is None else colour_name(colour)
        lines.append(f"{colour_emoji(colour)} {heading}: " + ", ".join(words))
    return lines


def fit_lines(lines: Sequence[str], limit: int, *, keep_last: bool = False) -> str:
    """Join whole lines within `limit`, ending (or starting) with how many were left out."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    ordered = list(reversed(lines)) if keep_last else list(lines)
    kept: list[str] = []
    for line in ordered:
        note = _left_out(len(ordered) - len(kept) - 1, earlier=keep_last)
        room = limit - len("\n".join([*kept, note])) - 1
        if len(line) > room:
            if not kept:  # one huge line: show what fits of it
                kept.append(clip(line, max(room, 0)))
            break
        kept.append(line)
    kept.append(_left_out(len(ordered) - len(kept), earlier=keep_last))
    if keep_last:
        kept.reverse()
    return clip("\n".join(kept), limit)


def _left_out(count: int, *, earlier: bool) -> str:
    if earlier:
        return t("… {count} earlier", count=count)
    return t("… {count} more", count=count)


def fit_items(items: Sequence[str], limit: int, *, sep: str = ", ") -> str:
    """Join items in order within `limit`, ending with `… +N more` when cut."""
    text = sep.join(items)
    if len(text) <= limit:
        return text
    for n in range(len(items) - 1, -1, -1):
        more = t("… +{count} more", count=len(items) - n)
        text = sep.join(items[:n]) + f"{sep if n else ''}{more}"
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
        name = clip(str(field.name or "\u200b"), FIELD_NAME) or "\u200b"
        value = clip(str(field.value or "\u200b"), FIELD_VALUE) or "\u200b"
        if name != field.name or value != field.value or not isinstance(field.inline, bool):
            embed.set_field_at(i, name=name, value=value, inline=bool(field.inline))
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
    DrawReason.VOLLEY: N_("volley"),
    DrawReason.DRAW_ONE: N_("Draw One"),
    DrawReason.DRAW_TWO: N_("Draw 2"),
    DrawReason.WILD_DRAW: N_("wild draw"),
    DrawReason.CHALLENGE: N_("challenge"),
    DrawReason.UNO_PENALTY: N_("UNO penalty"),
    DrawReason.DIP: N_("Dip Into The Deck"),
    DrawReason.FIRST_CARD: N_("first card"),
}
_LIST_CARDS: Final = 12  # a dump longer than this is summarised


def describe_event(
    event: Event, names: Mapping[str, str], *, variant: str | None = None
) -> str | None:
    """One line of words for the table log; None for events not worth a line."""
    describe = _DESCRIBERS.get(type(event))
    return None if describe is None else describe(event, names, variant)


def _round_started(event: RoundStarted, n: Mapping[str, str], variant: str | None) -> str:
    if variant in ("pizza", "classic"):
        return t(
            "Round {round} starts: {dealer} deals, {first} plays first",
            round=event.round,
            dealer=name(n, event.dealer),
            first=name(n, event.first),
        )
    # Duo (D2, D3): the round opens with the draft; who plays first matters only after
    # it, and the table says whose turn it is then.
    return t(
        "Round {round} starts with the draft: {drafter} picks first",
        round=event.round,
        drafter=name(n, event.dealer),
    )


def _cut(event: CutForPlayerOne, n: Mapping[str, str], _: str | None) -> str:
    cuts = ", ".join(f"{name(n, p)} {card_label(c)}" for p, c in event.cuts)
    return t("Cut: {cuts}; {winner} cut highest", cuts=cuts, winner=name(n, event.winner))


def _draft(event: DraftPicked, n: Mapping[str, str], _: str | None) -> str:
    who = name(n, event.player)
    if event.kept:
        if event.shown is None:
            return t("{player} kept a draft card", player=who)
        return t(
            "{player} kept a draft card; {card} goes face up",
            player=who,
            card=card_label(event.shown),
        )
    if event.shown is None:
        return t("{player} rejected a draft card and must keep the next", player=who)
    return t(
        "{player} rejected {card} and must keep the next card",
        player=who,
        card=card_label(event.shown),
    )


def _drawn(event: CardsDrawn, n: Mapping[str, str], _: str | None) -> str:
    who = name(n, event.player)
    reason = _DRAW_REASONS.get(event.reason)
    if event.count <= 0:
        text = t("{player} had nothing left to draw", player=who)
    else:
        text = tn("{player} drew a card", "{player} drew {count} cards", event.count, player=who)
    return text if reason is None else f"{text} ({t(reason)})"


def _dumped(event: ColourDumped, n: Mapping[str, str], _: str | None) -> str:
    labels = [card_label(c) for c in event.cards]
    if len(labels) > _LIST_CARDS:
        more = t("… {count} more", count=len(labels) - 4)
        shown = ", ".join(labels[:3]) + f", {more}, " + labels[-1]
    else:
        shown = ", ".join(labels)
    return tn(
        "{player} dumped {count} card: {cards}",
        "{player} dumped {count} cards: {cards}",
        len(labels),
        player=name(n, event.player),
        cards=shown,
    )


def _match_ended(event: MatchEnded, n: Mapping[str, str], _: str | None) -> str:
    winner = name(n, event.winner)
    if event.forfeited:
        return t(
            "Match over: {winner} wins ({players} forfeited)",
            winner=winner,
            players=", ".join(name(n, p) for p in event.forfeited),
        )
    return t("Match over: {winner} wins", winner=winner)


def _direction(event: DirectionChanged) -> str:
    if event.clockwise:
        return t("Play now goes clockwise ↻ (seat order)")
    return t("Play now goes counter-clockwise ↺")


def _volley(event: VolleyRaised, n: Mapping[str, str]) -> str:
    who, target = name(n, event.player), name(n, event.target)
    if event.total <= 2:  # the first Draw 2 starts the volley: nothing is stacked yet
        return t("{player} plays a Draw 2: {target} owes 2", player=who, target=target)
    # D7 stacks Draw 2s, H1 Wild Draw 4s too: the card played is on the line before.
    return t(
        "{player} stacks it: {target} now owes {total}",
        player=who,
        target=target,
        total=event.total,
    )


def _challenge(event: ChallengeResolved, n: Mapping[str, str]) -> str:
    who, whom = name(n, event.challenger), name(n, event.challenged)
    if event.legitimate:
        return t("{player} challenged {target}: the play was legitimate", player=who, target=whom)
    return t("{player} challenged {target}: it was a bluff", player=who, target=whom)


Describer = Callable[[Any, Mapping[str, str], "str | None"], "str | None"]
_DESCRIBERS: dict[type[Event], Describer] = {
    RoundStarted: _round_started,
    CutForPlayerOne: _cut,
    DraftPicked: _draft,
    FirstCardTurned: lambda e, n, v: t("First card: {card}", card=card_label(e.card)),
    CardReturned: lambda e, n, v: t(
        "{card} turned up first goes back into the deck", card=card_label(e.card)
    ),
    CardPlayed: lambda e, n, v: t(
        "{player} played {card}", player=name(n, e.player), card=card_label(e.card)
    ),
    ColourChosen: lambda e, n, v: t(
        "{player} named {colour}", player=name(n, e.player), colour=colour_label(e.colour)
    ),
    CardsDrawn: _drawn,
    DrawnCardKept: lambda e, n, v: t("{player} kept the drawn card", player=name(n, e.player)),
    TurnSkipped: lambda e, n, v: t("{player} is skipped", player=name(n, e.player)),
    DirectionChanged: lambda e, n, v: _direction(e),
    VolleyRaised: lambda e, n, v: _volley(e, n),
    ChallengeResolved: lambda e, n, v: _challenge(e, n),
    ColourDumped: _dumped,
    DumpDeclined: lambda e, n, v: t("{player} chose not to dump", player=name(n, e.player)),
    CardGiven: lambda e, n, v: t(
        "{player} gave a card to {target}", player=name(n, e.giver), target=name(n, e.receiver)
    ),
    HandsSwapped: lambda e, n, v: t(
        "{player} swapped hands with {other}", player=name(n, e.player), other=name(n, e.other)
    ),
    HandsPassed: lambda e, n, v: t(
        "{player} played a 0: every hand passed to the next player", player=name(n, e.player)
    ),
    JumpedIn: lambda e, n, v: t("{player} jumped in!", player=name(n, e.player)),
    HandsShuffled: lambda e, n, v: t(
        "{player} shuffled the hands together and dealt them again", player=name(n, e.player)
    ),
    DrawPileRefilled: lambda e, n, v: tn(
        "The discard pile became the new draw pile ({count} card)",
        "The discard pile became the new draw pile ({count} cards)",
        e.size,
    ),
    UnoExposed: lambda e, n, v: t(
        "{player} has one card and hasn't called UNO!", player=name(n, e.player)
    ),
    UnoCalled: lambda e, n, v: t("{player} called UNO!", player=name(n, e.player)),
    UnoCaught: lambda e, n, v: t(
        "{player} was caught by {catcher} without calling UNO and draws 2",
        player=name(n, e.player),
        catcher=name(n, e.catcher),
    ),
    TurnStarted: lambda e, n, v: None,  # the table shows whose turn it is
    PlayerRemoved: lambda e, n, v: t("{player} left the table (forfeit)", player=name(n, e.player)),
    RoundEnded: lambda e, n, v: _describe_round(e, n),
    MatchEnded: _match_ended,
}


def _describe_round(event: RoundEnded, names: Mapping[str, str]) -> str:
    points = dict(event.points)
    won = points.get(event.winner, 0)
    winner = name(names, event.winner)
    if won > 0:  # Pizza: the winner scores the other hands
        return tn(
            "Round {round}: {winner} wins {count} point",
            "Round {round}: {winner} wins {count} points",
            won,
            round=event.round,
            winner=winner,
        )
    others = ", ".join(
        f"{name(names, p)} +{pts}" for p, pts in event.points if p != event.winner and pts
    )
    text = t("Round {round}: {winner} went out", round=event.round, winner=winner)
    return f"{text}; {others}" if others else text
