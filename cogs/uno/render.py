"""Pure functions from engine views and events to what Discord is sent.

No I/O and no state: the table manager passes a `PublicView` / `PrivateView`
and a name lookup (player id -> display name) and gets back embeds and
component specs, which `cogs.uno.views` turns into `discord.ui` items. Every
result stays within Discord's limits whatever the size of the hands.

Cards always carry words as well as a colour square (🟥 Red 7), so
colour-blind players and screen readers lose nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import discord
from discord.utils import escape_markdown

from cogs.uno import ids
from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    Give,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    TakeVolley,
)
from engine.cards import Card, Colour, hand_order
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
    HandsShuffled,
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
from engine.views import Pending, Phase, PrivateView, PublicView

# Discord's limits (https://discord.com/developers/docs/resources/message).
CONTENT_LIMIT: Final = 2000
EMBED_TITLE: Final = 256
EMBED_DESCRIPTION: Final = 4096
EMBED_FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER_TEXT: Final = 2048
EMBED_TOTAL: Final = 6000
ROWS: Final = 5
ROW_BUTTONS: Final = 5
SELECT_OPTIONS: Final = 25
BUTTON_LABEL: Final = 80
OPTION_LABEL: Final = 100
OPTION_VALUE: Final = 100
OPTION_DESCRIPTION: Final = 100
PLACEHOLDER: Final = 150

NAME_LIMIT: Final = 32  # Discord display names are at most 32 characters
LOG_LINES: Final = 8  # events shown on the table

NEUTRAL: Final = 0x2B2D31
_COLOUR_VALUES: Final = {
    Colour.RED: 0xD72600,
    Colour.YELLOW: 0xECD407,
    Colour.GREEN: 0x379711,
    Colour.BLUE: 0x0956BF,
}
_COLOUR_EMOJI: Final = {
    Colour.RED: "🟥",
    Colour.YELLOW: "🟨",
    Colour.GREEN: "🟩",
    Colour.BLUE: "🟦",
}
WILD_EMOJI: Final = "⬛"
VARIANT_NAMES: Final = {"duo": "UNO Duo", "pizza": "UNO Pocket Pizza Pizza"}


# ---------------------------------------------------------------- specs


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    label: str
    custom_id: str
    style: discord.ButtonStyle
    emoji: str | None = None
    disabled: bool = False
    row: int = 0


@dataclass(frozen=True, slots=True)
class OptionSpec:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None


@dataclass(frozen=True, slots=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[OptionSpec, ...]
    row: int


Component = ButtonSpec | SelectSpec


@dataclass(frozen=True, slots=True)
class HandPanel:
    content: str
    embed: discord.Embed | None
    components: list[Component]


# ---------------------------------------------------------------- words


def colour_emoji(colour: Colour | None) -> str:
    """The square for a colour; black for a wild (no colour)."""
    return WILD_EMOJI if colour is None else _COLOUR_EMOJI[colour]


def colour_value(colour: Colour | None) -> int:
    """The embed colour for an active colour; neutral for none."""
    return NEUTRAL if colour is None else _COLOUR_VALUES[colour]


def colour_label(colour: Colour) -> str:
    return f"{colour_emoji(colour)} {colour.title}"


def card_label(card: Card, active_colour: Colour | None = None) -> str:
    """`🟥 Red 7`; a wild with its named colour: `⬛ Wild → 🟩 Green`."""
    text = f"{colour_emoji(card.colour)} {card.title}"
    if card.is_wild and active_colour is not None:
        text += f" → {colour_label(active_colour)}"
    return text


def variant_name(variant: str) -> str:
    return VARIANT_NAMES.get(variant, f"UNO {variant}")


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + "…"


def plain_name(names: Mapping[str, str], player: str) -> str:
    """A display name without markdown, for titles and labels."""
    raw = names.get(player) or f"Player …{player[-4:]}"
    return clip(" ".join(raw.split()), NAME_LIMIT) or "Player"


def name(names: Mapping[str, str], player: str) -> str:
    """A display name in bold, markdown escaped; never a mention."""
    return f"**{escape_markdown(plain_name(names, player))}**"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _face_words(card: Card) -> str:
    """`7`, `Skip`, `Wild Draw 4`: the title without the colour."""
    if card.colour is None:
        return card.title
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
            words.append(f"**{word}**" if card in bold else word)
        heading = "Wilds" if colour is None else colour.title
        lines.append(f"{colour_emoji(colour)} {heading}: " + ", ".join(words))
    return lines


def _fit_lines(lines: Sequence[str], limit: int, *, keep_last: bool = False) -> str:
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


def _fit_items(items: Sequence[str], limit: int, *, sep: str = ", ") -> str:
    """Join items in order within `limit`, ending with `… +N more` when cut."""
    text = sep.join(items)
    if len(text) <= limit:
        return text
    for n in range(len(items) - 1, -1, -1):
        text = sep.join(items[:n]) + f"{sep if n else ''}… +{len(items) - n} more"
        if len(text) <= limit:
            return text
    return clip(f"{len(items)} cards", limit)


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


# ---------------------------------------------------------------- events

_DRAW_REASONS: Final = {
    DrawReason.TURN: "",
    DrawReason.VOLLEY: " (volley)",
    DrawReason.DRAW_ONE: " (Draw One)",
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
    n = names
    if isinstance(event, RoundStarted):
        if variant == "duo":
            return (
                f"Round {event.round} starts: {name(n, event.dealer)} is Player 1, "
                f"{name(n, event.first)} plays first"
            )
        if variant == "pizza":
            return (
                f"Round {event.round} starts: {name(n, event.dealer)} deals, "
                f"{name(n, event.first)} plays first"
            )
        return f"Round {event.round} starts: {name(n, event.first)} plays first"
    if isinstance(event, CutForPlayerOne):
        cuts = ", ".join(f"{name(n, p)} {card_label(c)}" for p, c in event.cuts)
        return f"Cut for Player 1: {cuts}; {name(n, event.winner)} is Player 1"
    if isinstance(event, DraftPicked):
        who = name(n, event.player)
        if event.kept:
            if event.shown is None:
                return f"{who} kept a draft card"
            return f"{who} kept a draft card; {card_label(event.shown)} goes face up"
        if event.shown is None:
            return f"{who} rejected a draft card and must keep the next"
        return f"{who} rejected {card_label(event.shown)} and must keep the next card"
    if isinstance(event, FirstCardTurned):
        return f"First card: {card_label(event.card)}"
    if isinstance(event, CardReturned):
        return f"{card_label(event.card)} turned up first goes back into the deck"
    if isinstance(event, CardPlayed):
        return f"{name(n, event.player)} played {card_label(event.card)}"
    if isinstance(event, ColourChosen):
        return f"{name(n, event.player)} named {colour_label(event.colour)}"
    if isinstance(event, CardsDrawn):
        who = name(n, event.player)
        reason = _DRAW_REASONS.get(event.reason, "")
        if event.count <= 0:
            return f"{who} had nothing left to draw{reason}"
        what = "a card" if event.count == 1 else f"{event.count} cards"
        return f"{who} drew {what}{reason}"
    if isinstance(event, DrawnCardKept):
        return f"{name(n, event.player)} kept the drawn card"
    if isinstance(event, TurnSkipped):
        return f"{name(n, event.player)} is skipped"
    if isinstance(event, DirectionChanged):
        if event.clockwise:
            return "Play now goes clockwise ↻ (seat order)"
        return "Play now goes counter-clockwise ↺"
    if isinstance(event, VolleyRaised):
        return (
            f"{name(n, event.player)} stacks a Draw 2: "
            f"{name(n, event.target)} now owes {event.total}"
        )
    if isinstance(event, ChallengeResolved):
        verdict = "the play was legitimate" if event.legitimate else "it was a bluff"
        return f"{name(n, event.challenger)} challenged {name(n, event.challenged)}: {verdict}"
    if isinstance(event, ColourDumped):
        labels = [card_label(c) for c in event.cards]
        if len(labels) > _LIST_CARDS:
            shown = ", ".join(labels[:3]) + f", … {len(labels) - 4} more, " + labels[-1]
        else:
            shown = ", ".join(labels)
        return f"{name(n, event.player)} dumped {_plural(len(labels), 'card')}: {shown}"
    if isinstance(event, DumpDeclined):
        return f"{name(n, event.player)} chose not to dump"
    if isinstance(event, CardGiven):
        return f"{name(n, event.giver)} gave a card to {name(n, event.receiver)}"
    if isinstance(event, HandsShuffled):
        return f"{name(n, event.player)} shuffled the hands together and dealt them again"
    if isinstance(event, DrawPileRefilled):
        return f"The discard pile became the new draw pile ({_plural(event.size, 'card')})"
    if isinstance(event, UnoExposed):
        return f"{name(n, event.player)} has one card and hasn't called UNO!"
    if isinstance(event, UnoCalled):
        return f"{name(n, event.player)} called UNO!"
    if isinstance(event, UnoCaught):
        return (
            f"{name(n, event.player)} was caught by {name(n, event.catcher)} "
            "without calling UNO and draws 2"
        )
    if isinstance(event, TurnStarted):
        return None  # the table shows whose turn it is
    if isinstance(event, PlayerRemoved):
        return f"{name(n, event.player)} left the table (forfeit)"
    if isinstance(event, RoundEnded):
        return _describe_round(event, n)
    if isinstance(event, MatchEnded):
        text = f"Match over: {name(n, event.winner)} wins"
        if event.forfeited:
            text += " (" + ", ".join(name(n, p) for p in event.forfeited) + " forfeited)"
        return text
    return None


def _describe_round(event: RoundEnded, names: Mapping[str, str]) -> str:
    points = dict(event.points)
    won = points.get(event.winner, 0)
    if won > 0:  # Pizza: the winner scores the other hands
        return f"Round {event.round}: {name(names, event.winner)} wins {won} points"
    others = ", ".join(
        f"{name(names, p)} +{pts}" for p, pts in event.points if p != event.winner and pts
    )
    text = f"Round {event.round}: {name(names, event.winner)} went out"
    return f"{text}; {others}" if others else text


# ---------------------------------------------------------------- table


def named_colour(view: PublicView) -> Colour | None:
    """The colour in force, None while a wild on top still waits for its colour.

    (A view may still carry the previous colour then; showing it would mislead.)
    """
    if view.pending is Pending.COLOUR and view.top is not None and view.top.is_wild:
        return None
    return view.active_colour


def _deadline(deadline: datetime | None) -> str:
    return "" if deadline is None else f" · <t:{int(deadline.timestamp())}:R>"


def _target_words(view: PublicView) -> str:
    if view.variant == "duo":
        return f"Match to {view.target}: whoever reaches it loses, the lower total wins (D14)"
    return f"Match to {view.target}: the first to reach it wins (P11)"


def _pending_words(view: PublicView, names: Mapping[str, str]) -> str:
    """Whose decision the match waits for, and what it is, in words."""
    if view.phase is Phase.MATCH_OVER:
        if view.winner is None:
            return "The match is over."
        return f"🏆 {name(names, view.winner)} wins the match."
    if view.to_act is None:
        return "Waiting…"
    who = name(names, view.to_act)
    colour = named_colour(view)
    colour_words = f"{colour_label(colour)} " if colour is not None else ""
    pending = view.pending
    if pending is Pending.DRAFT_PICK:
        return f"{who} is looking at a draft card: keep or reject (D3)"
    if pending is Pending.DRAFT_FORCED:
        return f"{who} must keep the next draft card (D3)"
    if pending is Pending.DRAWN_CARD:
        return f"{who} drew a card: play it or keep it"
    if pending is Pending.COLOUR:
        return f"{who} is naming a colour"
    if pending is Pending.VOLLEY:
        return f"Draw 2 volley: {who} owes {view.pending_draw}: stack a Draw 2 or take them (D7)"
    if pending is Pending.WILD_DRAW:
        rule = "D10" if view.variant == "duo" else "P7"
        return f"{who} is hit by a wild draw of {view.pending_draw}: challenge or accept ({rule})"
    if pending is Pending.DUMP:
        return f"{who} may dump every {colour_words}card, or keep them (D9)"
    if pending is Pending.REVERSE_DUMP:
        return f"{who} may dump every {colour_words}card, or take a normal turn (D9)"
    if pending is Pending.GIVE:
        return f"{who} is choosing a card to give to the next player (P6)"
    if view.phase is Phase.DRAFT:
        return f"{who} is drafting (D3)"
    return f"{who} to play"


def _seat_line(view: PublicView, seat_index: int, names: Mapping[str, str]) -> str:
    seat = view.seats[seat_index]
    if not seat.seated:
        return f"~~{escape_markdown(plain_name(names, seat.player))}~~ left · {seat.score} pts"
    marker = "▶ " if seat.player == view.to_act else ""
    parts = [
        f"{marker}{name(names, seat.player)}",
        _plural(seat.cards, "card"),
        f"{seat.score} pts",
    ]
    if view.dealer == seat.player:
        parts.append("Player 1" if view.variant == "duo" else "dealer")
    if seat.exposed:
        parts.append("⚠️ hasn't called UNO")
    return " · ".join(parts)


def table_embed(
    view: PublicView,
    *,
    names: Mapping[str, str],
    table_id: int,
    deadline: datetime | None,
    title: str | None = None,
) -> discord.Embed:
    """The table message: the whole public state of the match in words."""
    heading = title or f"{variant_name(view.variant)} · Round {view.round}"
    lines = []
    if view.top is not None:
        lines.append(f"**Top card:** {card_label(view.top, named_colour(view))}")
    elif view.phase is Phase.DRAFT:
        lines.append("**Draft:** each player picks 7 cards (D3)")
    colour = named_colour(view)
    # A wild's named colour is in its label already; say the colour when it differs.
    if colour is not None and (view.top is None or view.top.colour not in (None, colour)):
        lines.append(f"**Colour:** {colour_label(colour)}")
    turn = _pending_words(view, names)
    if view.phase is not Phase.MATCH_OVER:
        turn += _deadline(deadline)
    lines.append(turn)
    if view.variant == "pizza":
        arrow = "↻ clockwise" if view.clockwise else "↺ counter-clockwise"
        dealer = f" · Dealer: {name(names, view.dealer)}" if view.dealer else ""
        lines.append(f"**Direction:** {arrow}{dealer}")
    lines.append(_target_words(view))

    embed = discord.Embed(
        title=heading,
        description="\n".join(lines),
        colour=colour_value(named_colour(view)),
    )
    seats = [_seat_line(view, i, names) for i in range(len(view.seats))]
    embed.add_field(name="Players", value=_fit_lines(seats, FIELD_VALUE), inline=False)
    if view.phase is Phase.DRAFT and view.draft_pile:
        labels = [card_label(c) for c in view.draft_pile]
        embed.add_field(
            name=f"Draft pile, oldest first ({len(labels)})",
            value=_fit_items(labels, FIELD_VALUE),
            inline=False,
        )
    log = [
        line
        for line in (describe_event(e, names, variant=view.variant) for e in view.recent)
        if line is not None
    ][-LOG_LINES:]
    if log:
        embed.add_field(
            name="Last moves", value=_fit_lines(log, FIELD_VALUE, keep_last=True), inline=False
        )
    embed.set_footer(
        text=f"Table {table_id} · draw pile {view.draw_pile} · discard pile {view.discard_pile}"
    )
    return fit_embed(embed)


def table_components(view: PublicView, *, table_id: int) -> list[ButtonSpec]:
    """The table message's buttons: Hand and UNO!. They never go stale (ANY_VERSION)."""
    over = view.phase is Phase.MATCH_OVER
    return [
        ButtonSpec(
            label="Hand",
            custom_id=ids.table_custom_id(table_id, ids.ANY_VERSION, ids.HAND),
            style=discord.ButtonStyle.primary,
            emoji="🃏",
            disabled=over,
            row=0,
        ),
        ButtonSpec(
            label="UNO!",
            custom_id=ids.table_custom_id(table_id, ids.ANY_VERSION, ids.UNO),
            style=discord.ButtonStyle.danger,
            emoji="📣",
            disabled=over,
            row=0,
        ),
    ]


# ---------------------------------------------------------------- hand panel


@dataclass(frozen=True, slots=True)
class _Choice:
    """One card decision, drawable as a button or as a select option."""

    action: Action
    label: str  # words without the emoji
    emoji: str
    style: discord.ButtonStyle
    description: str | None


_COLOUR_STYLES: Final = {
    Colour.RED: discord.ButtonStyle.danger,
    Colour.YELLOW: discord.ButtonStyle.secondary,
    Colour.GREEN: discord.ButtonStyle.success,
    Colour.BLUE: discord.ButtonStyle.primary,
}
_GROUPS: Final = (("dump", "Dump the colour…"), ("give", "Give a card…"), ("play", "Play a card…"))


def _card_choices(
    legal: Sequence[Action], private: PrivateView, *, drawn_only: bool
) -> dict[str, list[_Choice]]:
    counts = Counter(private.hand)
    plays = sorted(
        (a for a in legal if isinstance(a, Play)), key=lambda a: (hand_order(a.card), a.uno)
    )
    dumps = sorted(
        (a for a in legal if isinstance(a, Dump)), key=lambda a: (hand_order(a.last), a.uno)
    )
    gives = sorted((a for a in legal if isinstance(a, Give)), key=lambda a: hand_order(a.card))
    secondary = discord.ButtonStyle.secondary
    success = discord.ButtonStyle.success
    groups: dict[str, list[_Choice]] = {"dump": [], "give": [], "play": []}
    for play in plays:
        card = play.card
        count = counts.get(card, 0)
        label = card.title + (f" ×{count}" if count > 1 else "")
        description = None
        if drawn_only:  # D5/P4: only the card just drawn may be played
            label = f"Play {label}"
            description = "The card you just drew"
        if play.uno:
            label += " + UNO!"
            description = "Play it and call UNO at once"
        emoji = colour_emoji(card.colour)
        groups["play"].append(
            _Choice(play, label, emoji, success if play.uno else secondary, description)
        )
    for dump in dumps:
        last = dump.last
        colour = last.colour
        same = sum(k for c, k in counts.items() if c.colour is colour and colour is not None)
        label = f"Dump, {last.title} last" + (" + UNO!" if dump.uno else "")
        description = f"Lay all {same} {colour.title if colour else ''} cards; the last one acts"
        groups["dump"].append(
            _Choice(
                dump, label, colour_emoji(colour), success if dump.uno else secondary, description
            )
        )
    for give in gives:
        card = give.card
        groups["give"].append(
            _Choice(give, f"Give {card.title}", colour_emoji(card.colour), secondary, None)
        )
    return {kind: choices for kind, choices in groups.items() if choices}


@dataclass(frozen=True, slots=True)
class _Control:
    """A decision without a card: one button."""

    code: str
    label: str
    style: discord.ButtonStyle
    emoji: str | None


def _controls(legal: Sequence[Action], private: PrivateView, public: PublicView) -> list[_Control]:
    """The decisions without a card, in a fixed order."""
    present = {type(a) for a in legal}
    style = discord.ButtonStyle
    owed = public.pending_draw

    def control(action: Action, label: str, kind: discord.ButtonStyle, emoji: str | None) -> None:
        out.append(_Control(ids.encode_action(action), label, kind, emoji))

    out: list[_Control] = []
    if KeepCard in present:
        looked = private.looking_at
        label = "Keep" if looked is None else f"Keep {looked.title}"
        if RejectCard not in present:
            label += " (you must)"
        control(
            KeepCard(),
            label,
            style.success,
            None if looked is None else colour_emoji(looked.colour),
        )
    if RejectCard in present:
        control(RejectCard(), "Reject (keep the next)", style.danger, "↩️")
    if Draw in present:
        empty = public.draw_pile == 0 and public.discard_pile <= 1
        control(Draw(), "Pass (nothing to draw)" if empty else "Draw a card", style.primary, "📥")
    if KeepDrawn in present:
        control(KeepDrawn(), "Keep the drawn card", style.secondary, "✋")
    if TakeVolley in present:
        label = f"Take {_plural(owed, 'card')}" if owed else "Take the volley"
        control(TakeVolley(), label, style.danger, "📥")
    if Challenge in present:
        control(Challenge(), "Challenge", style.danger, "⚖️")
    if Accept in present:
        control(Accept(), f"Accept, draw {owed}" if owed else "Accept", style.secondary, "📥")
    if NoDump in present:
        control(NoDump(), "Don't dump", style.secondary, "✋")
    if CallUno in present:
        control(CallUno(), "Call UNO!", style.success, "📣")
    if CatchUno in present:
        control(CatchUno(), "Catch UNO!", style.danger, "🎯")
    return out


def _rows(count: int, per_row: int) -> int:
    return math.ceil(count / per_row)


def _layout(
    *,
    colours: Sequence[ChooseColour],
    groups: dict[str, list[_Choice]],
    controls: list[_Control],
    table_id: int,
    version: int,
    page: int,
) -> tuple[list[Component], str | None]:
    """Arrange the panel: colours on top, then card choices, the other decisions last.

    Card choices are buttons while they fit in the rows left; the biggest group
    becomes a select (25 options a row) until everything fits; past that, the
    choices are paged with a `pg.{n}` button. Returns the components and a note.
    """
    as_select: set[str] = set()

    def rows_needed() -> int:
        return sum(
            _rows(len(c), SELECT_OPTIONS if k in as_select else ROW_BUTTONS)
            for k, c in groups.items()
        )

    free = ROWS - (1 if colours else 0) - _rows(len(controls), ROW_BUTTONS)
    while rows_needed() > free and len(as_select) < len(groups):
        as_select.add(max((k for k in groups if k not in as_select), key=lambda k: len(groups[k])))

    components: list[Component] = []
    row = 0

    def add_select(choices: Sequence[_Choice], placeholder: str) -> None:
        nonlocal row
        code = ids.select_code(sum(isinstance(c, SelectSpec) for c in components))
        components.append(
            SelectSpec(
                custom_id=ids.table_custom_id(table_id, version, code),
                placeholder=clip(placeholder, PLACEHOLDER),
                options=tuple(_option(c) for c in choices),
                row=row,
            )
        )
        row += 1

    if colours:
        for choose in colours[:ROW_BUTTONS]:
            components.append(
                ButtonSpec(
                    label=choose.colour.title,
                    custom_id=ids.table_custom_id(table_id, version, ids.encode_action(choose)),
                    style=_COLOUR_STYLES[choose.colour],
                    emoji=colour_emoji(choose.colour),
                    row=row,
                )
            )
        row += 1

    note = None
    controls = list(controls)
    if rows_needed() <= free:
        for kind, placeholder in _GROUPS:
            choices = groups.get(kind, [])
            step = SELECT_OPTIONS if kind in as_select else ROW_BUTTONS
            for start in range(0, len(choices), step):
                chunk = choices[start : start + step]
                if kind in as_select:
                    add_select(chunk, placeholder)
                    continue
                for choice in chunk:
                    components.append(_button(choice, table_id=table_id, version=version, row=row))
                row += 1
    else:
        # More choices than the rows left hold even as selects: page through them.
        flat = [c for kind, _ in _GROUPS for c in groups.get(kind, [])]
        free = ROWS - (1 if colours else 0) - _rows(len(controls) + 1, ROW_BUTTONS)
        per_page = max(free, 1) * SELECT_OPTIONS
        pages = _rows(len(flat), per_page)
        page %= pages
        shown = flat[page * per_page : (page + 1) * per_page]
        for start in range(0, len(shown), SELECT_OPTIONS):
            add_select(shown[start : start + SELECT_OPTIONS], f"Choose… (page {page + 1}/{pages})")
        label = f"More choices ({page + 1}/{pages})"
        controls.append(
            _Control(ids.page_code((page + 1) % pages), label, discord.ButtonStyle.primary, "➡️")
        )
        note = f"More choices than fit one panel: page {page + 1} of {pages}; press More."

    for start in range(0, len(controls), ROW_BUTTONS):
        for item in controls[start : start + ROW_BUTTONS]:
            components.append(
                ButtonSpec(
                    label=clip(item.label, BUTTON_LABEL),
                    custom_id=ids.table_custom_id(table_id, version, item.code),
                    style=item.style,
                    emoji=item.emoji,
                    row=row,
                )
            )
        row += 1
    return components, note


def _button(choice: _Choice, *, table_id: int, version: int, row: int) -> ButtonSpec:
    return ButtonSpec(
        label=clip(choice.label, BUTTON_LABEL),
        custom_id=ids.table_custom_id(table_id, version, ids.encode_action(choice.action)),
        style=choice.style,
        emoji=choice.emoji,
        row=row,
    )


def _option(choice: _Choice) -> OptionSpec:
    description = choice.description
    return OptionSpec(
        label=clip(choice.label, OPTION_LABEL),
        value=ids.encode_action(choice.action),
        description=None if description is None else clip(description, OPTION_DESCRIPTION),
        emoji=choice.emoji,
    )


def _prompt(private: PrivateView, public: PublicView, names: Mapping[str, str]) -> str:
    """What the player is asked to do now, in words."""
    if public.phase is Phase.MATCH_OVER:
        return "The match is over."
    if public.to_act != private.player:
        if public.to_act is None:
            return "Nothing to decide right now."
        return f"Waiting for {name(names, public.to_act)}."
    owed = public.pending_draw
    pending = public.pending
    looked = private.looking_at
    colour = named_colour(public)
    colour_words = "" if colour is None else f"{colour_label(colour)} "
    if pending is Pending.DRAFT_PICK:
        card = "a card" if looked is None else card_label(looked)
        return (
            f"**Draft (D3):** you're looking at {card}. "
            "Keep it, or reject it (it goes face up) and keep the next card."
        )
    if pending is Pending.DRAFT_FORCED:
        card = "the next card" if looked is None else card_label(looked)
        return f"**Draft (D3):** you rejected a card, so you must keep {card}."
    if pending is Pending.DRAWN_CARD:
        card = "a card" if private.drawn is None else card_label(private.drawn)
        return f"**Your turn:** you drew {card}. Play it now or keep it."
    if pending is Pending.COLOUR:
        return "**Your turn:** name the colour."
    if pending is Pending.VOLLEY:
        return f"**Draw 2 volley (D7):** stack a Draw 2, or take {_plural(owed, 'card')}."
    if pending is Pending.WILD_DRAW:
        return f"**Wild draw:** challenge, or accept and draw {owed}."
    if pending is Pending.DUMP:
        if not any(isinstance(a, Dump) for a in private.legal):
            return f"**Reverse (D9):** you have no other {colour_words}card to dump."
        return (
            f"**Reverse (D9):** dump every {colour_words}card (pick the one laid last), or don't."
        )
    if pending is Pending.REVERSE_DUMP:
        return f"**Reverse (D9):** dump every {colour_words}card, or take a normal turn."
    if pending is Pending.GIVE:
        return "**Dip Into The Deck (P6):** choose the card to give to the next player."
    if public.phase is Phase.DRAFT:
        return "**Draft (D3):** your pick."
    return "**Your turn:** play a matching card or draw."


def hand_panel(
    view: PrivateView,
    public: PublicView,
    *,
    names: Mapping[str, str],
    table_id: int,
    version: int,
    page: int = 0,
) -> HandPanel:
    """A player's private panel: their hand in words and their legal decisions as controls.

    `page` picks the page of choices when they overflow one panel (a `pg.{n}` button).
    """
    legal = list(dict.fromkeys(view.legal))  # drop duplicates, keep the engine's order
    colours = sorted(
        (a for a in legal if isinstance(a, ChooseColour)),
        key=lambda a: list(Colour).index(a.colour),
    )
    groups = _card_choices(legal, view, drawn_only=public.pending is Pending.DRAWN_CARD)
    controls = _controls(legal, view, public)
    components, note = _layout(
        colours=colours,
        groups=groups,
        controls=controls,
        table_id=table_id,
        version=version,
        page=page,
    )

    lines = [_prompt(view, public, names)]
    if public.top is not None:
        lines.append(f"Top card: {card_label(public.top, named_colour(public))}")
    if view.drawn is not None and public.pending is not Pending.DRAWN_CARD:
        lines.append(f"You drew {card_label(view.drawn)}.")
    if view.looking_at is not None and public.pending not in (
        Pending.DRAFT_PICK,
        Pending.DRAFT_FORCED,
    ):
        lines.append(f"You're looking at {card_label(view.looking_at)}.")
    if view.received is not None:
        lines.append(f"You received {card_label(view.received)} (Dip Into The Deck).")
    if view.given is not None:
        lines.append(f"You gave away {card_label(view.given)} (Dip Into The Deck).")
    if not legal and public.to_act == view.player:
        lines.append("Nothing to do yet.")
    if note:
        lines.append(note)
    content = clip("\n".join(lines), CONTENT_LIMIT)

    playable = frozenset(a.card for a in legal if isinstance(a, Play))
    hand = hand_lines(view.hand, bold=playable)
    legend = "\nPlayable cards are in **bold**." if playable else ""
    embed = discord.Embed(
        title=f"Your hand · {_plural(len(view.hand), 'card')}",
        description=_fit_lines(hand, EMBED_DESCRIPTION - len(legend)) + legend
        if hand
        else "No cards.",
        colour=colour_value(named_colour(public)),
    )
    if view.revealed_hand is not None:
        embed.add_field(
            name=f"{_challenged_name(view, public, names)}'s hand (only you see it)",
            value=_fit_lines(hand_lines(view.revealed_hand), FIELD_VALUE) or "No cards.",
            inline=False,
        )
    embed.set_footer(text=f"Table {table_id} · only you can see this")
    return HandPanel(content=content, embed=fit_embed(embed), components=components)


def _challenged_name(view: PrivateView, public: PublicView, names: Mapping[str, str]) -> str:
    for event in reversed(public.recent):
        if isinstance(event, ChallengeResolved) and event.challenger == view.player:
            return plain_name(names, event.challenged)
    others = [s.player for s in public.seats if s.player != view.player]
    return plain_name(names, others[0]) if len(others) == 1 else "The challenged player"


# ---------------------------------------------------------------- summaries


def round_summary(event: RoundEnded, names: Mapping[str, str], variant: str) -> discord.Embed:
    """The end of a round: cards left per player in words, points, totals."""
    points = dict(event.points)
    hands = dict(event.hands)
    if variant == "duo":
        rule = "D14: the player who went out scores 0; the other scores their hand."
    else:
        rule = "P11: the round winner scores the cards left in every other hand."
    embed = discord.Embed(
        title=f"Round {event.round}: {plain_name(names, event.winner)} went out",
        description=f"{describe_event(event, names)}\n{rule}",
        colour=NEUTRAL,
    )
    for player, total in event.scores:
        left = hands.get(player, ())
        cards = _fit_lines(hand_lines(left), 700) if left else "No cards left."
        value = f"{cards}\n+{points.get(player, 0)} points · total **{total}**"
        won = player == event.winner
        title = plain_name(names, player) + (" 🏆" if won else "")
        status = "went out" if won and not left else f"{_plural(len(left), 'card')} left"
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
        lines.append(f"{mark} {name(names, player)} · {total} points{left}")
    rule = "the lower total wins (D14)" if lower_wins else "the first to the target wins (P11)"
    embed = discord.Embed(
        title=f"{variant_name(variant)}: {plain_name(names, event.winner)} wins the match",
        description=_fit_lines(lines, EMBED_DESCRIPTION - 80) + f"\n\nScoring: {rule}.",
        colour=_COLOUR_VALUES[Colour.YELLOW],
    )
    return fit_embed(embed)


# ---------------------------------------------------------------- rules

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
}


def rules_text(variant: str) -> str:
    """A short private summary of a variant's rules, quoting rule ids."""
    try:
        return clip(_RULES[variant], CONTENT_LIMIT)
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}") from None
