"""A player's private hand panel: their cards in words, their legal decisions as controls."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import discord

from cogs.uno import ids
from cogs.uno.i18n.l10n import N_, t, tn
from cogs.uno.render.faces import card_emoji
from cogs.uno.render.last_moves import last_moves
from cogs.uno.render.notices import challenge_reason, fresh_since
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
from cogs.uno.render.table import named_colour, seat_line
from cogs.uno.render.words import (
    card_label,
    card_title,
    clip,
    colour_emoji,
    colour_label,
    colour_name,
    colour_value,
    escaped_name,
    fit_embed,
    fit_lines,
    hand_lines,
    name,
    plain_name,
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
    JumpIn,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    SwapHands,
    TakeVolley,
)
from engine.cards import Card, Colour, hand_order
from engine.events import CardGiven, ChallengeResolved
from engine.views import Pending, Phase, PrivateView, PublicView


@dataclass(frozen=True, slots=True)
class _Choice:
    """One card decision, drawable as a button or as a select option."""

    action: Action
    label: str  # words without the emoji
    emoji: str
    style: discord.ButtonStyle
    description: str | None
    code: str | None = None  # a table code instead of the action's (dump order)

    @property
    def custom_code(self) -> str:
        return self.code or ids.encode_action(self.action)


_COLOUR_STYLES: Final = {
    Colour.RED: discord.ButtonStyle.danger,
    Colour.YELLOW: discord.ButtonStyle.secondary,
    Colour.GREEN: discord.ButtonStyle.success,
    Colour.BLUE: discord.ButtonStyle.primary,
}
DRAFT_HAND: Final = 7  # Duo: each player drafts 7 cards
_GROUPS: Final = (
    ("swap", N_("Swap hands with…")),
    ("jump", N_("Jump in…")),
    ("dump", N_("Dump the colour…")),
    ("order", N_("…or choose the order card by card")),
    ("give", N_("Give a card…")),
    ("play", N_("Play a card…")),
)


def _order_choices(
    dumps: Sequence[Dump], private: PrivateView, order: Sequence[Card]
) -> list[_Choice]:
    """A dump laid card by card: the next card to lay, while two or more kinds remain."""
    if not dumps:
        return []
    colour = dumps[0].last.colour
    left = Counter(c for c in private.hand if c.colour is colour)
    left.subtract(order)
    kinds = [c for c in sorted(left, key=hand_order) if left[c] > 0]
    if len(kinds) < 2 or (not order and left.total() < 3):
        return []  # the "Dump, X last" buttons already say every order there is
    word = N_("Then {card}") if order else N_("First {card}")
    return [
        _Choice(
            dumps[0],
            t(word, card=card_title(c)),
            _emoji(c),
            _STYLE.secondary,
            None,
            f"o.{c.code}",
        )
        for c in kinds
    ]


def _card_choices(
    legal: Sequence[Action],
    private: PrivateView,
    *,
    drawn_only: bool,
    order: Sequence[Card] = (),
) -> dict[str, list[_Choice]]:
    counts = Counter(private.hand)
    # A play (or dump) that leaves one card is offered once, calling UNO with it.
    calls = {a.card for a in legal if isinstance(a, Play) and a.uno}
    plays = sorted(
        (a for a in legal if isinstance(a, Play) and (a.uno or a.card not in calls)),
        key=lambda a: hand_order(a.card),
    )
    dump_calls = {a.last for a in legal if isinstance(a, Dump) and a.uno}
    dumps = sorted(
        (a for a in legal if isinstance(a, Dump) and (a.uno or a.last not in dump_calls)),
        key=lambda a: hand_order(a.last),
    )
    gives = sorted((a for a in legal if isinstance(a, Give)), key=lambda a: hand_order(a.card))
    secondary = discord.ButtonStyle.secondary
    success = discord.ButtonStyle.success
    groups: dict[str, list[_Choice]] = {"dump": [], "order": [], "give": [], "play": []}
    groups["order"] = _order_choices(dumps, private, order)
    if order:  # choosing the order card by card: only the next card is asked
        dumps = []
    for play in plays:
        card = play.card
        count = counts.get(card, 0)
        label = card_title(card) + (f" ×{count}" if count > 1 else "")
        description = None
        if drawn_only or play.uno:  # D5/P4: only the card just drawn may be played
            # One card is played: "Play Blue 8 ×2" would read as two.
            label = t("Play {card}", card=card_title(card))
            description = t("The card you just drew")
        if play.uno:  # one button: playing down to one card calls UNO with it
            label += " · UNO!"
            description = t("Leaves you one card: calls UNO with the play")
        emoji = _emoji(card)
        groups["play"].append(
            _Choice(play, label, emoji, success if play.uno else secondary, description)
        )
    for dump in dumps:
        last = dump.last
        colour = last.colour
        same = sum(k for c, k in counts.items() if c.colour is colour and colour is not None)
        label = t("Dump, {card} last", card=card_title(last)) + (" · UNO!" if dump.uno else "")
        description = _dump_words(same, colour)
        groups["dump"].append(
            _Choice(dump, label, _emoji(last), success if dump.uno else secondary, description)
        )
    for give in gives:
        card = give.card
        groups["give"].append(
            _Choice(give, t("Give {card}", card=card_title(card)), _emoji(card), secondary, None)
        )
    return {kind: choices for kind, choices in groups.items() if choices}


def _dump_words(same: int, colour: Colour | None) -> str:
    """A dump button's description: how many cards of the colour it lays."""
    if colour is None:
        return tn("Lay your only card", "Lay all {count} cards; the last one acts", same)
    return tn(
        "Lay your only {colour} card",
        "Lay all {count} {colour} cards; the last one acts",
        same,
        colour=colour_name(colour),
    )


def _emoji(card: Card) -> str:
    """The card's picture for a button or option, or its colour square without emojis."""
    return card_emoji(card) or colour_emoji(card.colour)


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
    controls = [
        _Control(ids.encode_action(action), *describe(private, public, present))
        for action, describe in _CONTROLS
        if type(action) in present
    ]
    if KeepCard in present and RejectCard in present and len(private.hand) < DRAFT_HAND - 1:
        # Keeping every card still to come is a legal choice: one click for the draft.
        controls.insert(1, _Control(ids.KEEP_REST, t("Keep the rest"), _STYLE.success, "⏩"))
    return controls


_Look = tuple[str, discord.ButtonStyle, str | None]


def _keep(private: PrivateView, public: PublicView, present: set[type[Action]]) -> _Look:
    looked = private.looking_at
    label = t("Keep") if looked is None else t("Keep {card}", card=card_title(looked))
    if RejectCard not in present:
        label = t("{choice} (you must)", choice=label)
    return label, _STYLE.success, None if looked is None else _emoji(looked)


def _draw(private: PrivateView, public: PublicView, present: set[type[Action]]) -> _Look:
    empty = public.draw_pile == 0 and public.discard_pile <= 1
    return t("Pass (nothing to draw)") if empty else t("Draw a card"), _STYLE.primary, "📥"


def _take(private: PrivateView, public: PublicView, present: set[type[Action]]) -> _Look:
    owed = public.pending_draw
    label = tn("Take {count} card", "Take {count} cards", owed) if owed else t("Take the volley")
    return label, _STYLE.danger, "📥"


def _accept(private: PrivateView, public: PublicView, present: set[type[Action]]) -> _Look:
    owed = public.pending_draw
    return t("Accept, draw {count}", count=owed) if owed else t("Accept"), _STYLE.secondary, "📥"


def _fixed(label: str, style: discord.ButtonStyle, emoji: str | None) -> _Describe:
    return lambda private, public, present: (t(label), style, emoji)


_STYLE = discord.ButtonStyle
_Describe = Callable[[PrivateView, PublicView, set[type[Action]]], _Look]
_CONTROLS: tuple[tuple[Action, _Describe], ...] = (
    (KeepCard(), _keep),
    (RejectCard(), _fixed(N_("Reject (keep the next)"), _STYLE.danger, "↩️")),
    (Draw(), _draw),
    (KeepDrawn(), _fixed(N_("Keep the drawn card"), _STYLE.secondary, "✋")),
    (TakeVolley(), _take),
    (Challenge(), _fixed(N_("Challenge"), _STYLE.danger, "⚖️")),
    (Accept(), _accept),
    (NoDump(), _fixed(N_("Don't dump"), _STYLE.secondary, "✋")),
    (CallUno(), _fixed(N_("Call UNO!"), _STYLE.success, "📣")),
    (CatchUno(), _fixed(N_("Catch UNO!"), _STYLE.danger, "🎯")),
)


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
    at = _At(table_id, version)
    free = ROWS - (1 if colours else 0) - _rows(len(controls), ROW_BUTTONS)
    as_select = _as_selects(groups, free)
    components: list[Component] = _colour_row(colours, at) if colours else []
    row = 1 if colours else 0
    note = None
    controls = list(controls)
    if _rows_needed(groups, as_select) <= free:
        row = _card_rows(components, groups, as_select, at, row)
    else:
        # More choices than the rows left hold even as selects: page through them.
        free = ROWS - (1 if colours else 0) - _rows(len(controls) + 1, ROW_BUTTONS)
        row, more, note = _paged_rows(components, groups, free, page, at, row)
        controls.append(more)
    for start in range(0, len(controls), ROW_BUTTONS):
        for item in controls[start : start + ROW_BUTTONS]:
            components.append(
                ButtonSpec(
                    label=clip(item.label, BUTTON_LABEL),
                    custom_id=ids.table_custom_id(at.table_id, at.version, item.code),
                    style=item.style,
                    emoji=item.emoji,
                    row=row,
                )
            )
        row += 1
    return components, note


@dataclass(frozen=True, slots=True)
class _At:
    """Which table and version the panel's custom_ids name."""

    table_id: int
    version: int


def _rows_needed(groups: dict[str, list[_Choice]], as_select: set[str]) -> int:
    return sum(
        _rows(len(c), SELECT_OPTIONS if k in as_select else ROW_BUTTONS) for k, c in groups.items()
    )


def _as_selects(groups: dict[str, list[_Choice]], free: int) -> set[str]:
    """The groups shown as selects: the biggest first, until everything fits."""
    as_select = {k for k in groups if k in _ALWAYS_SELECT}
    while _rows_needed(groups, as_select) > free and len(as_select) < len(groups):
        as_select.add(max((k for k in groups if k not in as_select), key=lambda k: len(groups[k])))
    return as_select


_ALWAYS_SELECT: Final = frozenset({"swap"})  # H2: the other players, in one select


def _house_choices(
    legal: Sequence[Action], public: PublicView, names: Mapping[str, str]
) -> dict[str, list[_Choice]]:
    """H2's swap (the other players) and H3's jump-in, as card-like choices."""
    counts = {seat.player: seat.cards for seat in public.seats}
    groups: dict[str, list[_Choice]] = {}
    for action in legal:
        if isinstance(action, SwapHands):
            label = t("Swap with {player}", player=plain_name(names, action.target))
            cards = tn("{count} card", "{count} cards", counts.get(action.target, 0))
            groups.setdefault("swap", []).append(
                _Choice(action, label, "🔄", _STYLE.primary, cards)
            )
        elif isinstance(action, JumpIn) and (action.uno or JumpIn(action.card, True) not in legal):
            label = t("Jump in: {card}", card=card_title(action.card))
            if action.uno:
                label = t("{play} · UNO!", play=label)
            style = _STYLE.success
            hint = t("Play your identical card now, out of turn")
            groups.setdefault("jump", []).append(
                _Choice(action, label, _emoji(action.card), style, hint)
            )
    return groups


def _colour_row(colours: Sequence[ChooseColour], at: _At) -> list[Component]:
    return [
        ButtonSpec(
            label=colour_name(choose.colour),
            custom_id=ids.table_custom_id(at.table_id, at.version, ids.encode_action(choose)),
            style=_COLOUR_STYLES[choose.colour],
            emoji=colour_emoji(choose.colour),
            row=0,
        )
        for choose in colours[:ROW_BUTTONS]
    ]


def _add_select(
    components: list[Component], choices: Sequence[_Choice], placeholder: str, at: _At, row: int
) -> None:
    code = ids.select_code(sum(isinstance(c, SelectSpec) for c in components))
    components.append(
        SelectSpec(
            custom_id=ids.table_custom_id(at.table_id, at.version, code),
            placeholder=clip(placeholder, PLACEHOLDER),
            options=tuple(_option(c) for c in choices),
            row=row,
        )
    )


def _card_rows(
    components: list[Component],
    groups: dict[str, list[_Choice]],
    as_select: set[str],
    at: _At,
    row: int,
) -> int:
    """Every card choice, as buttons or selects; returns the next free row."""
    for kind, placeholder in _GROUPS:
        choices = groups.get(kind, [])
        step = SELECT_OPTIONS if kind in as_select else ROW_BUTTONS
        for start in range(0, len(choices), step):
            chunk = choices[start : start + step]
            if kind in as_select:
                _add_select(components, chunk, t(placeholder), at, row)
            else:
                components.extend(
                    _button(c, table_id=at.table_id, version=at.version, row=row) for c in chunk
                )
            row += 1
    return row


def _paged_rows(
    components: list[Component],
    groups: dict[str, list[_Choice]],
    free: int,
    page: int,
    at: _At,
    row: int,
) -> tuple[int, _Control, str]:
    """One page of the card choices as selects, the More button, and a note."""
    flat = [c for kind, _ in _GROUPS for c in groups.get(kind, [])]
    per_page = max(free, 1) * SELECT_OPTIONS
    pages = _rows(len(flat), per_page)
    page %= pages
    shown = flat[page * per_page : (page + 1) * per_page]
    for start in range(0, len(shown), SELECT_OPTIONS):
        chunk = shown[start : start + SELECT_OPTIONS]
        placeholder = t("Choose… (page {page}/{pages})", page=page + 1, pages=pages)
        _add_select(components, chunk, placeholder, at, row)
        row += 1
    label = t("More choices ({page}/{pages})", page=page + 1, pages=pages)
    more = _Control(ids.page_code((page + 1) % pages), label, discord.ButtonStyle.primary, "➡️")
    note = t(
        "More choices than fit one panel: page {page} of {pages}; press More.",
        page=page + 1,
        pages=pages,
    )
    return row, more, note


def _button(choice: _Choice, *, table_id: int, version: int, row: int) -> ButtonSpec:
    return ButtonSpec(
        label=clip(choice.label, BUTTON_LABEL),
        custom_id=ids.table_custom_id(table_id, version, choice.custom_code),
        style=choice.style,
        emoji=choice.emoji,
        row=row,
    )


def _option(choice: _Choice) -> OptionSpec:
    description = choice.description
    return OptionSpec(
        label=clip(choice.label, OPTION_LABEL),
        value=choice.custom_code,
        description=None if description is None else clip(description, OPTION_DESCRIPTION),
        emoji=choice.emoji,
    )


def _prompt(private: PrivateView, public: PublicView, names: Mapping[str, str]) -> str:
    """What the player is asked to do now, in words."""
    if public.phase is Phase.MATCH_OVER:
        return t("The match is over.")
    if public.to_act != private.player:
        if public.to_act is None:
            return t("Nothing to decide right now.")
        waiting = t("Waiting for {player}.", player=name(names, public.to_act))
        if any(isinstance(a, JumpIn) for a in private.legal):  # H3
            return waiting + " " + t("**Jump in:** you hold the top card's twin — play it now!")
        return waiting
    ask = _ASK.get(public.pending)
    if ask is not None:
        return ask(private, public)
    if public.phase is Phase.DRAFT:
        return t("**Draft:** your pick.")
    return t("**Your turn:** play a matching card or draw.")


def _colour_words(public: PublicView) -> str:
    colour = named_colour(public)
    return "" if colour is None else f"{colour_label(colour)} "


def _ask_draft(private: PrivateView, public: PublicView) -> str:
    looked = private.looking_at
    card = t("a card") if looked is None else card_label(looked)
    return t(
        "**Draft:** you're looking at {card}. "
        "Keep it, or reject it (it goes face up) and keep the next card.",
        card=card,
    )


def _ask_forced(private: PrivateView, public: PublicView) -> str:
    looked = private.looking_at
    card = t("the next card") if looked is None else card_label(looked)
    return t("**Draft:** you rejected a card, so you must keep {card}.", card=card)


def _ask_drawn(private: PrivateView, public: PublicView) -> str:
    card = t("a card") if private.drawn is None else card_label(private.drawn)
    if len(private.drew) > 1:  # H4: drawn until a card could be played
        cards = ", ".join(card_label(c) for c in private.drew)
        return t(
            "**Your turn:** you drew {count} cards: {cards}. Play {card} now or keep it.",
            count=len(private.drew),
            cards=cards,
            card=card,
        )
    return t("**Your turn:** you drew {card}. Play it now or keep it.", card=card)


def _ask_volley(private: PrivateView, public: PublicView) -> str:
    if public.top is not None and public.top.colour is None:  # H1: Wild Draw 4s stacked
        return t(
            "**Wild Draw 4 stack:** stack a Wild Draw 4, or take {cards}.",
            cards=tn("{count} card", "{count} cards", public.pending_draw),
        )
    return tn(
        "**Draw 2 volley:** stack a Draw 2, or take {count} card.",
        "**Draw 2 volley:** stack a Draw 2, or take {count} cards.",
        public.pending_draw,
    )


def _ask_wild_draw(private: PrivateView, public: PublicView) -> str:
    if any(isinstance(a, Play) for a in private.legal):  # H1: or stack one
        return t(
            "**Wild draw:** challenge, stack a Wild Draw 4, or accept and draw {count}.",
            count=public.pending_draw,
        )
    return t("**Wild draw:** challenge, or accept and draw {count}.", count=public.pending_draw)


def _ask_dump(private: PrivateView, public: PublicView) -> str:
    colour = _colour_words(public)
    if not any(isinstance(a, Dump) for a in private.legal):
        return t("**Reverse:** you have no other {colour}card to dump.", colour=colour)
    return t(
        "**Reverse:** dump every {colour}card (pick the one laid last), or don't.", colour=colour
    )


_ASK: dict[Pending, Callable[[PrivateView, PublicView], str]] = {
    Pending.DRAFT_PICK: _ask_draft,
    Pending.DRAFT_FORCED: _ask_forced,
    Pending.DRAWN_CARD: _ask_drawn,
    Pending.COLOUR: lambda private, public: t("**Your turn:** name the colour."),
    Pending.VOLLEY: _ask_volley,
    Pending.WILD_DRAW: _ask_wild_draw,
    Pending.DUMP: _ask_dump,
    Pending.REVERSE_DUMP: lambda private, public: t(
        "**Reverse:** dump every {colour}card, or take a normal turn.",
        colour=_colour_words(public),
    ),
    Pending.GIVE: lambda private, public: t(
        "**Dip Into The Deck:** choose the card to give to the next player."
    ),
    Pending.SWAP: lambda private, public: t("**Seven-O:** choose whom to swap hands with."),
}


def hand_panel(
    view: PrivateView,
    public: PublicView,
    *,
    names: Mapping[str, str],
    table_id: int,
    version: int,
    page: int = 0,
    order: Sequence[Card] = (),
    shared: TableFields | None = None,
) -> HandPanel:
    """A player's private panel: their hand in words and their legal decisions as controls.

    `page` picks the page of choices when they overflow one panel (a `pg.{n}` button).
    `shared`: `table_fields(public, names)` if already worked out for this state.
    """
    legal = list(dict.fromkeys(view.legal))  # drop duplicates, keep the engine's order
    colours = sorted(
        (a for a in legal if isinstance(a, ChooseColour)),
        key=lambda a: list(Colour).index(a.colour),
    )
    groups = _card_choices(
        legal, view, drawn_only=public.pending is Pending.DRAWN_CARD, order=order
    )
    groups |= _house_choices(legal, public, names)
    controls = _controls(legal, view, public)
    if order:  # a dump being laid card by card
        restart = _Control(ids.ORDER_RESTART, t("Start the order over"), _STYLE.secondary, "↩️")
        controls.append(restart)
    components, note = _layout(
        colours=colours,
        groups=groups,
        controls=controls,
        table_id=table_id,
        version=version,
        page=page,
    )

    lines = _panel_lines(view, public, names, legal=legal, note=note)
    if order:
        laid = ", ".join(card_label(c) for c in order)
        lines.insert(1, t("Laying in this order: {cards}, … (the last one acts)", cards=laid))
    content = clip("\n".join(lines), CONTENT_LIMIT)
    embed = _hand_embed(view, public, names, legal=legal, table_id=table_id, shared=shared)
    return HandPanel(content=content, embed=fit_embed(embed), components=components)


def _panel_lines(
    view: PrivateView,
    public: PublicView,
    names: Mapping[str, str],
    *,
    legal: Sequence[Action],
    note: str | None,
) -> list[str]:
    """The panel's words: what to do, the top card, what was drawn, seen or passed."""
    lines = [_prompt(view, public, names)]
    if public.top is not None:
        lines.append(t("Top card: {card}", card=card_label(public.top, named_colour(public))))
    if view.drawn is not None and public.pending is not Pending.DRAWN_CARD:
        lines.append(t("You drew {card}.", card=card_label(view.drawn)))
    if view.looking_at is not None and public.pending not in (
        Pending.DRAFT_PICK,
        Pending.DRAFT_FORCED,
    ):
        lines.append(t("You're looking at {card}.", card=card_label(view.looking_at)))
    # A notice lasts until the player's own next decision after what it tells of.
    dip = fresh_since(public.recent, view.player, CardGiven) is not None
    if dip and view.received is not None:
        lines.append(t("You received {card} (Dip Into The Deck).", card=card_label(view.received)))
    if dip and view.given is not None:
        lines.append(t("You gave away {card} (Dip Into The Deck).", card=card_label(view.given)))
    if _revealed(view, public) is not None:
        reason = challenge_reason(public.recent, view.revealed_hand or (), names)
        if reason is not None:
            lines.append(f"⚖️ {reason}")
    if not legal and public.to_act == view.player:
        lines.append(t("Nothing to do yet."))
    if note:
        lines.append(note)
    return lines


def _hand_embed(
    view: PrivateView,
    public: PublicView,
    names: Mapping[str, str],
    *,
    legal: Sequence[Action],
    table_id: int,
    shared: TableFields | None,
) -> discord.Embed:
    playable = frozenset(a.card for a in legal if isinstance(a, Play))
    hand = hand_lines(view.hand, bold=playable)
    legend = "\n" + t("Playable cards are in **bold**.") if playable else ""
    embed = discord.Embed(
        title=tn("Your hand · {count} card", "Your hand · {count} cards", len(view.hand)),
        description=fit_lines(hand, EMBED_DESCRIPTION - len(legend)) + legend
        if hand
        else t("No cards."),
        colour=colour_value(named_colour(public)),
    )
    if _revealed(view, public) is not None:
        embed.add_field(
            name=t(
                "{player}'s hand (only you see it)", player=_challenged_name(view, public, names)
            ),
            value=fit_lines(hand_lines(view.revealed_hand or ()), FIELD_VALUE) or t("No cards."),
            inline=False,
        )
    for field_name, value in shared if shared is not None else table_fields(public, names):
        embed.add_field(name=field_name, value=value, inline=False)
    embed.set_footer(text=t("Table {table} · only you can see this", table=table_id))
    return embed


PANEL_LOG_LINES: Final = 4  # the table's last moves a panel repeats
TableFields = tuple[tuple[str, str], ...]  # (name, value) of embed fields


def table_fields(public: PublicView, names: Mapping[str, str]) -> TableFields:
    """The table's seats and its latest moves, for a panel: a player deciding needs
    nothing from the public table message, which may trail fast play by a few seconds.
    The same for every viewer of a state (in one language): worked out once."""
    seats = [seat_line(public, i, names, {}) for i in range(len(public.seats))]
    fields = [(t("Players"), fit_lines(seats, FIELD_VALUE))]
    log = last_moves(public.recent, names, public.variant, keep=PANEL_LOG_LINES)
    if log:
        fields.append((t("Last moves"), fit_lines(log, FIELD_VALUE, keep_last=True)))
    return tuple(fields)


def _revealed(view: PrivateView, public: PublicView) -> tuple[Card, ...] | None:
    """The challenged hand, while the challenge is the latest thing the player saw."""
    if view.revealed_hand is None:
        return None
    if fresh_since(public.recent, view.player, ChallengeResolved) is None:
        return None
    return view.revealed_hand


def _challenged_name(view: PrivateView, public: PublicView, names: Mapping[str, str]) -> str:
    for event in reversed(public.recent):
        if isinstance(event, ChallengeResolved) and event.challenger == view.player:
            return escaped_name(names, event.challenged)
    others = [s.player for s in public.seats if s.player != view.player]
    return escaped_name(names, others[0]) if len(others) == 1 else t("The challenged player")
