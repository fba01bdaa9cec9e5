"""The table message: the whole public state of a match in one embed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

import discord

from cogs.uno import ids
from cogs.uno.l10n import t
from cogs.uno.render.faces import card_url
from cogs.uno.render.last_moves import last_moves
from cogs.uno.render.specs import FIELD_VALUE, LOG_LINES, MAX_MISSED, ButtonSpec
from cogs.uno.render.words import (
    card_label,
    colour_label,
    colour_value,
    escaped_name,
    fit_embed,
    fit_items,
    fit_lines,
    name,
    plural,
    variant_name,
)
from engine.cards import Colour
from engine.views import Pending, Phase, PublicView


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
        return f"Match to {view.target}: whoever reaches it loses, the lower total wins"
    return f"Match to {view.target}: the first to reach it wins"


def _pending_words(view: PublicView, names: Mapping[str, str]) -> str:
    """Whose decision the match waits for, and what it is, in words."""
    if view.phase is Phase.MATCH_OVER:
        if view.winner is None:
            return "The match is over."
        return f"🏆 {name(names, view.winner)} wins the match."
    if view.to_act is None:
        return "Waiting…"
    who = name(names, view.to_act)
    words = _PENDING_WORDS.get(view.pending)
    if words is not None:
        return words(who, view)
    if view.phase is Phase.DRAFT:
        return f"{who} is drafting"
    return f"{who} to play"


def _colour_words(view: PublicView) -> str:
    colour = named_colour(view)
    return f"{colour_label(colour)} " if colour is not None else ""


def _wild_draw_words(who: str, view: PublicView) -> str:
    return f"{who} is hit by a wild draw of {view.pending_draw}: challenge or accept"


_PENDING_WORDS: dict[Pending, Callable[[str, PublicView], str]] = {
    Pending.DRAFT_PICK: lambda who, v: f"{who} is looking at a draft card: keep or reject",
    Pending.DRAFT_FORCED: lambda who, v: f"{who} must keep the next draft card",
    Pending.DRAWN_CARD: lambda who, v: f"{who} drew a card: play it or keep it",
    Pending.COLOUR: lambda who, v: f"{who} is naming a colour",
    Pending.VOLLEY: lambda who, v: (
        t(
            "Wild Draw 4 stack: {player} owes {count}: stack a Wild Draw 4 or take them",
            player=who,
            count=v.pending_draw,
        )
        if v.top is not None and v.top.colour is None  # H1
        else f"Draw 2 volley: {who} owes {v.pending_draw}: stack a Draw 2 or take them"
    ),
    Pending.WILD_DRAW: _wild_draw_words,
    Pending.DUMP: lambda who, v: f"{who} may dump every {_colour_words(v)}card, or keep them",
    Pending.REVERSE_DUMP: lambda who, v: (
        f"{who} may dump every {_colour_words(v)}card, or take a normal turn"
    ),
    Pending.GIVE: lambda who, v: f"{who} is choosing a card to give to the next player",
    Pending.SWAP: lambda who, v: t("{player} is choosing whom to swap hands with", player=who),
}


def _seat_line(
    view: PublicView, seat_index: int, names: Mapping[str, str], missed: Mapping[str, int]
) -> str:
    seat = view.seats[seat_index]
    if not seat.seated:
        score = plural(seat.score, "pt")
        return f"~~{escaped_name(names, seat.player)}~~ left · {score}"
    marker = "▶ " if seat.player == view.to_act else ""
    parts = [
        f"{marker}{name(names, seat.player)}",
        plural(seat.cards, "card"),
        plural(seat.score, "pt"),
    ]
    if view.dealer == seat.player and view.variant != "duo":  # Duo's roles: who plays first
        parts.append("dealer")
    if seat.exposed:
        parts.append("⚠️ hasn't called UNO")
    if missed.get(seat.player, 0) > 0:  # their time ran out: a default move was made
        parts.append(f"⏱️ missed {missed[seat.player]} of {MAX_MISSED}")
    return " · ".join(parts)


def table_embed(
    view: PublicView,
    *,
    names: Mapping[str, str],
    table_id: int,
    deadline: datetime | None,
    title: str | None = None,
    options: str = "",
    missed: Mapping[str, int] | None = None,
) -> discord.Embed:
    """The table message: the whole public state of the match in words.

    `options`: the table's options in play, in words ("30 s a turn · classic deck").
    `missed`: turns each player has let run out in a row (shown until they act).
    """
    heading = title or f"{variant_name(view.variant)} · Round {view.round} · to {view.target}"
    embed = discord.Embed(
        title=heading,
        description="\n".join(_state_lines(view, names, deadline)),
        colour=colour_value(named_colour(view)),
    )
    if view.top is not None:
        picture = card_url(view.top, named_colour(view))
        if picture is not None:  # the top card large; the emoji's own image, no upload
            embed.set_thumbnail(url=picture)
    seats = [_seat_line(view, i, names, missed or {}) for i in range(len(view.seats))]
    embed.add_field(name="Players", value=fit_lines(seats, FIELD_VALUE), inline=False)
    if view.phase is Phase.DRAFT and view.draft_pile:
        labels = [card_label(c) for c in view.draft_pile]
        embed.add_field(
            name=f"Draft pile, oldest first ({len(labels)})",
            value=fit_items(labels, FIELD_VALUE),
            inline=False,
        )
    if options:
        embed.add_field(name="Table options", value=options[:FIELD_VALUE], inline=False)
    log = last_moves(view.recent, names, view.variant)[-LOG_LINES:]
    if log:
        embed.add_field(
            name="Last moves", value=fit_lines(log, FIELD_VALUE, keep_last=True), inline=False
        )
    embed.set_footer(
        text=f"Table {table_id} · draw pile {view.draw_pile} · discard pile {view.discard_pile}"
    )
    return fit_embed(embed)


def _state_lines(
    view: PublicView, names: Mapping[str, str], deadline: datetime | None
) -> list[str]:
    """Top card, colour, whose turn until when, direction and target."""
    lines = []
    if view.top is not None:
        lines.append(f"**Top card:** {card_label(view.top, named_colour(view))}")
    elif view.phase is Phase.DRAFT:
        lines.append("**Draft:** each player picks 7 cards")
    colour = named_colour(view)
    # A wild's named colour is in its label already; say the colour when it differs.
    if colour is not None and (view.top is None or view.top.colour not in (None, colour)):
        lines.append(f"**Colour:** {colour_label(colour)}")
    turn = _pending_words(view, names)
    if view.phase is not Phase.MATCH_OVER:
        turn += _deadline(deadline)
    lines.append(turn)
    if view.variant != "duo":  # Duo has no direction: a Reverse never skips there
        arrow = "↻ clockwise" if view.clockwise else "↺ counter-clockwise"
        dealer = f" · Dealer: {name(names, view.dealer)}" if view.dealer else ""
        lines.append(f"**Direction:** {arrow}{dealer}")
    if view.round <= 1 and view.top is None:  # said once, before the first card
        lines.append(_target_words(view))
    return lines


def table_components(view: PublicView, *, table_id: int) -> list[ButtonSpec]:
    """The table message's buttons: Hand, and Call UNO or Catch by context.

    They never go stale (ANY_VERSION).
    """
    over = view.phase is Phase.MATCH_OVER
    # Someone with one card who hasn't called UNO can be caught: that's what it does now.
    catch = any(seat.exposed for seat in view.seats)
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
            label="Catch" if catch else "Call UNO",
            custom_id=ids.table_custom_id(table_id, ids.ANY_VERSION, ids.UNO),
            style=discord.ButtonStyle.danger if catch else discord.ButtonStyle.success,
            emoji="🎯" if catch else "📣",
            disabled=over,
            row=0,
        ),
    ]
