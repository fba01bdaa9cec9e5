"""The page shows a form the bot opens as Discord does, and its command box behaves as
Discord's: a command typed while scrolled up brings the newest messages into view."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, expect

from tests.browser.tab import Tab

FORM = "#modal-root .modal"
PANEL = ".message.ephemeral:has(button[data-custom-id$=':set.numbers'])"


def test_item14_the_settings_form_shows_its_inputs_and_submits(
    context: BrowserContext, shared_playground: str
) -> None:
    dave = Tab(context.new_page(), shared_playground, "dave", channel="uno-2")  # the owner
    dave.slash("/uno settings")
    dave.click("set.numbers", within=PANEL)
    form = dave.page.locator(FORM)
    expect(form.locator(".modal-title")).to_have_text("Turn time and targets")
    fields = form.locator(".modal-field")
    expect(fields).to_have_count(4)
    turn = fields.filter(has_text="Seconds for each turn")
    expect(turn.locator(".modal-required")).to_be_visible()  # required, as its star says
    box = turn.locator("input.modal-input")
    expect(box).to_have_value("90")
    expect(box).to_have_attribute("maxlength", "4")
    expect(box).to_have_attribute("minlength", "1")
    expect(form.locator(".modal-cancel")).to_have_text("Cancel")

    # An empty required input is refused by the client itself: nothing reaches the bot.
    box.fill("")
    form.locator(".modal-submit").click()
    expect(turn.locator(".modal-field-error")).to_have_text("This field is required")
    box.press_sequentially("123456")  # the input takes no more than its maximum
    expect(box).to_have_value("1234")

    form.locator(".modal-cancel").click()  # Cancel sends nothing and closes the form
    expect(dave.page.locator(FORM)).to_have_count(0)
    expect(dave.page.locator("#modal-root")).to_be_hidden()

    dave.click("set.numbers", within=PANEL)
    turn = dave.page.locator(FORM).locator(".modal-field", has_text="Seconds for each turn")
    turn.locator("input").fill("45")
    dave.page.locator(FORM).locator(".modal-submit").click()  # a MODAL_SUBMIT to the bot
    dave.settle()
    expect(dave.page.locator("#modal-root")).to_be_hidden()
    expect(dave.page.locator(PANEL).last).to_contain_text("Turn time: 45 seconds")
    expect(dave.page.locator(".failed")).to_have_count(0)


def test_item15_a_command_sent_while_scrolled_up_shows_its_answer(
    context: BrowserContext, shared_playground: str
) -> None:
    carol = Tab(context.new_page(), shared_playground, "carol", channel="uno-2")
    box = carol.page.locator("#input")
    for n in range(30):  # enough chat to scroll
        box.fill(f"chat line {n}")
        box.press("Enter")
    expect(carol.page.locator(".message", has_text="chat line 29")).to_be_in_viewport()
    messages = carol.page.locator("#messages")
    messages.evaluate("(box) => { box.scrollTop = 0; }")
    expect(carol.page.locator(".message", has_text="chat line 29")).not_to_be_in_viewport()

    carol.slash("/uno rules")
    answer = carol.page.locator(".message.ephemeral", has_text=re.compile("rules", re.I)).last
    expect(answer).to_be_in_viewport()


def test_item15_the_opponent_suggestions_list_the_bot(
    context: BrowserContext, shared_playground: str
) -> None:
    carol = Tab(context.new_page(), shared_playground, "carol", channel="uno-2")
    box = carol.page.locator("#input")
    box.press_sequentially("/uno duo opponent:")
    suggestions = carol.page.locator("#suggestions")
    expect(suggestions).to_contain_text("@UnoBot")
    expect(suggestions).to_contain_text("@alice")
    box.press_sequentially("Un")
    box.press("Tab")
    expect(box).to_have_value("/uno duo opponent:UnoBot ")
