"""Record the corpus of schema-1 snapshots in `schema1.json.gz` (run once, on f1c496d).

The engine of f1c496d wrote snapshots with `schema` 1 into servers' databases. This
script played random matches on that engine and kept, every so often, the snapshot,
the actions that followed it (as the action log stores them; `null` is a removal,
X3) and the snapshot after them. A later engine must load `before`, apply `actions`
and reach the state `after` describes, so running tables survive an upgrade.

It imports the engine as it stood then, so it runs only in a checkout of that commit:

    git worktree add /tmp/uno-f1c496d f1c496d
    cd /tmp/uno-f1c496d && python tests/engine/old_snapshots/record_schema1.py OUT.json.gz
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine.actions import to_json
from engine.match import DuoOptions, Match, PizzaOptions, Variant, new_match
from engine.players import RandomPlayer

FOLLOW = 25  # actions recorded after each snapshot


def seated(match: Match) -> list[str]:
    return [seat.player for seat in match.public_view().seats if seat.seated]


def next_move(match: Match, player: RandomPlayer, rng: random.Random) -> tuple[str, Any]:
    """A removal now and then (Pizza, 3+ seated), a reaction half the time, else a turn."""
    if match.variant == "pizza" and len(seated(match)) > 2 and rng.random() < 0.01:
        return rng.choice(seated(match)), None
    for seat in match.players:
        reaction = player.react(match, seat)
        if reaction is not None and rng.random() < 0.5:
            return seat, reaction
    actor = match.waiting_for()[0]
    return actor, player.choose(match, actor)


def record(match: Match, seed: int, cut_every: int) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    rng = random.Random(seed * 7 + 1)
    player = RandomPlayer(random.Random(seed))
    step = 0
    while not match.is_over and step < 4000:
        step += 1
        if step % cut_every:
            actor = match.waiting_for()[0]
            match.apply(actor, player.choose(match, actor))
            continue
        before = match.to_snapshot()
        log: list[list[Any]] = []
        while len(log) < FOLLOW and not match.is_over:
            actor, action = next_move(match, player, rng)
            if action is None:
                match.remove_player(actor)
                log.append([actor, None])
            else:
                match.apply(actor, action)
                log.append([actor, to_json(action)])
        after = match.to_snapshot()
        entries.append({"variant": match.variant, "seed": seed, "before": before})
        entries[-1].update(actions=log, after=after)
    return entries


def main(out: str) -> None:
    corpus: list[dict[str, Any]] = []
    for seed in range(10):
        options = DuoOptions(classic_deck=seed % 3 == 1, classic_challenge=seed % 4 == 2)
        match = new_match("duo", players=("111", "222"), seed=seed, options=options)
        corpus += record(match, seed, 151)
    for seed in range(10):
        players = tuple(str(100 + i) for i in range(2 + seed % 4))
        pizza: Variant = "pizza"
        match = new_match(pizza, players=players, seed=seed, options=PizzaOptions())
        corpus += record(match, seed, 97)
    # Keep about a third, and every entry with a dump (D9) or a removal (X3) in it.
    sample = random.Random(5)
    corpus = [
        entry
        for entry in corpus
        if sample.random() < 0.3
        or any(action is None or action["type"] == "dump" for _, action in entry["actions"])
    ]
    with gzip.open(out, "wt") as file:
        json.dump(corpus, file, separators=(",", ":"))
    print(len(corpus), "entries")


if __name__ == "__main__":
    main(sys.argv[1])
