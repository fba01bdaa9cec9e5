"""What a player may do now (`legal_actions`) and why not (`check`), for every
variant (X1). The two agree: a property test holds them equal, a dump's
chosen order aside (`check` accepts any order of the same cards; the offer
names one per last card).
"""

from __future__ import annotations

from engine import duo, jump_in, seven_o, stacking
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
    TakeVolley,
)
from engine.board import Board
from engine.cards import Card, Colour, Face
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    MatchOver,
    NotYourTurn,
    UnknownPlayer,
    WrongMoment,
)
from engine.offers import (
    ACCEPT,
    CALL,
    CATCH,
    CHALLENGE,
    COLOURS,
    DRAW,
    GIVE,
    KEEP_CARD,
    KEEP_DRAWN,
    NO_DUMP,
    PLAY,
    PLAY_UNO,
    REJECT_CARD,
    TAKE_VOLLEY,
)
from engine.ruleset import Ruleset
from engine.views import Pending
from engine.wild_draw import DRAWS
from engine.words import N_

# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup.
_NONE, _DRAWN, _COLOUR, _WILD_DRAW = (
    Pending.NONE,
    Pending.DRAWN_CARD,
    Pending.COLOUR,
    Pending.WILD_DRAW,
)
_REVERSE_DUMP = Pending.REVERSE_DUMP
_DUMP = Pending.DUMP
_VOLLEY = Pending.VOLLEY
_DRAFT_PICK = Pending.DRAFT_PICK
_DRAFT_FORCED = Pending.DRAFT_FORCED
_GIVE = Pending.GIVE
_SWAP = Pending.SWAP
_STACKED = {Face.DRAW_TWO: N_("Draw 2"), Face.WILD_DRAW_FOUR: N_("Wild Draw 4")}  # D7, H1


def legal_actions(t: Board, rules: Ruleset, i: int) -> list[Action]:
    pending = t.pending
    # `turn` is -1 once over, and so is a stranger's seat: hence `i >= 0`.
    if i == t.turn and i >= 0 and (pending is _NONE or pending is _REVERSE_DUMP):
        # D5/P4/C4: every matching card or wild (each distinct card once), and Draw.
        hand = t.hands[i]
        ok = t.playable
        acts: list[Action] = []
        seen: list[Card] = []  # a hand may hold two equal cards
        small = len(hand) <= 4  # only then can a play leave one card (D1's shuffle too)
        for c in hand:
            if c in ok and c not in seen:
                seen.append(c)
                acts.append(PLAY[c])
                if small and rules.left_after(t, i, c) == 1:
                    acts.append(PLAY_UNO[c])
        acts.append(DRAW)
        if pending is _REVERSE_DUMP:  # D4/D9: or dump the Reverse's colour
            duo.legal_dumps(hand, t.discard[-1].colour, acts)
    elif i < 0 or t.over or not t.seated[i]:
        return []
    elif i == t.turn:
        acts = _own(t, rules, i)
    else:
        acts = jump_in.offers(t, i) if rules.jump_in else []  # H3
    if t.exposed >= 0:
        acts.append(CALL if t.exposed == i else CATCH)
    return acts


def _own(t: Board, rules: Ruleset, i: int) -> list[Action]:
    pending = t.pending
    if pending is _DRAWN:
        drawn = t.drawn
        assert drawn is not None
        if rules.left_after(t, i, drawn) == 1:
            return [PLAY[drawn], PLAY_UNO[drawn], KEEP_DRAWN]
        return [PLAY[drawn], KEEP_DRAWN]
    if pending is _COLOUR:
        return list(COLOURS)
    if pending is _WILD_DRAW:
        return stacking.wild_draw_offers(t, i) if rules.stacking else [CHALLENGE, ACCEPT]
    return _other(t, rules, i, pending)


def _other(t: Board, rules: Ruleset, i: int, pending: Pending) -> list[Action]:
    hand = t.hands[i]
    acts: list[Action] = []
    if pending is _DUMP:
        duo.legal_dumps(hand, t.discard[-1].colour, acts)
        acts.append(NO_DUMP)
    elif pending is _VOLLEY:  # D7/H1: the same kind of card as the top one
        face = t.discard[-1].face
        for c in dict.fromkeys(c for c in hand if c.face is face):
            acts.append(PLAY[c])
            if len(hand) == 2:
                acts.append(PLAY_UNO[c])
        acts.append(TAKE_VOLLEY)
    elif pending is _DRAFT_PICK:
        acts = [KEEP_CARD, REJECT_CARD]
    elif pending is _DRAFT_FORCED:
        acts = [KEEP_CARD]
    elif pending is _GIVE:
        acts = [GIVE[c] for c in dict.fromkeys(hand)]
    elif pending is _SWAP:
        acts = seven_o.offers(t, i)
    return acts


def check(t: Board, rules: Ruleset, i: int, action: Action) -> None:
    """Raise an `IllegalAction` subclass, worded for the player, unless allowed (X1)."""
    if i < 0:
        raise UnknownPlayer("You're not playing in this match.")
    if t.over:
        raise MatchOver("The match is over.")
    if not t.seated[i]:
        raise UnknownPlayer("You have left this match.")
    kind = type(action)
    if kind is CallUno or kind is CatchUno:
        _check_call(t, i, kind is CallUno)
        return
    if kind not in rules.actions:
        raise WrongMoment("That move isn't part of {game}.", game=rules.title)
    if i != t.turn:
        if kind is JumpIn and rules.jump_in:  # H3
            assert isinstance(action, JumpIn)
            jump_in.check(t, i, action)
            return
        _not_your_turn(t)
    pending = t.pending
    if pending is _NONE and kind is Play:  # the commonest action, as _check_turn judges it
        assert isinstance(action, Play)
        check_play(t, rules, i, action.card, action.uno)
    elif pending is _NONE or pending is _REVERSE_DUMP:
        _check_turn(t, rules, i, action)
    elif pending is _DRAWN:
        _check_drawn(t, rules, i, action)
    else:
        _check_decision(t, rules, i, action)


def _check_call(t: Board, i: int, calling: bool) -> None:
    if calling and t.exposed != i:
        raise WrongMoment(
            "There's nothing to call: UNO is called when your own play leaves you one card."
        )
    if not calling and t.exposed < 0:
        raise WrongMoment("Nobody has a missed UNO to catch right now.")
    if not calling and t.exposed == i:
        raise WrongMoment("You can't catch yourself: call UNO instead.")


def _check_turn(t: Board, rules: Ruleset, i: int, action: Action) -> None:
    reverse = t.pending is _REVERSE_DUMP
    match action:
        case Play(card=card, uno=uno):
            check_play(t, rules, i, card, uno)
        case Draw():
            pass
        case Dump() if reverse:
            duo.check_dump(t.hands[i], action, t.discard[-1].colour)
        case Dump():
            raise WrongMoment("You can only dump a colour right after a Reverse.")
        case _:
            why = _not_now(rules, action)
            if reverse:
                raise WrongMoment(
                    "{why}It's your turn: play a card, draw, or dump your {colour_cards}.",
                    why=why,
                    colour_cards=t.discard[-1].colour,
                )
            raise WrongMoment("{why}It's your turn: play a card or draw.", why=why)


def _not_now(rules: Ruleset, action: Action) -> str:
    """Why a decision-only action is refused on an ordinary turn, if there is a reason."""
    match action:
        case KeepDrawn():
            return N_("You haven't drawn a card this turn. ")
        case ChooseColour():
            return N_("There's no wild to name a colour for. ")
        case Accept() | Challenge():
            faces = [c.face for c in rules.points if c.face in DRAWS]
            if not faces:
                return N_("There's no draw-wild to accept or challenge. ")
            if faces[0] is Face.WILD_DRAW_TWO:
                return N_("There's no Wild Draw 2 to accept or challenge. ")
            return N_("There's no Wild Draw 4 to accept or challenge. ")
        case Give():
            return N_("You give a card only after a Wild Dip Into The Deck. ")
    return ""


def check_play(t: Board, rules: Ruleset, i: int, card: Card, uno: bool) -> None:
    if card not in t.hands[i] or not isinstance(card, Card):
        _not_in_hand(card)
    if card not in t.playable:  # MATCHING[top][active], kept in step
        top = t.discard[-1]
        active = t.active
        if top.colour is None and active is not None:
            raise CardDoesNotMatch(
                "{A_card} doesn't match the {top}: {colour} was named.",
                A_card=card,
                top=top,
                colour=active,
            )
        raise CardDoesNotMatch("{A_card} doesn't match {top}.", A_card=card, top=top)
    if uno and rules.left_after(t, i, card) != 1:
        raise WrongMoment("Call UNO with a play only when it leaves you one card.")


def _not_in_hand(card: object) -> None:
    if isinstance(card, Card):
        raise CardNotInHand("You don't have {a_card}.", a_card=card)
    raise CardNotInHand("You don't have that card.")


def _not_your_turn(t: Board) -> None:
    drafting = t.pending is _DRAFT_PICK or t.pending is _DRAFT_FORCED
    if len(t.players) == 2:
        if drafting:
            raise NotYourTurn("It's not your pick — the other player is drafting.")
        raise NotYourTurn("It's not your turn — the other player is deciding.")
    if drafting:
        raise NotYourTurn("It's not your pick — another player is drafting.")
    raise NotYourTurn("It's not your turn — another player is deciding.")


def _check_drawn(t: Board, rules: Ruleset, i: int, action: Action) -> None:
    drawn = t.drawn
    assert drawn is not None
    match action:
        case Play(card=card, uno=uno) if card is drawn:
            check_play(t, rules, i, card, uno)
        case Play():
            raise WrongMoment(
                "You can only play the card you just drew ({card}), or keep it.", card=drawn
            )
        case KeepDrawn():
            pass
        case Draw():
            raise WrongMoment("You already drew: play that card or keep it.")
        case _:
            raise WrongMoment("Play the card you just drew, or keep it.")


def _check_decision(t: Board, rules: Ruleset, i: int, action: Action) -> None:
    """The decisions beyond a turn: colour, volley, draw-wild, dump, draft, give, swap."""
    pending = t.pending
    hand = t.hands[i]
    if pending is _COLOUR:
        _check_colour(action)
    elif pending is _VOLLEY:
        _check_volley(t, hand, action)
    elif pending is _WILD_DRAW:
        if rules.stacking and isinstance(action, Play):  # H1
            stacking.check_stack(t, i, action)
        elif not isinstance(action, Accept | Challenge):
            if t.discard[-1].face is Face.WILD_DRAW_TWO:
                raise WrongMoment("Accept the Wild Draw 2 or challenge it first.")
            raise WrongMoment("Accept the Wild Draw 4 or challenge it first.")
    elif pending is _DUMP:
        colour = t.discard[-1].colour
        if isinstance(action, Dump):
            duo.check_dump(hand, action, colour)
        elif not isinstance(action, NoDump):
            raise WrongMoment("Dump your {colour_cards} or keep them first.", colour_cards=colour)
    elif pending is _GIVE:
        _check_give(hand, action)
    elif pending is _SWAP:
        seven_o.check(t, i, action)
    else:
        _check_draft(pending, action)


def _check_draft(pending: Pending, action: Action) -> None:
    if pending is _DRAFT_PICK and not isinstance(action, KeepCard | RejectCard):
        raise WrongMoment("Keep or reject the card you're looking at first.")
    if pending is _DRAFT_FORCED and not isinstance(action, KeepCard):
        raise WrongMoment("You rejected a card, so you must keep this one.")


def _check_colour(action: Action) -> None:
    if not isinstance(action, ChooseColour):
        raise WrongMoment("Name a colour for your wild first.")
    if not isinstance(action.colour, Colour):
        raise WrongMoment("Name Red, Yellow, Green or Blue for the wild.")


def _check_volley(t: Board, hand: list[Card], action: Action) -> None:
    if isinstance(action, TakeVolley):
        return
    kind = _STACKED[t.discard[-1].face]
    if not isinstance(action, Play):
        raise WrongMoment(
            "Stack a {kind} or take the volley of {count} cards.", kind=kind, count=t.volley
        )
    card = action.card
    if not isinstance(card, Card) or card not in hand:
        _not_in_hand(card)
    if card.face is not t.discard[-1].face:
        raise WrongMoment(
            "Only a {kind} can be stacked on a volley; {a_card} can't — or take the {count} cards.",
            kind=kind,
            a_card=card,
            count=t.volley,
        )
    if action.uno and len(hand) != 2:
        raise WrongMoment("Call UNO with a play only when it leaves you one card.")


def _check_give(hand: list[Card], action: Action) -> None:
    if not isinstance(action, Give):
        raise WrongMoment("Choose the card to give away first.")
    if not isinstance(action.card, Card) or action.card not in hand:
        _not_in_hand(action.card)
