"""UNO Duo (docs/rules.md D1–D14): what only Duo has.

The cut (D2), the draft (D3), the first card (D4), the Draw 2 volley (D7), the
Reverse colour dump (D9), Wild Shuffle Hands (D1), and its scoring (D14: the
loser scores their hand; reaching the target loses). Everything else is the
shared turn (engine/turn.py) with two seats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import assert_never

from engine.actions import (
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Dump,
    KeepCard,
    KeepDrawn,
    NoDump,
    Play,
    RejectCard,
    TakeVolley,
)
from engine.board import Board
from engine.cards import HAND_ORDER, MATCHING, Card, Colour, Face, duo_deck, shuffle
from engine.errors import CardNotInHand, WrongMoment
from engine.events import (
    ColourDumped,
    CutForPlayerOne,
    DraftPicked,
    DrawReason,
    DumpDeclined,
    Event,
    FirstCardTurned,
    HandsShuffled,
    RoundStarted,
)
from engine.offers import DUMP, DUMP_UNO
from engine.options import DuoOptions, Options
from engine.piles import draw_cards, sync_playable
from engine.ruleset import Ruleset
from engine.scoring import clear_round_state, end_round, points_table
from engine.seats import give_turn
from engine.turn import turn_draw
from engine.uno_call import settle
from engine.views import Pending, Phase
from engine.volley import raise_volley
from engine.wild_draw import colour_legit, literal_legit

DRAFT_PICKS = 14  # D3: 7 cards each
POINTS = points_table(duo_deck(), action=10, wild=15, wild_draw_four=20)  # D14


# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup.
_DRAW_TWO, _SKIP, _REVERSE, _NONE = Face.DRAW_TWO, Face.SKIP, Face.REVERSE, Pending.NONE
_DRAFT_PICK = Pending.DRAFT_PICK
_DRAFT_FORCED = Pending.DRAFT_FORCED
_COLOUR = Pending.COLOUR
_FOR_FIRST_CARD = DrawReason.FIRST_CARD
_REVERSE_DUMP = Pending.REVERSE_DUMP
_WILD_DRAW_FOUR = Face.WILD_DRAW_FOUR
_VOLLEY = Pending.VOLLEY
_DUMP = Pending.DUMP
_FOR_VOLLEY = DrawReason.VOLLEY
_FOR_WILD_DRAW = DrawReason.WILD_DRAW
_WILD_SHUFFLE_HANDS = Face.WILD_SHUFFLE_HANDS


def deck(options: Options) -> list[Card]:
    assert isinstance(options, DuoOptions)
    return duo_deck(classic=options.classic_deck)


# D2, D3: the cut and the draft -------------------------------------------------------------


def start_match(t: Board, events: list[Event]) -> None:
    """D2: each cuts a random card; the higher number is Player 1; ties cut again."""
    cards = deck(t.options)
    cuts: list[tuple[str, Card]] = []
    while True:
        a, b = t.rng.sample(cards, 2)
        cuts += [(t.players[0], a), (t.players[1], b)]
        va, vb = a.face.number or 0, b.face.number or 0
        if va != vb:
            break
    t.dealer = 0 if va > vb else 1
    events.append(CutForPlayerOne(tuple(cuts), t.players[t.dealer]))
    start_round(t, events)


def start_round(t: Board, events: list[Event]) -> None:
    """D3: shuffle the whole deck; no deal, Player 1 picks first (roles swap, D2)."""
    t.round += 1
    if t.round > 1:
        t.dealer = 1 - t.dealer
    cards = deck(t.options)
    shuffle(t.rng, cards)
    t.draw = cards
    t.hands = [[], []]
    t.discard = []
    t.draft = []
    t.active = None
    sync_playable(t)
    t.picks = 0
    clear_round_state(t)
    t.phase = Phase.DRAFT
    t.pending = _DRAFT_PICK
    t.turn = t.dealer
    events.append(RoundStarted(t.round, t.players[1 - t.dealer], t.players[t.dealer]))


def keep_card(t: Board, i: int, events: list[Event]) -> None:
    t.hands[i].append(t.draw.pop())
    if t.pending is _DRAFT_PICK:  # the next card is turned face up onto the draft pile
        shown = t.draw.pop()
        t.draft.append(shown)
        events.append(DraftPicked(t.players[i], True, shown))
    t.picks += 1
    if t.picks < DRAFT_PICKS:
        t.turn = 1 - i
        t.pending = _DRAFT_PICK
        return
    # D3: the draft pile, flipped as one stack (oldest on top), goes under the draw pile.
    t.draft.reverse()
    t.draw[:0] = t.draft
    t.draft = []
    t.phase = Phase.PLAY
    first_card(t, events)


def reject_card(t: Board, i: int, events: list[Event]) -> None:
    shown = t.draw.pop()
    t.draft.append(shown)
    events.append(DraftPicked(t.players[i], False, shown))
    t.pending = _DRAFT_FORCED


def first_card(t: Board, events: list[Event]) -> None:
    """D4: turn up the first card; Player 2 carries out its action."""
    top = t.draw.pop()
    t.discard.append(top)
    t.active = top.colour
    sync_playable(t)
    events.append(FirstCardTurned(top))
    p1 = t.dealer
    p2 = 1 - p1
    if top.colour is None:  # Player 1 names the colour
        t.turn = p1
        t.pending = _COLOUR
        t.first_colour = True
    elif top.face is _SKIP:
        events.append(t.said[p2].skipped)
        give_turn(t, p1, _NONE, events)
    elif top.face is _DRAW_TWO:
        draw_cards(t, p2, 2, _FOR_FIRST_CARD, events)
        give_turn(t, p1, _NONE, events)
    elif top.face is _REVERSE:
        give_turn(t, p2, _REVERSE_DUMP, events)
    else:
        give_turn(t, p2, _NONE, events)


def first_colour_named(t: Board, i: int, events: list[Event]) -> None:
    """D4: Player 1 named the colour; no shuffle, no challenge."""
    if t.discard[-1].face is _WILD_DRAW_FOUR:
        draw_cards(t, 1 - i, 4, _FOR_FIRST_CARD, events)
        give_turn(t, i, _NONE, events)
    else:
        give_turn(t, 1 - i, _NONE, events)


# D6, D7, D9, D13: what a card does ----------------------------------------------------------


def effect(t: Board, i: int, card: Card, events: list[Event]) -> tuple[int, Pending] | None:
    o = 1 - i
    face = card.face
    if face is _DRAW_TWO:  # D7: the opponent stacks or takes the total
        raise_volley(t, i, o, 2, events)
        return o, _VOLLEY
    if face is _SKIP:  # D6: another turn
        events.append(t.said[o].skipped)
        return i, _NONE
    if face is _REVERSE:
        if any(c.colour is card.colour for c in t.hands[i]):
            t.pending = _DUMP  # D9: dump the colour or not, part of this play
            return None
        return o, _REVERSE_DUMP  # nothing to dump: the Reverse acts at once
    return o, _NONE


def final(t: Board, i: int, card: Card, events: list[Event]) -> None:
    """D13: a last Draw 2 (the volley's total) or Wild Draw 4 is drawn first."""
    if card.face is _DRAW_TWO:
        total = t.volley + 2
        t.volley = 0
        draw_cards(t, 1 - i, total, _FOR_VOLLEY, events)
    elif card.face is _WILD_DRAW_FOUR:
        draw_cards(t, 1 - i, 4, _FOR_WILD_DRAW, events)


def special_wild(t: Board, i: int, card: Card, events: list[Event]) -> Pending:
    """D1 Wild Shuffle Hands: pool, shuffle, deal back starting with the opponent."""
    if card.face is _WILD_SHUFFLE_HANDS:
        o = 1 - i
        pool = t.hands[i] + t.hands[o]
        shuffle(t.rng, pool)
        t.hands[o] = pool[0::2]
        t.hands[i] = pool[1::2]
        events.append(HandsShuffled(t.players[i]))
    return _NONE


def cards_left(t: Board, i: int, card: Card) -> int:
    """D11: cards left after playing `card`, a Wild Shuffle Hands' deal included."""
    left = len(t.hands[i]) - 1
    if card.face is _WILD_SHUFFLE_HANDS and left:
        left = (left + len(t.hands[1 - i])) // 2
    return left


def legit(
    options: Options, hand: Sequence[Card], top: Card, active: Colour | None, face: Face
) -> bool:
    """D10: literally (any card that could be played), or by the classic option."""
    assert isinstance(options, DuoOptions)
    test = colour_legit if options.classic_challenge else literal_legit
    return test(options, hand, top, active, face)


DuoAction = Dump | NoDump | KeepCard | RejectCard


def decide(t: Board, rules: Ruleset, i: int, action: DuoAction, events: list[Event]) -> None:
    """The decisions only Duo has, already judged legal."""
    match action:
        case Dump():
            dump(t, rules, i, action, events)
        case NoDump():
            no_dump(t, i, events)
        case KeepCard():
            keep_card(t, i, events)
        case RejectCard():
            reject_card(t, i, events)
        case _:
            assert_never(action)


# D9: the colour dump -----------------------------------------------------------------------


def legal_dumps(hand: list[Card], colour: Colour | None, acts: list[Action]) -> None:
    """One Dump per distinct card of the colour as the last card (the others in hand order)."""
    same = [c for c in hand if c.colour is colour]
    uno = len(hand) - len(same) == 1
    for c in dict.fromkeys(same):
        acts.append(DUMP[c])
        if uno:
            acts.append(DUMP_UNO[c])


def check_dump(hand: list[Card], dump: Dump, colour: Colour | None) -> None:
    last = dump.last
    if last not in hand:
        raise CardNotInHand("You don't have {a_card}.", a_card=last)
    if last.colour is None:
        raise WrongMoment("Wilds are never dumped.")
    if last.colour is not colour:
        raise WrongMoment("Only your {colour_cards} can be dumped now.", colour_cards=colour)
    same = [c for c in hand if c.colour is colour]
    order = dump.order
    if order and (order[-1] is not last or Counter(order) != Counter(same)):
        raise WrongMoment(
            "A dump lays every one of your {colour_cards} once, ending with the last.",
            colour_cards=colour,
        )
    if dump.uno and len(hand) - len(same) != 1:
        raise WrongMoment("Call UNO with a dump only when it leaves you one card.")


def dump_order(hand: list[Card], dump: Dump) -> list[Card]:
    """The order laid: the player's, or the other cards in hand order, then `last`."""
    if dump.order:
        return list(dump.order)
    laid = [c for c in hand if c.colour is dump.last.colour]
    laid.remove(dump.last)
    laid.sort(key=HAND_ORDER.__getitem__)
    laid.append(dump.last)
    return laid


def dump(t: Board, rules: Ruleset, i: int, action: Dump, events: list[Event]) -> None:
    """D9: lay every card of the colour in the chosen order; only the last has an effect."""
    last = action.last
    laid = dump_order(t.hands[i], action)
    hand = t.hands[i] = [c for c in t.hands[i] if c.colour is not last.colour]
    t.discard += laid
    t.active = last.colour
    t.playable = MATCHING[last][last.colour]
    t.exposed = -1
    o = 1 - i
    events.append(ColourDumped(t.players[i], tuple(laid)))
    t.call = action.uno
    if not hand:
        if last.face is _DRAW_TWO:  # D9/D13: the opponent still draws 2
            draw_cards(t, o, 2, _FOR_VOLLEY, events)
        end_round(t, rules, i, events)
        return
    turn, pending = o, _NONE
    if last.face is _SKIP:
        events.append(t.said[o].skipped)
        turn = i
    elif last.face is _DRAW_TWO:
        raise_volley(t, i, o, 2, events)
        pending = _VOLLEY
    elif last.face is _REVERSE:
        pending = _REVERSE_DUMP
    settle(t, i, events, logged=False)
    give_turn(t, turn, pending, events)


def no_dump(t: Board, i: int, events: list[Event]) -> None:
    """D9: a Reverse with nothing after it lets the opponent dump (as in D4)."""
    events.append(DumpDeclined(t.players[i]))
    settle(t, i, events, logged=False)
    give_turn(t, 1 - i, _REVERSE_DUMP, events)


RULES = Ruleset(
    variant="duo",
    title="UNO Duo",
    seats=(2, 2),
    deck=deck,
    points=POINTS,
    by_points=False,
    loser_scores=True,
    shuffled_refill=False,
    kept_events=20,
    uno_call_with_card=False,
    wild_draw_skips=False,
    actions=frozenset(
        {
            KeepCard,
            RejectCard,
            Play,
            Draw,
            KeepDrawn,
            ChooseColour,
            TakeVolley,
            Challenge,
            Accept,
            Dump,
            NoDump,
            CallUno,
            CatchUno,
        }
    ),
    start_match=start_match,
    start_round=start_round,
    effect=effect,
    final=final,
    special_wild=special_wild,
    first_colour_named=first_colour_named,
    legit=legit,
    left_after=cards_left,
    draw=turn_draw,
)
