"""How strong the computer players are, and how long the hard one thinks.

Rows (each a pairing of strengths over whole matches, seats rotated):

- Duo: normal vs easy, hard vs normal;
- Pizza (and classic, when the engine has it), 4 seats: one hard against three
  normal. One seat of four wins 25% of matches without skill; "ahead" counts the
  pairs (hard, one normal) in which the hard seat finished ahead, 50% without skill.

Each win rate comes with its 95% Wilson interval. The "ahead" share's interval is
taken over matches, not pairs: the three pairs of one match go together (a hard seat
that wins the match is ahead in all three), so it is the mean of each match's share
with the spread of those shares (the pairs' Wilson interval would be too narrow).

The hard player's decision time (only its own decisions that needed a search or not:
every act() it answered with a move of its own turn) is given as p50 / p99 on this
machine. The hard player's search is sized by playouts, not time (`--playouts`), so a
busy machine measures the same player (its time cap is set high here; the count of
searches the cap cut short says if it still bit). Decision time is given twice: wall
clock, which a busy machine stretches, and CPU time, which is what a quiet machine's
wall clock would show.
Matches run in worker processes (at most 2), the size per row is a flag:

    .venv/bin/python bench/players.py --matches 100     # a quick run
    .venv/bin/python bench/players.py                   # 2,000 / 500 (hard) per row
    .venv/bin/python bench/players.py --hard-matches 200  # 2,000 / 200 (hard) per row

A hard row costs about 10 CPU-s a match (4 at Pizza): 500 matches are more than one
sitting of a busy machine. `--record FILE` keeps every finished chunk of matches in FILE
(a line each, with a hash of the `engine` package it was played with); a later run with
the same FILE plays only the chunks still missing and reports them all together.
Chunks played by another engine are not counted (the run says how many).
`bench/records/` keeps the records of the long rows in the repository, so that a row
can be completed over several sittings and machines (each file says in its lines which
engine tree played it; play the missing chunks from a checkout of that tree).

The last line is a JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.match import Variant, new_match
from engine.players import Computer, EasyPlayer, HardPlayer, NormalPlayer, next_move

CHUNK = 10  # matches per task handed to a worker
HARD_CHUNK = 2  # a hard row's: small, so a run stopped on time loses little


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
    ahead_sq: int = 0  # the sum over matches of (pairs ahead in the match) squared
    times: list[float] = field(default_factory=list)  # wall-clock seconds a decision
    cpu: list[float] = field(default_factory=list)  # CPU seconds a decision
    capped: int = 0  # hard searches the time cap stopped short of their playouts

    def add(self, other: Tally) -> None:
        self.capped += other.capped
        self.matches += other.matches
        self.wins += other.wins
        self.pairs += other.pairs
        self.ahead += other.ahead
        self.ahead_sq += other.ahead_sq
        self.times += other.times
        self.cpu += other.cpu


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n))


def ahead_interval(t: Tally, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of the ahead share, with each match one observation."""
    n, per = t.matches, t.pairs / max(1, t.matches)
    if n < 2 or per == 0:
        return (0.0, 1.0)
    mean = t.ahead / n / per
    var = (t.ahead_sq / per**2 - n * mean * mean) / (n - 1)
    half = z * math.sqrt(max(0.0, var) / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


@dataclass(frozen=True)
class Search:
    """How the hard player searches in this run."""

    playouts: int  # 0: the hard player's own (per variant)
    samples: int  # 0: sized by playouts
    cap_ms: float


def _computer(strength: str, player: str, seed: int, search: Search) -> Computer:
    rng = random.Random(seed)
    if strength == "easy":
        return EasyPlayer(rng)
    if strength == "normal":
        return NormalPlayer(player, rng)
    return HardPlayer(
        player,
        rng,
        playouts=search.playouts or None,
        samples=search.samples or None,
        budget_ms=search.cap_ms,
    )


def play_one(row: Row, seed: int, search: Search) -> Tally:
    ids = [f"s{i}" for i in range(row.seats)]
    subject = ids[seed % row.seats]
    seats = {
        p: _computer(row.subject if p == subject else row.others, p, seed * 16 + i, search)
        for i, p in enumerate(ids)
    }
    match = new_match(cast(Variant, row.variant), players=ids, seed=seed)
    tally = Tally(matches=1)
    while True:
        started, cpu = time.perf_counter(), time.process_time()
        move = next_move(match, seats)
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        if move is None:
            break
        table_to_act = move[0] == subject and match.waiting_for() == (subject,)
        if row.subject == "hard" and table_to_act:
            tally.times.append(took)
            tally.cpu.append(cpu)
        match.apply(*move)
    final = match.public_view()
    tally.capped = sum(c.capped for c in seats.values() if isinstance(c, HardPlayer))
    tally.wins = int(final.winner == subject)
    scores = {s.player: s.score for s in final.seats}
    sign = -1 if row.variant == "duo" else 1  # Duo: the lower score is better
    for p in ids:
        if p != subject:
            tally.pairs += 1
            tally.ahead += final.winner == subject or (
                final.winner != p and sign * scores[subject] > sign * scores[p]
            )
    tally.ahead_sq = tally.ahead**2
    return tally


Task = tuple[int, int, int, Search]  # row index, first seed, matches, search


def run_chunk(task: Task) -> tuple[Task, Tally]:
    index, first, count, search = task
    tally = Tally()
    for seed in range(first, first + count):
        tally.add(play_one(ROWS[index], seed, search))
    return task, tally


class Record:
    """Finished chunks kept in a file, so a row can be completed over several runs."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.engine = _engine_hash()
        self.done: dict[tuple[int, int, int, int, int], Tally] = {}
        self.foreign = 0  # chunks recorded with another engine
        if path is not None and path.exists():
            for line in path.read_text().splitlines():
                self._take(json.loads(line))

    def _take(self, entry: dict[str, Any]) -> None:
        if entry["engine"] != self.engine:
            self.foreign += 1
            return
        index, first, count, playouts, samples = entry["key"]
        tally = entry["tally"]
        if "ahead_sq" not in tally:  # recorded before the per-match spread was kept
            if tally["pairs"] != tally["matches"]:
                self.foreign += 1
                return
            tally["ahead_sq"] = tally["ahead"]  # one pair a match: each 0 or 1
        self.done[(index, first, count, playouts, samples)] = Tally(**tally)

    @staticmethod
    def key(task: Task) -> tuple[int, int, int, int, int]:
        index, first, count, search = task
        return (index, first, count, search.playouts, search.samples)

    def add(self, task: Task, tally: Tally) -> None:
        if self.path is None:
            return
        entry = {"engine": self.engine, "key": self.key(task), "tally": asdict(tally)}
        with self.path.open("a") as out:
            out.write(json.dumps(entry) + "\n")


def _engine_hash() -> str:
    """Git's hash of the engine package as committed, with '+' if it has local changes."""
    root = Path(__file__).resolve().parents[1]
    try:
        tree = subprocess.run(
            ["git", "rev-parse", "HEAD:engine"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "engine"], cwd=root, capture_output=True
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (tree or "unknown") + ("+" if dirty else "")


def _has_classic() -> bool:
    try:
        new_match("classic", players=["a", "b"], seed=0)
    except Exception:
        return False
    return True


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _p50_p99(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return ordered[len(ordered) // 2] * 1000, p99 * 1000


def report(rows: list[Row], tallies: dict[int, Tally], seconds: float) -> dict[str, object]:
    figures: dict[str, object] = {}
    hard_times: list[float] = []
    hard_cpu: list[float] = []
    capped = 0
    print(
        f"{'row':26} {'matches':>7} {'wins':>7} {'95% CI':>17} {'ahead':>7} {'95% CI':>17}  target"
    )
    for index, row in enumerate(ROWS):
        if row not in rows:
            continue
        t = tallies[index]
        low, high = wilson(t.wins, t.matches)
        alow, ahigh = ahead_interval(t)
        rate = t.wins / max(1, t.matches)
        ahead = t.ahead / max(1, t.pairs)
        print(
            f"{row.name:26} {t.matches:7} {_pct(rate)} [{_pct(low)}, {_pct(high)}]"
            f" {_pct(ahead)} [{_pct(alow)}, {_pct(ahigh)}]  {row.target}"
        )
        hard_times += t.times
        hard_cpu += t.cpu
        capped += t.capped
        figures[row.name] = {
            "matches": t.matches,
            "win_rate": round(rate, 4),
            "win_ci95": [round(low, 4), round(high, 4)],
            "ahead_rate": round(ahead, 4),
            "ahead_ci95": [round(alow, 4), round(ahigh, 4)],
        }
    if hard_times:
        p50, p99 = _p50_p99(hard_times)
        c50, c99 = _p50_p99(hard_cpu)
        print(
            f"hard decision time: p50 {p50:.0f} ms, p99 {p99:.0f} ms (wall clock);"
            f" CPU p50 {c50:.0f} ms, p99 {c99:.0f} ms  target p99 <= 300 ms"
        )
        print(f"hard searches stopped by the time cap: {capped} of {len(hard_times)} decisions")
        figures["hard_ms"] = {"p50": round(p50, 1), "p99": round(p99, 1), "n": len(hard_times)}
        figures["hard_cpu_ms"] = {"p50": round(c50, 1), "p99": round(c99, 1)}
        figures["hard_capped"] = capped
    figures["seconds"] = round(seconds, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, help="matches per row (default 2000, hard 500)")
    parser.add_argument("--hard-matches", type=int, help="matches a hard row (default: --matches)")
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    parser.add_argument(
        "--playouts",
        type=int,
        default=0,
        help="hard: playouts a decision (its strength; 0: its own, per variant)",
    )
    parser.add_argument(
        "--cap-ms",
        type=float,
        default=5000.0,
        help="hard: the time cap of one search (high, so load doesn't weaken it)",
    )
    parser.add_argument(
        "--samples", type=int, default=0, help="hard: this many worlds, no time budget"
    )
    parser.add_argument("--rows", default="", help="comma-separated row numbers (1-4)")
    parser.add_argument(
        "--record", default="", help="keep finished chunks in this file; play only the missing"
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=0.0,
        help="stop after this long and report the matches finished (0: no limit)",
    )
    args = parser.parse_args()
    rows = [r for r in ROWS if r.variant != "classic" or _has_classic()]
    if args.rows:
        wanted = {int(x) - 1 for x in args.rows.split(",")}
        rows = [r for r in rows if ROWS.index(r) in wanted]
    workers = max(1, min(2, args.workers))
    print(f"python {sys.version.split()[0]}; {len(rows)} rows; {workers} worker processes")
    started = time.perf_counter()
    record = Record(Path(args.record) if args.record else None)
    tasks = _tasks(rows, args)
    missing = [task for task in tasks if Record.key(task) not in record.done]
    if args.record:
        print(
            f"record {args.record}: {len(tasks) - len(missing)} of {len(tasks)} chunks"
            f" already played by this engine ({record.engine[:12]});"
            f" {record.foreign} recorded by another engine, not counted"
        )
    tallies = run(missing, workers, args.minutes * 60, record)
    for task in tasks:
        done = record.done.get(Record.key(task))
        if done is not None:
            tallies.setdefault(task[0], Tally()).add(done)
    figures = report(rows, tallies, time.perf_counter() - started)
    if not _has_classic():
        figures["note"] = "classic not in this engine yet: no classic row"
    print(json.dumps(figures))


def _tasks(rows: list[Row], args: argparse.Namespace) -> list[Task]:
    """The quick rows first, then the hard rows' small chunks shuffled together, so that
    when time runs out every hard row has about the same share done."""
    search = Search(args.playouts, args.samples, args.cap_ms)
    quick: list[Task] = []
    hard: list[Task] = []
    for row in rows:
        size = args.hard_matches or args.matches or 500 if row.hard else args.matches or 2000
        chunk = HARD_CHUNK if row.hard else CHUNK
        index = ROWS.index(row)
        for first in range(0, size, chunk):
            (hard if row.hard else quick).append((index, first, min(chunk, size - first), search))
    random.Random(0).shuffle(hard)
    return quick + hard


def run(tasks: list[Task], workers: int, seconds: float, record: Record) -> dict[int, Tally]:
    """Every task's tally by row; with `seconds`, only what finished in that time."""
    tallies = {index: Tally() for index, _, _, _ in tasks}
    stop = time.perf_counter() + seconds if seconds > 0 else math.inf
    with multiprocessing.Pool(workers) as pool:
        for task, tally in pool.imap_unordered(run_chunk, tasks):
            tallies[task[0]].add(tally)
            record.add(task, tally)
            if time.perf_counter() > stop:
                print(f"stopped after {seconds / 60:.0f} minutes, as asked")
                pool.terminate()
                break
    return tallies


if __name__ == "__main__":
    main()
