"""Seeded random play-outs of every variant: a digest of what the engine did, and a
fixed workload for instruction counts.

A speed change to the engine must leave behaviour byte-identical. `digest` plays
the same seeded games as before the change and hashes every offer list
(`legal_actions`, in order), every event list and a snapshot every 7 actions;
equal digests before and after are the proof. `run` plays a fixed number of
games of one variant, for a profiler whose counts do not depend on the machine's
load (wall-clock ratios on a shared machine move by several percent):

    .venv/bin/python bench/engine_trace.py digest
    valgrind --tool=callgrind .venv/bin/python bench/engine_trace.py run classic 10 8

Instructions per action = (the run's total - a run of 0 games) / actions printed.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.match import Variant, new_match
from engine.players import RandomPlayer

VARIANTS: dict[str, Variant] = {"duo": "duo", "pizza": "pizza", "classic": "classic"}
ROWS: tuple[tuple[Variant, int, int], ...] = (
    ("duo", 2, 30),
    ("pizza", 2, 20),
    ("pizza", 3, 20),
    ("pizza", 5, 20),
    ("classic", 2, 20),
    ("classic", 4, 20),
    ("classic", 10, 20),
)


def play(
    variant: Variant, players: int, games: int, digest: Callable[[bytes], object] | None
) -> int:
    """Play `games` seeded games (seeds 0, 1, ...), feeding `digest`; the actions."""
    ids = [f"p{k}" for k in range(players)]
    actions = 0
    for seed in range(games):
        chooser = RandomPlayer(random.Random(seed))
        match = new_match(variant, players=ids, seed=seed)
        while not match.is_over:
            who = match.waiting_for()[0]
            if digest is not None:
                digest(repr(match.legal_actions(who)).encode())
            events = match.apply(who, chooser.choose(match, who))
            actions += 1
            if digest is not None:
                digest(repr(events).encode())
                if actions % 7 == 0:
                    digest(json.dumps(match.to_snapshot(), sort_keys=True).encode())
    return actions


def main() -> None:
    if sys.argv[1:2] == ["run"]:
        variant, players, games = VARIANTS[sys.argv[2]], int(sys.argv[3]), int(sys.argv[4])
        print(json.dumps({"actions": play(variant, players, games, None)}))
        return
    rows = {}
    for variant, players, games in ROWS:
        digest = hashlib.sha256()
        actions = play(variant, players, games, digest.update)
        name = f"{variant}-{players}"
        rows[name] = {"actions": actions, "digest": digest.hexdigest()[:16]}
        print(f"{name:<11} {actions:>7} actions  {digest.hexdigest()[:16]}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
