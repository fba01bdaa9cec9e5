"""The JSON form of a UNO Duo match: a pydantic model that validates a snapshot,
and a generic codec for the public events kept in it (the `recent` log).

Used only when saving and loading, never on the hot path.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine import events as events_module
from engine.cards import Card, Colour
from engine.events import DrawReason, Event
from engine.match import SNAPSHOT_SCHEMA
from engine.views import Pending, Phase

_EVENT_TYPES: dict[str, type[Any]] = {
    name: cls
    for name, cls in vars(events_module).items()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == "engine.events"
}
_FIELDS: dict[type[Any], tuple[str, ...]] = {}
_ENUM_TAGS: dict[str, type[Enum]] = {"colour": Colour, "reason": DrawReason}


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return {"card": value.code}
    if isinstance(value, Colour):
        return {"colour": value.value}
    if isinstance(value, DrawReason):
        return {"reason": value.value}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict):
        if len(value) != 1:
            raise ValueError(f"malformed event value {value!r}")
        ((tag, raw),) = value.items()
        if tag == "card":
            return Card.parse(raw)
        if tag in _ENUM_TAGS:
            return _ENUM_TAGS[tag](raw)
        raise ValueError(f"malformed event value {value!r}")
    return value


def encode_event(event: Event) -> dict[str, Any]:
    """A public event as JSON-ready data: `{"type": "CardPlayed", "player": ..., ...}`."""
    cls = type(event)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(event))
    data: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        data[name] = _encode(getattr(event, name))
    return data


def decode_event(data: dict[str, Any]) -> Event:
    """Rebuild an event from `encode_event`'s output; ValueError if malformed."""
    try:
        cls = _EVENT_TYPES[data["type"]]
        kwargs = {k: _decode(v) for k, v in data.items() if k != "type"}
        event: Event = cls(**kwargs)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed event {data!r}") from exc
    return event


CardCode = str
Seat = Annotated[int, Field(ge=0, le=1)]
SeatOrNone = Annotated[int, Field(ge=-1, le=1)]


def _check_code(code: str) -> str:
    Card.parse(code)  # ValueError (a pydantic validation error) if unknown
    return code


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OptionsModel(_Model):
    target: int
    classic_deck: bool
    classic_challenge: bool


class Wd4Model(_Model):
    hand: list[CardCode]
    top: CardCode
    active: Literal["R", "Y", "G", "B"] | None

    @field_validator("hand")
    @classmethod
    def _cards(cls, value: list[str]) -> list[str]:
        return [_check_code(c) for c in value]

    @field_validator("top")
    @classmethod
    def _top(cls, value: str) -> str:
        return _check_code(value)


class DuoSnapshot(_Model):
    """Validation of `DuoMatch.to_snapshot()`."""

    schema_: Literal[1] = Field(alias="schema")
    variant: Literal["duo"]
    players: tuple[str, str]
    seed: int
    options: OptionsModel
    version: int = Field(ge=0)
    round: int = Field(ge=1)
    scores: tuple[int, int]
    p1: Seat
    phase: Literal["draft", "play", "match over"]
    pending: str
    turn: Seat
    hands: tuple[list[CardCode], list[CardCode]]
    draw: list[CardCode]
    discard: list[CardCode]
    draft: list[CardCode]
    active: Literal["R", "Y", "G", "B"] | None
    picks: int = Field(ge=0, le=14)
    drawn: CardCode | None
    volley: int = Field(ge=0)
    exposed: SeatOrNone
    call: bool
    first_colour: bool
    wd4: Wd4Model | None
    revealed_to: SeatOrNone
    revealed: list[CardCode]
    removed: SeatOrNone
    winner: SeatOrNone
    recent: list[dict[str, Any]]
    rng: tuple[int, list[int], float | None]

    @field_validator("draw", "discard", "draft", "revealed")
    @classmethod
    def _piles(cls, value: list[str]) -> list[str]:
        return [_check_code(c) for c in value]

    @field_validator("hands")
    @classmethod
    def _hands(cls, value: tuple[list[str], list[str]]) -> tuple[list[str], list[str]]:
        return ([_check_code(c) for c in value[0]], [_check_code(c) for c in value[1]])

    @field_validator("drawn")
    @classmethod
    def _drawn(cls, value: str | None) -> str | None:
        return None if value is None else _check_code(value)

    @field_validator("pending")
    @classmethod
    def _pending(cls, value: str) -> str:
        Pending(value)
        return value

    @field_validator("phase")
    @classmethod
    def _phase(cls, value: str) -> str:
        Phase(value)
        return value

    @field_validator("recent")
    @classmethod
    def _recent(cls, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for item in value:
            decode_event(item)
        return value

    @field_validator("rng")
    @classmethod
    def _rng(
        cls, value: tuple[int, list[int], float | None]
    ) -> tuple[int, list[int], float | None]:
        if len(value[1]) != 625:
            raise ValueError("rng state must hold 625 integers")
        return value


assert SNAPSHOT_SCHEMA == 1, "update DuoSnapshot.schema_ with the schema"
