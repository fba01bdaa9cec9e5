from tests.e2e.conftest import Scene
from tests.e2e.tinybot import TinyBot
from tests.emulator import Driver, Emulator


async def test_smoke(emu: Emulator, driver: Driver, scene: Scene, tiny_bot: TinyBot) -> None:
    out = await driver.slash(scene.alice, scene.channel, "uno duo", opponent=scene.bob, target=300)
    print(out, out.message, emu.log.calls, emu.log.violations)
    assert out.message is not None
    assert out.message.content == "Duo table to 300 vs bob"
