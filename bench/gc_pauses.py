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
frozen objects were garbage (a full thaw and collection: for the end of a run). With
`UNO_GC_DETAIL=file`, every collection of generation 1 or 2 that took 3 ms of CPU or more
appends to that file what it scanned (tracked objects per type, the references they hold,
which the collector follows several times, the biggest containers) and the Python code it
ran (finalizers, weakref callbacks): slow, for finding what a long pause does, not for
timing it. Nothing in the bot
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
DETAIL_FROM_MS = 3.0


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


class Detail:
    """Per collection of generation 1 or 2 whose CPU took DETAIL_FROM_MS or more: what it
    scanned, and the Python calls made while it ran."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.calls: Counter[str] = Counter()
        self.scan: list[str] = []
        self.started_cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if generation == 0:
            return
        if phase == "start":
            self.scan = self.census(generation)
            self.calls.clear()
            self.started_cpu = time.thread_time()
            sys.setprofile(self.profile)
            return
        sys.setprofile(None)
        cpu_ms = (time.thread_time() - self.started_cpu) * 1000
        if cpu_ms < DETAIL_FROM_MS:
            return
        self.out.write(
            f"== {time.time():.3f} generation {generation} cpu {cpu_ms:.2f} ms (profiled) "
            f"collected {info['collected']} python calls {sum(self.calls.values())}\n"
        )
        self.out.writelines(self.scan)
        for name, count in self.calls.most_common(15):
            self.out.write(f"  call {count:8d} {name}\n")

    @staticmethod
    def census(generation: int) -> list[str]:
        per_generation = [gc.get_objects(generation=g) for g in range(generation + 1)]
        objects = [o for scanned in per_generation for o in scanned]
        types: Counter[str] = Counter()
        held: Counter[str] = Counter()
        biggest: list[tuple[int, str]] = []
        for o in objects:
            name = _type_name(o)
            n = len(gc.get_referents(o))
            types[name] += 1
            held[name] += n
            if n >= 1000:
                biggest.append((n, name))
        sizes = [len(scanned) for scanned in per_generation]
        lines = [
            f"  scanned {len(objects)} (per generation {sizes}) holding "
            f"{sum(held.values())} references; frozen {gc.get_freeze_count()}\n"
        ]
        lines += [f"  {n:8d} {name} (holding {held[name]})\n" for name, n in types.most_common(25)]
        lines += [f"  holds {n:8d} {name}\n" for name, n in held.most_common(8)]
        lines += [f"  big {n:8d} {name}\n" for n, name in sorted(biggest, reverse=True)[:8]]
        return lines

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self.calls[
                f"{frame.f_code.co_filename.rsplit('/', 2)[-1]} {frame.f_code.co_qualname}"
            ] += 1
        elif event == "c_call":
            self.calls[f"c {getattr(arg, '__qualname__', arg)}"] += 1


def census(path: str) -> None:
    """Append the tracked objects a full collection would scan, counted by type."""
    objects = gc.get_objects()
    types = Counter(_type_name(o) for o in objects)
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


def _type_name(o: object) -> str:
    kind = type(o)
    return f"{kind.__module__}.{kind.__qualname__}"  # a __module__ may be a descriptor


def _name(o: object) -> str:
    if isinstance(o, CoroutineType):
        return f"coroutine {o.cr_code.co_qualname}"
    if isinstance(o, FrameType):
        return f"frame {o.f_code.co_qualname}"
    if isinstance(o, FunctionType):
        return f"function {o.__qualname__}"
    return _type_name(o)


def frozen_garbage(path: str) -> None:
    """Append how many frozen objects are garbage (freezing kept them), of which types,
    then freeze again.

    This one thaws everything for a full collection: a long pause, for the end of a run.
    """
    young = gc.collect()
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    leaked = gc.collect()
    gc.set_debug(0)
    garbage = Counter(_name(o) for o in gc.garbage)
    gc.garbage.clear()
    gc.collect()
    gc.freeze()
    with open(path, "a") as out:
        out.write(f"== {time.time():.3f} frozen {frozen} garbage {leaked} (unfrozen {young})\n")
        for name, count in garbage.most_common(40):
            out.write(f"{count:8d} {name}\n")


def main() -> None:
    script = Path(sys.argv[1]).resolve()
    out = open(os.environ["UNO_GC_LOG"], "a", buffering=1)  # noqa: SIM115 - lives as long as we do
    if path := os.environ.get("UNO_GC_DETAIL"):  # first: its census is not in the pause
        gc.callbacks.append(Detail(open(path, "a", buffering=1)))  # noqa: SIM115
    gc.callbacks.append(PauseLog(out))
    if path := os.environ.get("UNO_GC_CENSUS"):
        signal.signal(signal.SIGUSR2, lambda *_: census(path))
        signal.signal(signal.SIGUSR1, lambda *_: frozen_garbage(path))
    sys.argv = sys.argv[1:]
    sys.path[0] = str(script.parent)
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main()
