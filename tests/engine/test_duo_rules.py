"""UNO Duo, rule by rule (docs/rules.md D1–D14, X3, X4), with explicit cards."""

from __future__ import annotations

from collections import Counter

import pytest

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
    RejectCard,
    TakeVolley,
)
from engine.builders import duo_draft_for_test
from engine.cards import Card, Colour, card, cards, duo_deck
from engine.duo import POINTS as DUO_POINTS
from engine.errors import CardDoesNotMatch, MatchOver, WrongMoment
from engine.events import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColourChosen,
    ColourDumped,
    CutForPlayerOne,
    DraftPicked,
    DrawPileRefilled,
    DrawReason,
    DumpDeclined,
    FirstCardTurned,
    HandsShuffled,
    MatchEnded,
    PlayerRemoved,
    RoundEnded,
    RoundStarted,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    UnoExposed,
    VolleyRaised,
)
from engine.game import Game
from engine.match import DuoOptions, new_match, replay
from engine.views import Pending, Phase
from tests.engine.duo_helpers import (
    SHOWN,
    A,
    B,
    act,
    all_cards,
    deck_counter,
    discard_pile,
    drafted,
    draw_pile,
    duo,
    frozen,
    hand,
    of_type,
    play,
)

card_points = DUO_POINTS.__getitem__

R, Y, G, BL = Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE


def to_act(match: Game) -> str | None:
    return match.public_view().to_act


def pending(match: Game) -> Pending:
    return match.public_view().pending


# D1 ----------------------------------------------------------------------------


def test_d1_deck_has_112_cards() -> None:
    deck = Counter(duo_deck())
    assert sum(deck.values()) == 112
    for colour in "RYGB":
        assert deck[card(colour + "0")] == 1
        for face in "123456789":
            assert deck[card(colour + face)] == 2
        for face in ("S", "R", "+2"):
            assert deck[card(colour + face)] == 2
    assert deck[card("W")] == 4
    assert deck[card("W+4")] == 4
    assert deck[card("WSH")] == 1
    assert deck[card("WC")] == 3
    match = new_match("duo", players=[A, B], seed=1)
    assert all_cards(match) == deck


def test_d1_classic_option_has_108_cards() -> None:
    match = new_match("duo", players=[A, B], seed=1, options=DuoOptions(classic_deck=True))
    counted = all_cards(match)
    assert sum(counted.values()) == 108
    assert counted == deck_counter(classic=True)
    assert card("WSH") not in counted
    assert card("WC") not in counted


def test_d1_wild_customizable_plays_as_a_wild() -> None:
    m = duo("R1 R2", "WC B7 B8", top="G3")
    act(m, B, play("WC"))
    assert pending(m) is Pending.COLOUR
    assert to_act(m) == B
    act(m, B, ChooseColour(Y))
    assert m.public_view().active_colour is Y
    assert to_act(m) == A
    assert pending(m) is Pending.NONE


def test_d1_shuffle_hands_pools_and_deals_back_starting_with_the_opponent() -> None:
    m = duo("R1 R2 R3 R4", "WSH B7 B8 B9", top="G3")
    pool = Counter(cards("R1 R2 R3 R4 B7 B8 B9"))
    act(m, B, play("WSH"))
    events = act(m, B, ChooseColour(BL))
    assert of_type(events, HandsShuffled) == [HandsShuffled(B)]
    assert Counter(m.private_view(A).hand) + Counter(m.private_view(B).hand) == pool
    assert len(hand(m, A)) == 4  # 7 cards dealt one at a time starting with "a"
    assert len(hand(m, B)) == 3
    assert m.public_view().active_colour is BL
    assert to_act(m) == A


def test_d1_shuffle_hands_as_last_card_ends_the_round_without_a_shuffle() -> None:
    m = duo("R5 B7", "WSH", top="G3")
    events = act(m, B, play("WSH"))
    assert not of_type(events, HandsShuffled)
    assert not of_type(events, ColourChosen)
    (ended,) = of_type(events, RoundEnded)
    assert ended.winner == B
    assert dict(ended.hands)[A] == tuple(cards("R5 B7"))
    assert dict(ended.points)[A] == 12


def test_d1_new_wilds_score_15() -> None:
    assert card_points(card("WSH")) == 15
    assert card_points(card("WC")) == 15
    assert card_points(card("W")) == 15


# D2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(25))
def test_d2_cut_higher_number_is_player_one(seed: int) -> None:
    m = new_match("duo", players=[A, B], seed=seed)
    (cut,) = [e for e in m.public_view().recent if isinstance(e, CutForPlayerOne)]

    def value(c: Card) -> int:
        return c.face.number or 0

    pairs = [cut.cuts[k : k + 2] for k in range(0, len(cut.cuts), 2)]
    for (pa, ca), (pb, cb) in pairs[:-1]:
        assert (pa, pb) == (A, B)
        assert value(ca) == value(cb)  # ties cut again
    (_, ca), (_, cb) = pairs[-1]
    assert value(ca) != value(cb)
    assert cut.winner == (A if value(ca) > value(cb) else B)
    view = m.public_view()
    assert view.dealer == cut.winner  # Duo's "dealer" is Player 1
    assert view.to_act == cut.winner  # Player 1 drafts first
    (started,) = [e for e in view.recent if isinstance(e, RoundStarted)]
    assert started.dealer == cut.winner
    assert started.first != cut.winner  # Player 2 plays first


def test_d2_ties_cut_again() -> None:
    tied = 0
    for seed in range(60):
        m = new_match("duo", players=[A, B], seed=seed)
        (cut,) = [e for e in m.public_view().recent if isinstance(e, CutForPlayerOne)]
        tied += len(cut.cuts) > 2
    assert tied > 0  # ties are common (every non-number card counts 0) and were cut again


def test_d2_roles_swap_every_round() -> None:
    m = duo("B5 G7", "R5", top="R3", player_one=A)
    events = act(m, B, play("R5"))
    (started,) = of_type(events, RoundStarted)
    assert started.round == 2
    assert started.dealer == B
    assert started.first == A
    view = m.public_view()
    assert view.phase is Phase.DRAFT
    assert view.to_act == B  # the new Player 1 drafts first
    assert view.dealer == B


# D3 ----------------------------------------------------------------------------

DRAFT_TOP = "R1 R2 R3 R4 R5 R6 R7 R8 R9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 G1 G2 G3 G4 G5 G6 G7 G8 G9 B1 B2"


def draft_match() -> Game:
    return duo_draft_for_test(draw=DRAFT_TOP, players=(A, B), player_one=A, options=DuoOptions())


def test_d3_keep_turns_the_next_card_face_up() -> None:
    m = draft_match()
    assert m.private_view(A).looking_at == card("R1")
    assert m.private_view(B).looking_at is None
    events = act(m, A, KeepCard())
    assert events == [DraftPicked(A, True, card("R2"))]
    assert hand(m, A) == ["R1"]
    assert m.public_view().draft_pile == (card("R2"),)
    assert to_act(m) == B
    assert m.private_view(B).looking_at == card("R3")


def test_d3_reject_forces_keeping_next() -> None:
    m = draft_match()
    events = act(m, A, RejectCard())
    assert events == [DraftPicked(A, False, card("R1"))]
    assert pending(m) is Pending.DRAFT_FORCED
    assert to_act(m) == A
    assert m.private_view(A).looking_at == card("R2")  # seen only now
    assert m.legal_actions(A) == [KeepCard()]
    with pytest.raises(WrongMoment):
        m.apply(A, RejectCard())
    act(m, A, KeepCard())
    assert hand(m, A) == ["R2"]
    assert m.public_view().draft_pile == (card("R1"),)  # nothing more goes face up
    assert to_act(m) == B
    assert m.private_view(B).looking_at == card("R3")


def test_d3_players_alternate_until_seven_each() -> None:
    m = draft_match()
    for k in range(14):
        assert m.public_view().phase is Phase.DRAFT
        who = A if k % 2 == 0 else B
        assert to_act(m) == who
        act(m, who, RejectCard() if k % 3 == 0 else KeepCard())
        if k % 3 == 0:
            act(m, who, KeepCard())
    assert len(hand(m, A)) == 7
    assert len(hand(m, B)) == 7
    assert m.public_view().phase is Phase.PLAY


def test_d3_draft_pile_goes_under_the_draw_pile_unshuffled() -> None:
    m = draft_match()
    shown: list[str] = []
    for k in range(14):
        events = act(m, A if k % 2 == 0 else B, KeepCard())
        shown += [e.shown.code for e in of_type(events, DraftPicked)]
    assert shown == DRAFT_TOP.split()[1:28:2]
    assert m.public_view().draft_pile == ()  # face down now
    # The first card laid on the draft pile is the first of the 14 to be drawn.
    assert draw_pile(m)[-14:] == shown
    assert discard_pile(m) == ["B2"]  # D4: the next card is turned up


def test_d3_kept_card_is_private() -> None:
    m = draft_match()
    events = act(m, A, KeepCard())
    assert all(card("R1") not in vars_of(e) for e in events)
    assert card("R1") not in m.public_view().draft_pile
    assert card("R1") not in m.private_view(B).hand


def vars_of(event: object) -> list[object]:
    return [getattr(event, f) for f in event.__slots__]  # type: ignore[attr-defined]


# D4 ----------------------------------------------------------------------------

A7 = "R5 R6 G1 G2 B3 B4 Y5"
B7 = "G5 G6 B1 B2 Y3 Y4 R9"


def test_d4_number_player_two_takes_a_normal_turn() -> None:
    m = drafted(A7, B7, shown=SHOWN, first="G9")
    assert of_type(list(m.public_view().recent), FirstCardTurned) == [FirstCardTurned(card("G9"))]
    assert to_act(m) == B
    assert pending(m) is Pending.NONE
    assert play("G5") in m.legal_actions(B)


def test_d4_skip_player_two_loses_the_turn() -> None:
    m = drafted(A7, B7, shown=SHOWN, first="GS")
    assert TurnSkipped(B) in m.public_view().recent
    assert to_act(m) == A
    assert pending(m) is Pending.NONE


def test_d4_draw_two_player_two_draws_two_by_itself() -> None:
    m = drafted(A7, B7, shown=SHOWN, first="G+2")
    assert CardsDrawn(B, 2, DrawReason.FIRST_CARD) in m.public_view().recent
    assert len(hand(m, B)) == 9
    assert to_act(m) == A
    assert pending(m) is Pending.NONE


def test_d4_reverse_player_two_may_dump_or_take_a_normal_turn() -> None:
    m = drafted(A7, B7, shown=SHOWN, first="GR")
    assert to_act(m) == B
    assert pending(m) is Pending.REVERSE_DUMP
    legal = m.legal_actions(B)
    assert Dump(card("G5")) in legal
    assert Dump(card("G6")) in legal
    assert play("G5") in legal
    assert Draw() in legal
    events = act(m, B, Dump(card("G6")))
    assert of_type(events, ColourDumped) == [ColourDumped(B, (card("G5"), card("G6")))]
    assert to_act(m) == A  # a number laid last: the opponent plays normally


def test_d4_reverse_normal_turn_instead_of_a_dump() -> None:
    m = drafted(A7, B7, shown=SHOWN, first="GR")
    act(m, B, play("G5"))
    assert hand(m, B) == ["R9", "Y3", "Y4", "G6", "B1", "B2"]
    assert to_act(m) == A


@pytest.mark.parametrize("first", ["W", "WC", "WSH"])
def test_d4_wild_player_one_names_the_colour_then_player_two_plays(first: str) -> None:
    m = drafted(A7, B7, shown=SHOWN, first=first)
    assert to_act(m) == A
    assert pending(m) is Pending.COLOUR
    before = (hand(m, A), hand(m, B))
    events = act(m, A, ChooseColour(BL))
    assert not of_type(events, HandsShuffled)  # no shuffle for a first card
    assert (hand(m, A), hand(m, B)) == before
    assert to_act(m) == B
    assert pending(m) is Pending.NONE
    assert m.public_view().active_colour is BL


def test_d4_wild_draw_four_player_two_draws_four_then_player_one_plays() -> None:
    m = drafted(A7, B7, shown=SHOWN, first="W+4")
    assert to_act(m) == A
    events = act(m, A, ChooseColour(R))
    assert CardsDrawn(B, 4, DrawReason.FIRST_CARD) in events
    assert len(hand(m, B)) == 11
    assert to_act(m) == A  # no challenge: the draw happened by itself
    assert pending(m) is Pending.NONE


# D5 ----------------------------------------------------------------------------


def test_d5_a_drawn_card_that_matches_may_be_played_at_once() -> None:
    m = duo("R1", "B5 G1", top="G3", draw="G7")
    act(m, B, Draw())
    assert pending(m) is Pending.DRAWN_CARD
    assert m.private_view(B).drawn == card("G7")
    assert m.private_view(A).drawn is None
    assert set(m.legal_actions(B)) == {play("G7"), KeepDrawn()}
    with pytest.raises(WrongMoment):
        m.apply(B, play("G1"))  # only the drawn card
    act(m, B, play("G7"))
    assert m.public_view().top == card("G7")
    assert to_act(m) == A


def test_d5_keep_the_drawn_card_ends_the_turn() -> None:
    m = duo("R1", "B5", top="G3", draw="G7")
    act(m, B, Draw())
    act(m, B, KeepDrawn())
    assert hand(m, B) == ["G7", "B5"]
    assert to_act(m) == A


def test_d5_a_drawn_card_that_does_not_match_ends_the_turn() -> None:
    m = duo("R1", "B5", top="G3", draw="Y9")
    events = act(m, B, Draw())
    assert CardsDrawn(B, 1, DrawReason.TURN) in events
    assert card("Y9") not in [v for e in events for v in vars_of(e)]
    assert to_act(m) == A
    assert pending(m) is Pending.NONE


def test_d5_playing_is_never_compulsory() -> None:
    m = duo("R1", "G5", top="G3", draw="Y9")
    assert Draw() in m.legal_actions(B)


def test_d5_only_a_matching_card_or_a_wild_may_be_played() -> None:
    m = duo("R1", "B5 W+4 Y3 R7", top="R9")
    legal = m.legal_actions(B)
    assert play("R7") in legal
    assert play("W+4") in legal
    assert play("B5") not in legal
    with pytest.raises(CardDoesNotMatch, match="A Blue 5 doesn't match Red 9"):
        m.apply(B, play("B5"))


def test_d5_drawing_when_nothing_is_left_is_a_pass() -> None:
    m = duo("R1", "B5", top="G3", fill=False)
    events = act(m, B, Draw())
    assert CardsDrawn(B, 0, DrawReason.TURN) in events
    assert hand(m, B) == ["B5"]
    assert to_act(m) == A


# D6 ----------------------------------------------------------------------------


def test_d6_skip_gives_another_turn() -> None:
    m = duo("R1", "GS B5 B6", top="G3")
    events = act(m, B, play("GS"))
    assert TurnSkipped(A) in events
    assert to_act(m) == B
    assert pending(m) is Pending.NONE


# D7 ----------------------------------------------------------------------------


def test_d7_volley_ends_with_total_draw() -> None:
    m = duo("G+2 R1 R2", "R+2 Y+2 B5", top="R3")
    events = act(m, B, play("R+2"))
    assert VolleyRaised(B, A, 2) in events
    assert (to_act(m), pending(m), m.public_view().pending_draw) == (A, Pending.VOLLEY, 2)
    events = act(m, A, play("G+2"))
    assert VolleyRaised(A, B, 4) in events
    events = act(m, B, play("Y+2", uno=True))
    assert VolleyRaised(B, A, 6) in events
    assert m.legal_actions(A) == [TakeVolley()]  # the only choice, still a button
    events = act(m, A, TakeVolley())
    assert CardsDrawn(A, 6, DrawReason.VOLLEY) in events
    assert len(hand(m, A)) == 8
    # The player who laid the last Draw 2 takes a normal turn.
    assert (to_act(m), pending(m)) == (B, Pending.NONE)


def test_d7_stacking_is_optional() -> None:
    m = duo("G+2 R1", "R+2 B5 B6", top="R3")
    act(m, B, play("R+2"))
    assert set(m.legal_actions(A)) == {play("G+2"), play("G+2", uno=True), TakeVolley()}
    act(m, A, TakeVolley())
    assert to_act(m) == B


def test_d7_only_a_draw_two_continues_a_volley() -> None:
    m = duo("W+4 R1 R4 RS", "R+2 B5", top="R3")
    act(m, B, play("R+2"))
    for code in ("W+4", "R4", "RS"):
        with pytest.raises(WrongMoment, match="Only a Draw 2"):
            m.apply(A, play(code))
    with pytest.raises(WrongMoment):
        m.apply(A, Draw())


# D8 ----------------------------------------------------------------------------


def test_d8_a_wild_names_the_colour_the_opponent_must_play() -> None:
    m = duo("R1 B2 R4", "W G5 G6", top="R3")
    act(m, B, play("W"))
    act(m, B, ChooseColour(BL))
    assert m.legal_actions(A) == [play("B2"), Draw()]
    with pytest.raises(CardDoesNotMatch, match="Blue was named"):
        m.apply(A, play("R1"))


def test_d8_accepting_a_wild_draw_four_draws_four_and_the_player_goes_again() -> None:
    m = duo("R1", "W+4 G5 G6", top="R3")
    act(m, B, play("W+4"))
    assert pending(m) is Pending.COLOUR
    act(m, B, ChooseColour(G))
    assert (to_act(m), pending(m), m.public_view().pending_draw) == (A, Pending.WILD_DRAW, 4)
    assert set(m.legal_actions(A)) == {Challenge(), Accept()}
    events = act(m, A, Accept())
    assert CardsDrawn(A, 4, DrawReason.WILD_DRAW) in events
    assert len(hand(m, A)) == 5
    assert (to_act(m), pending(m)) == (B, Pending.NONE)
    assert m.public_view().active_colour is G


def test_d8_a_wild_draw_four_may_be_played_at_any_time() -> None:
    m = duo("R1", "W+4 R5 R6", top="R3")
    assert play("W+4") in m.legal_actions(B)  # bluffing is part of the game


def test_d8_a_wild_draw_four_cannot_be_stacked_on_a_volley() -> None:
    m = duo("W+4 R1 R4", "R+2 B5 B6", top="R3")
    act(m, B, play("R+2"))
    assert play("W+4") not in m.legal_actions(A)
    with pytest.raises(WrongMoment, match="Only a Draw 2"):
        m.apply(A, play("W+4"))


# D9 ----------------------------------------------------------------------------


def test_d9_reverse_then_dump_every_card_of_the_colour() -> None:
    m = duo("G1", "RR R5 RS R3 B2", top="R9")
    act(m, B, play("RR"))
    assert (to_act(m), pending(m)) == (B, Pending.DUMP)
    assert set(m.legal_actions(B)) == {
        Dump(card("R3")),
        Dump(card("R5")),
        Dump(card("RS")),
        Dump(card("R3"), uno=True),
        Dump(card("R5"), uno=True),
        Dump(card("RS"), uno=True),
        NoDump(),
    }
    events = act(m, B, Dump(card("R5"), uno=True))
    assert of_type(events, ColourDumped) == [ColourDumped(B, tuple(cards("R3 RS R5")))]
    assert hand(m, B) == ["B2"]
    assert m.public_view().top == card("R5")
    assert (to_act(m), pending(m)) == (A, Pending.NONE)


def test_d9_dump_last_skip_gives_another_turn() -> None:
    m = duo("G1", "RR R5 RS B2 B3", top="R9")
    act(m, B, play("RR"))
    events = act(m, B, Dump(card("RS")))
    assert TurnSkipped(A) in events
    assert (to_act(m), pending(m)) == (B, Pending.NONE)
    assert hand(m, B) == ["B2", "B3"]


def test_d9_dump_last_draw_two_hits_the_opponent_who_may_volley() -> None:
    m = duo("G+2 G1", "RR R5 R+2 B2 B3", top="R9")
    act(m, B, play("RR"))
    events = act(m, B, Dump(card("R+2")))
    assert VolleyRaised(B, A, 2) in events
    assert (to_act(m), pending(m), m.public_view().pending_draw) == (A, Pending.VOLLEY, 2)
    assert play("G+2") in m.legal_actions(A)


def test_d9_dump_last_reverse_lets_the_opponent_dump() -> None:
    m = duo("R1 R2 G1", "RR RR R5 B2", top="R9")
    act(m, B, play("RR"))
    act(m, B, Dump(card("RR")))
    assert (to_act(m), pending(m)) == (A, Pending.REVERSE_DUMP)
    assert Dump(card("R1")) in m.legal_actions(A)


def test_d9_a_reverse_with_nothing_after_it_lets_the_opponent_dump() -> None:
    m = duo("R1 R2 G1", "RR B2 B3", top="R9")
    events = act(m, B, play("RR"))  # nothing else Red: not asked, the Reverse acts at once
    assert not of_type(events, DumpDeclined)
    assert (to_act(m), pending(m)) == (A, Pending.REVERSE_DUMP)  # never a Skip
    legal = m.legal_actions(A)
    assert Dump(card("R1")) in legal
    assert Dump(card("R2")) in legal
    assert NoDump() not in legal
    events = act(m, A, Dump(card("R1")))
    assert of_type(events, ColourDumped) == [ColourDumped(A, tuple(cards("R2 R1")))]
    assert hand(m, A) == ["G1"]


def test_d9_a_player_with_other_cards_of_the_colour_is_asked() -> None:
    m = duo("R1 G1", "RR R3 B3 B4", top="R9")
    act(m, B, play("RR"))
    assert m.legal_actions(B) == [Dump(card("R3")), NoDump()]
    events = act(m, B, NoDump())
    assert of_type(events, DumpDeclined) == [DumpDeclined(B)]
    assert (to_act(m), pending(m)) == (A, Pending.REVERSE_DUMP)


def test_d9_the_player_chooses_the_whole_order_laid() -> None:
    m = duo("R1 G1", "RR R3 R+2 RS B3 B4", top="R9")
    act(m, B, play("RR"))
    order = tuple(cards("R+2 R3 RS"))
    m.check(B, Dump(card("RS"), order=order))
    events = m.apply(B, Dump(card("RS"), order=order))
    assert of_type(events, ColourDumped) == [ColourDumped(B, order)]
    assert discard_pile(m)[-4:] == ["RR", "R+2", "R3", "RS"]
    assert (to_act(m), pending(m)) == (B, Pending.NONE)  # the last card, a Skip, acts


def test_d9_an_order_must_hold_every_card_of_the_colour_once() -> None:
    m = duo("R1 G1", "RR R3 R+2 RS B3 B4", top="R9")
    act(m, B, play("RR"))
    before = frozen(m)
    for order in ("R3 RS", "R+2 R3 RS RS", "RS R3 R+2", "R+2 R3 B3 RS"):
        with pytest.raises(WrongMoment):
            m.apply(B, Dump(card("RS"), order=tuple(cards(order))))
    assert frozen(m) == before


def test_d9_the_dump_offer_lasts_one_turn() -> None:
    m = duo("R1 G1", "RR B2 B3", top="R9", draw="Y9 Y8")
    act(m, B, play("RR"))
    act(m, A, Draw())  # a normal turn instead of the dump: Y9 does not match
    assert (to_act(m), pending(m)) == (B, Pending.NONE)
    act(m, B, Draw())
    assert (to_act(m), pending(m)) == (A, Pending.NONE)


def test_d9_wilds_never_count_in_a_dump() -> None:
    m = duo("G1", "RR R5 W B2", top="R9")
    act(m, B, play("RR"))
    with pytest.raises(WrongMoment, match="Wilds are never dumped"):
        m.apply(B, Dump(card("W")))
    with pytest.raises(WrongMoment):
        m.apply(B, Dump(card("B2")))
    act(m, B, Dump(card("R5")))
    assert hand(m, B) == ["B2", "W"]


def test_d9_a_dump_that_empties_the_hand_ends_the_round_and_a_draw_two_is_still_drawn() -> None:
    m = duo("G1 G2", "RR R5 R+2", top="R9", draw="Y1 Y2")
    act(m, B, play("RR"))
    events = act(m, B, Dump(card("R+2")))
    assert CardsDrawn(A, 2, DrawReason.VOLLEY) in events
    (ended,) = of_type(events, RoundEnded)
    assert ended.winner == B
    assert dict(ended.points)[A] == 1 + 2 + 1 + 2


def test_d9_a_reverse_played_straight_after_drawing_it_may_start_a_dump() -> None:
    m = duo("G1", "R5 B2", top="R9", draw="RR")
    act(m, B, Draw())
    act(m, B, play("RR"))
    assert pending(m) is Pending.DUMP
    assert Dump(card("R5")) in m.legal_actions(B)


# D10 ---------------------------------------------------------------------------


def wd4(m: Game, colour: Colour = G) -> None:
    act(m, B, play("W+4"))
    act(m, B, ChooseColour(colour))


def test_d10_challenge_illegitimate_wd4_player_draws_four_and_the_colour_stands() -> None:
    m = duo("G1", "W+4 R5 B1", top="R3")
    wd4(m)
    events = act(m, A, Challenge())
    assert ChallengeResolved(A, B, False) in events
    assert CardsDrawn(B, 4, DrawReason.CHALLENGE) in events
    assert len(hand(m, B)) == 6
    assert m.public_view().active_colour is G
    assert (to_act(m), pending(m)) == (A, Pending.NONE)
    assert m.private_view(A).revealed_hand == tuple(cards("R5 B1"))
    assert m.private_view(B).revealed_hand is None


def test_d10_challenge_legitimate_challenger_draws_six_wd4_player_goes_again() -> None:
    m = duo("G1", "W+4 B1 Y7", top="R3")
    wd4(m)
    events = act(m, A, Challenge())
    assert ChallengeResolved(A, B, True) in events
    assert CardsDrawn(A, 6, DrawReason.CHALLENGE) in events
    assert len(hand(m, A)) == 7
    assert (to_act(m), pending(m)) == (B, Pending.NONE)
    assert m.private_view(A).revealed_hand == tuple(cards("Y7 B1"))


@pytest.mark.parametrize(
    ("held", "literal", "classic"),
    [
        ("B3", False, True),  # same number: counts only literally
        ("W", False, True),  # another wild: counts only literally
        ("RS", False, False),  # colour in force: counts in both
        ("W+4", True, True),  # another Wild Draw 4 never counts
        ("BS", True, True),
    ],
)
def test_d10_challenge_judged_literally_or_classically(
    held: str, literal: bool, classic: bool
) -> None:
    for classic_challenge, legitimate in ((False, literal), (True, classic)):
        m = duo("G1", f"W+4 {held}", top="R3", classic_challenge=classic_challenge)
        wd4(m)
        events = act(m, A, Challenge())
        assert ChallengeResolved(A, B, legitimate) in events, (held, classic_challenge)


def test_d10_challenge_judged_on_the_colour_named_for_a_previous_wild() -> None:
    m = duo("G1", "W+4 G2", top="W", active=G)
    wd4(m, R)
    assert ChallengeResolved(A, B, False) in act(m, A, Challenge())
    m = duo("G1", "W+4 R2 B5", top="W", active=G)
    wd4(m, R)
    assert ChallengeResolved(A, B, True) in act(m, A, Challenge())


def test_d10_challenge_judged_on_the_hand_before_a_catch_penalty() -> None:
    m = duo("G1 G2", "W+4 B1", top="R3", draw="R7 R8")
    wd4(m)
    assert m.public_view().seats[1].exposed
    events = act(m, A, CatchUno())
    assert CardsDrawn(B, 2, DrawReason.UNO_PENALTY) in events
    assert sorted(hand(m, B)) == ["B1", "R7", "R8"]
    events = act(m, A, Challenge())
    assert ChallengeResolved(A, B, True) in events
    assert m.private_view(A).revealed_hand == (card("B1"),)


def test_d10_a_wd4_played_straight_after_drawing_it_is_judged_on_the_rest_of_the_hand() -> None:
    m = duo("G1", "B1 B2", top="R3", draw="W+4")
    act(m, B, Draw())
    wd4(m)
    assert ChallengeResolved(A, B, True) in act(m, A, Challenge())


def test_d10_the_revealed_hand_stays_until_the_challengers_next_action() -> None:
    m = duo("G1 Y1", "W+4 B1 G7", top="R3")
    wd4(m)
    act(m, A, Challenge())
    act(m, B, play("G7"))
    assert m.private_view(A).revealed_hand is not None
    act(m, A, Draw())
    assert m.private_view(A).revealed_hand is None


# D11 ---------------------------------------------------------------------------


def test_d11_a_play_leaving_one_card_exposes_and_the_opponent_may_catch() -> None:
    m = duo("G1", "R5 B2", top="R3", draw="Y1 Y2")
    events = act(m, B, play("R5"))
    assert UnoExposed(B) in events
    assert m.public_view().seats[1].exposed
    assert CatchUno() in m.legal_actions(A)
    assert CallUno() in m.legal_actions(B)
    events = act(m, A, CatchUno())
    assert UnoCaught(A, B) in events
    assert CardsDrawn(B, 2, DrawReason.UNO_PENALTY) in events
    assert sorted(hand(m, B)) == ["B2", "Y1", "Y2"]
    assert not m.public_view().seats[1].exposed
    assert to_act(m) == A  # a catch changes no turn


def test_d11_calling_with_the_play_never_exposes() -> None:
    m = duo("G1", "R5 B2", top="R3")
    events = act(m, B, play("R5", uno=True))
    assert UnoCalled(B) in events
    assert not of_type(events, UnoExposed)
    assert CatchUno() not in m.legal_actions(A)


def test_d11_calling_while_exposed_ends_exposure() -> None:
    m = duo("G1", "R5 B2", top="R3")
    act(m, B, play("R5"))
    assert act(m, B, CallUno()) == [UnoCalled(B)]
    with pytest.raises(WrongMoment):
        m.apply(A, CatchUno())


def test_d11_exposure_ends_at_the_next_play_or_draw_by_anyone() -> None:
    m = duo("G1 B9", "R5 B2", top="R3")
    act(m, B, play("R5"))
    act(m, A, Draw())
    assert not m.public_view().seats[1].exposed
    assert CatchUno() not in m.legal_actions(A)


def test_d11_exposure_ends_when_the_opponent_takes_a_volley() -> None:
    m = duo("G1 G2", "R+2 B2", top="R3")
    act(m, B, play("R+2"))
    assert m.public_view().seats[1].exposed
    act(m, A, TakeVolley())
    assert not m.public_view().seats[1].exposed


def test_d11_exposure_ends_when_a_wild_draw_four_is_accepted() -> None:
    m = duo("G1 G2", "W+4 B2", top="R3")
    wd4(m)
    assert m.public_view().seats[1].exposed
    act(m, A, Accept())
    assert CatchUno() not in m.legal_actions(A)


def test_d11_the_uno_flag_is_refused_unless_the_play_leaves_one_card() -> None:
    m = duo("G1", "R5 B2 B3", top="R3")
    assert play("R5", uno=True) not in m.legal_actions(B)
    with pytest.raises(WrongMoment, match="one card"):
        m.apply(B, play("R5", uno=True))


def test_d11_exposure_is_judged_after_a_dump() -> None:
    m = duo("G1", "RR R3 B2", top="R9")
    events = act(m, B, play("RR"))
    assert not of_type(events, UnoExposed)  # two cards left so far
    events = act(m, B, Dump(card("R3")))
    assert UnoExposed(B) in events


def test_d11_exposure_is_judged_after_the_named_colour() -> None:
    m = duo("G1", "W B2", top="R9")
    events = act(m, B, play("W"))
    assert not of_type(events, UnoExposed)
    assert CatchUno() not in m.legal_actions(A)
    events = act(m, B, ChooseColour(BL))
    assert UnoExposed(B) in events
    assert CatchUno() in m.legal_actions(A)


def test_d11_call_or_catch_when_nobody_is_exposed_is_refused_without_penalty() -> None:
    m = duo("G1", "R5 B2 B3", top="R3")
    for player, action in ((B, CallUno()), (A, CatchUno()), (A, CallUno()), (B, CatchUno())):
        with pytest.raises(WrongMoment):
            m.apply(player, action)
    assert (len(hand(m, A)), len(hand(m, B))) == (1, 3)


def test_d11_the_exposed_player_cannot_catch_themselves() -> None:
    m = duo("G1", "R5 B2", top="R3")
    act(m, B, play("R5"))
    with pytest.raises(WrongMoment):
        m.apply(B, CatchUno())


def test_d11_no_call_needed_when_the_play_empties_the_hand() -> None:
    m = duo("G1", "R5", top="R3")
    events = act(m, B, play("R5"))
    assert not of_type(events, UnoExposed)
    assert of_type(events, RoundEnded)


def test_d11_receiving_cards_never_exposes() -> None:
    m = duo("B5", "WSH R1", top="G3")
    act(m, B, play("WSH"))
    events = act(m, B, ChooseColour(R))
    assert len(hand(m, A)) == 1
    assert len(hand(m, B)) == 1
    assert UnoExposed(B) in events  # the shuffle was B's own play
    assert UnoExposed(A) not in events


def test_d11_a_catch_may_come_at_any_moment() -> None:
    m = duo("G1", "RS B2", top="R3")
    act(m, B, play("RS"))  # B plays again at once, still exposed
    assert to_act(m) == B
    assert CatchUno() in m.legal_actions(A)
    act(m, A, CatchUno())
    assert len(hand(m, B)) == 3


# D12 ---------------------------------------------------------------------------


def test_d12_refill_unshuffled() -> None:
    m = duo("G1", "B5", top="R4", under="R1 R2 R3", fill=False)
    events = act(m, B, Draw())
    assert DrawPileRefilled(3) in events
    assert hand(m, B) == ["R1", "B5"]  # the oldest discard ends on top
    assert draw_pile(m) == ["R2", "R3"]
    assert discard_pile(m) == ["R4"]


def test_d12_a_draw_of_several_continues_after_the_refill() -> None:
    m = duo("G1 G2", "R+2 B5", top="R4", under="Y1 Y2 Y3", draw="Y9", fill=False)
    act(m, B, play("R+2"))
    events = act(m, A, TakeVolley())
    assert CardsDrawn(A, 2, DrawReason.VOLLEY) in events
    assert hand(m, A) == ["Y1", "Y9", "G1", "G2"]
    assert draw_pile(m) == ["Y2", "Y3", "R4"]
    assert discard_pile(m) == ["R+2"]


def test_d12_with_nothing_left_the_rest_of_the_draw_is_dropped() -> None:
    m = duo("G+2 G2", "R+2 B5 B6", top="R4", draw="Y9", fill=False)
    act(m, B, play("R+2"))
    act(m, A, play("G+2"))
    events = act(m, B, TakeVolley())
    # Y9, then the refill (R4 R+2, the top G+2 stays), then nothing: 3 of 4.
    assert CardsDrawn(B, 3, DrawReason.VOLLEY) in events
    assert m.public_view().draw_pile == 0
    assert (to_act(m), pending(m)) == (A, Pending.NONE)


def test_d12_refill_only_when_a_card_must_be_drawn() -> None:
    m = duo("G1 G2", "R5 B5", top="R4", under="Y1 Y2", fill=False)
    events = act(m, B, play("R5"))
    assert not of_type(events, DrawPileRefilled)
    assert m.public_view().draw_pile == 0


# D13 ---------------------------------------------------------------------------


def test_d13_the_round_ends_the_moment_a_hand_is_empty() -> None:
    m = duo("G1 B7", "R5", top="R3")
    events = act(m, B, play("R5"))
    assert [type(e) for e in events][:2] == [CardPlayed, RoundEnded]
    (ended,) = of_type(events, RoundEnded)
    assert ended.round == 1
    assert ended.points == ((A, 8), (B, 0))
    assert ended.scores == ((A, 8), (B, 0))


def test_d13_a_last_draw_two_is_drawn_first_and_counts() -> None:
    m = duo("B5 G7", "R+2", top="R3", draw="Y9 G9")
    events = act(m, B, play("R+2"))
    assert CardsDrawn(A, 2, DrawReason.VOLLEY) in events
    (ended,) = of_type(events, RoundEnded)
    assert dict(ended.points)[A] == 5 + 7 + 9 + 9


def test_d13_a_last_draw_two_in_a_volley_draws_the_running_total() -> None:
    m = duo("R+2 G7", "Y+2", top="R3", turn=A, draw="Y1 Y2 Y3 Y4")
    act(m, A, play("R+2"))
    events = act(m, B, play("Y+2"))
    assert CardsDrawn(A, 4, DrawReason.VOLLEY) in events
    (ended,) = of_type(events, RoundEnded)
    assert dict(ended.points)[A] == 7 + 1 + 2 + 3 + 4


def test_d13_a_last_wild_draw_four_cannot_be_challenged_and_names_no_colour() -> None:
    m = duo("B5", "W+4", top="R3", draw="Y1 Y2 Y3 Y4")
    events = act(m, B, play("W+4"))
    assert not of_type(events, ColourChosen)
    assert CardsDrawn(A, 4, DrawReason.WILD_DRAW) in events
    (ended,) = of_type(events, RoundEnded)
    assert dict(ended.points)[A] == 5 + 1 + 2 + 3 + 4
    assert m.public_view().pending is not Pending.WILD_DRAW


def test_d13_a_last_wild_names_no_colour() -> None:
    m = duo("B5", "W", top="R3")
    events = act(m, B, play("W"))
    assert not of_type(events, ColourChosen)
    assert of_type(events, RoundEnded)
    assert m.public_view().phase is Phase.DRAFT


# D14 ---------------------------------------------------------------------------


def test_d14_the_loser_scores_their_hand() -> None:
    m = duo("R7 BS GR Y+2 W WSH WC W+4", "R5", top="R3")
    (ended,) = of_type(act(m, B, play("R5")), RoundEnded)
    assert ended.points == ((A, 7 + 10 + 10 + 10 + 15 + 15 + 15 + 20), (B, 0))


def test_d14_reaching_the_target_loses_and_the_lower_total_wins() -> None:
    m = duo("W+4 R5", "R6", top="R3", scores=(180, 150))
    events = act(m, B, play("R6"))
    (ended,) = of_type(events, MatchEnded)
    assert ended.winner == B
    assert ended.scores == ((A, 205), (B, 150))
    assert ended.forfeited == ()
    assert m.is_over
    assert m.waiting_for() == ()
    assert m.legal_actions(A) == []
    assert m.public_view().winner == B
    with pytest.raises(MatchOver):
        m.apply(A, Draw())


def test_d14_below_the_target_a_new_round_starts() -> None:
    m = duo("W+4 R5", "R6", top="R3", scores=(170, 150))
    events = act(m, B, play("R6"))
    assert not of_type(events, MatchEnded)
    assert of_type(events, RoundStarted)[0].round == 2
    assert [s.score for s in m.public_view().seats] == [195, 150]
    assert all_cards(m) == deck_counter()


def test_d14_the_target_is_a_table_option() -> None:
    m = duo("R5 R9", "R6", top="R3", target=14)
    assert of_type(act(m, B, play("R6")), MatchEnded)
    assert m.public_view().target == 14


# X3, X4 --------------------------------------------------------------------------


def test_x3_removal_is_a_forfeit_and_the_opponent_wins() -> None:
    m = duo("R5 R9", "R6", top="R3", scores=(10, 20))
    version = m.version
    events = m.remove_player(A)
    assert events == [PlayerRemoved(A), MatchEnded(B, ((A, 10), (B, 20)), (A,))]
    assert m.version == version + 1
    assert m.is_over
    assert m.public_view().seats[0].seated is False
    assert m.public_view().winner == B
    with pytest.raises(MatchOver):
        m.remove_player(B)


def test_x4_a_match_replays_from_its_seed_and_log() -> None:
    import random

    match = new_match("duo", players=[A, B], seed=7)
    rng = random.Random(7)
    log: list[tuple[str, Action]] = []
    while not match.is_over and len(log) < 400:
        who = match.waiting_for()[0]
        action = rng.choice(match.legal_actions(who))
        log.append((who, action))
        match.apply(who, action)
    again = replay("duo", players=[A, B], seed=7, log=log)
    assert again.to_snapshot() == match.to_snapshot()


def test_x4_only_the_matchs_own_generator_is_used() -> None:
    import random

    def run(global_seed: int) -> dict[str, object]:
        random.seed(global_seed)
        match = new_match("duo", players=[A, B], seed=11)
        rng = random.Random(11)
        for _ in range(300):
            who = match.waiting_for()[0]
            match.apply(who, rng.choice(match.legal_actions(who)))
        return match.to_snapshot()

    assert run(1) == run(2)
    other = new_match("duo", players=[A, B], seed=12)
    assert (
        other.to_snapshot()["draw"]
        != new_match("duo", players=[A, B], seed=11).to_snapshot()["draw"]
    )
