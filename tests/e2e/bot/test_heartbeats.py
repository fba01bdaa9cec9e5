"""The pretend gateway acknowledges heartbeats as Discord does: a quiet bot never logs that
it can't keep up with its websocket.

discord.py warns when an acknowledgement comes more than 10 s after its heartbeat; the
playground's 41 s interval is shortened to just over that, so each beat would show it.
"""

from __future__ import annotations

from pathlib import Path

from playground import Emulator
from tests.e2e.bot.conftest import new_scene
from tests.e2e.botproc import BotProcess

BEATS = 4  # the one right after HELLO, then three from discord.py's heartbeat thread


async def test_item16_a_quiet_bot_never_falls_behind_its_heartbeats(tmp_path: Path) -> None:
    async with Emulator(heartbeat_interval_ms=10_500) as emu:
        scene = new_scene(emu)
        bot = BotProcess(emu, database=tmp_path / "uno.db", guild_id=scene.guild.id)
        await bot.start()
        try:
            await emu.world.wait_for(lambda: emu.gateway.acks >= BEATS, timeout=120)
        finally:
            assert await bot.stop() == 0
    logged = bot.output()
    assert "Ready as" in logged
    assert "behind" not in logged, logged[-4000:]
    assert "Traceback" not in logged, logged[-4000:]
