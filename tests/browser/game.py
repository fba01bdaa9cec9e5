"""Play a table to the end by clicking what each tab shows, like the e2e scripted players."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import PATIENCE_MS
from tests.browser.tab import Choice, Tab
from tests.e2e.uno_table import choice_kind

MATCH_OVER = "wins the match"
HAND_ON_TABLE = ".message:not(.ephemeral) button[data-custom-id$=':hand']"
RECHECK_MS = 250
STALE: list[str] = []  # clicks on a control gone by the time it was pressed


SHED = ("p", "pu", "du", "duu")
HOARD = ("d", "kd", "tv", "ac", "kc", "nd")


def pick(rng: random.Random, choices: list[Choice], *, hoard: bool) -> Choice:
    """Shed cards whenever possible, or (a hoarder) draw and keep everything.

    A match ends when someone's points reach the target: one player going out fast
    while the other hoards ends it in one round, in few clicks.
    """
    preferred = [c for c in choices if choice_kind(c) in (HOARD if hoard else SHED)]
    return rng.choice(preferred or choices)


Before = Callable[[Tab, list[Choice]], None]


def step(tabs: list[Tab], rng: random.Random, hoarders: set[str], before: Before) -> bool:
    """One action by a member whose panel offers one; False when nobody's does."""
    ready = [(tab, choices) for tab in tabs if (choices := tab.choices())]
    if not ready:
        return False
    tab, choices = rng.choice(ready)
    before(tab, choices)
    # The panel may change under the pointer (the other player moved): then look again.
    try:
        tab.choose(pick(rng, choices, hoard=tab.member in hoarders))
    except PlaywrightError:
        STALE.append(tab.member)
    return True


def play(
    tabs: list[Tab],
    *,
    seed: int,
    max_actions: int,
    done: Callable[[], bool],
    before: Before = lambda tab, choices: None,
    hoarders: frozenset[str] = frozenset(),
) -> int:
    """Click until `done()`; return the number of actions. Panels are reopened when stale."""
    rng = random.Random(seed)
    actions = 0
    idle_since: float | None = None
    while not done() and actions < max_actions:
        if step(tabs, rng, set(hoarders), before):
            actions += 1
            idle_since = None
            continue
        idle_since = idle_since or time.monotonic()
        assert time.monotonic() - idle_since < PATIENCE_MS / 1000, "nobody could act"
        seen = [frames(tab) for tab in tabs]
        for tab in tabs:  # panels may be missing or old: reopen them with the table's Hand
            # Not waited for: a table between two moments (the match just over, its
            # result not yet shown) has no Hand button, and done() must be asked again.
            if tab.page.locator(HAND_ON_TABLE).count():
                tab.click("hand", within=".message:not(.ephemeral)")
                seen = [frames(tab) for tab in tabs]  # its own answer is no news
        wait_for_news(tabs, seen)
    return actions


def frames(tab: Tab) -> int:
    """How many updates the tab has received from the playground so far."""
    return int(tab.page.evaluate("Number(document.body.dataset.frames || 0)"))


def wait_for_news(tabs: list[Tab], seen: list[int]) -> None:
    """Until any tab receives an update: the first tab's are awaited (the table's changes
    reach every tab), and the others are looked at each RECHECK_MS for their own panels."""
    deadline = time.monotonic() + PATIENCE_MS / 1000
    while time.monotonic() < deadline:
        if any(frames(tab) != count for tab, count in zip(tabs, seen, strict=True)):
            return
        with contextlib.suppress(PlaywrightTimeoutError):
            tabs[0].page.wait_for_function(
                f"Number(document.body.dataset.frames || 0) !== {seen[0]}",
                timeout=RECHECK_MS if len(tabs) > 1 else PATIENCE_MS,
            )
