"""The users' side: slash commands, clicks and selects, and what each user sees."""

# ruff: noqa: ASYNC109  (timeout= is this API's deadline for waiting on the bot)

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Self

from .log import Log
from .models import (
    CallbackType,
    Channel,
    Interaction,
    InteractionType,
    Member,
    Message,
    Role,
    User,
)
from .server import Emulator

# How long a wait for the bot lasts by default. Each wait ends at its event (an answer, a
# change), so this is only the bound for one that never comes: generous enough for a
# machine whose cores are busy with other work.
WAIT = 30.0

OptionValue = str | int | float | bool | User | Member | Channel | Role

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


class RefusedByClient(ValueError):
    """The Discord client itself would not send this (bad option, hidden or disabled button)."""


class Outcome:
    """What became of one interaction; the `wait_*` methods wait for the bot."""

    def __init__(self, emulator: Emulator, interaction: Interaction) -> None:
        self._world = emulator.world
        self.interaction = interaction

    def __repr__(self) -> str:
        it = self.interaction
        return f"<Outcome {it.name!r} response={self.response_type} failed={it.failed}>"

    @property
    def response_type(self) -> CallbackType | None:
        return self.interaction.response_type

    @property
    def failed(self) -> bool:
        """Whether the user saw "This interaction failed" (no answer within 3 s)."""
        return self.interaction.failed

    @property
    def message(self) -> Message | None:
        """The original response (or, for a component update, the message clicked)."""
        return self.interaction.original

    @property
    def ephemeral(self) -> bool:
        return self.interaction.ephemeral

    @property
    def followups(self) -> list[Message]:
        return self.interaction.followups

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    async def wait_response(self, *, timeout: float = WAIT) -> Self:
        """Wait until the bot acknowledged the interaction or it failed (3 s)."""
        it = self.interaction
        await self._world.wait_for(lambda: it.acknowledged or it.failed, timeout=timeout)
        return self

    async def wait_message(self, *, timeout: float = WAIT) -> Message:
        """Wait for the response message to carry content (a deferred one gets filled later)."""
        it = self.interaction

        def filled() -> Message | None:
            original = it.original
            if original is not None and not original.loading:
                return original
            return None

        result: Message = await self._world.wait_for(filled, timeout=timeout)
        return result

    async def wait_followup(self, index: int = 0, *, timeout: float = WAIT) -> Message:
        it = self.interaction
        await self._world.wait_for(lambda: len(it.followups) > index, timeout=timeout)
        return it.followups[index]


class Driver:
    """Play the users: every call sends what the Discord client would send."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.world = emulator.world

    @property
    def log(self) -> Log:
        return self.world.log

    # -- actions -----------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        wait: bool = True,
        **options: OptionValue,
    ) -> Outcome:
        """Run `/command` (e.g. "uno duo") with typed options; wait for the answer by default.

        The first three are positional-only, so an option may be called `user` or `channel`.
        """
        names = command.split()
        definition = self.world.find_command(channel.guild, names[0])
        node: dict[str, Any] = definition.payload()
        invoker = channel.guild.members.get(user.id)
        if invoker is None:
            raise RefusedByClient(f"{user.name} is not a member of {channel.guild.name}")
        required = int(node.get("default_member_permissions") or 0)
        if invoker.permissions & required != required:
            # Discord hides such a command from members without these permissions.
            raise RefusedByClient(f"/{names[0]} needs permissions {required:#x}")
        path: list[dict[str, Any]] = []
        for name in names[1:]:
            node = _child(node, name, (SUB_COMMAND, SUB_COMMAND_GROUP))
            path.append(node)
        resolved: dict[str, dict[str, Any]] = {}
        leaf = [_option(spec, options, resolved, invoker) for spec in node.get("options") or []]
        leaf = [opt for opt in leaf if opt is not None]
        unknown = set(options) - {o["name"] for o in node.get("options") or []}
        if unknown:
            raise RefusedByClient(f"/{command} has no option(s) {sorted(unknown)}")
        nested = leaf
        for sub in reversed(path):
            nested = [{"type": sub["type"], "name": sub["name"], "options": nested}]
        data: dict[str, Any] = {
            "id": str(definition.id),
            "name": definition.name,
            "type": 1,
            "options": nested,
        }
        if definition.guild_id is not None:
            data["guild_id"] = str(definition.guild_id)
        if resolved:
            data["resolved"] = resolved
        return await self._send(
            InteractionType.APPLICATION_COMMAND, user, channel, data, f"/{command}", None, wait
        )

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
    ) -> Outcome:
        """Press a button, found by custom_id or by (part of) its label."""
        self._check_visible(user, message)
        button = message.find_button(label=label, custom_id=custom_id)
        if button.get("disabled"):
            raise RefusedByClient(f"button {button.get('label')!r} is disabled")
        if button.get("style") == 5:
            raise RefusedByClient("a link button opens a URL; it sends no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return await self._send(
            InteractionType.MESSAGE_COMPONENT,
            user,
            message.channel,
            data,
            button["custom_id"],
            message,
            wait,
        )

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
    ) -> Outcome:
        """Choose `values` in a string select."""
        self._check_visible(user, message)
        select = message.find_component(custom_id)
        if select.get("disabled"):
            raise RefusedByClient(f"select {custom_id!r} is disabled")
        offered = {o["value"] for o in select.get("options") or []}
        if not set(values) <= offered:
            raise RefusedByClient(f"{sorted(set(values) - offered)} not offered by {custom_id!r}")
        low, high = select.get("min_values", 1), select.get("max_values", 1)
        if not low <= len(values) <= high:
            raise RefusedByClient(f"choose between {low} and {high} values")
        data = {"custom_id": custom_id, "component_type": select["type"], "values": values}
        return await self._send(
            InteractionType.MESSAGE_COMPONENT, user, message.channel, data, custom_id, message, wait
        )

    async def submit_modal(
        self, user: User, shown: Outcome, values: dict[str, str], *, wait: bool = True
    ) -> Outcome:
        """Fill in and submit the modal the bot answered `shown` with."""
        modal = shown.modal
        if modal is None:
            raise RefusedByClient("the bot showed no modal")
        rows: list[dict[str, Any]] = []
        for row in modal.get("components") or []:
            if row.get("type") == 18:  # a Label around one input
                inner = row["component"]
                filled = {**inner, "value": values.get(inner["custom_id"], "")}
                rows.append({"type": 18, "component": filled})
            else:
                children = [
                    {**c, "value": values.get(c["custom_id"], "")} for c in row["components"]
                ]
                rows.append({"type": 1, "components": children})
        data = {"custom_id": modal["custom_id"], "components": rows}
        it = shown.interaction
        return await self._send(
            InteractionType.MODAL_SUBMIT, user, it.channel, data, modal["custom_id"], None, wait
        )

    def say(self, user: User, channel: Channel, content: str) -> Message:
        """Post a plain channel message as `user`."""
        return self.world.user_message(user, channel, content)

    async def _send(
        self,
        kind: InteractionType,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        name: str,
        message: Message | None,
        wait: bool,
    ) -> Outcome:
        if not self.emulator.gateway.connected:
            raise RuntimeError("no bot is connected to the emulator's gateway")
        if user.id not in channel.guild.members:
            raise RefusedByClient(f"{user.name} is not a member of {channel.guild.name}")
        if channel.deleted:
            raise RefusedByClient(f"#{channel.name} was deleted")
        interaction = self.world.create_interaction(
            type=kind, user=user, channel=channel, data=data, name=name, message=message
        )
        outcome = Outcome(self.emulator, interaction)
        if wait:
            await outcome.wait_response()
        return outcome

    def _check_visible(self, user: User, message: Message) -> None:
        if not message.visible_to(user):
            raise RefusedByClient(f"{user.name} cannot see message {message.id}")

    # -- what users see ----------------------------------------------------------------------

    def visible(self, user: User, channel: Channel) -> list[Message]:
        """Return the messages `user` sees in `channel`, oldest first."""
        return self.world.visible_messages(user, channel)

    def read(self, message: Message) -> str:
        """Return what a person reads: content and embed text, mentions shown as @name."""
        return self.world.readable(message)

    def message(self, message_id: int) -> Message:
        """Return a message by id (the live object: always its latest state)."""
        return self.world.messages[message_id]

    def last_message(self, user: User, channel: Channel) -> Message | None:
        seen = self.visible(user, channel)
        return seen[-1] if seen else None

    # -- waiting -----------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], Any], *, timeout: float = WAIT) -> Any:
        """Return predicate()'s first truthy value; re-checked on every state change."""
        return await self.world.wait_for(predicate, timeout=timeout)

    async def wait_idle(self, *, quiet: float = 0.1, timeout: float = WAIT) -> None:
        """Wait until no request is in flight and nothing changed for `quiet` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            busy = self.emulator.rest.in_flight or self.emulator.gateway.pending
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"the bot was still busy after {timeout} s")
            try:
                await self.world.wait_for(
                    self._changed_since(self.world.version),
                    timeout=remaining if busy else min(quiet, remaining),
                )
            except TimeoutError:
                if not busy:
                    return

    def _changed_since(self, version: int) -> Callable[[], bool]:
        return lambda: self.world.version != version


def _scalar_fits(kind: int, value: OptionValue) -> bool:
    if isinstance(value, bool):
        return kind == BOOLEAN
    return (kind == INTEGER and isinstance(value, int)) or (
        kind == NUMBER and isinstance(value, int | float)
    )


def _child(node: dict[str, Any], name: str, kinds: tuple[int, ...]) -> dict[str, Any]:
    options: list[dict[str, Any]] = node.get("options") or []
    for option in options:
        if option["name"] == name and option["type"] in kinds:
            return option
    raise RefusedByClient(f"/{node['name']} has no subcommand {name!r}")


def _option(
    spec: dict[str, Any],
    given: dict[str, OptionValue],
    resolved: dict[str, dict[str, Any]],
    invoker: Member,
) -> dict[str, Any] | None:
    """Check one option as the Discord client does and render it (filling `resolved`)."""
    name, kind = spec["name"], spec["type"]
    if name not in given:
        if spec.get("required"):
            raise RefusedByClient(f"option {name!r} is required")
        return None
    out = _option_value(spec, given[name], resolved, invoker)
    if kind in (INTEGER, NUMBER):
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and out < low) or (high is not None and out > high):
            raise RefusedByClient(f"option {name!r}: {out} is outside {low}..{high}")
    choices = spec.get("choices")
    if choices and out not in [c["value"] for c in choices]:
        raise RefusedByClient(f"option {name!r}: {out!r} is not one of the choices")
    return {"name": name, "type": kind, "value": out}


def _option_value(
    spec: dict[str, Any],
    value: OptionValue,
    resolved: dict[str, dict[str, Any]],
    invoker: Member,
) -> Any:
    """The option's value as Discord sends it; users, channels and roles go in `resolved`."""
    name, kind = spec["name"], spec["type"]
    if kind in (USER, MENTIONABLE) and isinstance(value, User | Member):
        return _resolve_user(value, resolved, invoker)
    if kind == CHANNEL and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.payload(),
            "permissions": str(invoker.permissions),
        }
        return str(value.id)
    if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == STRING and isinstance(value, str):
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise RefusedByClient(f"option {name!r}: length out of range")
        return value
    if _scalar_fits(kind, value):
        return value
    raise RefusedByClient(f"option {name!r} (type {kind}) cannot take {value!r}")


def _resolve_user(
    value: User | Member, resolved: dict[str, dict[str, Any]], invoker: Member
) -> str:
    user = value.user if isinstance(value, Member) else value
    resolved.setdefault("users", {})[str(user.id)] = user.payload()
    member = invoker.guild.members.get(user.id)
    if member is not None:
        data = member.payload(with_user=False)
        data["permissions"] = str(member.permissions)
        resolved.setdefault("members", {})[str(user.id)] = data
    return str(user.id)
