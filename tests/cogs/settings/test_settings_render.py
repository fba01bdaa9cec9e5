"""The settings panel, table options, the board by skill and the rating chart (pure parts)."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from PIL import Image

from cogs.uno import ids
from cogs.uno.boards import rating_board, rating_chart
from cogs.uno.settings import panel
from cogs.uno.table.options import TableOptions
from db.models import GuildSettings, Rating, RatingBoardPage, RatingChange, RatingEntry
from engine.match import ClassicOptions, DuoOptions, PizzaOptions
from playground.limits import check_raises

FACTS = panel.PanelFacts(default_seconds=45)
GOOD = {"turn_seconds": "30", "target_duo": "100", "target_pizza": "300"}
GOOD |= {"target_classic": "500"}


def test_panel_shows_every_setting_in_words_within_discords_limits() -> None:
    data = panel.panel_data(GuildSettings(), FACTS)
    assert check_raises(data) is None
    text = data["embeds"][0]["description"]
    assert "**Turn time:** 45 seconds (the bot's default)" in text
    assert "UNO Duo 200 · Pocket Pizza Pizza 250 · Classic UNO 500" in text
    assert "112 cards (Duo's own)" in text
    assert "**Classic house rules:** none" in text
    assert "coming soon" not in text
    assert "in the channel itself" in text
    assert "mention the player" in text
    custom_ids = [c["custom_id"] for row in data["components"] for c in row["components"]]
    assert all(isinstance(ids.parse_custom_id(c), ids.SettingsControl) for c in custom_ids)


def test_panel_marks_the_choices_in_use() -> None:
    chosen = GuildSettings(duo_deck=108, duo_classic_challenge=True, thread_tables=True)
    rows = panel.panel_components(chosen)
    defaults = {
        row["components"][0]["custom_id"]: [
            o["value"] for o in row["components"][0].get("options", []) if o.get("default")
        ]
        for row in rows
    }
    assert defaults["uno:set.deck"] == ["108"]
    assert defaults["uno:set.challenge"] == ["classic"]
    assert defaults["uno:set.table"] == ["thread", "mention"]
    house = rows[2]["components"][0]
    assert "disabled" not in house  # the engine plays every house rule (H1–H4)
    assert house["min_values"] == 0
    assert house["max_values"] == 4


def test_a_chosen_turn_time_is_shown_as_the_servers() -> None:
    text = panel.panel_embed(GuildSettings.model_validate({"turn_seconds": 90}), FACTS).description
    assert text is not None
    assert "**Turn time:** 90 seconds\n" in text


def test_numbers_form_read_back() -> None:
    assert panel.numbers(GOOD) == {
        "turn_seconds": 30,
        "target_duo": 100,
        "target_pizza": 300,
        "target_classic": 500,
    }


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("turn_seconds", "4", "from 5 to 3600 seconds"),
        ("turn_seconds", "3601", "from 5 to 3600 seconds"),
        ("target_duo", "ten", "from 50 to 1000 points"),
        ("target_pizza", "", "from 50 to 1000 points"),
        ("target_classic", "٥٠٠", "from 50 to 1000 points"),  # Arabic-Indic digits
    ],
)
def test_numbers_form_refused_in_plain_words(name: str, text: str, said: str) -> None:
    answer = panel.numbers({**GOOD, name: text})
    assert isinstance(answer, str)
    assert answer.startswith("Nothing was changed:")
    assert said in answer


def test_form_values_read_rows_and_labels() -> None:
    data = {
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "turn_seconds", "value": "9"}]},
            {"type": 18, "component": {"type": 4, "custom_id": "target_duo", "value": "60"}},
        ]
    }
    assert panel.form_values(data) == {"turn_seconds": "9", "target_duo": "60"}


def test_numbers_modal_is_filled_with_what_is_in_use() -> None:
    modal = panel.numbers_modal(GuildSettings(target_duo=300), FACTS)
    values = {
        row["components"][0]["custom_id"]: row["components"][0]["value"]
        for row in modal["components"]
    }
    assert values == {
        "turn_seconds": "45",
        "target_duo": "300",
        "target_pizza": "250",
        "target_classic": "500",
    }
    assert len(modal["components"]) <= 5


def test_table_options_follow_the_server() -> None:
    settings = GuildSettings(
        target_duo=120, duo_deck=108, duo_classic_challenge=True, turn_ping_mentions=False
    )
    duo = TableOptions.of(settings, "duo", target=None, turn_seconds=45)
    assert duo.target == 120
    assert duo.turn_seconds == 45  # the server chose none: the bot's default
    assert duo.engine("duo") == DuoOptions(target=120, classic_deck=True, classic_challenge=True)
    assert duo.words() == (
        "45 s a turn · classic deck (108 cards) · classic challenge (only the active colour counts)"
    )
    assert not duo.mentions
    pizza = TableOptions.of(settings, "pizza", target=75, turn_seconds=45)
    assert pizza.engine("pizza") == PizzaOptions(target=75)
    classic = TableOptions.of(settings, "classic", target=None, turn_seconds=45)
    assert classic.engine("classic") == ClassicOptions(target=500)
    assert not pizza.classic_deck
    chosen = GuildSettings.model_validate({"turn_seconds": 20, "stacking": True})
    timed = TableOptions.of(chosen, "duo", target=None, turn_seconds=45)
    assert timed.turn_seconds == 20
    assert timed.house_rules == ()  # classic's house rules: never claimed by a Duo table


def test_h1_h4_a_classic_table_plays_and_shows_the_servers_house_rules() -> None:
    chosen = GuildSettings.model_validate({"stacking": True, "jump_in": True})
    classic = TableOptions.of(chosen, "classic", target=None, turn_seconds=45)
    assert classic.house_rules == ("stacking", "jump_in")
    assert classic.engine("classic") == ClassicOptions(target=500, stacking=True, jump_in=True)
    assert classic.words() == "45 s a turn · House rules: stacking, jump-in"
    back = TableOptions.from_data(classic.data(), turn_seconds=45)
    assert back.engine("classic") == classic.engine("classic")
    pizza = TableOptions.of(chosen, "pizza", target=None, turn_seconds=45)
    assert pizza.house_rules == ()


def test_table_options_survive_the_database() -> None:
    options = TableOptions(target=90, turn_seconds=12, classic_deck=True, mentions=False)
    back = TableOptions.from_data({**options.data(), "host_id": 1}, turn_seconds=90)
    assert back == options
    assert TableOptions.from_data({"target": 200}, turn_seconds=33).turn_seconds == 33


def entry(place: int, name: str, conservative: float, played: int) -> RatingEntry:
    return RatingEntry(
        place=place, user_id=place, display_name=name, mu=conservative + 3, sigma=1.0,
        conservative=conservative, played=played, won=played // 2, points=10 * played,
    )  # fmt: skip


def test_board_by_skill_lines_unranked_and_pager() -> None:
    page = RatingBoardPage(
        variant="duo", page=1, page_size=10, total=12, min_played=5,
        entries=[entry(1, "ace", 24.14, 9), entry(2, "b*e", -1.25, 5)],
    )  # fmt: skip
    unranked = [entry(0, f"n{i}", 0.0, 3) for i in range(17)]
    embed, specs = rating_board.leaderboard(page, unranked, guild_name="Club")
    assert embed.description == (
        "🥇 **ace** — skill 24.1 · 4 won of 9 played · 90 points conceded\n"
        "🥈 **b\\*e** — skill -1.2 · 2 won of 5 played · 50 points conceded"
    )
    (field,) = embed.fields
    assert field.name == "Not ranked yet"
    assert field.value is not None
    assert field.value.startswith("n0 (3 of 5 matches), n1 (3 of 5 matches)")
    assert field.value.endswith("and 2 more")
    assert [s.custom_id for s in specs] == ["uno:rb.duo.1", "uno:rb.duo.2"]
    assert [s.disabled for s in specs] == [True, False]
    assert embed.footer.text is not None
    assert "Page 1 of 2 · 12 ranked players" in embed.footer.text


def test_rating_words() -> None:
    rating = Rating(user_id=1, variant="duo", mu=30.0, sigma=2.0, matches=3)
    assert rating_board.rating_words(None) == "no rated match yet"
    assert rating_board.rating_words(rating) == "skill 24.0 · not ranked yet (3 of 5 matches)"
    ranked = rating.model_copy(update={"matches": 5})
    assert rating_board.rating_words(ranked) == "skill 24.0"


def test_rating_ids_round_trip() -> None:
    parsed = ids.parse_custom_id(ids.rating_custom_id("pizza", 3))
    assert parsed == ids.LeaderboardControl(variant="pizza", page=3, by_rating=True)
    assert ids.parse_custom_id("uno:lb.duo.2") == ids.LeaderboardControl("duo", 2)
    assert ids.parse_custom_id("uno:set.numbers") == ids.SettingsControl("numbers")
    assert ids.parse_custom_id("uno:set.nothing") is None
    with pytest.raises(ValueError, match="unknown settings code"):
        ids.settings_custom_id("nothing")


def change(before: float, after: float) -> RatingChange:
    return RatingChange(
        match_id=1, ended_at=datetime(2026, 1, 1, tzinfo=UTC),
        mu_before=before + 3, sigma_before=1.0, mu_after=after + 3, sigma_after=1.0,
    )  # fmt: skip


def test_chart_points_and_picture() -> None:
    history = [change(0.0, 1.5), change(1.5, 0.5), change(0.5, 2.0)]
    assert rating_chart.points(history) == [0.0, 1.5, 0.5, 2.0]
    assert rating_chart.points([]) == []
    png = rating_chart.chart_png({"duo": [0.0, 1.5, 0.5, 2.0], "pizza": [3.0]}, {"duo": "Duo"})
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.size == (rating_chart.WIDTH, rating_chart.HEIGHT)
        line = rating_chart.LINES["duo"]
        rgb = image.convert("RGB")
        pixels = {rgb.getpixel((x, y)) for x in range(rgb.width) for y in range(rgb.height)}
        assert line in pixels  # the Duo line is drawn
        assert rating_chart.LINES["pizza"] not in pixels  # one point is no line
