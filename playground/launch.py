"""`make run`: the bot on Discord when a token is set, else the playground in a browser.

`python -m playground.launch` with DISCORD_TOKEN (environment or `.env`) runs `python bot.py`
in its place. Without one it starts the loopback Discord with a "Playground" server, the real
bot pointed at it, and a web page where you play as its members.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import webbrowser
from pathlib import Path
from typing import NoReturn

from pydantic import ValidationError

from .botrunner import ROOT, BotRunner
from .page import Page
from .scene import build_scene
from .server import Emulator
from .settings import PlaygroundSettings

DATA = ROOT / "data" / "playground"


def run_bot_on_discord() -> NoReturn:
    """Become `python bot.py`: same process, same signals, same exit status."""
    bot = str(ROOT / "bot.py")
    os.execv(sys.executable, [sys.executable, bot])


def fresh_database(data: Path) -> Path:
    """The playground's server is new at each start, so its database is too."""
    data.mkdir(parents=True, exist_ok=True)
    database = data / "uno.db"
    for suffix in ("", "-wal", "-shm"):
        database.with_name(database.name + suffix).unlink(missing_ok=True)
    return database


def open_browser(url: str) -> None:
    # Without a display, Python would pick a text browser that takes over the terminal.
    graphical = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not graphical:
        return
    with contextlib.suppress(Exception):
        webbrowser.open(url)


async def run_playground(*, port: int, data: Path, browser: bool) -> int:
    """Serve the playground until Ctrl-C (or SIGTERM); return the exit status."""
    task = asyncio.current_task()
    assert task is not None
    # SIGINT too, as bot.py does: a process started in the background of a script
    # inherits SIGINT ignored, and Python then never raises KeyboardInterrupt.
    for stop in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(stop, task.cancel)
    emu = await Emulator().start()
    scene = build_scene(emu)
    page = await Page(emu, scene).start(port)
    bot = BotRunner(
        emu, database=fresh_database(data), guild_id=scene.guild.id, log=data / "bot.log"
    )
    try:
        try:
            await bot.start()
        except (RuntimeError, TimeoutError) as error:
            print(f"The bot did not start ({error}); the end of {bot.log_path}:", file=sys.stderr)
            print(bot.tail(), file=sys.stderr)
            return 1
        print(f"The playground is ready: open {page.url} (Ctrl-C stops it)", flush=True)
        if browser:
            await asyncio.to_thread(open_browser, page.url)
        code = await bot.wait()
        if code != 0:
            print(f"The bot stopped (exit {code}); the end of {bot.log_path}:", file=sys.stderr)
            print(bot.tail(), file=sys.stderr)
        return code
    except asyncio.CancelledError:
        return 0
    finally:
        await bot.stop()
        await page.stop()
        await emu.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder for the bot's database")
    parser.add_argument("--no-browser", action="store_true", help="only print the page's URL")
    args = parser.parse_args(argv)
    try:
        settings = PlaygroundSettings()
    except ValidationError:
        print("PLAYGROUND_PORT must be a port number (0 to 65535), or empty.", file=sys.stderr)
        return 2
    if settings.discord_token is not None:
        run_bot_on_discord()
    print("No DISCORD_TOKEN: starting the playground (the bot on a local, pretend Discord).")
    try:
        return asyncio.run(
            run_playground(
                port=settings.playground_port, data=args.data.resolve(), browser=not args.no_browser
            )
        )
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
