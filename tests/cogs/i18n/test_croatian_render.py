"""The panel, the table and the engine's refusals rendered in Croatian (and English still)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import ImageFont

from cogs.uno import render
from cogs.uno.boards import rating_chart
from cogs.uno.i18n.l10n import CROATIAN, ENGLISH, speaking, tn
from cogs.uno.render.refusals import refusal_words
from cogs.uno.settings import panel as settings_panel
from db.models import GuildSettings
from engine.actions import Draw, Play
from engine.cards import Colour, card
from engine.errors import CardDoesNotMatch, IllegalAction, WrongMoment
from engine.events import CardPlayed, CardsDrawn, DrawReason
from engine.options import Variant
from engine.views import Pending, PrivateView
from playground.limits import validate_message, validate_modal
from tests.cogs.builders import ANN, BOB, public_view
from tests.cogs.render import test_render

NAMES = {ANN: "Ann", BOB: "Bob"}


def _private() -> PrivateView:
    hand = (card("R5"), card("B5"), card("RS"), card("W"))
    return PrivateView(
        player=ANN,
        hand=hand,
        legal=(Play(card("R5")), Play(card("RS")), Play(card("W")), Draw()),
        looking_at=None,
        drawn=None,
        revealed_hand=None,
        received=None,
        given=None,
    )


def _panel_text(language: str) -> str:
    with speaking(language):
        panel = render.hand_panel(_private(), public_view(), names=NAMES, table_id=7, version=3)
    embed = panel.embed
    assert embed is not None
    labels = [getattr(c, "label", "") or "" for c in panel.components]
    return "\n".join(
        [
            panel.content,
            embed.title or "",
            embed.description or "",
            embed.footer.text or "",
            *labels,
        ]
    )


def test_hand_panel_in_croatian() -> None:
    text = _panel_text(CROATIAN)
    assert "**Na potezu si:** odigraj kartu koja odgovara ili vuci." in text
    assert "Gornja karta:" in text
    assert "Tvoja ruka · 4 karte" in text
    assert "Vuci kartu" in text  # the Draw button
    assert "Crvena Preskoči" in text  # a card's name
    assert "Džoker" in text
    for english in ("Your turn", "Top card", "Draw a card", "Your hand", "Skip", "Red"):
        assert english not in text


def test_hand_panel_stays_english_by_default() -> None:
    text = _panel_text(ENGLISH)
    assert "**Your turn:** play a matching card or draw." in text
    assert "Your hand · 4 cards" in text
    assert "Draw a card" in text
    assert "Red Skip" in text


def _table_text(language: str) -> str:
    view = public_view(
        recent=(
            CardPlayed(player=BOB, card=card("G7")),
            CardsDrawn(player=ANN, count=2, reason=DrawReason.VOLLEY),
        ),
    )
    view = replace(view, top=card("W"), active_colour=Colour.BLUE)
    with speaking(language):
        embed = render.table_embed(view, names=NAMES, table_id=7, deadline=None)
        buttons = render.table_components(view, table_id=7)
    fields = [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(
        [embed.title or "", embed.description or "", *fields, embed.footer.text or ""]
        + [b.label for b in buttons]
    )


def test_table_in_croatian() -> None:
    text = _table_text(CROATIAN)
    assert "UNO Duo · Runda 1 · do 200" in text
    assert "**Gornja karta:**" in text
    assert "Džoker → 🟦 Plava" in text
    assert "Igrači" in text
    assert "7 karata" in text
    assert "**Bob** igra" in text
    assert "**Ann** vuče 2 karte (niz)" in text
    assert "Ruka" in text
    assert "Zovi UNO" in text
    for english in ("Round", "Top card", "Players", "Last moves", "cards", "Hand"):
        assert english not in text


def test_table_in_english() -> None:
    text = _table_text(ENGLISH)
    assert "UNO Duo · Round 1 · to 200" in text
    assert "**Ann** drew 2 cards (volley)" in text


@pytest.mark.parametrize(
    ("error", "english", "croatian"),
    [
        (
            CardDoesNotMatch("{A_card} doesn't match {top}.", A_card=card("B5"), top=card("R7")),
            "A Blue 5 doesn't match Red 7.",
            "Plava 5 ne ide na kartu Crvena 7.",
        ),
        (
            WrongMoment("Dump your {colour_cards} or keep them first.", colour_cards=Colour.RED),
            "Dump your Red cards or keep them first.",
            "Prvo odbaci svoje crvene karte ili ih zadrži.",
        ),
        (
            WrongMoment(
                "{why}It's your turn: play a card or draw.",
                why="You haven't drawn a card this turn. ",
            ),
            "You haven't drawn a card this turn. It's your turn: play a card or draw.",
            "U ovom potezu nisi vukao/la kartu. Na potezu si: odigraj kartu ili vuci.",
        ),
        (
            WrongMoment("That move isn't part of {game}.", game="classic UNO"),
            "That move isn't part of classic UNO.",
            "Taj potez ne postoji u igri klasični UNO.",
        ),
    ],
)
def test_engine_refusals_in_both_languages(
    error: IllegalAction, english: str, croatian: str
) -> None:
    assert error.message == english  # the engine's own words stay English
    with speaking(ENGLISH):
        assert refusal_words(error) == english
    with speaking(CROATIAN):
        assert refusal_words(error) == croatian


def _has_glyph(font: ImageFont.FreeTypeFont, letter: str) -> bool:
    missing = bytes(font.getmask("\uffff"))  # a code point no font draws: the empty box
    return bytes(font.getmask(letter)) != missing


def test_the_rating_chart_draws_croatian_words_in_its_font() -> None:
    font = rating_chart._font()
    with speaking(CROATIAN):
        caption = tn("skill over the last {count} game", "skill over the last {count} games", 5)
    title = "Klasični UNO · đak, šešir, žuta, ćup"
    letters = {c for c in caption + title + "ČĆĐŠŽ" if not c.isspace()}
    assert not {c for c in letters if not _has_glyph(font, c)}
    with speaking(CROATIAN):
        marked = rating_chart.chart_png({"classic": [0.0, 1.0, 2.0]}, {"classic": title})
        plain = rating_chart.chart_png(
            {"classic": [0.0, 1.0, 2.0]}, {"classic": "Klasicni UNO · dak, sesir, zuta, cup"}
        )
    assert marked.startswith(b"\x89PNG")
    assert marked != plain  # the marks are drawn, not folded away


def test_croatian_settings_panel_and_form_fit_discord() -> None:
    facts = settings_panel.PanelFacts(default_seconds=90)
    with speaking(CROATIAN):
        data = settings_panel.panel_data(GuildSettings(), facts, note="✅ Spremljeno.")
        form = settings_panel.numbers_modal(GuildSettings(), facts)
        wrong = settings_panel.numbers({"turn_seconds": "2"})
    validate_message(data, require_body=True)  # raises on anything over Discord's limits
    validate_modal(form)
    assert data["embeds"][0]["title"] == "UNO postavke ovog servera"
    assert form["title"] == "Vrijeme poteza i ciljevi"
    assert isinstance(wrong, str)
    assert wrong.startswith("Ništa nije promijenjeno: **Sekunde za svaki potez** mora biti")


# Croatian words are longer than English ones: the render limits hold for them too.
@pytest.mark.parametrize(
    ("variant", "size", "players", "pending"),
    [c for c in test_render.generated_cases() if c[1] in (1, 60) and c[2] in (2, 5, 10)],
)
def test_every_view_stays_within_discord_limits_in_croatian(
    variant: str, size: int, players: int, pending: Pending
) -> None:
    with speaking(CROATIAN):
        test_render.test_every_view_stays_within_discord_limits(variant, size, players, pending)


@pytest.mark.parametrize(("variant", "players"), [("duo", 2), ("pizza", 5), ("classic", 10)])
def test_real_random_games_render_within_limits_in_croatian(variant: Variant, players: int) -> None:
    with speaking(CROATIAN):
        test_render.test_real_random_games_render_within_limits(variant, players)
