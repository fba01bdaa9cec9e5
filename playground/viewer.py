"""One page connection: a member's view of the server kept live, and their actions."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from . import present
from .driver import Driver, Outcome, RefusedByClient
from .models import Channel, Guild, Message, User
from .options import leaf_options, typed_options

BATCH_SECONDS = 0.02
Signature = tuple[int, int]  # a message's (edits, flags): any change to it changes this


class Viewer:
    """Send one member what they may see, as it changes; act as them through the driver."""

    def __init__(
        self, ws: web.WebSocketResponse, driver: Driver, guild: Guild, member: User
    ) -> None:
        self.ws = ws
        self.driver = driver
        self.world = driver.world
        self.guild = guild
        self.member = member
        self.sent: dict[int, Signature] = {}
        self.commands_sent: list[Any] | None = None
        self.channels_sent: list[Any] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.forms: dict[str, Outcome] = {}  # forms on screen, by their interaction's id

    async def run(self, hello: dict[str, Any]) -> None:
        """Serve until the page goes away."""
        await self.ws.send_json(hello)
        self.channels_sent = hello.get("channels")
        pusher = asyncio.create_task(self._push_forever())
        try:
            async for frame in self.ws:
                if frame.type is WSMsgType.TEXT:
                    self._act(json.loads(frame.data))
        finally:
            pusher.cancel()
            for task in [pusher, *self.tasks]:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    # -- what the member sees ----------------------------------------------------------------

    async def _push_forever(self) -> None:
        world = self.world
        while not self.ws.closed:
            # A click sets off a burst of changes (callback, edits, followups): send them
            # together rather than scanning the messages once for each.
            await asyncio.sleep(BATCH_SECONDS)
            version = world.version
            for frame in self._changes():
                await self.ws.send_json(frame)
            with contextlib.suppress(TimeoutError):
                await world.wait_for(self._changed_since(version), timeout=30)

    def _changed_since(self, version: int) -> Callable[[], bool]:
        return lambda: self.world.version != version

    def _changes(self) -> list[dict[str, Any]]:
        frames: list[dict[str, Any]] = []
        commands = present.visible_commands(
            self.world.commands.get(self.guild.id, []) + self.world.commands.get(None, []),
            self.guild,
            self.member,
        )
        if commands != self.commands_sent:
            self.commands_sent = commands
            frames.append({"t": "commands", "commands": commands})
        # A thread the bot opened for a table (or a deleted channel) shows up at once.
        channels = present.channel_list(self.guild)
        if channels != self.channels_sent:
            self.channels_sent = channels
            frames.append({"t": "channels", "channels": channels})
        for message in list(self.world.messages.values()):
            if message.channel.guild is not self.guild:
                continue
            if message.visible_to(self.member):
                signature = (message.edits, message.flags)
                if self.sent.get(message.id) != signature:
                    self.sent[message.id] = signature
                    frames.append({"t": "message", "m": present.message_json(message)})
            elif self.sent.pop(message.id, None) is not None:
                frames.append({"t": "delete", "id": str(message.id)})
        return frames

    # -- what the member does ----------------------------------------------------------------

    def _act(self, frame: dict[str, Any]) -> None:
        task = asyncio.create_task(self._perform(frame))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _perform(self, frame: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"t": "ack", "nonce": frame.get("nonce"), "failed": False}
        try:
            if frame.get("t") == "say":
                channel = self._channel(str(frame["channel_id"]))
                self.driver.say(self.member, channel, str(frame["content"])[:2000])
            else:
                outcome = await self._send(frame)
                await outcome.wait_response(timeout=5)
                answer["failed"] = outcome.failed
                if outcome.modal is not None:
                    form = str(outcome.interaction.id)
                    self.forms[form] = outcome
                    answer["modal"] = {"id": form, **present.modal_json(outcome.modal)}
        except (RefusedByClient, LookupError, ValueError, TypeError) as error:
            answer["error"] = str(error).strip("'\"")
        except RuntimeError:
            answer["error"] = "UnoBot is not connected."
        if not self.ws.closed:
            await self.ws.send_json(answer)

    async def _send(self, frame: dict[str, Any]) -> Outcome:
        kind = frame.get("t")
        if kind == "slash":
            return await self._slash(frame)
        if kind == "submit":
            return await self._submit(frame)
        message = self._message(str(frame["message_id"]))
        if kind == "click":
            return await self.driver.click(
                self.member, message, str(frame["custom_id"]), wait=False
            )
        if kind == "select":
            values = [str(v) for v in frame["values"]]
            return await self.driver.select(
                self.member, message, str(frame["custom_id"]), values, wait=False
            )
        raise ValueError(f"unknown action {kind!r}")

    async def _slash(self, frame: dict[str, Any]) -> Outcome:
        channel = self._channel(str(frame["channel_id"]))
        words = str(frame["command"]).split()
        if not words:
            raise RefusedByClient("type a command after /")
        command = self.world.find_command(self.guild, words[0])
        specs = leaf_options(command, words[1:])
        given = {str(k): str(v) for k, v in (frame.get("options") or {}).items()}
        options = typed_options(self.guild, specs, given)
        return await self.driver.slash(self.member, channel, " ".join(words), wait=False, **options)

    async def _submit(self, frame: dict[str, Any]) -> Outcome:
        """Submit a form on screen: once, as Discord closes a form when it is sent."""
        shown = self.forms.pop(str(frame["modal_id"]), None)
        if shown is None:
            raise RefusedByClient("that form is closed")
        values = {str(k): str(v) for k, v in (frame.get("values") or {}).items()}
        problem = present.form_problem(present.modal_json(shown.modal or {}), values)
        if problem:
            self.forms[str(frame["modal_id"])] = shown  # still on screen, to be corrected
            raise RefusedByClient(problem)
        return await self.driver.submit_modal(self.member, shown, values, wait=False)

    def _message(self, message_id: str) -> Message:
        message = self.world.messages.get(int(message_id))
        if message is None or not message.visible_to(self.member):
            raise RefusedByClient("that message is gone")
        return message

    def _channel(self, channel_id: str) -> Channel:
        channel = self.world.channels.get(int(channel_id))
        if channel is None or channel.guild is not self.guild or channel.deleted:
            raise RefusedByClient("that channel is gone")
        return channel
