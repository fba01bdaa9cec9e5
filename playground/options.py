"""Turn the page's slash-command options (text) into the typed values `Driver.slash` takes."""

from __future__ import annotations

from typing import Any

from .driver import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    NUMBER,
    ROLE,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
    OptionValue,
    RefusedByClient,
)
from .models import Command, Guild


def leaf_options(command: Command, path: list[str]) -> list[dict[str, Any]]:
    """The options of the (sub)command at `path` (the words after the command's name)."""
    node: dict[str, Any] = command.payload()
    for word in path:
        found = [
            o
            for o in node.get("options") or []
            if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
        ]
        if not found:
            raise RefusedByClient(f"/{command.name} has no subcommand {word!r}")
        node = found[0]
    options: list[dict[str, Any]] = node.get("options") or []
    return options


def typed_options(
    guild: Guild, specs: list[dict[str, Any]], given: dict[str, str]
) -> dict[str, OptionValue]:
    """Convert each given option by its type; the driver then checks it as Discord's client."""
    kinds = {spec["name"]: spec["type"] for spec in specs}
    typed: dict[str, OptionValue] = {}
    for name, text in given.items():
        if name not in kinds:
            raise RefusedByClient(f"there is no option {name!r}")
        typed[name] = _convert(guild, name, kinds[name], text.strip())
    return typed


def _convert(guild: Guild, name: str, kind: int, text: str) -> OptionValue:
    if kind in (USER, MENTIONABLE, CHANNEL, ROLE):
        return _named(guild, name, kind, text)
    try:
        if kind == INTEGER:
            return int(text)
        if kind == NUMBER:
            return float(text)
    except ValueError:
        raise RefusedByClient(f"{name} must be a number") from None
    if kind == BOOLEAN:
        return text.lower() in ("true", "yes", "1")
    return text


def _named(guild: Guild, name: str, kind: int, text: str) -> OptionValue:
    """A member, channel or role, by name (as typed) or id (as a mention)."""
    wanted = text.strip("<>").lstrip("@!&#")
    found: list[OptionValue] = []
    if kind in (USER, MENTIONABLE):
        found += [m.user for m in guild.members.values() if wanted in (str(m.user.id), m.user.name)]
    if kind in (ROLE, MENTIONABLE):
        found += [r for r in guild.roles if wanted in (str(r.id), r.name)]
    if kind == CHANNEL:
        found += [c for c in guild.channels if wanted in (str(c.id), c.name) and not c.deleted]
    if not found:
        raise RefusedByClient(f"{name}: there is nothing called {text!r} here")
    return found[0]
