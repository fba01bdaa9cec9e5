"""Replays' figures, printed by bench/db.py: what a finished match keeps, and a step's time.

- Bytes per finished match: whole matches (Duo; Pizza with 4; classic with 6 at
  the default targets, 200 / 250 / 500), played by normal-strength computers and
  recorded as the bot records them (record_action: action log, snapshots,
  rounds, results), then the file vacuumed and measured per table with dbstat.
  What a replay needs is the match row, its seats and its action log; the
  figures give the whole match and the action log alone.
- A replay step of a 40-round match: a Duo match of 40 rounds or more (the
  longest logs per round), replayed once from its log (what opening it costs),
  then steps drawn at random, each built (engine frame) and drawn (the panel's
  payload, as the bot sends it): p50 / p99 / max, target p99 <= 50 ms.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from cogs.uno.history.loaded import Loaded
from cogs.uno.history.render import replay_panel
from cogs.uno.i18n.l10n import speaking
from cogs.uno.table.options import TableOptions
from cogs.uno.table.scoring import match_results
from db.database import Database
from db.models import RoundResult, Seat
from engine import actions as engine_actions
from engine.actions import Action
from engine.events import Event, MatchEnded, RoundEnded, RoundStarted
from engine.match import Match, Variant, new_match
from engine.players import new_computer, next_move
from engine.replay import Replay

STEP_TARGET_P99_MS = 50.0
ROUNDS = 40
SNOWFLAKE = 400_000_000_000_000_000
SIZES: tuple[tuple[str, Variant, int, int], ...] = (
    ("duo", "duo", 2, 200),
    ("pizza-4", "pizza", 4, 250),
    ("classic-6", "classic", 6, 500),
)


Played = tuple[dict[str, Any], TableOptions, list[tuple[str, Action, list[Event]]], Match]


def _played(variant: Variant, seats: int, target: int, seed: int) -> Played:
    """A match played to its end by normal computers: its first snapshot, options,
    moves (with their events) and the match at its end."""
    play = TableOptions(target=target, turn_seconds=90)
    players = [str(SNOWFLAKE + seed * 10 + k) for k in range(seats)]
    match = new_match(variant, players=players, seed=seed, options=play.engine(variant))
    computers = {p: new_computer("normal", p, seed=seed) for p in players}
    start = match.to_snapshot()
    moves: list[tuple[str, Action, list[Event]]] = []
    while (move := next_move(match, computers)) is not None:
        moves.append((*move, match.apply(*move)))
    return start, play, moves, match


async def _record(db: Database, variant: Variant, played: Played, seed: int) -> int:
    start, play, moves, final = played
    mid = await db.tables.start_match(
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE + 1,
        variant=variant,
        options={**play.data(), "host_id": int(final.players[0])},
        seed=seed,
        players=[Seat(user_id=int(p), display_name=f"Player {p[-3:]}") for p in final.players],
        state=start,
    )
    for seq, (player, action, events) in enumerate(moves, start=1):
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
        await db.tables.record_action(
            mid,
            seq=seq,
            player_id=int(player),
            action=engine_actions.to_json(action),
            state=start,  # a snapshot's size only: finished matches keep none
            deadline=None,
            round_start=any(isinstance(e, RoundStarted) for e in events),
            round_result=None
            if ended is None
            else RoundResult(
                round_no=ended.round,
                winner_id=int(ended.winner),
                points={int(p): n for p, n in ended.points},
            ),
            results=match_results(final)
            if any(isinstance(e, MatchEnded) for e in events)
            else None,
        )
    return len(moves)


async def bytes_per_match(folder: Path, *, matches: int) -> dict[str, dict[str, float]]:
    """Each size's bytes per finished match, whole and for its action log alone."""
    out: dict[str, dict[str, float]] = {}
    for name, variant, seats, target in SIZES:
        path = folder / f"{name}.db"
        actions = 0
        async with Database.open(path) as db:
            for seed in range(1, matches + 1):
                actions += await _record(db, variant, _played(variant, seats, target, seed), seed)
        with sqlite3.connect(path) as conn:
            conn.execute("VACUUM")
            rows = dict(conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
        log = rows.get("actions", 0) + rows.get("sqlite_autoindex_actions_1", 0)
        kept = ("matches", "match_players", "rounds", "round_scores", "results")
        match_rows = sum(rows.get(n, 0) for n in kept)
        out[name] = {
            "actions_per_match": round(actions / matches, 1),
            "bytes_per_match": round((log + match_rows) / matches),
            "log_bytes_per_match": round(log / matches),
            "bytes_per_action": round(log / actions, 1),
        }
    return out


def _long_duo() -> tuple[Loaded, int]:
    """A Duo match of at least ROUNDS rounds, ready to step through."""
    for target in range(600, 1001, 50):
        _, play, moves, final = _played("duo", 2, target, 7)
        rounds = final.public_view().round
        if rounds >= ROUNDS:
            log = [(p, a) for p, a, _ in moves]
            began = time.perf_counter()
            replay = Replay(
                "duo", players=final.players, seed=7, options=play.engine("duo"), log=log
            )
            opened = (time.perf_counter() - began) * 1000
            loaded = Loaded(
                match_id=1,
                guild_id=SNOWFLAKE,
                variant="duo",
                replay=replay,
                names={p: f"Player {p[-3:]}" for p in final.players},
                options=play,
                acted=tuple((p, False) for p, _ in log),
                players=tuple(final.players),
            )
            return loaded, round(opened)
    raise RuntimeError("no Duo match of 40 rounds")


def step_times(*, samples: int = 400) -> dict[str, float]:
    """Build and draw random steps of a 40-round match, as a panel's clicks do."""
    loaded, opened_ms = _long_duo()
    rng = random.Random(1)
    viewer = loaded.players[0]
    times = []
    with speaking("en"):
        for _ in range(samples):
            step = rng.randrange(loaded.replay.steps + 1)
            began = time.perf_counter()
            frame = loaded.replay.frame(step, viewer)
            json.dumps(replay_panel(loaded, frame, viewer=viewer))
            times.append((time.perf_counter() - began) * 1000)
    times.sort()
    return {
        "rounds": loaded.replay.round_at(loaded.replay.steps),
        "steps": loaded.replay.steps,
        "open_ms": opened_ms,
        "step_p50_ms": round(statistics.median(times), 2),
        "step_p99_ms": round(times[int(len(times) * 0.99) - 1], 2),
        "step_max_ms": round(times[-1], 2),
        "target_p99_ms": STEP_TARGET_P99_MS,
    }
