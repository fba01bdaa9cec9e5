"""Rendering: words for every card and event, and Discord's limits for any view."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from itertools import chain
from typing import Any, get_args

import discord
import pytest

from cogs.uno import ids, render
from cogs.uno.render import ButtonSpec, HandPanel, SelectSpec
from cogs.uno.render.words import fit_items
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
from engine.cards import Card, Colour, card, cards, duo_deck, hand_order, pizza_deck
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
from engine.options import Variant
from engine.views import Pending, Phase, PrivateView, PublicView, SeatView
from tests.cogs.builders import ANN, BOB, PLAYERS, public_view

ALL_CARDS = sorted(set(duo_deck()) | set(pizza_deck()), key=hand_order)
NAMES = {ANN: "Ann", BOB: "Bob"}
# Worst-case display names: 32 characters full of markdown to escape.
LONG_NAMES = {p: ("*_~`|>" * 6)[:30] + str(i) for i, p in enumerate(PLAYERS)}
DEADLINE = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
TABLE = 9_223_372_036_854_775_807


def private(hand: Sequence[Card], legal: Sequence[Action] = (), **changes: Any) -> PrivateView:
    view = PrivateView(
        player=ANN,
        hand=tuple(sorted(hand, key=hand_order)),
        legal=tuple(legal),
        looking_at=None,
        drawn=None,
        revealed_hand=None,
        received=None,
        given=None,
    )
    return replace(view, **changes)


def one_of_every_event() -> list[Event]:
    """One instance of each event class, the long ones as long as they get."""
    return [
        RoundStarted(round=3, first=BOB, dealer=ANN),
        CutForPlayerOne(cuts=((ANN, card("R3")), (BOB, card("BS")), (ANN, card("G9"))), winner=ANN),
        DraftPicked(player=ANN, kept=True, shown=card("Y2")),
        FirstCardTurned(card=card("W")),
        CardReturned(card=card("W+2")),
        CardPlayed(player=ANN, card=card("R7")),
        ColourChosen(player=BOB, colour=Colour.GREEN),
        CardsDrawn(player=BOB, count=6, reason=DrawReason.VOLLEY),
        DrawnCardKept(player=ANN),
        TurnSkipped(player=BOB),
        DirectionChanged(clockwise=False),
        VolleyRaised(player=ANN, target=BOB, total=4),
        ChallengeResolved(challenger=BOB, challenged=ANN, legitimate=False),
        ColourDumped(player=ANN, cards=tuple(c for c in ALL_CARDS if c.colour is Colour.RED) * 2),
        DumpDeclined(player=BOB),
        CardGiven(giver=ANN, receiver=BOB),
        HandsShuffled(player=ANN),
        HandsSwapped(player=ANN, other=BOB),
        HandsPassed(player=BOB, clockwise=False),
        JumpedIn(player=BOB),
        DrawPileRefilled(size=57),
        UnoExposed(player=ANN),
        UnoCalled(player=ANN),
        UnoCaught(catcher=BOB, player=ANN),
        TurnStarted(player=BOB),
        PlayerRemoved(player=BOB),
        RoundEnded(
            round=2,
            winner=BOB,
            points=((ANN, 0), (BOB, 37)),
            scores=((ANN, 10), (BOB, 37)),
            hands=((ANN, tuple(cards("R7 W"))), (BOB, ())),
        ),
        MatchEnded(winner=ANN, scores=((ANN, 120), (BOB, 260)), forfeited=(BOB,)),
    ]


# ---------------------------------------------------------------- limit checks


def check_embed(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name or "") <= 256
        assert 0 < len(field.value or "") <= 1024
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000
    embed.to_dict()  # serialises


def check_components(
    components: Sequence[ButtonSpec | SelectSpec], *, version: int | None = None
) -> set[str]:
    """Check Discord's component limits; return every action code the components offer."""
    rows: dict[int, list[ButtonSpec | SelectSpec]] = {}
    for component in components:
        rows.setdefault(component.row, []).append(component)
    assert set(rows) <= set(range(5)), "at most 5 rows"
    custom_ids = [c.custom_id for c in components]
    assert len(custom_ids) == len(set(custom_ids)), "custom_ids are unique"
    offered: set[str] = set()
    for row in rows.values():
        selects = [c for c in row if isinstance(c, SelectSpec)]
        if selects:
            assert len(row) == 1, "a select is alone in its row"
        assert len(row) <= 5, "at most 5 buttons a row"
    for component in components:
        assert len(component.custom_id) <= 100
        parsed = ids.parse_custom_id(component.custom_id)
        assert isinstance(parsed, ids.TableControl), component.custom_id
        if version is not None and not parsed.versionless:
            assert parsed.version == version
        if isinstance(component, ButtonSpec):
            assert 0 < len(component.label) <= 80
            assert isinstance(component.style, discord.ButtonStyle)
            if parsed.action is not None:
                offered.add(parsed.code)
        else:
            assert parsed.is_select
            assert 1 <= len(component.options) <= 25
            assert len(component.placeholder) <= 150
            values = [o.value for o in component.options]
            assert len(values) == len(set(values))
            for option in component.options:
                assert 0 < len(option.label) <= 100
                assert len(option.value) <= 100
                assert option.description is None or len(option.description) <= 100
                if ids.order_card(option.value) is None:  # a dump's next card, else an action
                    ids.decode_action(option.value)
            offered.update(v for v in values if ids.order_card(v) is None)
    return offered


def check_panel(panel: HandPanel, legal: Sequence[Action], *, version: int) -> set[str]:
    assert 0 < len(panel.content) <= 2000
    if panel.embed is not None:
        check_embed(panel.embed)
    return check_components(panel.components, version=version)


def panel_text(panel: HandPanel) -> str:
    """Everything a player reads in a panel."""
    parts = [panel.content]
    if panel.embed is not None:
        parts += [panel.embed.title or "", panel.embed.description or ""]
        parts += [f"{f.name} {f.value}" for f in panel.embed.fields]
    for component in panel.components:
        if isinstance(component, ButtonSpec):
            parts.append(component.label)
        else:
            parts += [o.label for o in component.options]
            parts += [o.description or "" for o in component.options]
    return "\n".join(parts)


def all_pages(
    view: PrivateView, pub: PublicView, *, names: dict[str, str] = NAMES, version: int = 5
) -> Iterator[HandPanel]:
    """Every page of a panel: follow its `pg.{n}` button until it comes back to 0."""
    page = 0
    for _ in range(20):
        panel = render.hand_panel(
            view, pub, names=names, table_id=TABLE, version=version, page=page
        )
        yield panel
        turns = [
            p.page
            for c in panel.components
            if (p := ids.parse_custom_id(c.custom_id)) is not None
            and isinstance(p, ids.TableControl)
            and p.page is not None
        ]
        if not turns or turns[0] == 0:
            return
        page = turns[0]
    pytest.fail("paging never came back to the first page")


def codes_of(legal: Sequence[Action]) -> set[str]:
    """What a panel offers: every legal action, but a play (or dump) that leaves one
    card only as its UNO-calling twin (one button, not the pair)."""
    codes = {ids.encode_action(a) for a in legal}
    return {c for c in codes if not (c.startswith(("p.", "du.")) and _twin(c) in codes)}


def _twin(code: str) -> str:
    kind, _, rest = code.partition(".")
    return f"{kind}u.{rest}"


# ---------------------------------------------------------------- generated views


def legal_for(pending: Pending, hand: Sequence[Card], rng: random.Random) -> Sequence[Action]:
    """A plausible (or deliberately greedy) list of legal actions for `pending`."""
    distinct = sorted(set(hand), key=hand_order)
    if pending in (Pending.DRAFT_PICK,):
        return [KeepCard(), RejectCard()]
    if pending is Pending.DRAFT_FORCED:
        return [KeepCard()]
    if pending is Pending.DRAWN_CARD:
        drawn = distinct[-1]
        return [Play(drawn), Play(drawn, uno=True), KeepDrawn(), CatchUno()]
    if pending is Pending.COLOUR:
        return [ChooseColour(c) for c in Colour]
    if pending is Pending.VOLLEY:
        return [Play(c) for c in distinct if c.face.value == "+2"] + [TakeVolley()]
    if pending is Pending.WILD_DRAW:
        return [Challenge(), Accept()]
    if pending is Pending.DUMP:
        colour = rng.choice(list(Colour))
        lasts = [c for c in distinct if c.colour is colour]
        return [Dump(c) for c in lasts] + [Dump(c, uno=True) for c in lasts] + [NoDump()]
    if pending is Pending.REVERSE_DUMP:
        colour = rng.choice(list(Colour))
        lasts = [c for c in distinct if c.colour is colour]
        plays = [Play(c) for c in distinct if c.colour in (colour, None)]
        return [*(Dump(c) for c in lasts), *plays, Draw(), CallUno()]
    if pending is Pending.GIVE:
        return [Give(c) for c in distinct]
    # An ordinary turn, greedy: every card, with and without UNO, and every extra button.
    greedy = [Play(c, uno=uno) for uno in (False, True) for c in distinct]
    return [*greedy, Draw(), CallUno(), CatchUno()]


def generated_cases() -> Iterator[tuple[str, int, int, Pending]]:
    seat_counts = {"duo": range(2, 6), "pizza": range(2, 6), "classic": (2, 6, 10)}
    for variant, counts in seat_counts.items():
        for size in (1, 7, 40, 60):
            for players in counts:
                for pending in Pending:
                    yield variant, size, players, pending


@pytest.mark.parametrize(("variant", "size", "players", "pending"), list(generated_cases()))
def test_every_view_stays_within_discord_limits(
    variant: str, size: int, players: int, pending: Pending
) -> None:
    rng = random.Random(f"{variant}{size}{players}{pending}")
    seated = PLAYERS[:players]
    hands = {p: [rng.choice(ALL_CARDS) for _ in range(size)] for p in seated}
    top = rng.choice(ALL_CARDS)
    active = rng.choice(list(Colour)) if top.is_wild else top.colour
    phase = Phase.DRAFT if pending in (Pending.DRAFT_PICK, Pending.DRAFT_FORCED) else Phase.PLAY
    recent = tuple(one_of_every_event()) * 2
    pub = public_view(
        variant=variant,
        round=99,
        target=10_000,
        phase=phase,
        pending=pending,
        seats=tuple(
            SeatView(p, size, 9999, exposed=i % 2 == 0, seated=i != 3) for i, p in enumerate(seated)
        ),
        to_act=ANN,
        top=None if phase is Phase.DRAFT else top,
        active_colour=None if phase is Phase.DRAFT else active,
        pending_draw=40,
        clockwise=rng.random() < 0.5,
        dealer=seated[-1],
        draft_pile=tuple(ALL_CARDS[:60]) if phase is Phase.DRAFT else (),
        recent=recent,
    )
    for names in (NAMES, LONG_NAMES, {}):
        embed = render.table_embed(pub, names=names, table_id=TABLE, deadline=DEADLINE)
        check_embed(embed)
        check_components(render.table_components(pub, table_id=TABLE))

        legal = legal_for(pending, hands[ANN], rng)
        view = private(
            hands[ANN],
            legal,
            looking_at=rng.choice(ALL_CARDS),
            drawn=hands[ANN][-1],
            revealed_hand=tuple(hands[BOB]),
            received=rng.choice(ALL_CARDS),
            given=rng.choice(ALL_CARDS),
        )
        offered: set[str] = set()
        for panel in all_pages(view, pub, names=names, version=2**63 - 1):
            offered |= check_panel(panel, legal, version=2**63 - 1)
        assert offered == codes_of(legal), "every legal action is offered, nothing else"


@pytest.mark.parametrize("size", [1, 7, 40, 60])
def test_every_card_of_the_hand_is_listed(size: int) -> None:
    rng = random.Random(size)
    hand = [rng.choice(ALL_CARDS) for _ in range(size)]
    panel = render.hand_panel(
        private(hand, [Draw()]), public_view(), names=NAMES, table_id=1, version=1
    )
    assert panel.embed is not None
    listed = panel.embed.description or ""
    for c in set(hand):
        colour = "Wilds" if c.colour is None else c.colour.title
        line = next(
            line for line in listed.splitlines() if line.startswith(render.colour_emoji(c.colour))
        )
        assert colour in line
        face = render.card_title(c) if c.colour is None else c.title.split(" ", 1)[1]
        count = hand.count(c)
        expected = face if count == 1 else f"{face} ×{count}"
        assert expected in line.split(": ", 1)[1].split(", ") or f"**{expected}**" in line
    assert panel.embed.title == f"Your hand · {size} card" + ("s" if size > 1 else "")


def test_sixty_distinct_greedy_plays_are_paged_without_loss() -> None:
    every: list[Action] = [Play(c, uno=uno) for uno in (False, True) for c in ALL_CARDS]
    every += [Dump(c) for c in ALL_CARDS]
    every += [Give(c) for c in ALL_CARDS]
    legal: list[Action] = [
        *every,
        Draw(),
        KeepDrawn(),
        TakeVolley(),
        Challenge(),
        Accept(),
        NoDump(),
    ]
    legal += [CallUno(), CatchUno(), KeepCard(), RejectCard(), *[ChooseColour(c) for c in Colour]]
    view = private(ALL_CARDS, legal)
    panels = list(all_pages(view, public_view()))
    assert len(panels) > 1
    offered: set[str] = set()
    for panel in panels:
        offered |= check_panel(panel, legal, version=5)
        assert "page" in panel.content
    assert offered == codes_of(legal)


# ---------------------------------------------------------------- words


@pytest.mark.parametrize(
    ("code", "active", "label"),
    [
        ("R7", None, "🟥 Red 7"),
        ("BS", None, "🟦 Blue Skip"),
        ("Y+2", None, "🟨 Yellow Draw 2"),
        ("G+1", Colour.GREEN, "🟩 Green Draw One"),
        ("W+4", None, "⬛ Wild Draw 4"),
        ("W", Colour.GREEN, "⬛ Wild → 🟩 Green"),
        ("WDIP", Colour.BLUE, "⬛ Wild Dip Into The Deck → 🟦 Blue"),
    ],
)
def test_card_labels_carry_words(code: str, active: Colour | None, label: str) -> None:
    assert render.card_label(card(code), active) == label


def test_every_card_label_names_its_colour_in_words() -> None:
    for c in ALL_CARDS:
        label = render.card_label(c)
        assert (c.colour.title if c.colour else "Wild") in label
        assert label.startswith(render.colour_emoji(c.colour))


def test_colour_values() -> None:
    assert render.colour_value(Colour.RED) == 0xD72600
    assert render.colour_value(Colour.YELLOW) == 0xECD407
    assert render.colour_value(Colour.GREEN) == 0x379711
    assert render.colour_value(Colour.BLUE) == 0x0956BF
    assert render.colour_value(None) == 0x2B2D31


def test_every_event_class_is_described() -> None:
    samples = one_of_every_event()
    assert {type(e) for e in samples} == set(get_args(Event))
    for event in samples:
        line = render.describe_event(event, NAMES, variant="duo")
        if isinstance(event, TurnStarted):
            assert line is None  # the table shows whose turn it is
            continue
        assert line, event
        assert "<@" not in line
        assert "\n" not in line
        assert len(line) < 1024


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (CardPlayed(ANN, card("R7")), "**Ann** played 🟥 Red 7"),
        (CardsDrawn(BOB, 2, DrawReason.VOLLEY), "**Bob** drew 2 cards (volley)"),
        (CardsDrawn(BOB, 1, DrawReason.TURN), "**Bob** drew a card"),
        (
            UnoCaught(catcher=BOB, player=ANN),
            "**Ann** was caught by **Bob** without calling UNO and draws 2",
        ),
        (
            RoundEnded(2, BOB, ((ANN, 0), (BOB, 37)), ((ANN, 0), (BOB, 37)), ()),
            "Round 2: **Bob** wins 37 points",
        ),
        (
            RoundEnded(2, BOB, ((ANN, 0), (BOB, 1)), ((ANN, 0), (BOB, 1)), ()),
            "Round 2: **Bob** wins 1 point",
        ),
        (
            RoundEnded(2, BOB, ((ANN, 37), (BOB, 0)), ((ANN, 37), (BOB, 0)), ()),
            "Round 2: **Bob** went out; **Ann** +37",
        ),
        (ColourChosen(ANN, Colour.BLUE), "**Ann** named 🟦 Blue"),
        (
            DraftPicked(ANN, kept=False, shown=card("G5")),
            "**Ann** rejected 🟩 Green 5 and must keep the next card",
        ),
        (DraftPicked(ANN, kept=True, shown=None), "**Ann** kept a draft card"),
        (
            ChallengeResolved(BOB, ANN, legitimate=False),
            "**Bob** challenged **Ann**: it was a bluff",
        ),
    ],
)
def test_events_read_as_sentences(event: Event, line: str) -> None:
    assert render.describe_event(event, NAMES) == line


def test_private_events_name_no_card() -> None:
    # A kept draft card, a Dip gift and a drawn card are never named (events hold none).
    for event in (
        DraftPicked(ANN, kept=True, shown=None),
        CardGiven(ANN, BOB),
        CardsDrawn(ANN, 1, DrawReason.DIP),
    ):
        line = render.describe_event(event, NAMES) or ""
        assert not any(c.title in line for c in ALL_CARDS), line


def test_names_are_escaped_and_clipped() -> None:
    names = {ANN: "**bold** @everyone " + "x" * 60}
    line = render.describe_event(UnoCalled(ANN), names) or ""
    assert "\\*\\*bold\\*\\*" in line
    assert len(render.plain_name(names, ANN)) <= 32
    assert render.plain_name({}, ANN).startswith("Player")


def test_counts_of_one_are_singular_on_the_table_and_in_summaries() -> None:
    seats = (SeatView(ANN, 1, 1, exposed=False, seated=True), SeatView(BOB, 2, 0, False, True))
    table = render.table_embed(public_view(seats=seats), names=NAMES, table_id=1, deadline=None)
    players = (table.fields[0].value or "").splitlines()
    assert players == ["▶ **Ann** · 1 card · 1 pt", "**Bob** · 2 cards · 0 pts"]
    ended = RoundEnded(
        round=1,
        winner=BOB,
        points=((ANN, 1), (BOB, 0)),
        scores=((ANN, 1), (BOB, 0)),
        hands=((ANN, (card("R1"),)), (BOB, ())),
    )
    summary = render.round_summary(ended, NAMES, "duo")
    ann = next(f for f in summary.fields if (f.name or "").startswith("Ann"))
    assert ann.name == "Ann · 1 card left"
    assert (ann.value or "").endswith("+1 point · total **1**")
    match = render.match_summary(MatchEnded(BOB, ((ANN, 1), (BOB, 0)), ()), NAMES, "duo")
    assert "**Ann** · 1 point" in (match.description or "")
    assert fit_items(["a" * 20], 8) == "1 card"  # too long even for "… +1 more"


# ---------------------------------------------------------------- table


@pytest.mark.parametrize("colour", [*Colour, None])
def test_embed_colour_follows_the_active_colour(colour: Colour | None) -> None:
    top = card("W") if colour is None else Card.parse(colour.value + "5")
    embed = render.table_embed(
        public_view(top=card("W"), active_colour=colour), names=NAMES, table_id=1, deadline=None
    )
    assert embed.colour is not None
    assert embed.colour.value == render.colour_value(colour)
    panel = render.hand_panel(
        private([top]), public_view(active_colour=colour), names=NAMES, table_id=1, version=1
    )
    assert panel.embed is not None
    assert panel.embed.colour is not None
    assert panel.embed.colour.value == render.colour_value(colour)


def test_table_shows_the_public_state() -> None:
    pub = public_view(
        variant="pizza",
        round=3,
        target=250,
        seats=(
            SeatView(ANN, 1, 40, exposed=True, seated=True),
            SeatView(BOB, 5, 12, exposed=False, seated=True),
            SeatView(PLAYERS[2], 0, 7, exposed=False, seated=False),
        ),
        to_act=BOB,
        top=card("W"),
        active_colour=Colour.GREEN,
        pending=Pending.VOLLEY,
        pending_draw=6,
        clockwise=False,
        dealer=ANN,
        recent=(CardPlayed(ANN, card("W")), ColourChosen(ANN, Colour.GREEN), TurnStarted(BOB)),
    )
    embed = render.table_embed(
        pub, names={**NAMES, PLAYERS[2]: "Cy"}, table_id=17, deadline=DEADLINE
    )
    text = f"{embed.title}\n{embed.description}\n" + "\n".join(
        f"{f.name}\n{f.value}" for f in embed.fields
    )
    assert "UNO Pocket Pizza Pizza" in text
    assert "Round 3" in text
    assert "250" in text
    assert "⬛ Wild → 🟩 Green" in text
    assert f"<t:{int(DEADLINE.timestamp())}:R>" in text
    assert "owes 6" in text
    assert "counter-clockwise" in text
    assert "Dealer: **Ann**" in text
    players = embed.fields[0].value or ""
    assert "**Ann** · 1 card · 40 pts · dealer · ⚠️ hasn't called UNO" in players
    assert "▶ **Bob** · 5 cards · 12 pts" in players
    assert "~~Cy~~ left" in players
    assert "**Ann** named 🟩 Green" in text
    assert "<@" not in text
    assert "17" in (embed.footer.text or "")


@pytest.mark.parametrize(
    ("pending", "words"),
    [
        (Pending.NONE, "to play"),
        (Pending.DRAFT_PICK, "keep or reject"),
        (Pending.DRAFT_FORCED, "must keep"),
        (Pending.DRAWN_CARD, "play it or keep it"),
        (Pending.COLOUR, "naming a colour"),
        (Pending.VOLLEY, "owes 4"),
        (Pending.WILD_DRAW, "challenge or accept"),
        (Pending.DUMP, "dump every 🟥 Red card"),
        (Pending.REVERSE_DUMP, "normal turn"),
        (Pending.GIVE, "give"),
    ],
)
def test_table_words_every_pending_decision(pending: Pending, words: str) -> None:
    embed = render.table_embed(
        public_view(pending=pending, pending_draw=4), names=NAMES, table_id=1, deadline=None
    )
    assert words in (embed.description or "")


def test_draft_pile_is_shown_in_order() -> None:
    pile = tuple(cards("R1 G+2 W B9 YS"))
    embed = render.table_embed(
        public_view(
            phase=Phase.DRAFT,
            pending=Pending.DRAFT_PICK,
            top=None,
            active_colour=None,
            draft_pile=pile,
        ),
        names=NAMES,
        table_id=1,
        deadline=None,
    )
    field = next(f for f in embed.fields if (f.name or "").startswith("Draft pile"))
    assert field.value == ", ".join(render.card_label(c) for c in pile)
    assert embed.colour is not None
    assert embed.colour.value == render.NEUTRAL


def test_long_draft_pile_and_log_are_cut_gracefully() -> None:
    pile = tuple(ALL_CARDS) * 3
    recent = tuple(CardPlayed(ANN, c) for c in ALL_CARDS)
    embed = render.table_embed(
        public_view(phase=Phase.DRAFT, draft_pile=pile, recent=recent),
        names=LONG_NAMES,
        table_id=1,
        deadline=None,
    )
    check_embed(embed)
    draft = next(f for f in embed.fields if (f.name or "").startswith("Draft pile"))
    assert (draft.value or "").startswith(render.card_label(pile[0]))
    assert re.search(r"… \+\d+ more$", draft.value or "")
    log = next(f for f in embed.fields if f.name == "Last moves")
    assert (log.value or "").endswith(render.card_label(ALL_CARDS[-1]))


def test_table_buttons() -> None:
    buttons = render.table_components(public_view(), table_id=12)
    assert [(b.label, b.style) for b in buttons] == [
        ("Hand", discord.ButtonStyle.primary),
        ("Call UNO", discord.ButtonStyle.success),
    ]
    exposed = public_view(seats=(SeatView(ANN, 1, 0, True, True), SeatView(BOB, 3, 0, False, True)))
    catch = render.table_components(exposed, table_id=12)[1]
    assert (catch.label, catch.style) == ("Catch", discord.ButtonStyle.danger)
    assert [ids.parse_custom_id(b.custom_id) for b in buttons] == [
        ids.TableControl(12, ids.ANY_VERSION, "hand"),
        ids.TableControl(12, ids.ANY_VERSION, "uno"),
    ]
    assert not any(b.disabled for b in buttons)
    over = render.table_components(
        public_view(phase=Phase.MATCH_OVER, to_act=None, winner=ANN), table_id=12
    )
    assert all(b.disabled for b in over)


def test_match_over_table_names_the_winner() -> None:
    embed = render.table_embed(
        public_view(phase=Phase.MATCH_OVER, to_act=None, winner=BOB),
        names=NAMES,
        table_id=1,
        deadline=DEADLINE,
    )
    assert "**Bob** wins the match" in (embed.description or "")
    assert "<t:" not in (embed.description or "")


# ---------------------------------------------------------------- hand panel


def buttons(panel: HandPanel) -> list[ButtonSpec]:
    return [c for c in panel.components if isinstance(c, ButtonSpec)]


def selects(panel: HandPanel) -> list[SelectSpec]:
    return [c for c in panel.components if isinstance(c, SelectSpec)]


def by_code(panel: HandPanel) -> dict[str, ButtonSpec]:
    out = {}
    for b in buttons(panel):
        parsed = ids.parse_custom_id(b.custom_id)
        assert isinstance(parsed, ids.TableControl)
        out[parsed.code] = b
    return out


def test_identical_cards_are_grouped_on_one_button() -> None:
    hand = cards("R7 R7 R7 G7 B2")
    legal: list[Action] = [Play(card("R7")), Play(card("R7")), Play(card("G7")), Draw()]
    panel = render.hand_panel(
        private(hand, legal), public_view(), names=NAMES, table_id=4, version=9
    )
    check_panel(panel, legal, version=9)
    found = by_code(panel)
    assert found["p.R7"].label == "Red 7 ×3"
    assert found["p.R7"].emoji == "🟥"
    assert found["p.G7"].label == "Green 7"
    assert sum("Red 7" in b.label for b in buttons(panel)) == 1
    assert panel.embed is not None
    assert "🟥 Red: **7 ×3**" in (panel.embed.description or "")


def test_uno_variants_only_when_the_engine_lists_them() -> None:
    hand = cards("R7 R8")
    without = render.hand_panel(
        private(hand, [Play(card("R7")), Draw()]), public_view(), names=NAMES, table_id=1, version=1
    )
    assert not any("UNO" in b.label for b in buttons(without))
    legal: list[Action] = [Play(card("R7")), Play(card("R7"), uno=True), Draw()]
    with_uno = render.hand_panel(
        private(hand, legal), public_view(), names=NAMES, table_id=1, version=1
    )
    found = by_code(with_uno)
    assert found["pu.R7"].label == "Play Red 7 · UNO!"
    assert "p.R7" not in found  # one button, not the pair


def test_plays_move_to_a_select_when_buttons_do_not_fit() -> None:
    hand = [c for c in ALL_CARDS if c.colour is not None][:30]
    legal: list[Action] = [*(Play(c) for c in hand), Draw()]
    panel = render.hand_panel(
        private(hand, legal), public_view(), names=NAMES, table_id=1, version=3
    )
    offered = check_panel(panel, legal, version=3)
    assert offered == codes_of(legal)
    assert len(selects(panel)) == 2  # 30 plays: 25 + 5 options
    assert selects(panel)[0].placeholder.startswith("Play")
    assert by_code(panel)["d"].label == "Draw a card"


def test_layout_rows_colours_then_cards_then_decisions() -> None:
    hand = cards("R1 R2 R3 G1 G2 G3 B1")
    legal: list[Action] = [*(Play(c) for c in hand), Draw(), CatchUno()]
    panel = render.hand_panel(
        private(hand, legal), public_view(), names=NAMES, table_id=1, version=3
    )
    check_panel(panel, legal, version=3)
    found = by_code(panel)
    assert found["p.R1"].row == 0
    assert found["p.B1"].row == 1  # 5 buttons a row
    assert found["d"].row == found["cc"].row == 2


def test_colour_picker_is_one_row_of_four() -> None:
    legal: list[Action] = [ChooseColour(c) for c in Colour]
    panel = render.hand_panel(
        private(cards("R1 W"), legal),
        public_view(pending=Pending.COLOUR),
        names=NAMES,
        table_id=1,
        version=3,
    )
    check_panel(panel, legal, version=3)
    picked = buttons(panel)
    assert [(b.label, b.emoji, b.row) for b in picked] == [
        ("Red", "🟥", 0),
        ("Yellow", "🟨", 0),
        ("Green", "🟩", 0),
        ("Blue", "🟦", 0),
    ]
    assert "name the colour" in panel.content


def test_volley_and_wild_draw_buttons_show_the_total() -> None:
    legal: list[Action] = [Play(card("B+2")), TakeVolley()]
    panel = render.hand_panel(
        private(cards("B+2 G4"), legal),
        public_view(pending=Pending.VOLLEY, pending_draw=6),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert by_code(panel)["tv"].label == "Take 6 cards"
    assert "take 6 cards" in panel.content
    legal = [Challenge(), Accept()]
    panel = render.hand_panel(
        private(cards("G4"), legal),
        public_view(pending=Pending.WILD_DRAW, pending_draw=4),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert by_code(panel)["ac"].label == "Accept, draw 4"
    assert by_code(panel)["ch"].label == "Challenge"


def test_drawn_card_can_be_played_or_kept() -> None:
    legal: list[Action] = [Play(card("G9")), KeepDrawn()]
    panel = render.hand_panel(
        private(cards("G9 R1"), legal, drawn=card("G9")),
        public_view(pending=Pending.DRAWN_CARD, top=card("G2"), active_colour=Colour.GREEN),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert "you drew 🟩 Green 9" in panel.content
    assert set(by_code(panel)) == {"p.G9", "kd"}


def test_dump_offers_the_choice_of_the_last_card() -> None:
    hand = cards("R1 R5 RS R+2 G3")
    legal: list[Action] = [*(Dump(card(c)) for c in ("R1", "R5", "RS", "R+2")), NoDump()]
    panel = render.hand_panel(
        private(hand, legal),
        public_view(pending=Pending.DUMP, top=card("RR")),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert check_panel(panel, legal, version=3) == codes_of(legal)
    found = by_code(panel)
    assert found["du.RS"].label == "Dump, Red Skip last"
    assert found["nd"].label == "Don't dump"
    assert "dump every 🟥 Red card" in panel.content


def test_dump_descriptions_count_the_cards_laid() -> None:
    # Descriptions show in selects only: enough plays push the dump into one.
    plays: list[Action] = [*(Play(c) for c in ALL_CARDS), *(Give(c) for c in ALL_CARDS)]
    legal: list[Action] = [Dump(card("R1")), *plays, Draw()]
    for hand, described in (
        ("R1 R5 G3", "Lay all 2 Red cards; the last one acts"),
        ("R1 G3", "Lay your only Red card"),
    ):
        pub = public_view(pending=Pending.REVERSE_DUMP, top=card("RR"))
        options = [
            option
            for panel in all_pages(private(cards(hand), legal), pub)
            for select in selects(panel)
            for option in select.options
        ]
        assert [o.description for o in options if o.value == "du.R1"] == [described]


def test_give_after_a_dip_offers_every_card() -> None:
    hand = cards("R1 G5 W B9")
    legal: list[Action] = [Give(c) for c in hand]
    panel = render.hand_panel(
        private(hand, legal, received=None, given=None),
        public_view(variant="pizza", pending=Pending.GIVE),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert check_panel(panel, legal, version=3) == codes_of(legal)
    assert by_code(panel)["g.W"].label == "Give Wild"


def test_draft_shows_the_card_looked_at() -> None:
    legal: list[Action] = [KeepCard(), RejectCard()]
    panel = render.hand_panel(
        private(cards("R1"), legal, looking_at=card("B7")),
        public_view(phase=Phase.DRAFT, pending=Pending.DRAFT_PICK, top=None, active_colour=None),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert "🟦 Blue 7" in panel.content
    assert by_code(panel)["kc"].label == "Keep Blue 7"
    assert by_code(panel)["rc"].label.startswith("Reject")
    forced = render.hand_panel(
        private(cards("R1"), [KeepCard()], looking_at=card("Y3")),
        public_view(phase=Phase.DRAFT, pending=Pending.DRAFT_FORCED, top=None, active_colour=None),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert "must keep 🟨 Yellow 3" in forced.content
    assert set(by_code(forced)) == {"kc"}


def test_challenger_sees_the_revealed_hand_and_the_dip_cards() -> None:
    pub = public_view(recent=(CardGiven(ANN, BOB), ChallengeResolved(ANN, BOB, legitimate=True)))
    panel = render.hand_panel(
        private(
            cards("R1"),
            [],
            revealed_hand=tuple(cards("Y4 Y4 W+4")),
            received=card("G2"),
            given=card("BS"),
        ),
        pub,
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert panel.embed is not None
    field = panel.embed.fields[0]
    assert field.name == "Bob's hand (only you see it)"
    assert "🟨 Yellow: 4 ×2" in (field.value or "")
    assert "Wild Draw 4" in (field.value or "")
    assert "You received 🟩 Green 2" in panel.content
    assert "You gave away 🟦 Blue Skip" in panel.content


def test_notices_are_cleared_at_the_players_next_decision() -> None:
    before = (CardGiven(BOB, ANN), ChallengeResolved(ANN, BOB, legitimate=False))
    seen = private(cards("R1 G2"), [], revealed_hand=tuple(cards("B2 G2")), received=card("G2"))
    shown = render.hand_panel(seen, public_view(recent=before), names=NAMES, table_id=1, version=3)
    assert "You received" in shown.content
    assert shown.embed is not None
    assert _revealed_fields(shown.embed)
    later = (*before, CardPlayed(ANN, card("R1")))  # Ann's next decision
    cleared = render.hand_panel(seen, public_view(recent=later), names=NAMES, table_id=1, version=4)
    assert "You received" not in cleared.content
    assert cleared.embed is not None
    assert not _revealed_fields(cleared.embed)
    # What stays is public: the seats and the last moves, as on the table.
    assert [f.name for f in cleared.embed.fields] == ["Players", "Last moves"]


def _revealed_fields(embed: discord.Embed) -> list[str]:
    """The panel's fields that show a hand other than the player's own."""
    return [f.name or "" for f in embed.fields if "only you see it" in (f.name or "")]


@pytest.mark.parametrize(
    ("legitimate", "hand", "reason"),
    [
        (False, "G2 R9", "Bob held 🟩 Green 2, which matched the 🟦 Blue 2 the wild covered."),
        (True, "R9 Y1", "Bob held nothing else that could go on the 🟦 Blue 2: the wild was fair."),
    ],
)
def test_a_challenge_verdict_says_why(legitimate: bool, hand: str, reason: str) -> None:
    recent = (
        CardPlayed(ANN, card("B2")),
        CardPlayed(BOB, card("W+4")),
        ColourChosen(BOB, Colour.RED),
        ChallengeResolved(ANN, BOB, legitimate=legitimate),
    )
    panel = render.hand_panel(
        private(cards("R1"), [], revealed_hand=tuple(cards(hand))),
        public_view(recent=recent),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert f"⚖️ {reason}" in panel.content


def test_another_players_private_cards_never_appear() -> None:
    ann_hand = cards("R1 R2 G3")
    bob_hand = cards("Y9 B+2 WDIP")  # none of these is Ann's or public
    pub = public_view(
        seats=(SeatView(ANN, 3, 0, False, True), SeatView(BOB, 3, 0, False, True)),
        recent=tuple(one_of_every_event()[:3]),
    )
    bob = private(bob_hand, [Play(card("B+2")), Draw()], player=BOB)
    for pending in Pending:
        ann = private(ann_hand, legal_for(pending, ann_hand, random.Random(1)))
        panel = render.hand_panel(
            ann, replace(pub, pending=pending), names=NAMES, table_id=1, version=1
        )
        text = panel_text(panel)
        for c in bob_hand:
            assert c.title not in text, (pending, c)
        assert "B+2" not in "".join(c.custom_id for c in panel.components)
    # Bob's own panel does show them: the check above can fail.
    own = panel_text(render.hand_panel(bob, pub, names=NAMES, table_id=1, version=1))
    assert "Wild Dip Into The Deck" in own


def test_waiting_player_sees_hand_and_can_catch() -> None:
    panel = render.hand_panel(
        private(cards("R1 G2"), [CatchUno()]),
        public_view(to_act=BOB),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert "Waiting for **Bob**" in panel.content
    assert set(by_code(panel)) == {"cc"}


def test_duplicate_legal_actions_do_not_duplicate_ids() -> None:
    legal: list[Action] = [Draw(), Draw(), Play(card("R1")), Play(card("R1"))]
    panel = render.hand_panel(
        private(cards("R1 R1"), legal), public_view(), names=NAMES, table_id=1, version=3
    )
    assert check_panel(panel, legal, version=3) == {"d", "p.R1"}


# ---------------------------------------------------------------- summaries and rules


def test_round_summary_lists_cards_points_and_totals() -> None:
    event = RoundEnded(
        round=4,
        winner=BOB,
        points=((ANN, 27), (BOB, 0)),
        scores=((ANN, 150), (BOB, 80)),
        hands=((ANN, tuple(cards("R7 W R+2"))), (BOB, ())),
    )
    embed = render.round_summary(event, NAMES, "duo")
    check_embed(embed)
    assert embed.title == "Round 4: Bob went out"
    ann = next(f for f in embed.fields if (f.name or "").startswith("Ann"))
    assert ann.name == "Ann · 3 cards left"
    assert "🟥 Red: 7, Draw 2" in (ann.value or "")
    assert "⬛ Wilds: Wild" in (ann.value or "")
    assert "+27 points · total **150**" in (ann.value or "")
    bob = next(f for f in embed.fields if (f.name or "").startswith("Bob"))
    assert bob.name == "Bob 🏆 · went out"
    assert "No cards left." in (bob.value or "")


def test_summaries_fit_with_five_big_hands() -> None:
    rng = random.Random(5)
    hands = tuple((p, tuple(rng.choice(ALL_CARDS) for _ in range(60))) for p in PLAYERS)
    event = RoundEnded(
        round=12,
        winner=PLAYERS[0],
        points=tuple((p, 999) for p in PLAYERS),
        scores=tuple((p, 99_999) for p in PLAYERS),
        hands=hands,
    )
    check_embed(render.round_summary(event, LONG_NAMES, "pizza"))
    ended = MatchEnded(winner=PLAYERS[2], scores=event.scores, forfeited=PLAYERS[3:])
    check_embed(render.match_summary(ended, LONG_NAMES, "pizza"))


@pytest.mark.parametrize(
    ("variant", "order"), [("duo", [ANN, BOB, "c"]), ("pizza", [ANN, "c", BOB])]
)
def test_match_summary_ranks_by_the_variant(variant: str, order: list[str]) -> None:
    names = {**NAMES, "c": "Cy"}
    event = MatchEnded(winner=ANN, scores=((BOB, 100), ("c", 210), (ANN, 150)), forfeited=("c",))
    embed = render.match_summary(event, names, variant)
    check_embed(embed)
    lines = (embed.description or "").splitlines()
    assert [next(p for p in order if f"**{names[p]}**" in line) for line in lines[:3]] == order
    assert lines[0].startswith("🏆 **Ann**")
    assert "(forfeited)" in next(line for line in lines if "Cy" in line)
    assert "Ann wins" in (embed.title or "")


@pytest.mark.parametrize("variant", ["duo", "pizza", "classic"])
def test_rules_guide_is_one_screen_of_words_with_the_special_cards(variant: str) -> None:
    guide, details = render.rules_guide(variant), render.rules_details(variant)
    assert len(guide) <= 2000
    assert len(details) <= 2000
    for text in (guide, details):
        assert not re.search(r"\b[DPCHX]\d{1,2}\b", text)
    specials = ["Skip", "Reverse", "Wild"] + (["Draw One"] if variant == "pizza" else ["Draw 2"])
    assert all(f"{name}" in guide for name in specials)
    assert "🟥 Skip" in guide  # the card pictured (a colour square without emojis)


def test_rules_refuse_an_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        render.rules_guide("nope")
    with pytest.raises(ValueError, match="unknown variant"):
        render.rules_details("nope")


def test_one_of_every_event_renders_in_every_log_position() -> None:
    # The log keeps the newest lines: with more events than fit, the last one is shown.
    events = list(chain(one_of_every_event(), [CardPlayed(BOB, card("G0"))]))
    embed = render.table_embed(
        public_view(recent=tuple(events)), names=NAMES, table_id=1, deadline=None
    )
    log = next(f for f in embed.fields if f.name == "Last moves")
    assert (log.value or "").splitlines()[-1] == "**Bob** played 🟩 Green 0"


def test_a_wild_waiting_for_its_colour_shows_no_colour() -> None:
    # The view may still carry the previous colour while the wild's colour is being named.
    pub = public_view(pending=Pending.COLOUR, top=card("W+2"), active_colour=Colour.YELLOW)
    embed = render.table_embed(pub, names=NAMES, table_id=1, deadline=None)
    assert "**Top card:** ⬛ Wild Draw 2\n" in (embed.description or "")
    assert "Yellow" not in (embed.description or "")
    assert embed.colour is not None
    assert embed.colour.value == render.NEUTRAL
    named = replace(pub, pending=Pending.NONE)
    embed = render.table_embed(named, names=NAMES, table_id=1, deadline=None)
    assert "⬛ Wild Draw 2 → 🟨 Yellow" in (embed.description or "")


def test_dump_prompt_without_cards_to_dump() -> None:
    panel = render.hand_panel(
        private(cards("G1"), [NoDump()]),
        public_view(pending=Pending.DUMP, top=card("BR"), active_colour=Colour.BLUE),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert "no other 🟦 Blue card to dump" in panel.content
    assert set(by_code(panel)) == {"nd"}


def test_the_drawn_card_button_says_play() -> None:
    panel = render.hand_panel(
        private(cards("G9 R1"), [Play(card("G9")), KeepDrawn()], drawn=card("G9")),
        public_view(pending=Pending.DRAWN_CARD, top=card("G2"), active_colour=Colour.GREEN),
        names=NAMES,
        table_id=1,
        version=3,
    )
    assert by_code(panel)["p.G9"].label == "Play Green 9"


@pytest.mark.parametrize(
    ("variant", "players"),
    [("duo", 2), ("pizza", 2), ("pizza", 5), ("classic", 2), ("classic", 10)],
)
def test_real_random_games_render_within_limits(variant: Variant, players: int) -> None:
    """Drive the real engines with random legal actions; render every state on the way."""
    from engine.match import new_match

    seats = PLAYERS[:players]
    names = {p: f"Player {i}" for i, p in enumerate(seats)}
    match = new_match(variant, players=seats, seed=players)
    rng = random.Random(players)
    for _ in range(400):
        if match.is_over:
            break
        pub = match.public_view()
        check_embed(render.table_embed(pub, names=names, table_id=1, deadline=DEADLINE))
        for player in seats:
            view = match.private_view(player)
            offered: set[str] = set()
            for panel in all_pages(view, pub, names=names, version=match.version):
                offered |= check_panel(panel, view.legal, version=match.version)
            assert offered == codes_of(view.legal)
        actor = rng.choice(match.waiting_for())
        for event in match.apply(actor, rng.choice(match.legal_actions(actor))):
            render.describe_event(event, names, variant=variant)
            if isinstance(event, RoundEnded):
                check_embed(render.round_summary(event, names, variant))
            if isinstance(event, MatchEnded):
                check_embed(render.match_summary(event, names, variant))


def test_d9_a_dump_order_can_be_chosen_card_by_card() -> None:
    hand = cards("R1 R5 R7 G3")
    legal: list[Action] = [Dump(card("R1")), Dump(card("R5")), Dump(card("R7")), NoDump()]
    pub = public_view(pending=Pending.REVERSE_DUMP, top=card("RR"))
    first = render.hand_panel(private(hand, legal), pub, names=NAMES, table_id=1, version=4)
    found = by_code(first)
    assert {"du.R1", "du.R5", "du.R7"} <= set(found)  # lay all, ending with X: one click
    assert found["o.R5"].label == "First Red 5"
    chosen = render.hand_panel(
        private(hand, legal), pub, names=NAMES, table_id=1, version=4, order=(card("R5"),)
    )
    found = by_code(chosen)
    assert not any(code.startswith("du.") for code in found)
    assert [found[c].label for c in ("o.R1", "o.R7")] == ["Then Red 1", "Then Red 7"]
    assert found[ids.ORDER_RESTART].label == "Start the order over"
    assert "Laying in this order: 🟥 Red 5" in chosen.content


def test_a_panel_shows_the_seats_and_the_last_moves_as_the_table_does() -> None:
    """A player deciding needs nothing from the public table, which may trail fast play."""
    moves = tuple(CardPlayed(BOB, card(c)) for c in ("R1", "R2", "R3", "R4", "R5", "R7"))
    public = public_view(
        seats=(SeatView(ANN, 7, 12, False, True), SeatView(BOB, 1, 30, True, True)),
        recent=moves,
    )
    panel = render.hand_panel(
        private(cards("R9 G2"), [Play(card("R9"))]), public, names=NAMES, table_id=1, version=3
    )
    assert panel.embed is not None
    fields = {f.name: f.value or "" for f in panel.embed.fields}
    assert list(fields) == ["Players", "Last moves"]
    assert fields["Players"].splitlines() == [
        "▶ **Ann** · 7 cards · 12 pts",
        "**Bob** · 1 card · 30 pts · ⚠️ hasn't called UNO",
    ]
    shown = fields["Last moves"].splitlines()
    assert len(shown) == 4  # the latest ones, oldest first
    assert shown[-1].endswith("Red 7")
    assert "Red 1" not in fields["Last moves"]
