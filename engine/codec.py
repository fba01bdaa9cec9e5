"""The one snapshot format of every variant (schema 2), validated by pydantic,
and the JSON form of every event (kept in a snapshot's table log).

Snapshots of schema 1 (Duo's and Pizza's own formats, before the engines were
one) are converted on load (engine/schema1.py), so a running table survives an
upgrade. Used only when saving and loading, never on the hot path.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Sequence
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from engine import events as events_module
from engine.board import Board, blank_board
from engine.cards import HAND_ORDER, Card, Colour
from engine.events import Event
from engine.options import ClassicOptions, DuoOptions, Options, PizzaOptions
from engine.piles import sync_playable
from engine.schema1 import upgrade
from engine.seats import set_order
from engine.table import Table, WildDraw
from engine.views import Pending, Phase

SNAPSHOT_SCHEMA = 2
OPTIONS: dict[str, type[Options]] = {
    "duo": DuoOptions,
    "pizza": PizzaOptions,
    "classic": ClassicOptions,
}
_EVENTS: dict[str, type[Any]] = {cls.__name__: cls for cls in typing.get_args(Event)}
_HINTS: dict[str, dict[str, Any]] = {
    name: typing.get_type_hints(cls, globalns=vars(events_module)) for name, cls in _EVENTS.items()
}


def _card_code(code: str) -> str:
    Card.parse(code)  # ValueError (a validation error) if unknown
    return code


CardCode = Annotated[str, AfterValidator(_card_code)]
ColourCode = Literal["R", "Y", "G", "B"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EventModel(BaseModel):
    """One event of the table log: its class name, then its fields."""

    model_config = ConfigDict(extra="allow", frozen=True)
    type: str

    @field_validator("type")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in _EVENTS:
            raise ValueError(f"unknown event {value!r}")
        return value


class WildDrawModel(_Model):
    player: int = Field(ge=0)
    hand: list[CardCode]
    legit: bool


class Snapshot(_Model):
    """`Game.to_snapshot()`, for every variant."""

    schema_: Literal[2] = Field(alias="schema")
    variant: Literal["duo", "pizza", "classic"]
    players: list[str] = Field(min_length=2, max_length=10)
    seed: int
    options: dict[str, int | bool]
    version: int = Field(ge=0)
    round: int = Field(ge=0)
    scores: list[int]
    seated: list[bool]
    hands: list[list[CardCode]]
    draw: list[CardCode]
    discard: list[CardCode]
    draft: list[CardCode]
    dealer: int = Field(ge=-1)
    turn: int = Field(ge=-1)
    clockwise: bool
    phase: Literal["draft", "play", "match over"]
    pending: Annotated[str, AfterValidator(lambda value: Pending(value).value)]
    active: ColourCode | None
    picks: int = Field(ge=0, le=14)
    drawn: CardCode | None
    drew: list[CardCode] = []  # H4 (absent before the house rules)
    volley: int = Field(ge=0)
    exposed: int = Field(ge=-1)
    call: bool
    first_colour: bool
    wild_draw: WildDrawModel | None
    revealed_to: int = Field(ge=-1)
    revealed: list[CardCode]
    dip: tuple[int, int, CardCode] | None
    winner: int = Field(ge=-1)
    over: bool
    recent: list[EventModel]
    rng: tuple[int, list[int], float | None]


# --------------------------------------------------------------------- events


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _typed(hint: Any, value: Any) -> Any:
    if hint is Card:
        return Card.parse(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    origin = typing.get_origin(hint)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_typed(args[0], item) for item in value)
        return tuple(_typed(arg, item) for arg, item in zip(args, value, strict=True))
    if origin is types.UnionType or origin is typing.Union:
        if value is None:
            return None
        arg = next(a for a in typing.get_args(hint) if a is not type(None))
        return _typed(arg, value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """`{"type": "CardPlayed", "player": "1", "card": "R5"}`."""
    data: dict[str, Any] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        data[field.name] = _plain(getattr(event, field.name))
    return data


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from `event_to_json`; ValueError if malformed."""
    model = EventModel.model_validate(data)
    hints = _HINTS[model.type]
    try:
        fields = {k: _typed(hints[k], v) for k, v in data.items() if k != "type"}
        event: Event = _EVENTS[model.type](**fields)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed event {data!r}") from exc
    return event


# ------------------------------------------------------------------ snapshots


def _codes(pile: Sequence[Card]) -> list[str]:
    return [c.code for c in pile]


def dump_table(t: Table) -> dict[str, Any]:
    """The whole state as JSON-ready data, the generator's state included (X4)."""
    rng_version, internal, gauss = t.rng.getstate()
    wd = t.wild_draw
    return {
        "schema": SNAPSHOT_SCHEMA,
        "variant": t.variant,
        "players": list(t.players),
        "seed": t.seed,
        "options": dataclasses.asdict(t.options),
        "version": t.version,
        "round": t.round,
        "scores": list(t.scores),
        "seated": list(t.seated),
        "hands": [_codes(h) for h in t.hands],
        "draw": _codes(t.draw),
        "discard": _codes(t.discard),
        "draft": _codes(t.draft),
        "dealer": t.dealer,
        "turn": t.turn,
        "clockwise": t.clockwise,
        "phase": t.phase.value,
        "pending": t.pending.value,
        "active": None if t.active is None else t.active.value,
        "picks": t.picks,
        "drawn": None if t.drawn is None else t.drawn.code,
        "drew": _codes(t.drew),
        "volley": t.volley,
        "exposed": t.exposed,
        "call": t.call,
        "first_colour": t.first_colour,
        "wild_draw": None
        if wd is None
        else {
            "player": wd.player,
            "hand": _codes(sorted(wd.hand, key=HAND_ORDER.__getitem__)),
            "legit": wd.legit,
        },
        "revealed_to": t.revealed_to,
        "revealed": _codes(t.revealed),
        "dip": None if t.dip is None else [t.dip[0], t.dip[1], t.dip[2].code],
        "winner": t.winner,
        "over": t.over,
        "recent": [event_to_json(e) for e in t.recent],
        "rng": [rng_version, list(internal), gauss],
    }


@functools.cache
def _options_adapter(variant: str) -> TypeAdapter[Options]:
    """Built once per variant: building a TypeAdapter costs about 1 ms, validating 0.02 ms."""
    return TypeAdapter(OPTIONS[variant])


def load_table(data: dict[str, Any], *, kept_events: int, shuffled_refill: bool) -> Board:
    """Rebuild a table from `dump_table` (or a schema-1 snapshot); ValueError if invalid."""
    if data.get("schema") == 1:
        data = upgrade(data)
    if data.get("schema") != SNAPSHOT_SCHEMA:
        raise ValueError(f"unknown snapshot schema {data.get('schema')!r}")
    snap = Snapshot.model_validate(data)
    options = _options_adapter(snap.variant).validate_python(snap.options)
    players = tuple(snap.players)
    t = blank_board(
        snap.variant,
        options,
        players,
        snap.seed,
        shuffled_refill=shuffled_refill,
        kept_events=kept_events,
    )
    _fill_table(t, snap)
    return t


def _fill_table(t: Board, snap: Snapshot) -> None:
    n = len(t.players)
    if not len(snap.scores) == len(snap.seated) == len(snap.hands) == n:
        raise ValueError("scores, seats and hands must match the players")
    for seat in (snap.dealer, snap.turn, snap.exposed, snap.revealed_to, snap.winner):
        if seat >= n:
            raise ValueError("a seat number is out of range")
    t.version = snap.version
    t.round = snap.round
    t.scores = list(snap.scores)
    t.seated = list(snap.seated)
    t.hands = [[Card.parse(c) for c in h] for h in snap.hands]
    t.draw = [Card.parse(c) for c in snap.draw]
    t.discard = [Card.parse(c) for c in snap.discard]
    t.draft = [Card.parse(c) for c in snap.draft]
    t.dealer = snap.dealer
    t.turn = snap.turn
    t.clockwise = snap.clockwise
    set_order(t)
    t.phase = Phase(snap.phase)
    t.pending = Pending(snap.pending)
    t.active = None if snap.active is None else Colour(snap.active)
    sync_playable(t)
    t.picks = snap.picks
    t.drawn = None if snap.drawn is None else Card.parse(snap.drawn)
    t.drew = tuple(Card.parse(c) for c in snap.drew)
    t.volley = snap.volley
    t.exposed = snap.exposed
    t.call = snap.call
    t.first_colour = snap.first_colour
    wd = snap.wild_draw
    if wd is not None:
        t.wild_draw = WildDraw(wd.player, tuple(Card.parse(c) for c in wd.hand), wd.legit)
    t.revealed_to = snap.revealed_to
    t.revealed = tuple(Card.parse(c) for c in snap.revealed)
    if snap.dip is not None:
        t.dip = (snap.dip[0], snap.dip[1], Card.parse(snap.dip[2]))
    t.winner = snap.winner
    t.over = snap.over
    t.recent.extend(event_from_json(e.model_dump()) for e in snap.recent)
    rng_version, internal, gauss = snap.rng
    if len(internal) != 625:
        raise ValueError("the generator's state must hold 625 integers")
    t.rng.setstate((rng_version, tuple(internal), gauss))
