"""`make run` without a token starts the playground; with one, it runs the bot on Discord."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.game import play
from tests.browser.launcher import ROOT, Launcher
from tests.browser.tab import Tab


def test_without_a_token_the_page_shows_the_server_and_ctrl_c_stops_everything(
    tmp_path: Path, page: Page
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        launcher = Launcher(tmp_path, PLAYGROUND_PORT=str(busy))
        url = launcher.start(timeout=60)
    assert f":{busy}/" not in url  # a taken port falls back to a free one
    assert "playground" in launcher.output().lower()

    page.goto(url)
    expect(page.locator("#guild-name")).to_have_text("Playground")
    for channel in ("uno", "uno-2"):
        expect(page.locator(f"#channels .channel[data-name='{channel}']")).to_be_visible()
    for member in ("alice", "bob", "carol", "dave"):
        expect(page.locator(f"#members .member[data-name='{member}']")).to_be_visible()
    expect(page.locator("#me")).to_contain_text("alice")
    page.locator("#input").fill("/uno")
    expect(page.locator("#suggestions")).to_contain_text("/uno duo")  # the bot's commands

    assert launcher.bot_processes()
    assert launcher.interrupt() == 0
    assert launcher.bot_processes() == []
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)
    assert "Traceback" not in launcher.bot_log()


def test_with_a_token_it_runs_the_bot_on_discord(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="MTIz.fake.token",
        # Nothing listens there: bot.py's own sentence for an unreachable Discord proves it ran.
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
        DATABASE_PATH=str(tmp_path / "uno.db"),
    )
    done = subprocess.run(
        [sys.executable, "-m", "playground.launch", "--no-browser"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "Could not reach Discord" in done.stderr
    assert "playground" not in (done.stdout + done.stderr).lower()


def test_item4_ctrl_c_after_playing_the_computer_closes_the_bot_at_once(
    tmp_path: Path, page: Page
) -> None:
    launcher = Launcher(tmp_path, COMPUTER_DELAY_MS="50")
    alice = Tab(page, launcher.start(), "alice")
    alice.slash("/uno duo opponent:UnoBot target:50 strength:easy")
    alice.click("hand", within=".message:not(.ephemeral)")
    actions = play([alice], seed=4, max_actions=8, done=lambda: False)
    assert actions == 8
    assert launcher.bot_processes()

    # The terminal's SIGINT reaches the bot and the launcher, which forwards one more.
    code, seconds = launcher.ctrl_c()
    print(f"ctrl-c: exit {code} in {seconds:.2f} s")
    assert code == 0, launcher.output()
    assert launcher.bot_processes() == []
    # The launcher kills a bot still running after 10 s; a clean close takes well under 3.
    assert seconds < 3, f"{seconds:.1f} s: {launcher.output()}"
    assert "Traceback" not in launcher.bot_log()
    assert sorted(p.name for p in launcher.data.iterdir() if p.name.startswith("uno.db")) == [
        "uno.db"
    ]  # closed, not killed: no write-ahead log or shared-memory file left


def test_item16_the_bot_log_starts_afresh_at_each_start(tmp_path: Path) -> None:
    launcher = Launcher(tmp_path)
    launcher.data.mkdir()
    (launcher.data / "bot.log").write_text("a line from the start before\n")
    launcher.start()
    code, _ = launcher.ctrl_c()
    assert code == 0, launcher.output()
    logged = launcher.bot_log()
    assert "Database open at" in logged
    assert "the start before" not in logged
