"""`Game`: a match of any variant, the `engine.match.Match` protocol.

It holds a `Board` (the rule state, engine/table.py, and its lookups) and the variant's
`Ruleset`. `apply` checks an action (`engine.legal`), then carries it out
through one dispatch over the action types; the rules themselves live in the
shared modules (turn, piles, seats, uno_call, wild_draw, scoring, dealing) and
the variant modules (duo, pizza, classic).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, assert_never

from engine import duo, jump_in, legal, seven_o, uno_call, wild_draw
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
from engine.board import Board, blank_board
from engine.cards import HAND_ORDER, Card, Colour, Face
from engine.codec import dump_table, load_table
from engine.errors import MatchOver, NotYourTurn, UnknownPlayer
from engine.events import (
    CardPlayed,
    DumpDeclined,
    Event,
    MatchEnded,
    PlayerRemoved,
    TurnStarted,
)
from engine.memo import Memo
from engine.offers import (
    ACCEPT,
    CHOOSE,
    DRAW,
    GIVE,
    KEEP_CARD,
    KEEP_DRAWN,
    NO_DUMP,
    TAKE_VOLLEY,
)
from engine.options import Options, Variant
from engine.piles import check_cards, sync_playable
from engine.placing import Placing, placings
from engine.ruleset import Ruleset
from engine.scoring import end_match
from engine.seats import give_turn, set_order
from engine.turn import choose_colour, give, keep_drawn, play_card
from engine.views import Pending, Phase, PrivateView, PublicView, SeatView
from engine.volley import take_volley
from engine.wild_draw import DRAWS

RECENT_EVENTS = 10  # shown in PublicView.recent


class Game:
    """A match of rounds until the target score, for one variant."""

    __slots__ = ("is_over", "memo", "rules", "table")

    is_over: bool  # a plain attribute, read by every bot loop: `table.over`, kept in step

    def __init__(self, rules: Ruleset, table: Board) -> None:
        tailor = rules.tailor  # classic's house rules (H1–H4), as the table's options say
        self.rules = rules if tailor is None else tailor(table.options)
        self.table = table
        self.memo = Memo(table.players)  # beside the rule state, never saved
        self.is_over = table.over

    @classmethod
    def new(cls, rules: Ruleset, players: Sequence[str], seed: int, options: Options) -> Game:
        """Seat the players and start: Duo cuts and drafts, the others deal."""
        game = cls(rules, new_table(rules, players, seed, options))
        events: list[Event] = []
        game.rules.start_match(game.table, events)
        game.table.recent.extend(events)
        game.is_over = game.table.over
        return game

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def version(self) -> int:
        return self.table.version

    def waiting_for(self) -> tuple[str, ...]:
        t = self.table
        return () if t.over else self.memo.waits[t.turn]

    def legal_actions(self, player: str) -> list[Action]:
        t = self.table
        memo = self.memo
        i = memo.index.get(player, -1)
        if memo.version != t.version or memo.seat != i:  # inline: every bot loop asks
            memo.offered = legal.legal_actions(t, self.rules, i)
            memo.version = t.version
            memo.seat = i
        return memo.offered[:]  # a copy: the caller may change it

    def check(self, player: str, action: Action) -> None:
        """Judge `action`; passed, `apply` takes this very instance without judging it again."""
        t = self.table
        i = self.memo.index.get(player, -1)
        legal.check(t, self.rules, i, action)
        self.memo.admit(t.version, i, action)

    def apply_logged(self, player: str, action: Action) -> list[Event]:
        """`apply` an action read back from a server's action log.

        A log written before the D9 decision of 2026-12 may hold an answer to a
        question this engine no longer asks: "dump?" after a Reverse that left no
        other card of its colour. That answer changed nothing but the step count
        then (the table read "kept their cards"), and replays as exactly that, so
        the log's numbering and the table's log still hold.
        """
        if isinstance(action, NoDump) and _asked_no_longer(self.table, self.rules, player):
            events: list[Event] = [DumpDeclined(player)]
            self.table.version += 1
            self.table.recent.extend(events)
            return events
        return self.apply(player, action)

    def apply(self, player: str, action: Action) -> list[Event]:
        """Carry out a legal action and return its public events; illegal: raise, no change."""
        t = self.table
        rules = self.rules
        i = self.memo.index.get(player, -1)
        _admit(t, rules, self.memo, i, action)
        events: list[Event] = []
        match action:
            # Class patterns without keywords: a keyword is a generic getattr, a
            # plain `action.card` a specialised slot read (the commonest action).
            case Play():
                play_card(t, rules, i, action.card, action.uno, events)
            case Draw():
                rules.draw(t, i, events)
            case KeepDrawn():
                keep_drawn(t, i, events)
            case ChooseColour():
                choose_colour(t, rules, i, action.colour, events)
            case Accept():
                wild_draw.accept(t, i, rules.wild_draw_skips, events)
            case Challenge():
                wild_draw.challenge(t, i, rules.wild_draw_skips, events)
            case Give():
                give(t, rules, i, action.card, events)
            case CallUno():
                uno_call.call(t, i, events)
            case CatchUno():
                uno_call.catch(t, i, events)
            case TakeVolley() | JumpIn() | SwapHands():
                _volley_or_house(t, rules, i, action, events)
            case Dump() | NoDump() | KeepCard() | RejectCard():
                duo.decide(t, rules, i, action, events)
            case _:
                assert_never(action)
        t.version += 1
        t.recent.extend(events)
        self.is_over = t.over
        return events

    def remove_player(self, player: str) -> list[Event]:
        """X3: a forfeit. The cards go under the draw pile, first card nearest the top;
        what the leaver still had pending is cancelled; the last one seated wins."""
        t = self.table
        i = self._seat(player)
        if not t.seated[i]:
            raise UnknownPlayer("That player has already left.")
        events: list[Event] = [PlayerRemoved(player)]
        raised = _raised_what_is_owed(t, i)  # before the seat order changes
        t.seated[i] = False
        set_order(t)
        t.draw[0:0] = t.hands[i][::-1]
        t.hands[i] = []
        if t.exposed == i:
            t.exposed = -1
        if t.revealed_to == i:
            t.revealed_to = -1
            t.revealed = ()
        seated = [k for k in range(len(t.players)) if t.seated[k]]
        if len(seated) == 1:
            end_match(t, seated[0], events)  # the unfinished round is not scored
        elif i == t.turn:  # a turn, a give, a colour to name: cancelled, play goes on
            _pass_on(t, i, events)
        elif raised:  # nobody to judge or pay: the hit player simply plays
            t.wild_draw = None
            t.volley = 0  # H1: the whole total, whoever stacked before
            give_turn(t, t.turn, Pending.NONE, events)
        t.version += 1
        t.recent.extend(events)
        self.is_over = t.over
        return events

    def _seat(self, player: str) -> int:
        i = self.memo.index.get(player)
        if i is None:
            raise UnknownPlayer("You're not playing in this match.")
        if self.table.over:
            raise MatchOver("The match is over.")
        return i

    def timeout_action(self, player: str) -> Action:
        """The safe default (docs/rules.md, "Deadlines"); deterministic given the state."""
        t = self.table
        i = self._seat(player)
        if i != t.turn:
            raise NotYourTurn("It's not your turn.")
        hand = t.hands[i]
        match t.pending:
            case Pending.DRAFT_PICK | Pending.DRAFT_FORCED:
                return KEEP_CARD
            case Pending.DRAWN_CARD:
                return KEEP_DRAWN
            case Pending.VOLLEY:
                return TAKE_VOLLEY
            case Pending.WILD_DRAW:
                return ACCEPT
            case Pending.DUMP:
                return NO_DUMP
            case Pending.COLOUR:
                return CHOOSE[most_held_colour(hand)]
            case Pending.GIVE:  # the lowest-scoring card, ties by hand order
                points = self.rules.points
                return GIVE[min(hand, key=lambda c: (points[c], HAND_ORDER[c]))]
            case Pending.SWAP:  # H2: the fewest cards
                return seven_o.default(t, i)
        return DRAW  # a turn: draw (and pass), never a dump

    def public_view(self) -> PublicView:
        t = self.table
        pending = t.pending
        owed = 0
        if pending is Pending.VOLLEY:
            owed = t.volley
        elif pending is Pending.WILD_DRAW:
            owed = DRAWS[t.discard[-1].face]
        shown = [e for e in t.recent if e.__class__ is not TurnStarted]
        return PublicView(
            variant=self.variant,
            round=t.round,
            target=t.options.target,
            phase=t.phase,
            pending=pending,
            seats=tuple(
                SeatView(p, len(t.hands[k]), t.scores[k], t.exposed == k, t.seated[k])
                for k, p in enumerate(t.players)
            ),
            to_act=None if t.over else t.players[t.turn],
            top=t.discard[-1] if t.discard else None,
            active_colour=None if pending is Pending.COLOUR else t.active,
            draw_pile=len(t.draw),
            discard_pile=len(t.discard),
            pending_draw=owed,
            clockwise=t.clockwise,
            dealer=t.players[t.dealer] if t.dealer >= 0 else None,
            draft_pile=tuple(t.draft),
            recent=tuple(shown[-RECENT_EVENTS:]),
            winner=t.players[t.winner] if t.winner >= 0 else None,
        )

    def private_view(self, player: str) -> PrivateView:
        t = self.table
        i = self.memo.index.get(player)
        if i is None:
            raise UnknownPlayer("You're not playing in this match.")
        mine = i == t.turn and not t.over
        pending = t.pending
        drafting = pending is Pending.DRAFT_PICK or pending is Pending.DRAFT_FORCED
        dip = t.dip
        return PrivateView(
            player=player,
            hand=tuple(sorted(t.hands[i], key=HAND_ORDER.__getitem__)),
            legal=tuple(self.legal_actions(player)),
            looking_at=t.draw[-1] if mine and drafting else None,
            drawn=t.drawn if mine and pending is Pending.DRAWN_CARD else None,
            revealed_hand=t.revealed if t.revealed_to == i else None,
            received=dip[2] if dip is not None and dip[1] == i else None,
            given=dip[2] if dip is not None and dip[0] == i else None,
            drew=t.drew if mine and pending is Pending.DRAWN_CARD else (),
        )

    def placings(self) -> tuple[Placing, ...]:
        """The final places, once the match is over (ValueError before)."""
        last = next((e for e in reversed(self.table.recent) if isinstance(e, MatchEnded)), None)
        if last is None:
            raise ValueError("the match is not over")
        return placings(last, by_points=self.rules.by_points)

    def to_snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (engine/codec.py), the generator included."""
        return dump_table(self.table)

    @classmethod
    def from_snapshot(cls, rules: Ruleset, data: dict[str, Any]) -> Game:
        """Rebuild a match from `to_snapshot()` (or schema 1); ValueError if invalid."""
        t = load_table(data, kept_events=rules.kept_events, shuffled_refill=rules.shuffled_refill)
        check_cards(t, rules.deck(t.options))
        if t.phase is Phase.PLAY and not t.discard:
            raise ValueError("a match in play has no discard pile")
        return cls(rules, t)


def _volley_or_house(
    t: Board, rules: Ruleset, i: int, action: TakeVolley | JumpIn | SwapHands, events: list[Event]
) -> None:
    """D7 and H1's volley, H3's jump-in, H2's swap, already judged legal."""
    match action:
        case TakeVolley():
            take_volley(t, i, rules.wild_draw_skips, events)
        case JumpIn():
            jump_in.jump(t, rules, i, action, events)
        case SwapHands():
            seven_o.swap(t, i, action.target, events)
        case _:
            assert_never(action)


def _raised_what_is_owed(t: Board, i: int) -> bool:
    """X3, H1: the player to act owes what seat `i`'s card raised: a draw-wild they
    may still challenge, or a stack's total. A stack is always passed to the next
    seat and nothing turns the direction while it runs, so its raiser sits just
    before the player who owes it."""
    if t.wild_draw is not None and t.wild_draw.player == i:
        return True
    return t.pending is Pending.VOLLEY and t.order[i] == t.turn


def _pass_on(t: Board, i: int, events: list[Event]) -> None:
    """X3: what the leaver had pending is cancelled and the next player plays; an
    unnamed wild keeps the colour in play before it (none before a first card:
    then the next player names it, and plays)."""
    unnamed = t.pending is Pending.COLOUR
    t.drawn = None
    t.wild_draw = None
    t.volley = 0  # H1: a stack the leaver owed goes with them
    t.first_colour = False
    sync_playable(t)
    if unnamed and t.active is None:
        give_turn(t, t.order[i], Pending.COLOUR, events)
        t.first_colour = True
        return
    give_turn(t, t.order[i], Pending.NONE, events)


def _admit(t: Board, rules: Ruleset, memo: Memo, i: int, action: Action) -> None:
    """Let seat `i`'s action through, or raise (X1: then nothing has changed).

    An instance `legal_actions` offered, or the one `check` passed, in this very state
    and for this seat is not judged again (inline: every bot loop passes here).
    """
    if memo.version == t.version and memo.seat == i:
        for offer in memo.offered:  # by identity: an equal copy is judged
            if offer is action:
                break
        else:
            _judge(t, rules, memo, i, action)
    else:
        _judge(t, rules, memo, i, action)
    if t.revealed_to == i:  # D10/P7/C7: shown until the challenger's next action
        t.revealed_to = -1
        t.revealed = ()


def _judge(t: Board, rules: Ruleset, memo: Memo, i: int, action: Action) -> None:
    if not memo.passed(t.version, i, action):
        legal.check(t, rules, i, action)


def new_table(rules: Ruleset, players: Sequence[str], seed: int, options: Options) -> Board:
    seats = tuple(players)
    low, high = rules.seats
    if not low <= len(seats) <= high:
        count = f"exactly {low}" if low == high else f"{low} to {high}"
        raise ValueError(f"{rules.title} is for {count} players")
    if len(set(seats)) != len(seats):
        raise ValueError("players must be distinct")
    return blank_board(
        rules.variant,
        options,
        seats,
        seed,
        shuffled_refill=rules.shuffled_refill,
        kept_events=rules.kept_events,
    )


def most_held_colour(hand: Sequence[Card]) -> Colour:
    """The colour held most; ties (and none) by Colour order."""
    counts = dict.fromkeys(Colour, 0)
    for card in hand:
        if card.colour is not None:
            counts[card.colour] += 1
    return max(Colour, key=counts.__getitem__)


def _asked_no_longer(t: Board, rules: Ruleset, player: str) -> bool:
    """A Duo `NoDump` by the player whose last act was a Reverse that left them no
    other card of its colour (the old engine still asked them about a dump)."""
    i = t.players.index(player) if player in t.players else -1
    if rules.variant != "duo" or i < 0 or not t.discard:
        return False
    if NO_DUMP in legal.legal_actions(t, rules, i):
        return False
    last = next((e for e in reversed(t.recent) if isinstance(e, CardPlayed)), None)
    top = t.discard[-1]
    if last is None or last.player != player or last.card is not top:
        return False
    return top.face is Face.REVERSE and all(c.colour is not top.colour for c in t.hands[i])
