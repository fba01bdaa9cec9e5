"""Play a table to the end by clicking what each tab shows, like the e2e scripted players."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError

from tests.browser.tab import Choice, Tab
from tests.e2e.uno_table import choice_kind

MATCH_OVER = "wins the match"
HAND_ON_TABLE = ".message:not(.ephemeral) button[data-custom-id$=':hand']"
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
    idle = 0
    while not done() and actions < max_actions:
        if step(tabs, rng, set(hoarders), before):
            actions += 1
            idle = 0
            continue
        idle += 1
        assert idle < 300, "nobody could act for a long while"
        for tab in tabs:  # panels may be missing or old: reopen them with the table's Hand
            # Not waited for: a table between two moments (the match just over, its
            # result not yet shown) has no Hand button, and done() must be asked again.
            if tab.page.locator(HAND_ON_TABLE).count():
                tab.click("hand", within=".message:not(.ephemeral)")
        time.sleep(0.05)
    return actions
