"""The gateway websocket: hello, identify, ready, guild creates, heartbeats, resume, events."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .models import Channel, Guild, Interaction, Member, Message, Role
from .shards import Shard, guild_id_of
from .world import World

HEARTBEAT_INTERVAL_MS = 41_250
SESSION_STARTS_PER_DAY = 1000  # Discord's `session_start_limit.total` for most bots
DAY = 24 * 3600.0
# Discord's acknowledgement crosses the network, so it reaches a bot after the bot has
# noted when it sent the heartbeat. discord.py notes that in its heartbeat thread once the
# send is done, and measures the ack against it: an ack back over loopback before the
# thread has run reads as a whole interval's lag ("Can't keep up, websocket is 41.3s
# behind"). A round trip's worth of delay, as on the real network, keeps them in order.
HEARTBEAT_ACK_DELAY = 0.05

# Opcodes and intents (Discord's values).
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 1, 1 << 9, 1 << 15


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    ws: web.WebSocketResponse | None
    shard: Shard = field(default_factory=Shard)
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)  # dispatches, replayed on resume
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


class Gateway:
    """Serve the bot's websocket and turn world events into DISPATCH frames.

    Sharded as Discord shards: a connection identifies as `[shard_id, shard_count]` and
    hears only its servers' events; `GET /gateway/bot` recommends `shards`. A shard that
    would carry more than `guilds_per_shard` servers is refused (Discord: 2,500).
    """

    def __init__(
        self,
        world: World,
        *,
        shards: int = 1,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
    ) -> None:
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = ""  # ws://host:port/gateway, set by the server
        self.sessions: dict[str, Session] = {}
        self.shards = shards
        self.guilds_per_shard = 2500
        self._started: list[float] = []  # identify times within the last day
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.acks = 0
        world.listeners.append(self.on_event)

    @property
    def connected(self) -> bool:
        """Whether a bot has identified and its socket is open."""
        return any(s.ws is not None and not s.ws.closed for s in self.sessions.values())

    def connected_shards(self) -> set[Shard]:
        """The shards with an identified, open socket."""
        return {s.shard for s in self.sessions.values() if s.ws is not None and not s.ws.closed}

    def bot_info(self) -> dict[str, Any]:
        """`GET /gateway/bot`: the URL, the recommended shard count, the session starts left."""
        now = self.world.clock.now()
        self._started = [at for at in self._started if at > now - DAY]
        reset_after = (self._started[0] + DAY - now) if self._started else 0.0
        limit = {
            "total": SESSION_STARTS_PER_DAY,
            "remaining": max(SESSION_STARTS_PER_DAY - len(self._started), 0),
            "reset_after": int(reset_after * 1000),
            "max_concurrency": 1,
        }
        return {"url": self.url, "shards": self.shards, "session_start_limit": limit}

    @property
    def pending(self) -> int:
        """Frames queued but not yet written (for idle detection)."""
        return sum(s.queue.qsize() for s in self.sessions.values())

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_json({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: Session | None = None
        writer: asyncio.Task[None] | None = None
        acks: set[asyncio.Task[None]] = set()
        try:
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op, data = message.get("op"), message.get("d")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    ack = asyncio.create_task(self._ack(ws))
                    acks.add(ack)
                    ack.add_done_callback(acks.discard)
                elif op == IDENTIFY and session is None:
                    session = await self._identify(ws, data)
                    if session is not None:
                        writer = asyncio.create_task(self._write(session, ws))
                        self._greet(session)
                elif op == RESUME and session is None:
                    session = await self._resume(ws, data)
                    if session is not None:
                        writer = asyncio.create_task(self._write(session, ws))
                elif op == REQUEST_MEMBERS and session is not None:
                    self._members_chunk(session, data)
        finally:
            if session is not None:
                session.ws = None
            for task in [*acks, writer]:
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            self.world.changed()
        return ws

    async def _ack(self, ws: web.WebSocketResponse) -> None:
        await asyncio.sleep(HEARTBEAT_ACK_DELAY)
        with contextlib.suppress(ConnectionError):
            await ws.send_json({"op": HEARTBEAT_ACK})
        self.acks += 1
        self.world.changed()

    def _token_ok(self, token: str | None) -> bool:
        token = (token or "").removeprefix("Bot ")
        return token == self.world.token and token not in self.world.refused_tokens

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if not self._token_ok(data.get("token")):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = Shard.from_identify(data)
        if shard is None:
            await ws.close(code=4010, message=b"Invalid shard.")
            return None
        if sum(shard.covers(g) for g in self.world.guilds) > self.guilds_per_shard:
            await ws.close(code=4011, message=b"Sharding required.")
            return None
        self.identifies += 1
        self._started.append(self.world.clock.now())
        intents = int(data.get("intents", 0))
        session = Session(id=secrets.token_hex(16), intents=intents, ws=ws, shard=shard)
        self.sessions[session.id] = session
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not self._token_ok(data.get("token")):
            await ws.send_json({"op": INVALID_SESSION, "d": False})
            return None
        self.resumes += 1
        session.ws = ws
        session.queue = asyncio.Queue()
        for frame in session.sent:
            if frame["s"] > int(data.get("seq") or 0):
                session.queue.put_nowait(frame)
        self._send(session, "RESUMED", {})
        return session

    def _greet(self, session: Session) -> None:
        bot = self.world.bot
        guilds = [g for g in self.world.guilds.values() if session.shard.covers(g.id)]
        self._send(
            session,
            "READY",
            {
                "v": 10,
                "user": {**bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "shard": [session.shard.id, session.shard.count],
                "resume_gateway_url": self.url,
                "application": {"id": str(self.world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "user_settings": {},
                "geo_ordered_rtc_regions": [],
                "auth": {},
            },
        )
        for guild in guilds:
            self._send(session, "GUILD_CREATE", self._guild(session, guild))
        self.world.changed()

    def _guild(self, session: Session, guild: Guild) -> dict[str, Any]:
        # Without the privileged members intent Discord sends only the bot's own member.
        if session.intents & GUILD_MEMBERS:
            members = list(guild.members.values())
        else:
            members = [guild.member(self.world.bot)]
        return guild.payload(member_list=members)

    def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id", 0)))
        if (
            guild is None
            or not session.intents & GUILD_MEMBERS
            or not session.shard.covers(guild.id)
        ):
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "nonce": data.get("nonce"),
        }
        self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if session.ws is not None:
            session.queue.put_nowait(frame)

    async def _write(self, session: Session, ws: web.WebSocketResponse) -> None:
        while True:
            frame = await session.queue.get()
            try:
                await ws.send_str(json.dumps(frame))
            except ConnectionError:
                return
            finally:
                session.queue.task_done()
                self.world.changed()

    def on_event(self, event: str, subject: Any) -> None:
        guild_id = guild_id_of(subject)
        for session in self.sessions.values():
            if not session.shard.covers(guild_id):
                continue
            data = self._render(session, event, subject)
            if data is not None:
                self._send(session, event, data)

    def _render(self, session: Session, event: str, subject: Any) -> dict[str, Any] | None:
        """Return the event's payload for this session, or None if its intents exclude it."""
        intents = session.intents
        if isinstance(subject, Interaction):
            bot_member = subject.guild.member(self.world.bot)
            return subject.payload(app_permissions=bot_member.permissions)
        if isinstance(subject, Guild):
            return self._guild(session, subject) if intents & GUILDS else None
        if isinstance(subject, Channel):
            return subject.payload() if intents & GUILDS else None
        if isinstance(subject, Role):
            role = {"guild_id": str(subject.guild_id), "role": subject.payload()}
            return role if intents & GUILDS else None
        if isinstance(subject, Message) and intents & GUILD_MESSAGES:
            if event == "MESSAGE_DELETE":
                return {
                    "id": str(subject.id),
                    "channel_id": str(subject.channel.id),
                    "guild_id": str(subject.channel.guild.id),
                }
            data = subject.payload()
            member: Member | None = subject.channel.guild.members.get(subject.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
            if subject.author is not self.world.bot and not intents & MESSAGE_CONTENT:
                data.update(content="", embeds=[], components=[], attachments=[])
            return data
        return None
