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
from .world import World

HEARTBEAT_INTERVAL_MS = 41_250

# Opcodes and intents (Discord's values).
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11
GUILDS, GUILD_MEMBERS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 1, 1 << 9, 1 << 15


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    ws: web.WebSocketResponse | None
    shard: list[int] = field(default_factory=lambda: [0, 1])  # [id, count], from IDENTIFY
    seq: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)  # dispatches, replayed on resume
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


class Gateway:
    """Serve the bot's websocket and turn world events into DISPATCH frames."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.url = ""  # ws://host:port/gateway, set by the server
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        world.listeners.append(self.on_event)

    @property
    def connected(self) -> bool:
        """Whether a bot has identified and its socket is open."""
        return any(s.ws is not None and not s.ws.closed for s in self.sessions.values())

    @property
    def pending(self) -> int:
        """Frames queued but not yet written (for idle detection)."""
        return sum(s.queue.qsize() for s in self.sessions.values())

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_json({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        session: Session | None = None
        writer: asyncio.Task[None] | None = None
        try:
            async for frame in ws:
                if frame.type is not WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op, data = message.get("op"), message.get("d")
                if op == HEARTBEAT:
                    self.heartbeats += 1
                    await ws.send_json({"op": HEARTBEAT_ACK})
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
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
            self.world.changed()
        return ws

    def _token_ok(self, token: str | None) -> bool:
        token = (token or "").removeprefix("Bot ")
        return token == self.world.token and token not in self.world.refused_tokens

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if not self._token_ok(data.get("token")):
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        self.identifies += 1
        intents = int(data.get("intents", 0))
        session = Session(id=secrets.token_hex(16), intents=intents, ws=ws)
        session.shard = data.get("shard") or session.shard
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
        guilds = list(self.world.guilds.values())
        self._send(
            session,
            "READY",
            {
                "v": 10,
                "user": {**bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "session_type": "normal",
                "shard": session.shard,
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
        if guild is None or not session.intents & GUILD_MEMBERS:
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
        for session in self.sessions.values():
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
