"""A player's private hand panel: their cards in words, their legal decisions as controls."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import discord

from cogs.uno import ids
from cogs.uno.render.specs import (
    BUTTON_LABEL,
    CONTENT_LIMIT,
    EMBED_DESCRIPTION,
    FIELD_VALUE,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    PLACEHOLDER,
    ROW_BUTTONS,
    ROWS,
    SELECT_OPTIONS,
    ButtonSpec,
    Component,
    HandPanel,
    OptionSpec,
    SelectSpec,
)
from cogs.uno.render.table import named_colour
from cogs.uno.render.words import (
    card_label,
    clip,
    colour_emoji,
    colour_label,
    colour_value,
    escaped_name,
    fit_embed,
    fit_lines,
    hand_lines,
    name,
    plural,
)
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
from engine.cards import Colour, hand_order
from engine.events import (
    ChallengeResolved,
)
from engine.views import Pending, Phase, PrivateView, PublicView


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
        kind = f"{colour.title} card" if colour else "card"
        if same == 1:
            description = f"Lay your only {kind}"
        else:
            description = f"Lay all {plural(same, kind)}; the last one acts"
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
        label = f"Take {plural(owed, 'card')}" if owed else "Take the volley"
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
        return f"**Draw 2 volley (D7):** stack a Draw 2, or take {plural(owed, 'card')}."
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
        title=f"Your hand · {plural(len(view.hand), 'card')}",
        description=fit_lines(hand, EMBED_DESCRIPTION - len(legend)) + legend
        if hand
        else "No cards.",
        colour=colour_value(named_colour(public)),
    )
    if view.revealed_hand is not None:
        embed.add_field(
            name=f"{_challenged_name(view, public, names)}'s hand (only you see it)",
            value=fit_lines(hand_lines(view.revealed_hand), FIELD_VALUE) or "No cards.",
            inline=False,
        )
    embed.set_footer(text=f"Table {table_id} · only you can see this")
    return HandPanel(content=content, embed=fit_embed(embed), components=components)


def _challenged_name(view: PrivateView, public: PublicView, names: Mapping[str, str]) -> str:
    for event in reversed(public.recent):
        if isinstance(event, ChallengeResolved) and event.challenger == view.player:
            return escaped_name(names, event.challenged)
    others = [s.player for s in public.seats if s.player != view.player]
    return escaped_name(names, others[0]) if len(others) == 1 else "The challenged player"
