"""Paired strength measurement: one seat's player against the normal player in the same seat.

For each seed the same match is played twice: once with the subject strength in
one seat (rotating with the seed) and normal players in the others, once with a
normal player in that seat too. Same deck, same seats, same random streams: the
two matches stay identical until the subject first decides differently, so the
luck of the deal cancels out of the difference and a gain of a few points shows
in a few hundred matches instead of thousands. The figure is the subject's
"ahead" share (pairs of (subject, one other seat) in which the subject finished
the match ahead, as in bench/players.py) minus the normal player's own in the
same matches, with its 95% interval from the spread of the per-seed differences.

    .venv/bin/python bench/paired.py --variant pizza --matches 200
    .venv/bin/python bench/paired.py --variant classic --strength hard --matches 100

The last line is a JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.players import ROWS, Search, Tally, _p50_p99, ahead_interval, play_one

_ROW = {"duo": ROWS[1], "pizza": ROWS[2], "classic": ROWS[3]}


Task = tuple[str, str, int, Search]  # variant, subject strength, seed, hard's search


def pair(task: Task) -> tuple[Tally, Tally]:
    """The subject's tally and the normal player's, on the same seed."""
    variant, strength, seed, search = task
    row = replace(_ROW[variant], subject=strength)
    base = replace(row, subject="normal")
    return play_one(row, seed, search), play_one(base, seed, search)


def run(tasks: list[Task], workers: int, minutes: float) -> tuple[Tally, Tally, list[float]]:
    """Both tallies and the per-seed differences of the ahead share, of what finished."""
    subject, normal = Tally(), Tally()
    diffs: list[float] = []
    stop = time.perf_counter() + minutes * 60 if minutes > 0 else math.inf
    with multiprocessing.Pool(max(1, min(2, workers))) as pool:
        for mine, theirs in pool.imap_unordered(pair, tasks):
            subject.add(mine)
            normal.add(theirs)
            diffs.append((mine.ahead - theirs.ahead) / max(1, mine.pairs))
            if time.perf_counter() > stop:
                pool.terminate()
                break
    return subject, normal, diffs


def report(strength: str, subject: Tally, normal: Tally, diffs: list[float]) -> dict[str, object]:
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    low, high = ahead_interval(subject)
    ahead = subject.ahead / subject.pairs
    print(f"{strength} vs normal in the same seat, {n} seeds")
    print(f"  {strength} ahead {100 * ahead:.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
    print(f"  normal ahead {100 * normal.ahead / normal.pairs:.1f}% in the same matches")
    print(
        f"  paired difference {100 * mean:+.2f} points"
        f" [{100 * (mean - half):+.2f}, {100 * (mean + half):+.2f}];"
        f" {sum(1 for d in diffs if d == 0)} seeds equal"
    )
    figures: dict[str, object] = {
        "matches": n,
        "ahead": round(ahead, 4),
        "ahead_ci95": [round(low, 4), round(high, 4)],
        "normal_ahead": round(normal.ahead / normal.pairs, 4),
        "difference": round(mean, 4),
        "difference_ci95": [round(mean - half, 4), round(mean + half, 4)],
    }
    if subject.cpu:
        c50, c99 = _p50_p99(subject.cpu)
        print(f"  {strength} decision CPU p50 {c50:.0f} ms, p99 {c99:.0f} ms")
        figures["cpu_ms"] = {"p50": round(c50, 1), "p99": round(c99, 1)}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="pizza", choices=sorted(_ROW))
    parser.add_argument("--strength", default="hard")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--workers", type=int, default=1, help="processes (at most 2)")
    parser.add_argument("--playouts", type=int, default=0, help="hard: its strength (0: its own)")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this long")
    args = parser.parse_args()
    search = Search(args.playouts, 0, 5000.0)
    seeds = range(args.first, args.first + args.matches)
    tasks = [(args.variant, args.strength, s, search) for s in seeds]
    started = time.perf_counter()
    subject, normal, diffs = run(tasks, args.workers, args.minutes)
    print(f"{args.variant}: ", end="")
    figures = report(args.strength, subject, normal, diffs)
    figures["variant"] = args.variant
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
