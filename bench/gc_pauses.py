"""Run a script (bench/bot_load.py runs bot.py) with its garbage collector's pauses logged.

    UNO_GC_LOG=pauses.txt python bench/gc_pauses.py bot.py

One line per collection that took 1 ms or more, and per full (generation 2) collection:
`<unix time> <generation> <pause ms> <objects collected> <cpu ms> <objects scanned>`. The
pause is measured from the collector's own start and stop callbacks (`gc.callbacks`), so
it is the time the whole process stood still; on a shared machine that includes time the
process waited for a core, so the CPU ms the collector itself used (this thread's CPU time
over the same span) is logged beside it. Objects scanned (full collections only: the
tracked objects of every generation, frozen ones excluded) is what a full collection
costs whatever the load; counting them takes a little CPU outside the timed span.
With `UNO_GC_CENSUS=file`, SIGUSR2 appends a census of the tracked objects a full
collection would scan (per type, most common first) to that file, and SIGUSR1 how many
frozen objects were garbage (a full thaw and collection: for the end of a run). Nothing in the bot
changes: this file imports it as `python bot.py` would run it (`__name__ == "__main__"`,
same argv, same exit status).
"""

from __future__ import annotations

import gc
import os
import runpy
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from types import CoroutineType, FrameType, FunctionType
from typing import Any, TextIO

LOGGED_FROM_MS = 1.0


class PauseLog:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.started = 0.0
        self.started_cpu = 0.0
        self.scanned = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if phase == "start":
            self.scanned = len(gc.get_objects()) if generation == 2 else 0
            self.started_cpu = time.thread_time()
            self.started = time.perf_counter()
            return
        ms = (time.perf_counter() - self.started) * 1000
        cpu_ms = (time.thread_time() - self.started_cpu) * 1000
        if ms >= LOGGED_FROM_MS or generation == 2:
            self.out.write(
                f"{time.time():.3f} {generation} {ms:.2f} {info['collected']} "
                f"{cpu_ms:.2f} {self.scanned}\n"
            )


def census(path: str) -> None:
    """Append the tracked objects a full collection would scan, counted by type."""
    objects = gc.get_objects()
    types = Counter(type(o).__module__ + "." + type(o).__qualname__ for o in objects)
    # what the coroutines, bound methods and timer handles belong to
    types.update(
        f"  coroutine {o.cr_code.co_qualname}" for o in objects if type(o).__name__ == "coroutine"
    )
    types.update(
        f"  method {o.__func__.__qualname__}" for o in objects if type(o).__name__ == "method"
    )
    types.update(
        f"  handle {getattr(o._callback, '__qualname__', o._callback)}"
        for o in objects
        if type(o).__name__ in ("TimerHandle", "Handle")
    )
    del objects
    with open(path, "a") as out:
        out.write(
            f"== {time.time():.3f} scanned {sum(types.values())} "
            f"frozen {gc.get_freeze_count()} counts {gc.get_count()}\n"
        )
        for name, count in types.most_common(80):
            out.write(f"{count:8d} {name}\n")
        # the cyclic garbage among them, which only a collection frees
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        gc.set_debug(0)
        garbage = Counter(_name(o) for o in gc.garbage)
        gc.garbage.clear()
        out.write(f"-- garbage {sum(garbage.values())}\n")
        for name, count in garbage.most_common(60):
            out.write(f"{count:8d} {name}\n")


def _name(o: object) -> str:
    if isinstance(o, CoroutineType):
        return f"coroutine {o.cr_code.co_qualname}"
    if isinstance(o, FrameType):
        return f"frame {o.f_code.co_qualname}"
    if isinstance(o, FunctionType):
        return f"function {o.__qualname__}"
    return type(o).__module__ + "." + type(o).__qualname__


def frozen_garbage(path: str) -> None:
    """Append how many frozen objects are garbage (freezing kept them), then freeze again.

    This one thaws everything for a full collection: a long pause, for the end of a run.
    """
    young = gc.collect()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    leaked = gc.collect()
    gc.freeze()
    with open(path, "a") as out:
        out.write(f"== {time.time():.3f} frozen {frozen} garbage {leaked} (unfrozen {young})\n")


def main() -> None:
    script = Path(sys.argv[1]).resolve()
    out = open(os.environ["UNO_GC_LOG"], "a", buffering=1)  # noqa: SIM115 - lives as long as we do
    gc.callbacks.append(PauseLog(out))
    if path := os.environ.get("UNO_GC_CENSUS"):
        signal.signal(signal.SIGUSR2, lambda *_: census(path))
        signal.signal(signal.SIGUSR1, lambda *_: frozen_garbage(path))
    sys.argv = sys.argv[1:]
    sys.path[0] = str(script.parent)
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
