"""The page draws what Discord's client draws: markdown, emojis, timestamps, embeds, buttons."""

from __future__ import annotations

import re
import time

from playwright.sync_api import BrowserContext, expect

from tests.browser.tab import Tab


def test_chat_markdown_custom_emojis_and_live_relative_timestamps(
    context: BrowserContext, shared_playground: str
) -> None:
    alice = Tab(context.new_page(), shared_playground, "alice", channel="uno-2")
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    bob = Tab(page, shared_playground, "bob", channel="uno-2")
    moment = int(time.time()) - 3
    emoji = re.compile(r"^http://127\.0\.0\.1:\d+/emojis/123456\.png$")
    with page.expect_request(lambda request: bool(emoji.match(request.url))):
        alice.page.locator("#input").fill(f"hi **there** <:red_5:123456> <t:{moment}:R> `code`")
        alice.page.locator("#input").press("Enter")

    said = bob.page.locator(".message", has_text="hi")
    expect(said.locator("strong")).to_have_text("there")
    expect(said.locator("code")).to_have_text("code")
    # A custom emoji is an image from the playground's own CDN (its name, if it has none);
    # the page never fetches anything from elsewhere.
    expect(said.locator(".content")).to_contain_text("hi there")
    assert any(emoji.match(url) for url in fetched), fetched
    assert all(url.startswith("http://127.0.0.1:") for url in fetched), fetched
    stamp = said.locator("time.ts")
    expect(stamp).to_have_text(re.compile(r"^\d+ seconds? ago$"))
    first = stamp.inner_text()
    expect(stamp).not_to_have_text(first)  # it keeps counting, as in Discord


def test_the_lobby_embed_and_its_buttons(context: BrowserContext, shared_playground: str) -> None:
    alice = Tab(context.new_page(), shared_playground, "alice", channel="uno")
    alice.slash("/uno pizza")
    lobby = alice.page.locator(".message", has_text="Pizza")
    expect(lobby.locator(".command-line")).to_contain_text("alice used /uno pizza")
    embed = lobby.locator(".embed")
    colour = embed.evaluate("(e) => e.style.borderLeftColor")
    assert colour.startswith("rgb(")  # the embed's colour bar
    expect(embed.locator(".embed-field-name").first).to_be_visible()
    expect(embed.locator("time.ts[data-style='R']")).to_have_text(re.compile(r"^in \d+ minutes?$"))
    join = lobby.locator("button[data-custom-id$=':join']")
    expect(join).to_be_enabled()
    expect(join).to_have_class(re.compile(r"\b(primary|success|secondary|danger)\b"))


def test_the_command_box_completes_and_checks_options(
    context: BrowserContext, shared_playground: str
) -> None:
    carol = Tab(context.new_page(), shared_playground, "carol", channel="uno-2")
    box = carol.page.locator("#input")
    suggestions = carol.page.locator("#suggestions")
    box.press_sequentially("/uno d")
    expect(suggestions).to_contain_text("/uno duo")
    box.press("Enter")  # completes the highlighted command
    expect(box).to_have_value("/uno duo ")
    expect(suggestions).to_contain_text("opponent")
    expect(suggestions).to_contain_text("target")
    box.press_sequentially("opponent:da")
    expect(suggestions).to_contain_text("@dave")
    box.press("Tab")
    expect(box).to_have_value("/uno duo opponent:dave ")

    box.press_sequentially("target:5")
    box.press("Enter")  # refused by the client's own check, as in Discord: nothing is sent
    expect(carol.page.locator("#composer-error")).to_have_text(
        "target must be between 50 and 1000."
    )
    expect(box).to_have_value("/uno duo opponent:dave target:5")

    box.fill("/uno duo opponent:nobody")
    box.press("Enter")
    expect(carol.page.locator("#composer-error")).to_contain_text("nobody")
    expect(box).to_have_value("/uno duo opponent:nobody")


def test_an_unknown_subcommand_names_the_commands_it_refers_to(
    context: BrowserContext, shared_playground: str
) -> None:
    """Issue item 9: the refusal lists the commands, never "the commands listed above"
    with nothing listed."""
    carol = Tab(context.new_page(), shared_playground, "carol", channel="uno-2")
    box = carol.page.locator("#input")
    error = carol.page.locator("#composer-error")
    box.fill("/uno dou")
    box.press("Escape")  # no suggestion left open
    box.press("Enter")
    expect(error).to_contain_text("/uno dou is not a command. Choose one of ")
    for command in ("/uno duo", "/uno pizza", "/uno classic", "/uno rules"):
        expect(error).to_contain_text(command)
    expect(error).not_to_contain_text("listed above")
    expect(box).to_have_value("/uno dou")
