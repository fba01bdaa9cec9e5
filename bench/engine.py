"""Engine benchmark: µs per action, games per second and memory per live match.

Plays random games of every variant (Duo; Pizza at 2-5 players; classic UNO at
2, 4 and 10 players) with the real bot loop: ask whose decision it is, let a
`RandomPlayer` choose (it calls `legal_actions`), `apply`. Next to it runs a
floor measured in the same process: a minimal UNO loop with no rules engine
(scan the hand for a matching card and move it to the pile, otherwise draw).
Times are process CPU time (time.process_time), so waiting for a core while
other processes run does not count. Engine and floor run in short interleaved
chunks; each engine chunk is compared with the floor chunks on either side of it
and the median ratio is reported, so background load skews both sides alike.

Prints a table, then one JSON object with every figure as the last line.
Targets: ≤ 4x the floor per action, ≤ 16 KiB per live match. Figures only:
nothing here asserts a timing.

    .venv/bin/python bench/engine.py [--quick]
"""

from __future__ import annotations

import gc
import json
import platform
import random
import statistics
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.actions import Action, Draw
from engine.cards import Card, Colour, pizza_deck
from engine.events import Event
from engine.match import Match, Variant, new_match
from engine.players import RandomPlayer

MAX_RATIO = 4.0
MAX_BYTES = 16 * 1024
LIVE_MATCHES = 1000


@dataclass(frozen=True)
class Config:
    name: str
    variant: Variant
    players: int


def configs() -> list[Config]:
    out = [Config("duo", "duo", 2)]
    out += [Config(f"pizza-{n}", "pizza", n) for n in (2, 3, 4, 5)]
    out += [Config(f"classic-{n}", "classic", n) for n in (2, 4, 10)]
    return out


# ----------------------------------------------------------------- floor


def floor_run(actions: int, *, players: int = 4, seed: int = 0) -> float:
    """Seconds for `actions` turns of a minimal UNO loop (no rules engine)."""
    rng = random.Random(seed)
    colours = list(Colour)
    full = pizza_deck()
    deck = list(full)
    rng.shuffle(deck)
    hands: list[list[Card]] = [[deck.pop() for _ in range(5)] for _ in range(players)]
    top = deck.pop()
    pile = [top]
    active = top.colour or colours[0]
    top_face = top.face if top.colour is not None else None
    turn = 0
    start = time.process_time()
    for _ in range(actions):
        hand = hands[turn]
        found = -1
        for k, c in enumerate(hand):
            if c.colour is None or c.colour is active or c.face is top_face:
                found = k
                break
        if found >= 0:
            c = hand.pop(found)
            pile.append(c)
            if c.colour is None:
                active = rng.choice(colours)
                top_face = None
            else:
                active = c.colour
                top_face = c.face
            if not hand:  # a new deal: everything back, shuffle, five each
                deck = list(full)
                rng.shuffle(deck)
                hands = [[deck.pop() for _ in range(5)] for _ in range(players)]
                pile = [deck.pop()]
        else:
            if not deck and len(pile) > 1:  # refill: keep the top, shuffle the rest
                deck = pile[:-1]
                del pile[:-1]
                rng.shuffle(deck)
            if deck:
                hand.append(deck.pop())
        turn = (turn + 1) % players
    return time.process_time() - start


# ----------------------------------------------------------------- engine


def engine_run(config: Config, budget: float, seed: int) -> tuple[int, int, float]:
    """Play whole random games for at least `budget` seconds: (actions, games, seconds)."""
    ids = [f"p{i}" for i in range(config.players)]
    actions = games = 0
    elapsed = 0.0
    while elapsed < budget:
        player = RandomPlayer(random.Random(seed + games))
        start = time.process_time()
        match = new_match(config.variant, players=ids, seed=seed + games)
        count = 0
        while not match.is_over:  # the loop a bot runs: whose turn, choose, apply
            who = match.waiting_for()[0]
            match.apply(who, player.choose(match, who))
            count += 1
        elapsed += time.process_time() - start
        actions += count
        games += 1
    return actions, games, elapsed


class _Idle:
    """A match that does nothing: what the loop itself costs, without any engine."""

    __slots__ = ("_left", "_legal", "_who", "is_over")

    def __init__(self, actions: int) -> None:
        self._left = actions
        self._who = ("p0",)
        self._legal = [Draw()]
        self.is_over = False

    def waiting_for(self) -> tuple[str, ...]:
        return self._who

    def legal_actions(self, player: str) -> list[Action]:
        return list(self._legal)

    def apply(self, player: str, action: Action) -> list[Event]:
        self._left -= 1
        if not self._left:
            self.is_over = True
        return []


def skeleton_run(actions: int) -> float:
    """Seconds for `actions` turns of the bot loop around a match that does nothing."""
    match = _Idle(actions)
    player = RandomPlayer(random.Random(0))
    start = time.process_time()
    while not match.is_over:
        who = match.waiting_for()[0]
        match.apply(who, player.choose(match, who))  # type: ignore[arg-type]
    return time.process_time() - start


def live_bytes(config: Config, *, matches: int = LIVE_MATCHES, steps: int = 40) -> float:
    """Bytes per live match, each advanced `steps` random actions (mid-round)."""
    ids = [f"p{i}" for i in range(config.players)]
    rng = random.Random(1)
    player = RandomPlayer(rng)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    live: list[Match] = []
    for k in range(matches):
        match = new_match(config.variant, players=ids, seed=k)
        for _ in range(steps):
            if match.is_over:
                break
            who = match.waiting_for()[0]
            match.apply(who, player.choose(match, who))
        live.append(match)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    size = (after - before) / matches
    del live
    return size


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 10 if quick else 30
    chunk = 0.02  # seconds of engine per sample; floor chunks are about as long
    floor_actions = 20_000
    cfgs = configs()
    floors: list[float] = []
    skeletons: list[float] = []
    samples: dict[str, list[float]] = {c.name: [] for c in cfgs}
    ratios: dict[str, list[float]] = {c.name: [] for c in cfgs}
    totals: dict[str, list[float]] = {c.name: [0, 0, 0.0] for c in cfgs}
    # Paired samples: each engine chunk sits between two floor chunks, and the ratio is
    # taken per pair, so load from other processes moves both sides of a ratio alike.
    previous = floor_run(floor_actions, seed=0) / floor_actions * 1e6
    for r in range(rounds):
        skeletons.append(skeleton_run(floor_actions) / floor_actions * 1e6)
        for cfg in cfgs:
            actions, games, seconds = engine_run(cfg, chunk, seed=10_000 * r)
            after = floor_run(floor_actions, seed=r) / floor_actions * 1e6
            us = seconds / actions * 1e6
            samples[cfg.name].append(us)
            ratios[cfg.name].append(us / ((previous + after) / 2))
            floors.append(after)
            previous = after
            total = totals[cfg.name]
            total[0] += actions
            total[1] += games
            total[2] += seconds
    floor = statistics.median(floors)
    skeleton = statistics.median(skeletons)
    print(f"python {platform.python_version()} on {platform.machine()}; medians of {rounds} rounds")
    print(f"floor (minimal UNO loop, no rules engine): {floor:.2f} µs/action")
    print(f"bot loop around a do-nothing match (for scale): {skeleton:.2f} µs/action")
    header = f"{'variant':<9} {'µs/action':>10} {'x floor':>8} {'games/s':>8} {'actions/game':>13}"
    print(header + f" {'KiB/match':>10}")
    figures: dict[str, dict[str, float]] = {}
    ok = True
    for cfg in cfgs:
        us = statistics.median(samples[cfg.name])
        ratio = statistics.median(ratios[cfg.name])
        total_actions, total_games, total_seconds = totals[cfg.name]
        kib = live_bytes(cfg) / 1024
        ok = ok and ratio <= MAX_RATIO and kib * 1024 <= MAX_BYTES
        figures[cfg.name] = {
            "us_per_action": round(us, 3),
            "ratio_to_floor": round(ratio, 2),
            "games_per_s": round(total_games / total_seconds, 2),
            "actions_per_game": round(total_actions / total_games, 1),
            "kib_per_live_match": round(kib, 2),
        }
        print(
            f"{cfg.name:<9} {us:>10.2f} {ratio:>8.2f} {total_games / total_seconds:>8.1f} "
            f"{total_actions / total_games:>13.0f} {kib:>10.2f}"
        )
    print(
        f"targets: <= {MAX_RATIO:g}x floor per action, <= {MAX_BYTES // 1024} KiB per live match: "
        + ("met" if ok else "NOT met")
    )
    print(
        json.dumps(
            {
                "floor_us_per_action": round(floor, 3),
                "skeleton_us_per_action": round(skeleton, 3),
                "variants": figures,
                "targets": {"max_ratio": MAX_RATIO, "max_kib_per_match": MAX_BYTES / 1024},
                "met": ok,
                "live_matches": LIVE_MATCHES,
                "rounds": rounds,
            }
        )
    )


if __name__ == "__main__":
    main()
