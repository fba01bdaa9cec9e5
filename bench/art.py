"""Benchmark the card pictures: drawing time at start-up and the bytes uploaded.

Run: .venv/bin/python bench/art.py  (a few seconds). Figures, not assertions; the last
line printed is one JSON object. A start of the bot draws every picture once (in a
worker thread) to know the emoji names, so the drawing time is start-up CPU; the bytes
are what the first start uploads, once per application.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.uno.art import art_keys, emoji_name
from cogs.uno.art.catalog import picture


def main() -> None:
    keys = art_keys()
    started = time.perf_counter()
    images = {key: picture(key).png() for key in keys}
    drawn = time.perf_counter() - started
    started = time.perf_counter()
    for key, png in images.items():
        emoji_name(key, png)
    hashed = time.perf_counter() - started
    sizes = [len(png) for png in images.values()]
    figures = {
        "pictures": len(keys),
        "draw_all_s": round(drawn, 3),
        "hash_all_s": round(hashed, 3),
        "bytes_total": sum(sizes),
        "bytes_min": min(sizes),
        "bytes_mean": round(statistics.mean(sizes)),
        "bytes_max": max(sizes),
        "load_average": os.getloadavg()[0],
    }
    print(f"{len(keys)} pictures drawn in {drawn:.2f} s, hashed in {hashed:.2f} s")
    print(f"{sum(sizes):,} bytes in all; per picture {min(sizes):,}-{max(sizes):,} bytes")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
