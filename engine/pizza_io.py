"""Views and snapshots of a `PizzaMatch`, kept apart from the rules (engine/pizza*.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import HAND_ORDER, Card, Colour
from engine.errors import UnknownPlayer
from engine.events import TurnStarted
from engine.match import SNAPSHOT_SCHEMA, PizzaOptions
from engine.pizza_codec import event_from_json, event_to_json
from engine.pizza_tables import RECENT
from engine.views import Pending, Phase, PrivateView, PublicView, SeatView

if TYPE_CHECKING:
    from engine.pizza import PizzaMatch


def public_view(self: PizzaMatch) -> PublicView:
    """PizzaMatch.public_view."""
    players = self.players
    exposed = self._exposed
    return PublicView(
        variant="pizza",
        round=self._round,
        target=self._target,
        phase=Phase.MATCH_OVER if self.is_over else Phase.PLAY,
        pending=self._pending,
        seats=tuple(
            SeatView(
                player=p,
                cards=len(self._hands[j]),
                score=self._scores[j],
                exposed=j == exposed,
                seated=self._seated[j],
            )
            for j, p in enumerate(players)
        ),
        to_act=None if self.is_over else players[self._actor],
        top=self._discard[-1] if self._discard else None,
        # A wild waiting for its colour has none yet (views.py: "the colour named for it").
        active_colour=None if self._pending is Pending.COLOUR else self._active,
        draw_pile=len(self._draw),
        discard_pile=len(self._discard),
        pending_draw=2 if self._pending is Pending.WILD_DRAW else 0,
        clockwise=self._clockwise,
        dealer=players[self._dealer] if self._dealer >= 0 else None,
        draft_pile=(),
        # TurnStarted is left out of the table log: `to_act` already says it.
        recent=tuple([e for e in self._recent if e.__class__ is not TurnStarted][-RECENT:]),
        winner=players[self._winner] if self._winner >= 0 else None,
    )


def private_view(self: PizzaMatch, player: str) -> PrivateView:
    """PizzaMatch.private_view."""
    i = self._index.get(player)
    if i is None:
        raise UnknownPlayer("You're not playing in this match")
    dip = self._dip
    drawn = self._drawn if i == self._actor and self._pending is Pending.DRAWN_CARD else None
    return PrivateView(
        player=player,
        hand=tuple(sorted(self._hands[i], key=HAND_ORDER.__getitem__)),
        legal=tuple(self.legal_actions(player)),
        looking_at=None,
        drawn=drawn,
        revealed_hand=self._revealed if self._revealed_to == i else None,
        received=dip[2] if dip is not None and dip[1] == i else None,
        given=dip[2] if dip is not None and dip[0] == i else None,
    )


def to_snapshot(self: PizzaMatch) -> dict[str, Any]:
    """The whole state, JSON-ready, including the generator (X4)."""
    rng_version, rng_state, rng_gauss = self._rng.getstate()
    dip = self._dip
    return {
        "schema": SNAPSHOT_SCHEMA,
        "variant": "pizza",
        "players": list(self.players),
        "seed": self.seed,
        "options": {"target": self.options.target},
        "version": self.version,
        "rng": [rng_version, list(rng_state), rng_gauss],
        "round": self._round,
        "dealer": self._dealer,
        "actor": self._actor,
        "clockwise": self._clockwise,
        "pending": self._pending.value,
        "seated": list(self._seated),
        "scores": list(self._scores),
        "hands": [[c.code for c in hand] for hand in self._hands],
        "draw": [c.code for c in self._draw],
        "discard": [c.code for c in self._discard],
        "active": self._active.value if self._active is not None else None,
        "drawn": self._drawn.code if self._drawn is not None else None,
        "play_uno": self._play_uno,
        "colour_then_play": self._colour_then_play,
        "wd2": {
            "player": self._wd2_player,
            "hand": [c.code for c in self._wd2_hand],
            "legit": self._wd2_legit,
        },
        "exposed": self._exposed,
        "revealed": {"to": self._revealed_to, "hand": [c.code for c in self._revealed]},
        "dip": [dip[0], dip[1], dip[2].code] if dip is not None else None,
        "recent": [event_to_json(e) for e in self._recent],
        "over": self.is_over,
        "winner": self._winner,
    }


def load_snapshot(cls: type[PizzaMatch], data: dict[str, Any]) -> PizzaMatch:
    """Rebuild a match from `to_snapshot()`; it continues identically."""
    if data.get("schema") != SNAPSHOT_SCHEMA or data.get("variant") != "pizza":
        raise ValueError("not a Pizza snapshot of this schema")
    m = cls(
        players=data["players"],
        seed=data["seed"],
        options=PizzaOptions(**data["options"]),
        _deal=False,
    )
    parse = Card.parse
    rng_version, rng_state, rng_gauss = data["rng"]
    m._rng.setstate((rng_version, tuple(rng_state), rng_gauss))
    m.version = data["version"]
    m._round = data["round"]
    m._dealer = data["dealer"]
    m._actor = data["actor"]
    m._clockwise = data["clockwise"]
    m._pending = Pending(data["pending"])
    m._seated = [bool(s) for s in data["seated"]]
    m._set_order()
    m._scores = [int(s) for s in data["scores"]]
    m._hands = [[parse(c) for c in hand] for hand in data["hands"]]
    m._draw = [parse(c) for c in data["draw"]]
    m._discard = [parse(c) for c in data["discard"]]
    m._active = Colour(data["active"]) if data["active"] is not None else None
    m._sync_playable()
    m._drawn = parse(data["drawn"]) if data["drawn"] is not None else None
    m._play_uno = data["play_uno"]
    m._colour_then_play = data["colour_then_play"]
    m._wd2_player = data["wd2"]["player"]
    m._wd2_hand = tuple(parse(c) for c in data["wd2"]["hand"])
    m._wd2_legit = data["wd2"]["legit"]
    m._exposed = data["exposed"]
    m._revealed_to = data["revealed"]["to"]
    m._revealed = tuple(parse(c) for c in data["revealed"]["hand"])
    dip = data["dip"]
    m._dip = (dip[0], dip[1], parse(dip[2])) if dip is not None else None
    m._recent.extend(event_from_json(e) for e in data["recent"])
    m.is_over = data["over"]
    m._winner = data["winner"]
    return m
