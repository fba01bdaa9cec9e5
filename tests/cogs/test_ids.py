"""The custom_id codec: every action round-trips, junk parses to None."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cogs.uno import ids
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
from engine.cards import Card, Colour, duo_deck, pizza_deck

ALL_CARDS = sorted(set(duo_deck()) | set(pizza_deck()), key=lambda c: c.code)
BIGGEST = 2**63 - 1  # SQLite's largest rowid


def every_action() -> list[Action]:
    actions: list[Action] = [
        Draw(),
        KeepDrawn(),
        TakeVolley(),
        Challenge(),
        Accept(),
        NoDump(),
        KeepCard(),
        RejectCard(),
        CallUno(),
        CatchUno(),
    ]
    actions += [ChooseColour(colour) for colour in Colour]
    for card in ALL_CARDS:
        actions += [Play(card), Play(card, uno=True), Dump(card), Dump(card, uno=True), Give(card)]
    return actions


def test_all_card_kinds_are_covered() -> None:
    assert len(ALL_CARDS) == 4 * 14 + 6  # 0-9, Skip, Reverse, Draw 2, Draw One; six wilds


@pytest.mark.parametrize("action", every_action(), ids=repr)
def test_every_action_round_trips(action: Action) -> None:
    code = ids.encode_action(action)
    assert ":" not in code
    assert ids.decode_action(code) == action
    custom_id = ids.table_custom_id(42, 7, code)
    parsed = ids.parse_custom_id(custom_id)
    assert parsed == ids.TableControl(table_id=42, version=7, code=code)
    assert isinstance(parsed, ids.TableControl)
    assert parsed.action == action


def test_action_codes_are_unique() -> None:
    codes = [ids.encode_action(a) for a in every_action()]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Play(Card.parse("R5")), "p.R5"),
        (Play(Card.parse("R5"), uno=True), "pu.R5"),
        (Draw(), "d"),
        (KeepDrawn(), "kd"),
        (ChooseColour(Colour.RED), "c.R"),
        (TakeVolley(), "tv"),
        (Challenge(), "ch"),
        (Accept(), "ac"),
        (Dump(Card.parse("R5")), "du.R5"),
        (Dump(Card.parse("R5"), uno=True), "duu.R5"),
        (NoDump(), "nd"),
        (Give(Card.parse("R5")), "g.R5"),
        (KeepCard(), "kc"),
        (RejectCard(), "rc"),
        (CallUno(), "cu"),
        (CatchUno(), "cc"),
        (Play(Card.parse("W+4")), "p.W+4"),
        (Play(Card.parse("YR")), "p.YR"),
    ],
)
def test_codes_follow_the_documented_format(action: Action, code: str) -> None:
    assert ids.encode_action(action) == code


@pytest.mark.parametrize(
    "code",
    [
        "",
        "p",
        "p.",
        "p.R99",
        "p.r5",
        "x.R5",
        "c.X",
        "c.",
        "c.RED",
        "pu",
        "du",
        "g.",
        "D",
        "dd",
        "hand",
        "sel",
        "p.R5.",
        " p.R5",
        "p.R5 ",
        "kc.R5",
        "c.W",
    ],
)
def test_decode_refuses_junk(code: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the contract is exactly ValueError
        ids.decode_action(code)


@pytest.mark.parametrize("code", [*sorted(ids.TABLE_CODES), "sel.1", "sel.24", "pg.0", "pg.12"])
def test_table_codes_round_trip(code: str) -> None:
    parsed = ids.parse_custom_id(ids.table_custom_id(3, 0, code))
    assert isinstance(parsed, ids.TableControl)
    assert parsed.code == code
    assert parsed.action is None


def test_select_and_page_helpers() -> None:
    assert ids.select_code(0) == "sel"
    assert ids.select_code(3) == "sel.3"
    select = ids.parse_custom_id(ids.table_custom_id(1, 2, ids.select_code(2)))
    assert isinstance(select, ids.TableControl)
    assert select.is_select
    assert select.page is None
    page = ids.parse_custom_id(ids.table_custom_id(1, 2, ids.page_code(4)))
    assert isinstance(page, ids.TableControl)
    assert page.page == 4
    assert not page.is_select


def test_the_table_messages_buttons_are_versionless() -> None:
    for code in ("hand", "uno"):
        parsed = ids.parse_custom_id(ids.table_custom_id(1, ids.ANY_VERSION, code))
        assert isinstance(parsed, ids.TableControl)
        assert parsed.versionless
    parsed = ids.parse_custom_id(ids.table_custom_id(1, 5, "p.R5"))
    assert isinstance(parsed, ids.TableControl)
    assert not parsed.versionless


@pytest.mark.parametrize("code", sorted(ids.LOBBY_CODES))
def test_lobby_buttons_name_their_lobby_and_version(code: str) -> None:
    custom_id = ids.lobby_custom_id(77, 3, code)
    assert custom_id == f"uno:lobby:77:3:{code}"
    assert ids.parse_custom_id(custom_id) == ids.LobbyControl(lobby_id=77, version=3, code=code)
    # The old lobby ids named only the channel: they no longer route anywhere.
    assert ids.parse_custom_id(f"uno:77:0:{code}") is None


@pytest.mark.parametrize(
    "custom_id",
    ["uno:lobby:1:2:dance", "uno:lobby:١:2:join", "uno:lobby:1:2:join:x", "uno:lobby::2:join"],
)
def test_malformed_lobby_ids_parse_to_none(custom_id: str) -> None:
    assert ids.parse_custom_id(custom_id) is None


def test_a_parsed_control_keeps_what_it_matched() -> None:
    play = ids.parse_custom_id("uno:4:9:pu.W+4")
    assert isinstance(play, ids.TableControl)
    assert play.action == Play(Card.parse("W+4"), uno=True)
    assert (play.is_select, play.page) == (False, None)
    pick = ids.parse_custom_id("uno:4:9:sel.2")
    assert isinstance(pick, ids.TableControl)
    assert (pick.action, pick.is_select, pick.page) == (None, True, None)


def test_leaderboard_pages_round_trip() -> None:
    custom_id = ids.leaderboard_custom_id("pizza", 12)
    assert custom_id == "uno:lb.pizza.12"
    assert ids.parse_custom_id(custom_id) == ids.LeaderboardControl(variant="pizza", page=12)
    assert re.fullmatch(ids.LEADERBOARD_TEMPLATE, custom_id)
    with pytest.raises(ValueError):  # noqa: PT011
        ids.leaderboard_custom_id("Duo!", 1)
    with pytest.raises(ValueError):  # noqa: PT011
        ids.leaderboard_custom_id("duo", -1)


@pytest.mark.parametrize("page", [1, 2, ids.MAX_PAGE])
def test_leaderboard_pages_within_bounds_parse(page: int) -> None:
    parsed = ids.parse_custom_id(f"uno:lb.duo.{page}")
    assert parsed == ids.LeaderboardControl(variant="duo", page=page)


@pytest.mark.parametrize(
    "page", [0, ids.MAX_PAGE + 1, 10**18, BIGGEST, 10**19, int("9" * 60)], ids=str
)
def test_leaderboard_pages_out_of_bounds_are_malformed(page: int) -> None:
    # A hand-made button: SQLite's OFFSET overflows past int64, and no board has
    # that many pages anyway. Refused like any other malformed id.
    assert ids.parse_custom_id(f"uno:lb.duo.{page}") is None
    with pytest.raises(ValueError, match="bad leaderboard page"):
        ids.leaderboard_custom_id("duo", page)


def test_longest_possible_id_fits_discord() -> None:
    codes = [ids.encode_action(a) for a in every_action()]
    codes += [*ids.TABLE_CODES, ids.select_code(24), ids.page_code(999)]
    longest = max((ids.table_custom_id(BIGGEST, BIGGEST, code) for code in codes), key=len)
    assert len(longest) <= ids.MAX_CUSTOM_ID
    assert ids.parse_custom_id(longest) is not None
    assert len(ids.leaderboard_custom_id("pizza", ids.MAX_PAGE)) <= ids.MAX_CUSTOM_ID


def test_ids_match_the_family_template() -> None:
    custom_id = ids.table_custom_id(123, 45, "pu.W+4")
    found = re.fullmatch(ids.TABLE_TEMPLATE, custom_id)
    assert found is not None
    assert (found["table"], found["version"], found["code"]) == ("123", "45", "pu.W+4")


@pytest.mark.parametrize(
    ("table_id", "version", "code"),
    [(-1, 0, "d"), (1, -1, "d"), (1, 1, "zz"), (1, 1, ""), (1, 1, "a:b"), (10**20, 1, "d")],
)
def test_building_a_bad_id_raises(table_id: int, version: int, code: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011
        ids.table_custom_id(table_id, version, code)


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "uno",
        "uno:",
        "uno:1",
        "uno:1:2",
        "uno:1:2:",
        "uno:a:2:d",
        "uno:1:b:d",
        "uno:-1:2:d",
        "uno:1:-2:d",
        "uno:1:2:zz",
        "uno:1:2:p.R99",
        "uno:1:2:d:extra",
        "uno:1:2:d\n",
        "uno::2:d",
        "UNO:1:2:d",
        "foo:1:2:d",
        "xuno:1:2:d",
        " uno:1:2:d",
        "uno:١:2:d",  # an Arabic-Indic digit is still \d to `re`
        "uno:1:2:sel.x",
        "uno:1:2:pg.",
        "uno:1:2:pg.1.2",
        "uno:99999999999999999999:2:d",
        "uno:lb.duo.",
        "uno:lb..1",
        "uno:lb.duo.1.2",
        "uno:lb.duo.١",
        "uno:1:2:" + "d" * 200,
        "persistent_view:uno",
    ],
)
def test_malformed_or_foreign_ids_parse_to_none(custom_id: str) -> None:
    assert ids.parse_custom_id(custom_id) is None


@pytest.mark.parametrize("value", [None, 5, b"uno:1:2:d", ["uno:1:2:d"]])
def test_non_strings_parse_to_none(value: object) -> None:
    assert ids.parse_custom_id(value) is None


@given(st.text(max_size=120))
def test_parse_never_raises(text: str) -> None:
    parsed = ids.parse_custom_id(text)
    if isinstance(parsed, ids.TableControl):
        assert ids.table_custom_id(parsed.table_id, parsed.version, parsed.code) == text
    if isinstance(parsed, ids.LobbyControl):
        assert ids.lobby_custom_id(parsed.lobby_id, parsed.version, parsed.code) == text


@given(st.from_regex(ids.TABLE_TEMPLATE, fullmatch=True))
def test_template_matches_never_crash_the_parser(text: str) -> None:
    parsed = ids.parse_custom_id(text)
    assert parsed is None or isinstance(parsed, ids.TableControl)


def test_share_and_rules_details_round_trip() -> None:
    assert ids.parse_custom_id(ids.share_custom_id()) == ids.Share()
    assert ids.parse_custom_id(ids.share_custom_id("duo", 3)) == ids.Share("duo", 3)
    member = ids.share_custom_id(member=2**63 - 1)
    assert ids.parse_custom_id(member) == ids.Share(member=2**63 - 1)
    assert ids.parse_custom_id(ids.rules_custom_id("pizza")) == ids.RulesDetails("pizza")
    for forged in (
        "uno:share.duo.0",
        "uno:share.duo.",
        "uno:share.DUO.1",
        "uno:rules.",
        "uno:sharex",
        "uno:share.of.",
        "uno:share.of.12345678901234567890",
        "uno:share.of.١٢",
    ):
        assert ids.parse_custom_id(forged) is None, forged
    with pytest.raises(ValueError, match="bad share"):
        ids.share_custom_id("duo", 0)
