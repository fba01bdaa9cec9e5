"""Snapshots of schema 1, as the engines of Duo and Pizza wrote them before they
were one, converted to today's form (engine/codec.py) so running tables in a
server's database load and play on.
"""

from __future__ import annotations

from typing import Any

from engine.cards import HAND_ORDER, Card, Colour, Face
from engine.options import DuoOptions
from engine.wild_draw import colour_legit, literal_legit


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A schema-1 snapshot of either variant in schema 2; ValueError if malformed."""
    try:
        if data["variant"] == "duo":
            return _duo(data)
        if data["variant"] == "pizza":
            return _pizza(data)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed schema-1 snapshot: {exc}") from exc
    raise ValueError(f"unknown variant {data.get('variant')!r}")


def _sorted(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda code: HAND_ORDER[Card.parse(code)])


def _duo(d: dict[str, Any]) -> dict[str, Any]:
    over = d["phase"] == "match over"
    seated = [d["removed"] != k for k in range(2)]
    return {
        **_common(d),
        "seated": seated,
        "draft": d["draft"],
        "dealer": d["p1"],
        "turn": -1 if over else d["turn"],
        "clockwise": True,
        "phase": d["phase"],
        "picks": d["picks"],
        "volley": d["volley"],
        "call": d["call"],
        "first_colour": d["first_colour"],
        "wild_draw": _duo_wild_draw(d),
        "revealed_to": d["revealed_to"],
        "revealed": _sorted(d["revealed"]),
        "dip": None,
        "over": over,
        "recent": [_untag(e) for e in d["recent"]],
    }


def _duo_wild_draw(d: dict[str, Any]) -> dict[str, Any] | None:
    """D10 was judged when challenged: judge the recorded hand now, as it would have been."""
    wd4 = d["wd4"]
    if wd4 is None:
        return None
    options = DuoOptions(**d["options"])
    test = colour_legit if options.classic_challenge else literal_legit
    hand = [Card.parse(c) for c in wd4["hand"]]
    active = None if wd4["active"] is None else Colour(wd4["active"])
    legit = test(options, hand, Card.parse(wd4["top"]), active, Face.WILD_DRAW_FOUR)
    player = d["turn"] if d["pending"] == "colour" else 1 - d["turn"]
    return {"player": player, "hand": _sorted(wd4["hand"]), "legit": legit}


def _untag(event: dict[str, Any]) -> dict[str, Any]:
    """Duo's events tagged each value (`{"card": "R5"}`); today's are plain."""
    return {key: _plain(value) for key, value in event.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        ((_, raw),) = value.items()
        return raw
    return value


def _pizza(d: dict[str, Any]) -> dict[str, Any]:
    wd2 = d["wd2"]
    wild_draw = None
    if wd2["player"] >= 0:
        wild_draw = {"player": wd2["player"], "hand": _sorted(wd2["hand"]), "legit": wd2["legit"]}
    return {
        **_common(d),
        "seated": d["seated"],
        "draft": [],
        "dealer": d["dealer"],
        "turn": d["actor"],
        "clockwise": d["clockwise"],
        "phase": "match over" if d["over"] else "play",
        "picks": 0,
        "volley": 0,
        "call": d["play_uno"],
        "first_colour": d["colour_then_play"],
        "wild_draw": wild_draw,
        "revealed_to": d["revealed"]["to"],
        "revealed": _sorted(d["revealed"]["hand"]),
        "dip": d["dip"],
        "over": d["over"],
        "recent": d["recent"],
    }


def _common(d: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema": 2,
        "variant": d["variant"],
        "players": d["players"],
        "seed": d["seed"],
        "options": d["options"],
        "version": d["version"],
        "round": d["round"],
        "scores": d["scores"],
        "hands": d["hands"],
        "draw": d["draw"],
        "discard": d["discard"],
        "pending": d["pending"],
        "active": d["active"],
        "drawn": d["drawn"],
        "exposed": d["exposed"],
        "winner": d["winner"],
        "rng": d["rng"],
    }
