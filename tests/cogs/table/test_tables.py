"""A running table's (cogs/uno/table/running.py) view of who sits at it."""

from __future__ import annotations

from cogs.uno.table.running import LiveTable
from engine.match import PizzaOptions, new_match

ALICE, BOB, CAROL, STRANGER = 11, 22, 33, 44


def pizza_table() -> LiveTable:
    match = new_match(
        "pizza", players=[str(ALICE), str(BOB), str(CAROL)], seed=7, options=PizzaOptions()
    )
    return LiveTable(
        match_id=1,
        guild_id=100,
        channel_id=200,
        host_id=ALICE,
        match=match,
        names={str(ALICE): "alice", str(BOB): "bob", str(CAROL): "carol"},
        options={"target": 250},
    )


def test_x3_a_player_who_left_is_no_longer_seated() -> None:
    table = pizza_table()
    assert [table.seated(u) for u in (ALICE, BOB, CAROL, STRANGER)] == [True, True, True, False]
    table.match.remove_player(str(CAROL))
    assert not table.match.is_over  # two players go on (X3)
    # Carol keeps her seat in the match record, but may no longer act or open a hand here.
    assert str(CAROL) in table.match.players
    assert [table.seated(u) for u in (ALICE, BOB, CAROL, STRANGER)] == [True, True, False, False]
