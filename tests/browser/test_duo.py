"""A UNO Duo match against the computer played to the end by clicking the playground's page."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import stopped_cleanly
from tests.browser.game import MATCH_OVER, STALE, play
from tests.browser.launcher import Launcher
from tests.browser.tab import Choice, Tab
from tests.e2e.uno_table import choice_kind

ROOT = Path(__file__).resolve().parents[2]
README_SCREENSHOT = ROOT / "docs" / "images" / "playground.png"


def screenshot_path(tmp_path: Path) -> Path:
    """The README's picture when asked for (UPDATE_README_IMAGES=1), else a scratch file:
    a test run leaves the work tree as it found it."""
    if os.environ.get("UPDATE_README_IMAGES") == "1":
        return README_SCREENSHOT
    return tmp_path / "playground.png"


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[Launcher]:
    """The playground with a computer that moves after 0.05 s instead of 1.5 s."""
    launched = Launcher(tmp_path, COMPUTER_DELAY_MS="50")
    yield launched
    stopped_cleanly(launched)


def test_duo_match_against_the_computer_played_to_the_end_in_the_page(
    context: BrowserContext, playground: str, tmp_path: Path
) -> None:
    alice = Tab(context.new_page(), playground, "alice")
    # The opponent is the computer: naming the bot starts the match at once.
    alice.slash("/uno duo opponent:UnoBot target:50 strength:easy")
    expect(alice.page.locator(".embed-title", has_text="Round 1")).to_be_visible()
    expect(alice.page.locator(".message", has_text="Computer (easy)").first).to_be_visible()
    tabs = [alice]
    for tab in tabs:
        tab.click("hand", within=".message:not(.ephemeral)")

    shot: list[int] = []

    def screenshot(tab: Tab, choices: list[Choice]) -> None:
        # As alice is about to play, with a choice of cards: a game as the README shows it.
        plays = [c for c in choices if choice_kind(c) == "p"]
        if shot or tab is not alice or len(plays) < 2:
            return
        panel = alice.page.locator(".message.ephemeral:has(.components)").last
        if "Your turn" not in panel.inner_text():
            return
        alice.focus()
        keep = panel.get_attribute("data-id")
        others = alice.page.locator(f".message.ephemeral:not([data-id='{keep}'])")
        while others.count():  # dismiss the other panels, as a tidy player does
            others.first.locator(".dismiss").click(timeout=2000)
        alice.page.screenshot(path=str(screenshot_path(tmp_path)))
        shot.append(len(plays))

    actions = play(
        tabs,
        seed=2,
        max_actions=600,
        done=lambda: MATCH_OVER in alice.public_text(),
        before=screenshot,
    )
    for tab in tabs:
        over = tab.page.locator(".message:not(.ephemeral)", has_text=MATCH_OVER)
        expect(over.last).to_be_visible()
    assert actions > 14  # a draft alone is 14 picks
    assert shot, "no moment with playable cards for the README's screenshot"
    print(f"Duo in the browser: {actions} actions, {len(STALE)} on stale panels")
    expect(alice.page.locator(".failed")).to_have_count(0)
