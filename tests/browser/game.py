"""Play a table to the end by clicking what each tab shows, like the e2e scripted players."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from playwright.sync_api import Error as PlaywrightError

from tests.browser.tab import Choice, Tab
from tests.e2e.uno_table import choice_kind

MATCH_OVER = "wins the match"
STALE: list[str] = []  # clicks on a control gone by the time it was pressed


def pick(rng: random.Random, choices: list[Choice]) -> Choice:
    # Mostly shed cards, as people do, so that a match ends in a few hundred clicks.
    plays = [c for c in choices if choice_kind(c) in ("p", "pu")]
    pool = plays if plays and rng.random() < 0.9 else choices
    return rng.choice(pool)


def step(tabs: list[Tab], rng: random.Random) -> bool:
    """One action by a member whose panel offers one; False when nobody's does."""
    ready = [(tab, choices) for tab in tabs if (choices := tab.choices())]
    if not ready:
        return False
    tab, choices = rng.choice(ready)
    # The panel may change under the pointer (the other player moved): then look again.
    try:
        tab.choose(pick(rng, choices))
    except PlaywrightError:
        STALE.append(tab.member)
    return True


def play(
    tabs: list[Tab],
    *,
    seed: int,
    max_actions: int,
    done: Callable[[], bool],
    every: Callable[[int], None] = lambda n: None,
) -> int:
    """Click until `done()`; return the number of actions. Panels are reopened when stale."""
    rng = random.Random(seed)
    actions = 0
    idle = 0
    while not done() and actions < max_actions:
        if step(tabs, rng):
            actions += 1
            idle = 0
            every(actions)
            continue
        idle += 1
        assert idle < 50, "nobody could act for a long while"
        for tab in tabs:  # panels may be missing or old: reopen them with the table's Hand
            tab.click("hand", within=".message:not(.ephemeral)")
        time.sleep(0.05)
    return actions
