"""An ephemeral message reaches only its owner's tab: the server never sends it elsewhere."""

from __future__ import annotations

import json

from playwright.sync_api import BrowserContext, Page, WebSocket, expect

from tests.browser.tab import Tab


def recorded(page: Page) -> list[dict[str, object]]:
    """Every frame the page's websocket receives from the playground."""
    frames: list[dict[str, object]] = []

    def on_socket(socket: WebSocket) -> None:
        socket.on("framereceived", lambda data: frames.append(json.loads(data)))

    page.on("websocket", on_socket)
    return frames


def own_ephemerals(tab: Tab) -> set[str]:
    ids: list[str] = tab.page.locator(".message.ephemeral").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.id)"
    )
    return set(ids)


def test_an_ephemeral_panel_is_never_sent_to_another_members_tab(
    context: BrowserContext, playground: str
) -> None:
    pages = {name: context.new_page() for name in ("alice", "bob", "carol")}
    frames = {name: recorded(page) for name, page in pages.items()}
    alice, bob, carol = (Tab(page, playground, name) for name, page in pages.items())

    alice.slash("/uno rules")
    rules = alice.page.locator(".message.ephemeral", has_text="Only you can see this")
    expect(rules.last).to_be_visible()
    alice.slash("/uno duo opponent:bob")
    bob.click("accept")
    for tab in (alice, bob):
        tab.click("hand", within=".message:not(.ephemeral)")
        expect(tab.page.locator(".message.ephemeral", has_text="Your hand").last).to_be_visible()
    # carol is the last to see everything public: then nobody's tab has anything pending.
    expect(carol.page.locator(".embed-title", has_text="Round 1")).to_be_visible()

    owners = {tab.member: own_ephemerals(tab) for tab in (alice, bob, carol)}
    assert len(owners["alice"]) >= 2  # the rules and her hand
    assert owners["bob"]
    assert owners["carol"] == set()
    for tab in (alice, bob, carol):
        others = set().union(*(ids for who, ids in owners.items() if who != tab.member))
        assert not others & tab.message_ids()
        sent = [f["m"] for f in frames[tab.member] if f.get("t") == "message"]
        assert sent, "the recorder saw no message frames"
        ephemeral = {str(m["id"]) for m in sent if isinstance(m, dict) and m.get("ephemeral")}
        assert ephemeral <= owners[tab.member]
        assert not {str(m["id"]) for m in sent if isinstance(m, dict)} & others
