"""How strong the computer players are, and how long the hard one thinks.

Rows (each a pairing of strengths over whole matches, seats rotated):

- Duo: normal vs easy, hard vs normal;
- Pizza (and classic, when the engine has it), 4 seats: one hard against three
  normal. One seat of four wins 25% of matches without skill; "ahead" counts the
  pairs (hard, one normal) in which the hard seat finished ahead, 50% without skill.

Each win rate comes with its 95% Wilson interval. The hard player's decision time
(only its own decisions that needed a search or not: every act() it answered with
a move of its own turn) is given as p50 / p99 on this machine. Matches run in
worker processes (at most 2), the size per row is a flag:

    .venv/bin/python bench/players.py --matches 100     # a quick run
    .venv/bin/python bench/players.py                   # 2,000 / 500 (hard) per row

The last line is a JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.match import Variant, new_match
from engine.players import Computer, EasyPlayer, HardPlayer, NormalPlayer, next_move

CHUNK = 10  # matches per task handed to a worker


@dataclass(frozen=True)
class Row:
    name: str
    variant: str
    subject: str  # the strength whose results the row counts
    others: str
    seats: int
    target: str  # what the row should show, in words

    @property
    def hard(self) -> bool:
        return "hard" in (self.subject, self.others)


ROWS = [
    Row("duo normal vs easy", "duo", "normal", "easy", 2, "normal wins >= 60%"),
    Row("duo hard vs normal", "duo", "hard", "normal", 2, "hard wins >= 55%, low > 50%"),
    Row("pizza hard vs 3 normal", "pizza", "hard", "normal", 4, "ahead: low > 50% (wins 25%)"),
    Row("classic hard vs 3 normal", "classic", "hard", "normal", 4, "ahead: low > 50% (wins 25%)"),
]


@dataclass
class Tally:
    matches: int = 0
    wins: int = 0
    pairs: int = 0
    ahead: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.matches += other.matches
        self.wins += other.wins
        self.pairs += other.pairs
        self.ahead += other.ahead
        self.times += other.times


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n))


def _computer(strength: str, player: str, seed: int, budget: tuple[float, int]) -> Computer:
    rng = random.Random(seed)
    if strength == "easy":
        return EasyPlayer(rng)
    if strength == "normal":
        return NormalPlayer(player, rng)
    budget_ms, samples = budget
    return HardPlayer(player, rng, budget_ms=budget_ms, samples=samples or None)


def play_one(row: Row, seed: int, budget: tuple[float, int]) -> Tally:
    ids = [f"s{i}" for i in range(row.seats)]
    subject = ids[seed % row.seats]
    seats = {
        p: _computer(row.subject if p == subject else row.others, p, seed * 16 + i, budget)
        for i, p in enumerate(ids)
    }
    match = new_match(cast(Variant, row.variant), players=ids, seed=seed)
    tally = Tally(matches=1)
    while True:
        started = time.perf_counter()
        move = next_move(match, seats)
        took = time.perf_counter() - started
        if move is None:
            break
        table_to_act = move[0] == subject and match.waiting_for() == (subject,)
        if row.subject == "hard" and table_to_act:
            tally.times.append(took)
        match.apply(*move)
    final = match.public_view()
    tally.wins = int(final.winner == subject)
    scores = {s.player: s.score for s in final.seats}
    sign = -1 if row.variant == "duo" else 1  # Duo: the lower score is better
    for p in ids:
        if p != subject:
            tally.pairs += 1
            tally.ahead += final.winner == subject or (
                final.winner != p and sign * scores[subject] > sign * scores[p]
            )
    return tally


def run_chunk(task: tuple[int, int, int, tuple[float, int]]) -> tuple[int, Tally]:
    index, first, count, budget = task
    tally = Tally()
    for seed in range(first, first + count):
        tally.add(play_one(ROWS[index], seed, budget))
    return index, tally


def _has_classic() -> bool:
    try:
        new_match(cast(Variant, "classic"), players=["a", "b"], seed=0)
    except Exception:
        return False
    return True


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def report(rows: list[Row], tallies: dict[int, Tally], seconds: float) -> dict[str, object]:
    figures: dict[str, object] = {}
    hard_times: list[float] = []
    print(
        f"{'row':26} {'matches':>7} {'wins':>7} {'95% CI':>17} {'ahead':>7} {'95% CI':>17}  target"
    )
    for index, row in enumerate(ROWS):
        if row not in rows:
            continue
        t = tallies[index]
        low, high = wilson(t.wins, t.matches)
        alow, ahigh = wilson(t.ahead, t.pairs)
        rate = t.wins / max(1, t.matches)
        ahead = t.ahead / max(1, t.pairs)
        print(
            f"{row.name:26} {t.matches:7} {_pct(rate)} [{_pct(low)}, {_pct(high)}]"
            f" {_pct(ahead)} [{_pct(alow)}, {_pct(ahigh)}]  {row.target}"
        )
        hard_times += t.times
        figures[row.name] = {
            "matches": t.matches,
            "win_rate": round(rate, 4),
            "win_ci95": [round(low, 4), round(high, 4)],
            "ahead_rate": round(ahead, 4),
            "ahead_ci95": [round(alow, 4), round(ahigh, 4)],
        }
    if hard_times:
        hard_times.sort()
        p50 = hard_times[len(hard_times) // 2] * 1000
        p99 = hard_times[min(len(hard_times) - 1, int(len(hard_times) * 0.99))] * 1000
        print(f"hard decision time: p50 {p50:.0f} ms, p99 {p99:.0f} ms  target p99 <= 300 ms")
        figures["hard_ms"] = {"p50": round(p50, 1), "p99": round(p99, 1), "n": len(hard_times)}
    figures["seconds"] = round(seconds, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, help="matches per row (default 2000, hard 500)")
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--budget-ms", type=float, default=150.0, help="hard search budget")
    parser.add_argument(
        "--samples", type=int, default=0, help="hard: this many worlds, no time budget"
    )
    parser.add_argument("--rows", default="", help="comma-separated row numbers (1-4)")
    args = parser.parse_args()
    rows = [r for r in ROWS if r.variant != "classic" or _has_classic()]
    if args.rows:
        wanted = {int(x) - 1 for x in args.rows.split(",")}
        rows = [r for r in rows if ROWS.index(r) in wanted]
    tasks: list[tuple[int, int, int, tuple[float, int]]] = []
    for row in rows:
        size = args.matches or (500 if row.hard else 2000)
        index = ROWS.index(row)
        for first in range(0, size, CHUNK):
            budget = (args.budget_ms, args.samples)
            tasks.append((index, first, min(CHUNK, size - first), budget))
    random.Random(0).shuffle(tasks)  # rows finish together, so a quick look is fair
    workers = max(1, min(2, args.workers))
    print(f"python {sys.version.split()[0]}; {len(rows)} rows; {workers} worker processes")
    started = time.perf_counter()
    tallies = {ROWS.index(r): Tally() for r in rows}
    with multiprocessing.Pool(workers) as pool:
        for index, tally in pool.imap_unordered(run_chunk, tasks):
            tallies[index].add(tally)
    figures = report(rows, tallies, time.perf_counter() - started)
    if not _has_classic():
        figures["note"] = "classic not in this engine yet: no classic row"
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
