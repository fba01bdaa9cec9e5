"""JSON form of the shared events, so a Pizza snapshot keeps its recent log.

Generic over engine/events.py: each event is a frozen dataclass whose fields
are str, int, bool, Card, Colour, DrawReason, None or tuples of those; the
field annotations say how to read them back.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from engine import events as ev
from engine.cards import Card
from engine.events import Event

_CLASSES: dict[str, type[Any]] = {cls.__name__: cls for cls in typing.get_args(ev.Event)}
_HINTS: dict[str, dict[str, Any]] = {
    name: typing.get_type_hints(cls, globalns=vars(ev)) for name, cls in _CLASSES.items()
}


def _encode(value: object) -> object:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def _decode(hint: Any, value: Any) -> Any:
    if hint is Card:
        return Card.parse(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in value)
        return tuple(_decode(arg, item) for arg, item in zip(args, value, strict=True))
    if origin is types.UnionType or origin is typing.Union:
        if value is None:
            return None
        arg = next(a for a in typing.get_args(hint) if a is not type(None))
        return _decode(arg, value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """`{"type": "CardPlayed", "player": "1", "card": "R5"}`."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        data[field.name] = _encode(getattr(event, field.name))
    return data


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from `event_to_json`; ValueError if unknown."""
    name = data.get("type")
    if name not in _CLASSES:
        raise ValueError(f"unknown event {data!r}")
    hints = _HINTS[name]
    kwargs = {key: _decode(hints[key], value) for key, value in data.items() if key != "type"}
    event: Event = _CLASSES[name](**kwargs)
    return event
