"""Run the emulator by hand: `python -m playground`, then start a bot with the printed env."""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from .models import Permission
from .server import Emulator


async def serve(port: int, shards: int) -> None:
    emu = await Emulator(shards=shards).start(port=port)
    guild = emu.add_guild("Playground")
    emu.add_text_channel(guild, "uno")
    for name in ("alice", "bob"):
        emu.add_user(name, guild=guild)
    emu.add_member(guild, emu.add_user("mod"), permissions=Permission.MANAGE_MESSAGES)
    print(f"DISCORD_API_BASE={emu.api_base}")
    print(f"DISCORD_TOKEN={emu.token}")
    print(f"DEV_GUILD_ID={guild.id}")
    try:
        await emu.wait_connected(timeout=24 * 3600)
        print(
            "a bot connected; commands:", [c.name for cs in emu.world.commands.values() for c in cs]
        )
        await asyncio.Event().wait()
    finally:
        await emu.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument(
        "--shards", type=int, default=1, help="the shard count GET /gateway/bot recommends"
    )
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.shards))


if __name__ == "__main__":
    main()
