"""What a lobby click decided: the cog shows it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MoveKind = Literal["refuse", "redraw", "close", "start"]


@dataclass(frozen=True, slots=True)
class LobbyMove:
    """`refuse`: say `text` privately; `redraw`: show the lobby again; `close`: the
    lobby closed with `text` as the reason; `start`: seat done, start the table."""

    kind: MoveKind
    text: str = ""
