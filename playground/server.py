"""Start and stop the emulator on a free 127.0.0.1 port."""

# ruff: noqa: ASYNC109  (timeout= is this API's deadline for waiting on the bot)

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from types import TracebackType
from typing import Self

from aiohttp import web

from .clock import Clock
from .gateway import HEARTBEAT_INTERVAL_MS, Gateway
from .log import Log
from .models import Channel, Guild, Member, Role, User
from .rest import API_PREFIX, RestApi
from .world import World


class Emulator:
    """A loopback Discord: `World` (state and rules) served over HTTP and a gateway websocket.

    Point discord.py at it with `discord.http.Route.BASE = emu.api_base` and
    `DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emu.gateway_url)` (the URL that
    `GET /gateway/bot` answers); log in with `emu.token`.
    """

    def __init__(
        self,
        *,
        token: str = "emulator-bot-token",
        bot_name: str = "UnoBot",
        shards: int = 1,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
    ) -> None:
        """`shards`: the shard count `GET /gateway/bot` recommends (`gateway.shards`)."""
        self.world = World(token=token, bot_name=bot_name)
        self.gateway = Gateway(
            self.world, shards=shards, heartbeat_interval_ms=heartbeat_interval_ms
        )
        self.rest = RestApi(self.world, gateway_bot=self.gateway.bot_info)
        self.port = 0
        self._runner: web.AppRunner | None = None

    # -- life cycle --------------------------------------------------------------------------

    async def start(self, *, port: int = 0) -> Self:
        """Listen on 127.0.0.1:`port` (0: a free port, the default for tests)."""
        app = web.Application(middlewares=[self.rest.middleware])
        app.add_routes(self.rest.routes())
        app.add_routes(
            [
                web.get("/gateway", self.gateway.handle),
                web.get(
                    "/attachments/{channel_id}/{attachment_id}/{filename}", self.rest.attachment
                ),
                web.get("/emojis/{file}", self.rest.emoji_image),  # the CDN (Asset.BASE)
            ]
        )
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.Server)
        self.port = server.sockets[0].getsockname()[1]
        self.world.base_url = self.base_url
        self.gateway.url = self.gateway_url
        return self

    async def stop(self) -> None:
        for session in self.gateway.sessions.values():
            if session.ws is not None:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- addresses ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for `discord.http.Route.BASE` (the bot's DISCORD_API_BASE)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def clock(self) -> Clock:
        return self.world.clock

    @property
    def log(self) -> Log:
        return self.world.log

    async def wait_connected(
        self, *, after: int = 0, shards: int = 1, timeout: float = 10.0
    ) -> None:
        """Wait until a bot has identified (more than `after` times in all) and got its guilds.

        To wait for a restarted bot, pass `after=emu.gateway.identifies` read before the
        restart: the old socket may not be seen closed yet. `shards`: wait for that many
        identifies and different shards connected (a sharded bot, or several processes).
        """
        gateway = self.gateway
        await self.world.wait_for(
            lambda: (
                gateway.identifies >= after + shards
                and len(gateway.connected_shards()) >= shards
                and gateway.pending == 0
            ),
            timeout=timeout,
        )

    # -- the model API, for tests to set the scene -------------------------------------------

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: User | None = None,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        return self.world.add_guild(name, owner=owner, locale=locale, shard=shard)

    def add_user(
        self,
        name: str,
        *,
        guild: Guild | None = None,
        roles: Iterable[Role] = (),
        bot: bool = False,
        locale: str = "en-US",
    ) -> User:
        return self.world.add_user(name, guild=guild, roles=roles, bot=bot, locale=locale)

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        roles: Iterable[Role] = (),
        permissions: int | None = None,
    ) -> Member:
        return self.world.add_member(guild, user, roles=roles, permissions=permissions)

    def add_role(self, guild: Guild, name: str, permissions: int) -> Role:
        return self.world.add_role(guild, name, permissions)

    def add_text_channel(self, guild: Guild, name: str = "general") -> Channel:
        return self.world.add_text_channel(guild, name)

    def add_thread(self, channel: Channel, name: str) -> Channel:
        return self.world.add_thread(channel, name)
