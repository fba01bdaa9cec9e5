"""What the panels, the rules card and the records say, read as a player reads them
(issue items 6, 7, 8 and 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.uno import render
from cogs.uno.boards import embeds as boards
from cogs.uno.i18n.l10n import CROATIAN, speaking, t
from cogs.uno.render.rule_words import ALL_RULE_WORDS, CLASSIC_CHALLENGE, DUO_CHALLENGE
from cogs.uno.settings import panel
from db.models import GuildSettings
from engine.actions import Action, Draw, Play
from engine.cards import card, cards
from engine.events import CardPlayed, RoundStarted
from engine.views import PrivateView
from tests.cogs.builders import ANN, BOB, public_view

DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
FACTS = panel.PanelFacts(default_seconds=90)


def _challenge_option_hints(settings: GuildSettings) -> dict[str, str]:
    rows = panel.panel_components(settings)
    select = next(
        row["components"][0]
        for row in rows
        if row["components"][0]["custom_id"].endswith("challenge")
    )
    return {o["label"]: o["description"] for o in select["options"]}


# -- item 7: one source for each rule's words --------------------------------------------


@pytest.mark.parametrize("classic", [False, True])
def test_item7_the_settings_panel_and_the_rules_card_say_the_challenge_alike(
    classic: bool,
) -> None:
    words = CLASSIC_CHALLENGE if classic else DUO_CHALLENGE
    settings = GuildSettings(duo_classic_challenge=classic)
    shown = panel.panel_embed(settings, FACTS).description or ""
    assert f"{words.name}: {words.counts}" in shown
    assert _challenge_option_hints(settings) == {
        DUO_CHALLENGE.name: DUO_CHALLENGE.hint,
        CLASSIC_CHALLENGE.name: CLASSIC_CHALLENGE.hint,
    }
    assert words.counts in render.rules_guide("duo", classic_challenge=classic)


def test_item7_d10_the_duo_card_no_longer_says_you_held_the_colour() -> None:
    guide = render.rules_guide("duo")
    assert "held the colour" not in guide
    assert DUO_CHALLENGE.counts in guide
    assert CLASSIC_CHALLENGE.counts in render.rules_guide("classic")  # C7, always


def test_item7_docs_rules_md_says_each_choosable_rule_in_the_products_words() -> None:
    docs = " ".join(DOCS.read_text(encoding="utf-8").split())  # lines wrap anywhere
    for words in ALL_RULE_WORDS:
        listed = re.search(rf"- {words.rule}, [^“]*“([^”]*)”", docs)
        assert listed is not None, f"docs/rules.md lists no words for {words.rule}"
        assert listed[1] == words.counts


def test_item7_the_croatian_card_and_panel_share_the_words_too() -> None:
    with speaking(CROATIAN):
        counts = t(DUO_CHALLENGE.counts)
        assert counts != DUO_CHALLENGE.counts  # translated
        assert counts in render.rules_guide("duo")
        assert counts in (panel.panel_embed(GuildSettings(), FACTS).description or "")


# -- item 6: distinct computer names -------------------------------------------------------


def test_item6_two_computers_at_one_table_have_distinct_names() -> None:
    names = {ANN: "Ann", "1": "Computer (normal)", "2": "Computer (normal)"}
    assert render.plain_name(names, "1") == "Computer 1 (normal)"
    assert render.plain_name(names, "2") == "Computer 2 (normal)"
    played = CardPlayed(player="2", card=card("R5"))
    assert "**Computer 2 (normal)**" in (render.describe_event(played, names) or "")
    with speaking(CROATIAN):
        assert render.plain_name(names, "2") == "Računalo 2 (normalno)"


def test_item6_a_lone_computer_keeps_its_plain_name() -> None:
    names = {ANN: "Ann", "1": "Computer (hard)"}
    assert render.plain_name(names, "1") == "Computer (hard)"
    # A member who calls themselves so is never numbered as a computer.
    members = {ANN: "Computer (hard)", BOB: "Computer (hard)", "1": "Computer (easy)"}
    assert render.plain_name(members, ANN) == "Computer (hard)"


# -- item 8: the Duo draft's start ---------------------------------------------------------


def test_item8_d3_a_duo_round_starts_with_the_draft_not_with_who_plays_first() -> None:
    names = {ANN: "Ann", BOB: "Bob"}
    started = RoundStarted(round=1, first=BOB, dealer=ANN)
    line = render.describe_event(started, names, variant="duo") or ""
    assert line == "Round 1 starts with the draft: **Ann** picks first"
    assert "plays first" not in line
    pizza = render.describe_event(started, names, variant="pizza") or ""
    assert "**Bob** plays first" in pizza  # a dealt round starts with play


# -- item 9: words -------------------------------------------------------------------------


def test_item9_a_play_that_calls_uno_reads_as_one_card() -> None:
    hand = cards("B8 B8")
    legal: list[Action] = [Play(card("B8")), Play(card("B8"), uno=True), Draw()]
    view = PrivateView(
        player=ANN,
        hand=tuple(hand),
        legal=tuple(legal),
        drawn=None,
        looking_at=None,
        revealed_hand=None,
        received=None,
        given=None,
        drew=(),
    )
    drawn = render.hand_panel(view, public_view(), names={}, table_id=1, version=1)
    labels = [b.label for b in drawn.components if isinstance(b, render.ButtonSpec)]
    assert "Play Blue 8 · UNO!" in labels
    assert not any("×2" in label and "UNO" in label for label in labels)


def test_item9_stats_with_only_practice_do_not_say_no_finished_match() -> None:
    embed = boards.stats("alice", {"duo": None, "pizza": None}, practice=True)
    values = [field.value or "" for field in embed.fields]
    assert all("No finished match yet" not in value for value in values)
    assert all("practice" in value for value in values)
    plain = boards.stats("alice", {"duo": None}, practice=False)
    assert plain.fields[0].value == "No finished match yet."
