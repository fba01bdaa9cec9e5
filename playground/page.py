"""The playground's web page: static files and one websocket per open tab, on 127.0.0.1."""

from __future__ import annotations

import asyncio
import errno
from pathlib import Path

from aiohttp import web

from . import present
from .driver import Driver
from .scene import Scene
from .server import Emulator
from .viewer import Viewer

WEB = Path(__file__).resolve().parent / "web"


class Page:
    """Serve the page; each websocket plays as the member named in `?as=`."""

    def __init__(self, emulator: Emulator, scene: Scene) -> None:
        self.emulator = emulator
        self.scene = scene
        self.driver = Driver(emulator)
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    async def start(self, port: int) -> Page:
        """Listen on `port`, or on any free port if that one is taken (or 0)."""
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.index),
                web.get("/ws", self.socket),
                web.static("/static", WEB),
            ]
        )
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        try:
            site = await self._listen(port)
        except OSError as error:
            if error.errno != errno.EADDRINUSE or port == 0:
                raise
            site = await self._listen(0)
        server = site._server
        assert isinstance(server, asyncio.Server)
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def _listen(self, port: int) -> web.TCPSite:
        assert self._runner is not None
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        return site

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        members = self.scene.members
        wanted = request.query.get("as", "")
        member = next((u for u in members if wanted in (u.name, str(u.id))), members[0])
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self._sockets.add(ws)
        world = self.emulator.world
        guild = self.scene.guild
        hello = present.hello(
            guild, member, members=members, bot=world.bot, cdn=self.emulator.base_url
        )
        try:
            await Viewer(ws, self.driver, guild, member).run(hello)
        finally:
            self._sockets.discard(ws)
        return ws
