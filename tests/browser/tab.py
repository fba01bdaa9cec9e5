"""One browser tab playing as one member: what they see, and clicks like a person's."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import PATIENCE_MS

STALE_MS = 1500
Choice = tuple[str, str | None]  # (custom_id, select value or None for a button)

# The game controls of the newest hand panel: not Hand, UNO! or paging.
CHOICES_JS = """() => {
  const panels = [...document.querySelectorAll('.message.ephemeral')]
    .filter((m) => m.querySelector('.components'));
  const panel = panels[panels.length - 1];
  if (!panel) return [];
  const found = [];
  const code = (id) => id.split(':').pop();
  const game = (id) => id.startsWith('uno:') && !['hand', 'uno'].includes(code(id))
    && !code(id).startsWith('pg.');
  for (const b of panel.querySelectorAll('button.button[data-custom-id]')) {
    if (!b.disabled && game(b.dataset.customId)) found.push([b.dataset.customId, null]);
  }
  for (const s of panel.querySelectorAll('.select[data-custom-id]')) {
    if (s.querySelector('.select-head').disabled || !game(s.dataset.customId)) continue;
    for (const o of s.querySelectorAll('.select-option')) {
      found.push([s.dataset.customId, o.dataset.value]);
    }
  }
  return found;
}"""


class Tab:
    def __init__(self, page: Page, url: str, member: str, *, channel: str = "uno") -> None:
        self.page = page
        self.member = member
        page.goto(f"{url}?as={member}&channel={channel}")
        self.wait_connected()

    def wait_connected(self) -> None:
        expect(self.page.locator("#me .me-name")).to_contain_text(self.member)
        expect(self.page.locator("body")).not_to_have_class("connecting")

    def settle(self) -> None:
        """Wait until every action this tab sent was acknowledged by the bot."""
        self.page.wait_for_function(
            "document.body.dataset.pending === '0'", polling=20, timeout=PATIENCE_MS
        )

    def focus(self) -> None:
        # A person looks at the tab they click in; a hidden tab's animation frames are
        # throttled, which makes every click there wait about a second.
        self.page.bring_to_front()

    def slash(self, text: str) -> None:
        self.focus()
        box = self.page.locator("#input")
        box.fill(text)
        box.press("Enter")
        self.settle()
        expect(self.page.locator("#composer-error")).to_be_hidden()

    def click(self, custom_id_end: str, *, within: str = ".message") -> None:
        self.focus()
        button = self.page.locator(f"{within} button[data-custom-id$=':{custom_id_end}']").last
        button.click()
        self.settle()

    def choices(self) -> list[Choice]:
        found: list[list[Any]] = self.page.evaluate(CHOICES_JS)
        return [(str(c[0]), None if c[1] is None else str(c[1])) for c in found]

    def choose(self, choice: Choice) -> None:
        custom_id, value = choice
        self.focus()
        panel = self.page.locator(".message.ephemeral:has(.components)").last
        # A choice that is gone (the panel changed meanwhile) fails fast: the caller looks again.
        if value is None:
            panel.locator(f"button[data-custom-id='{custom_id}']").click(timeout=STALE_MS)
        else:
            select = panel.locator(f".select[data-custom-id='{custom_id}']")
            select.locator(".select-head").click(timeout=STALE_MS)
            select.locator(f".select-option[data-value='{value}']").click(timeout=STALE_MS)
        self.settle()

    def public_text(self) -> str:
        texts: list[str] = self.page.locator(".message:not(.ephemeral)").all_inner_texts()
        return "\n".join(texts)

    def message_ids(self) -> set[str]:
        ids: list[str] = self.page.locator(".message").evaluate_all(
            "(nodes) => nodes.map((n) => n.dataset.id)"
        )
        return set(ids)
