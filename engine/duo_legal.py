"""UNO Duo: what each player may do now (`legal_actions`) and why not (`check`).

The two must agree exactly; a property test proves it on random states.
"""

from __future__ import annotations

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
from engine.cards import Card, Colour, Face, matches
from engine.duo_state import DuoState
from engine.errors import (
    CardDoesNotMatch,
    CardNotInHand,
    MatchOver,
    NotYourTurn,
    WrongMoment,
)
from engine.events import DrawReason
from engine.views import Pending, Phase

# Enum members as module constants: `Pending.NONE` is a metaclass attribute lookup
# (~150 ns here), a global is not.
_NONE = Pending.NONE
_REVERSE_DUMP = Pending.REVERSE_DUMP
_DRAWN_CARD = Pending.DRAWN_CARD
_COLOUR = Pending.COLOUR
_DRAFT_PICK = Pending.DRAFT_PICK
_DRAFT_FORCED = Pending.DRAFT_FORCED
_VOLLEY = Pending.VOLLEY
_WILD_DRAW = Pending.WILD_DRAW
_DUMP_PENDING = Pending.DUMP
_TURN = DrawReason.TURN
_MATCH_OVER = Phase.MATCH_OVER
_DRAFT_PHASE = Phase.DRAFT
_PLAY_PHASE = Phase.PLAY
_W4 = Face.WILD_DRAW_FOUR
_WSH = Face.WILD_SHUFFLE_HANDS
_D2 = Face.DRAW_TWO
_SKIP = Face.SKIP
_REV = Face.REVERSE

# Actions are immutable values: build each once, hand out shared instances. Keyed by
# the card itself: cards are interned and hash by identity, in C.
_ALL_CARDS = [Card.parse(code) for code in sorted(Card._interned)]
_PLAY = {c: Play(c) for c in _ALL_CARDS}
_PLAY_UNO = {c: Play(c, uno=True) for c in _ALL_CARDS}
_DUMP = {c: Dump(c) for c in _ALL_CARDS if c.colour is not None}
_DUMP_UNO = {c: Dump(c, uno=True) for c in _ALL_CARDS if c.colour is not None}
_CHOOSE = tuple(ChooseColour(colour) for colour in Colour)
_KEEP_CARD = KeepCard()
_REJECT_CARD = RejectCard()
_DRAW = Draw()
_KEEP_DRAWN = KeepDrawn()
_TAKE_VOLLEY = TakeVolley()
_CHALLENGE = Challenge()
_ACCEPT = Accept()
_NO_DUMP = NoDump()
_CALL_UNO = CallUno()
_CATCH_UNO = CatchUno()


def _legal_dumps(hand: list[Card], colour: Colour | None, acts: list[Action]) -> None:
    """D9: one Dump per distinct card of the colour, as the last card laid."""
    seen: list[Card] = []  # a hand may hold two equal cards
    same = 0
    for c in hand:
        if c.colour is colour:
            same += 1
            if c not in seen:
                seen.append(c)
    if len(hand) - same == 1:  # the dump leaves one card: with or without UNO
        for c in seen:
            acts.append(_DUMP[c])
            acts.append(_DUMP_UNO[c])
    else:
        for c in seen:
            acts.append(_DUMP[c])


class DuoRules(DuoState):
    """Legal actions and refusals (X1) for every decision of D1–D14."""

    __slots__ = ()

    def legal_actions(self, player: str) -> list[Action]:
        """Everything `player` may do now, UNO calls and catches included."""
        try:
            i = self._idx[player]  # a subscript costs less than a .get() call
        except KeyError:
            return []
        if i != self._turn or self.is_over:
            if self.is_over:
                return []
            return self._legal(i)  # the other player: an UNO call or catch at most
        # The hot paths, asked for by every bot loop each step: an ordinary turn
        # (about two thirds of all decisions) and a drawn card (one in eight).
        pending = self._pending
        if pending is _NONE:
            hand = self._hands[i]
            held = len(hand)
            # D11: a play leaves one card only from two cards, or by a Wild Shuffle Hands
            # from three or four against at most one: then the UNO variants.
            if held == 2 or (held <= 4 and len(self._hands[1 - i]) <= 1):
                acts = self._turn_plays(i)
            else:
                ok = self._playable
                acts = []
                seen: list[Card] = []  # a hand may hold two equal cards
                for c in hand:
                    if c in ok and c not in seen:
                        seen.append(c)
                        acts.append(_PLAY[c])
                acts.append(_DRAW)
        elif pending is _DRAWN_CARD:
            drawn = self._drawn
            assert drawn is not None
            if len(self._hands[i]) == 2 or drawn.face is _WSH:  # D11: it may leave one card
                return self._legal(i)
            acts = [_PLAY[drawn], _KEEP_DRAWN]
        elif pending is _COLOUR:
            acts = list(_CHOOSE)
        elif pending is _DRAFT_PICK:
            acts = [_KEEP_CARD, _REJECT_CARD]
        elif pending is _DRAFT_FORCED:
            acts = [_KEEP_CARD]
        elif pending is _DUMP_PENDING:
            acts = []
            _legal_dumps(self._hands[i], self._discard[-1].colour, acts)
            acts.append(_NO_DUMP)
        elif pending is _WILD_DRAW:
            acts = [_CHALLENGE, _ACCEPT]
        else:  # a volley, or a turn offered with a dump: the general route
            return self._legal(i)
        if self._exposed >= 0:
            acts.append(_CALL_UNO if self._exposed == i else _CATCH_UNO)
        return acts

    def _turn_plays(self, i: int) -> list[Action]:
        """D5: every matching card or wild (each distinct card once), and Draw."""
        hand = self._hands[i]
        ok = self._playable
        acts: list[Action] = []
        seen: list[Card] = []  # a hand may hold two equal cards
        # D11: a play can leave one card only from two cards, or by a Wild Shuffle
        # Hands when the opponent holds at most one.
        held = len(hand)
        opponent = len(self._hands[1 - i])
        if held == 2 or opponent <= 1:
            for c in hand:
                if c in ok and c not in seen:
                    seen.append(c)
                    acts.append(_PLAY[c])
                    left = held - 1  # _after_play, inlined
                    if c.face is _WSH and left:
                        left = (left + opponent) // 2
                    if left == 1:
                        acts.append(_PLAY_UNO[c])
        else:
            for c in hand:
                if c in ok and c not in seen:
                    seen.append(c)
                    acts.append(_PLAY[c])
        acts.append(_DRAW)
        return acts

    def _legal(self, i: int) -> list[Action]:
        acts: list[Action] = []
        if self._turn == i:
            pending = self._pending
            hand = self._hands[i]
            if pending is _NONE or pending is _REVERSE_DUMP:
                acts = self._turn_plays(i)
                if pending is _REVERSE_DUMP:  # D4/D9: or dump the Reverse's colour
                    _legal_dumps(hand, self._discard[-1].colour, acts)
            elif pending is _DRAWN_CARD:
                drawn = self._drawn
                assert drawn is not None
                acts.append(_PLAY[drawn])
                if self._after_play(i, drawn) == 1:
                    acts.append(_PLAY_UNO[drawn])
                acts.append(_KEEP_DRAWN)
            elif pending is _COLOUR:
                acts += _CHOOSE
            elif pending is _DRAFT_PICK:
                acts += (_KEEP_CARD, _REJECT_CARD)
            elif pending is _DRAFT_FORCED:
                acts.append(_KEEP_CARD)
            elif pending is _VOLLEY:
                two = len(hand) == 2
                seen = []
                for c in hand:
                    if c.face is _D2 and c not in seen:
                        seen.append(c)
                        acts.append(_PLAY[c])
                        if two:
                            acts.append(_PLAY_UNO[c])
                acts.append(_TAKE_VOLLEY)
            elif pending is _WILD_DRAW:
                acts += (_CHALLENGE, _ACCEPT)
            elif pending is _DUMP_PENDING:
                _legal_dumps(hand, self._discard[-1].colour, acts)
                acts.append(_NO_DUMP)
        exposed = self._exposed
        if exposed >= 0:
            acts.append(_CALL_UNO if exposed == i else _CATCH_UNO)
        return acts

    def _after_play(self, i: int, card: Card) -> int:
        """Cards left after playing `card`, its whole effect included (D11)."""
        left = len(self._hands[i]) - 1
        if card.face is _WSH and left:
            # D1: pooled and dealt back starting with the opponent.
            left = (left + len(self._hands[1 - i])) // 2
        return left

    # ------------------------------------------------------------------ check

    def check(self, player: str, action: Action) -> None:
        """Raise an `IllegalAction` subclass, worded for the player, unless allowed (X1)."""
        i = self._seat(player)
        if self._phase is _MATCH_OVER:
            raise MatchOver("The match is over.")
        kind = type(action)
        if kind is CallUno:
            if self._exposed != i:
                raise WrongMoment(
                    "There's nothing to call: UNO is called when your own play leaves you one card."
                )
            return
        if kind is CatchUno:
            if self._exposed != 1 - i:
                raise WrongMoment("There's nobody to catch: the other player owes no UNO call.")
            return
        if self._turn != i:
            if self._phase is _DRAFT_PHASE:
                raise NotYourTurn("It's not your pick — the other player is drafting.")
            raise NotYourTurn("It's not your turn — the other player is deciding.")
        pending = self._pending
        if pending is _NONE or pending is _REVERSE_DUMP:
            if isinstance(action, Play):
                self._check_play(i, action.card, action.uno)
            elif isinstance(action, Dump):
                if pending is _NONE:
                    raise WrongMoment("You can only dump a colour right after a Reverse.")
                self._check_dump(i, action, self._discard[-1].colour)
            elif kind is not Draw:
                if pending is _REVERSE_DUMP:
                    title = self._colour_title(self._discard[-1].colour)
                    raise WrongMoment(f"It's your turn: play a card, draw, or dump your {title}.")
                raise WrongMoment("It's your turn: play a card or draw.")
        elif pending is _DRAFT_PICK:
            if kind is not KeepCard and kind is not RejectCard:
                raise WrongMoment("Keep or reject the card you're looking at first.")
        elif pending is _DRAFT_FORCED:
            if kind is not KeepCard:
                raise WrongMoment("You rejected a card, so you must keep this one.")
        elif pending is _DRAWN_CARD:
            drawn = self._drawn
            assert drawn is not None
            if isinstance(action, Play):
                if action.card != drawn:
                    raise WrongMoment(
                        f"You can only play the card you just drew ({drawn.title}), or keep it."
                    )
                self._check_play(i, drawn, action.uno)
            elif kind is not KeepDrawn:
                raise WrongMoment("Play the card you just drew, or keep it.")
        elif pending is _COLOUR:
            if not isinstance(action, ChooseColour) or not isinstance(action.colour, Colour):
                raise WrongMoment("Name a colour for your wild first.")
        elif pending is _VOLLEY:
            if isinstance(action, Play):
                card = action.card
                if card not in self._hands[i]:
                    raise CardNotInHand(f"You don't have a {card.title}.")
                if card.face is not _D2:
                    raise WrongMoment(
                        f"Only a Draw 2 can be stacked on a volley; "
                        f"a {card.title} can't — or take the {self._volley} cards."
                    )
                if action.uno and len(self._hands[i]) != 2:
                    raise WrongMoment("Call UNO with a play only when it leaves you one card.")
            elif kind is not TakeVolley:
                raise WrongMoment(f"Stack a Draw 2 or take the volley of {self._volley} cards.")
        elif pending is _WILD_DRAW:
            if kind is not Challenge and kind is not Accept:
                raise WrongMoment("Challenge the Wild Draw 4 or accept it first.")
        elif pending is _DUMP_PENDING:
            colour = self._discard[-1].colour
            if isinstance(action, Dump):
                self._check_dump(i, action, colour)
            elif kind is not NoDump:
                title = self._colour_title(colour)
                raise WrongMoment(f"Dump your {title} or keep them first.")
        else:  # pragma: no cover - Duo never waits on another Pending
            raise WrongMoment("That isn't part of UNO Duo.")

    @staticmethod
    def _colour_title(colour: Colour | None) -> str:
        return f"{colour.title} cards" if colour is not None else "cards"

    def _check_play(self, i: int, card: Card, uno: bool) -> None:
        if card not in self._hands[i]:
            raise CardNotInHand(f"You don't have a {card.title}.")
        top = self._discard[-1]
        active = self._active
        if not matches(card, top=top, active=active):
            if top.colour is None and active is not None:
                raise CardDoesNotMatch(
                    f"A {card.title} doesn't match the {top.title}: {active.title} was named."
                )
            raise CardDoesNotMatch(f"A {card.title} doesn't match {top.title}.")
        if uno and self._after_play(i, card) != 1:
            raise WrongMoment("Call UNO with a play only when it leaves you one card.")

    def _check_dump(self, i: int, action: Dump, colour: Colour | None) -> None:
        last = action.last
        hand = self._hands[i]
        if last not in hand:
            raise CardNotInHand(f"You don't have a {last.title}.")
        if last.colour is None:
            raise WrongMoment("Wilds are never dumped.")
        if last.colour is not colour:
            raise WrongMoment(f"Only your {self._colour_title(colour)} can be dumped now.")
        if action.uno and sum(1 for c in hand if c.colour is not colour) != 1:
            raise WrongMoment("Call UNO with a dump only when it leaves you one card.")
