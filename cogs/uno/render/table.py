"""The table message: the whole public state of a match in one embed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime

import discord

from cogs.uno import ids
from cogs.uno.i18n.l10n import t
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
        return t(
            "Match to {target}: whoever reaches it loses, the lower total wins",
            target=view.target,
        )
    return t("Match to {target}: the first to reach it wins", target=view.target)


def _pending_words(view: PublicView, names: Mapping[str, str]) -> str:
    """Whose decision the match waits for, and what it is, in words."""
    if view.phase is Phase.MATCH_OVER:
        if view.winner is None:
            return t("The match is over.")
        return "🏆 " + t("{player} wins the match.", player=name(names, view.winner))
    if view.to_act is None:
        return t("Waiting…")
    who = name(names, view.to_act)
    words = _PENDING_WORDS.get(view.pending)
    if words is not None:
        return words(who, view)
    if view.phase is Phase.DRAFT:
        return t("{player} is drafting", player=who)
    return t("{player} to play", player=who)


def _colour_words(view: PublicView) -> str:
    colour = named_colour(view)
    return f"{colour_label(colour)} " if colour is not None else ""


def _wild_draw_words(who: str, view: PublicView) -> str:
    return t(
        "{player} is hit by a wild draw of {count}: challenge or accept",
        player=who,
        count=view.pending_draw,
    )


_PENDING_WORDS: dict[Pending, Callable[[str, PublicView], str]] = {
    Pending.DRAFT_PICK: lambda who, v: t(
        "{player} is looking at a draft card: keep or reject", player=who
    ),
    Pending.DRAFT_FORCED: lambda who, v: t("{player} must keep the next draft card", player=who),
    Pending.DRAWN_CARD: lambda who, v: t("{player} drew a card: play it or keep it", player=who),
    Pending.COLOUR: lambda who, v: t("{player} is naming a colour", player=who),
    Pending.VOLLEY: lambda who, v: (
        t(
            "Wild Draw 4 stack: {player} owes {count}: stack a Wild Draw 4 or take them",
            player=who,
            count=v.pending_draw,
        )
        if v.top is not None and v.top.colour is None  # H1
        else t(
            "Draw 2 volley: {player} owes {count}: stack a Draw 2 or take them",
            player=who,
            count=v.pending_draw,
        )
    ),
    Pending.WILD_DRAW: _wild_draw_words,
    Pending.DUMP: lambda who, v: t(
        "{player} may dump every {colour}card, or keep them", player=who, colour=_colour_words(v)
    ),
    Pending.REVERSE_DUMP: lambda who, v: t(
        "{player} may dump every {colour}card, or take a normal turn",
        player=who,
        colour=_colour_words(v),
    ),
    Pending.GIVE: lambda who, v: t(
        "{player} is choosing a card to give to the next player", player=who
    ),
    Pending.SWAP: lambda who, v: t("{player} is choosing whom to swap hands with", player=who),
}


def seat_line(
    view: PublicView, seat_index: int, names: Mapping[str, str], missed: Mapping[str, int]
) -> str:
    seat = view.seats[seat_index]
    if not seat.seated:
        score = plural(seat.score, "pt")
        return t("~~{player}~~ left", player=escaped_name(names, seat.player)) + f" · {score}"
    marker = "▶ " if seat.player == view.to_act else ""
    parts = [
        f"{marker}{name(names, seat.player)}",
        plural(seat.cards, "card"),
        plural(seat.score, "pt"),
    ]
    if view.dealer == seat.player and view.variant != "duo":  # Duo's roles: who plays first
        parts.append(t("dealer"))
    if seat.exposed:
        parts.append("⚠️ " + t("hasn't called UNO"))
    if missed.get(seat.player, 0) > 0:  # their time ran out: a default move was made
        parts.append(
            "⏱️ " + t("missed {count} of {limit}", count=missed[seat.player], limit=MAX_MISSED)
        )
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
    heading = title or t(
        "{game} · Round {round} · to {target}",
        game=variant_name(view.variant),
        round=view.round,
        target=view.target,
    )
    embed = discord.Embed(
        title=heading,
        description="\n".join(_state_lines(view, names, deadline)),
        colour=colour_value(named_colour(view)),
    )
    if view.top is not None:
        picture = card_url(view.top, named_colour(view))
        if picture is not None:  # the top card large; the emoji's own image, no upload
            embed.set_thumbnail(url=picture)
    seats = [seat_line(view, i, names, missed or {}) for i in range(len(view.seats))]
    embed.add_field(name=t("Players"), value=fit_lines(seats, FIELD_VALUE), inline=False)
    if view.phase is Phase.DRAFT and view.draft_pile:
        labels = [card_label(c) for c in view.draft_pile]
        embed.add_field(
            name=t("Draft pile, oldest first ({count})", count=len(labels)),
            value=fit_items(labels, FIELD_VALUE),
            inline=False,
        )
    if options:
        embed.add_field(name=t("Table options"), value=options[:FIELD_VALUE], inline=False)
    log = last_moves(view.recent, names, view.variant, keep=LOG_LINES)
    if log:
        embed.add_field(
            name=t("Last moves"), value=fit_lines(log, FIELD_VALUE, keep_last=True), inline=False
        )
    embed.set_footer(
        text=t(
            "Table {table} · draw pile {draw} · discard pile {discard}",
            table=table_id,
            draw=view.draw_pile,
            discard=view.discard_pile,
        )
    )
    return fit_embed(embed)


def _state_lines(
    view: PublicView, names: Mapping[str, str], deadline: datetime | None
) -> list[str]:
    """Top card, colour, whose turn until when, direction and target."""
    lines = []
    if view.top is not None:
        lines.append(t("**Top card:** {card}", card=card_label(view.top, named_colour(view))))
    elif view.phase is Phase.DRAFT:
        lines.append(t("**Draft:** each player picks 7 cards"))
    colour = named_colour(view)
    # A wild's named colour is in its label already; say the colour when it differs.
    if colour is not None and (view.top is None or view.top.colour not in (None, colour)):
        lines.append(t("**Colour:** {colour}", colour=colour_label(colour)))
    turn = _pending_words(view, names)
    if view.phase is not Phase.MATCH_OVER:
        turn += _deadline(deadline)
    lines.append(turn)
    if view.variant != "duo":  # Duo has no direction: a Reverse never skips there
        arrow = "↻ " + t("clockwise") if view.clockwise else "↺ " + t("counter-clockwise")
        line = t("**Direction:** {direction}", direction=arrow)
        if view.dealer:
            line += " · " + t("Dealer: {player}", player=name(names, view.dealer))
        lines.append(line)
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
            label=t("Hand"),
            custom_id=ids.table_custom_id(table_id, ids.ANY_VERSION, ids.HAND),
            style=discord.ButtonStyle.primary,
            emoji="🃏",
            disabled=over,
            row=0,
        ),
        ButtonSpec(
            label=t("Catch") if catch else t("Call UNO"),
            custom_id=ids.table_custom_id(table_id, ids.ANY_VERSION, ids.UNO),
            style=discord.ButtonStyle.danger if catch else discord.ButtonStyle.success,
            emoji="🎯" if catch else "📣",
            disabled=over,
            row=0,
        ),
    ]
