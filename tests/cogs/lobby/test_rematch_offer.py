"""A rematch offer: only the humans press, and it comes back from the database whole."""

from __future__ import annotations

from cogs.uno.lobby.rematches import Offer, expired
from cogs.uno.table.options import TableOptions

ALICE, BOB = 111111111111111111, 222222222222222222


def offer() -> Offer:
    return Offer(
        table_id=42,
        guild_id=7,
        channel_id=8,
        host_id=ALICE,
        variant="classic",
        play=TableOptions(target=300, turn_seconds=30),
        seats=[(ALICE, "alice"), (2, "Computer (hard)"), (BOB, "bob")],
        computers={2: "hard"},
        accepted={BOB},
    )


def test_a_computer_seat_never_has_to_press_rematch() -> None:
    made = offer()
    assert made.humans == {ALICE, BOB}
    assert made.button().label == "Rematch (1/2)"


def test_an_offer_read_back_from_its_row_is_the_same_offer() -> None:
    made = offer()
    assert Offer.of_row(made.row(), turn_seconds=90) == made


def test_an_expired_offer_says_how_to_start_a_new_game() -> None:
    assert "expired" in expired()
    assert all(f"/uno {game}" in expired() for game in ("duo", "pizza", "classic"))
