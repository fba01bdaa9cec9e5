"""A Pocket Pizza Pizza table with three members, each in their own tab."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Locator, expect

from tests.browser.game import play
from tests.browser.tab import Tab


def table_locator(tab: Tab) -> Locator:
    return tab.page.locator(".message:not(.ephemeral):has([data-custom-id$=':hand'])").last


# The page writes a deadline as the time left when it draws it ("in 29 seconds"): two tabs
# drawing the same edit a moment apart may differ there and nowhere else.
TIME_LEFT = re.compile(r"\bin \d+ (?:seconds?|minutes?)\b|\bin a minute\b")


def table_text(tab: Tab) -> str:
    return TIME_LEFT.sub("in …", table_locator(tab).locator(".embed").inner_text())


def same_table(tabs: list[Tab]) -> str:
    """The table's text once every tab shows its newest edit: an edit reaches the tabs
    one after another, so each is awaited until it has the newest any tab has. The table
    follows each turn within seconds, so a new edit may land while the tabs are read:
    then they are awaited again (a few rounds at most, each bounded by Playwright's
    own timeout)."""
    for _ in range(5):
        newest = max(int(table_locator(tab).get_attribute("data-edits") or 0) for tab in tabs)
        for tab in tabs:
            tab.page.wait_for_function(
                """(newest) => {
                  const tables = [...document.querySelectorAll('.message:not(.ephemeral)')]
                    .filter((m) => m.querySelector("[data-custom-id$=':hand']"));
                  return Number(tables[tables.length - 1]?.dataset.edits) >= newest;
                }""",
                arg=newest,
            )
        shown = {table_text(tab) for tab in tabs}
        edits = {table_locator(tab).get_attribute("data-edits") for tab in tabs}
        if len(shown) == 1:
            return shown.pop()
        if len(edits) == 1:
            break  # the same edit, shown differently: what the test is for
    assert len(shown) == 1, shown
    return shown.pop()


def test_pizza_table_with_three_members_in_three_tabs(
    context: BrowserContext, playground: str
) -> None:
    alice = Tab(context.new_page(), playground, "alice", channel="uno-2")
    bob = Tab(context.new_page(), playground, "bob", channel="uno-2")
    third = Tab(context.new_page(), playground, "dave", channel="uno-2")
    # The third tab changes member with the switcher, as a person trying the page would.
    third.focus()
    third.page.locator("#me").click()
    third.page.locator("#switcher .switch-row[data-name='carol']").click()
    third.member = "carol"
    third.wait_connected()
    expect(third.page).to_have_url(re.compile(r"as=carol"))
    tabs = [alice, bob, third]

    alice.slash("/uno pizza target:50")
    for tab in (bob, third):
        expect(tab.page.locator(".embed-title", has_text="Pizza")).to_be_visible()
        tab.click("join")
    alice.click("start")
    for tab in tabs:
        expect(tab.page.locator(".embed-title", has_text="Round 1")).to_be_visible()
        tab.click("hand", within=".message:not(.ephemeral)")

    actions = play(tabs, seed=3, max_actions=12, done=lambda: False)
    assert actions == 12

    # Every tab shows the same table (edits are coalesced: wait for the last one).
    text = same_table(tabs)
    assert all(name in text for name in ("alice", "bob", "carol")), text
    # Each member sees one hand panel of their own, and no one else's.
    for tab in tabs:
        panels = tab.page.locator(".message.ephemeral", has_text="Your hand")
        expect(panels.last).to_be_visible()
    mine = {
        tab.member: tab.page.locator(".message.ephemeral").evaluate_all(
            "(nodes) => nodes.map((n) => n.dataset.id)"
        )
        for tab in tabs
    }
    for tab in tabs:
        others = {i for member, ids in mine.items() if member != tab.member for i in ids}
        assert not others & tab.message_ids()
