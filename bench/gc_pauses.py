"""Run a script (bench/bot_load.py runs bot.py) with its garbage collector's pauses logged.

    UNO_GC_LOG=pauses.txt python bench/gc_pauses.py bot.py

One line per collection that took 1 ms or more, and per full (generation 2) collection:
`<unix time> <generation> <pause ms> <objects collected>`. The pause is measured from
the collector's own start and stop callbacks (`gc.callbacks`), so it is the time the
whole process stood still. Nothing in the bot changes: this file imports it as
`python bot.py` would run it (`__name__ == "__main__"`, same argv, same exit status).
"""

from __future__ import annotations

import gc
import os
import runpy
import sys
import time
from pathlib import Path
from typing import Any, TextIO

LOGGED_FROM_MS = 1.0


class PauseLog:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            return
        ms = (time.perf_counter() - self.started) * 1000
        generation = info["generation"]
        if ms >= LOGGED_FROM_MS or generation == 2:
            self.out.write(f"{time.time():.3f} {generation} {ms:.2f} {info['collected']}\n")


def main() -> None:
    script = Path(sys.argv[1]).resolve()
    out = open(os.environ["UNO_GC_LOG"], "a", buffering=1)  # noqa: SIM115 - lives as long as we do
    gc.callbacks.append(PauseLog(out))
    sys.argv = sys.argv[1:]
    sys.path[0] = str(script.parent)
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
