"""Benchmark scaling out (issue 27): 1 bot process on SQLite, 2 on PostgreSQL.

Run: .venv/bin/python bench/scale.py  (200, 400 and 800 tables; a quick look:
`--sizes 20 --seconds 10`). Figures, not assertions; the last line printed is one JSON
object with all of them, the lines before it a headline table with the targets.

For each size, two set-ups against the playground with 4 shards and Discord's global
limit of 50 bot-token requests a second on:

- `sqlite`: one `python bot.py`, SQLite, no shard settings (discord.py asks the
  playground, which recommends 4, and runs them all);
- `postgres`: two processes, `SHARD_COUNT=4`, `SHARD_IDS=0-1` and `2-3`, on one
  PostgreSQL database (tests/postgres.py's server; `make postgres` installs it). The
  first starts alone until its card emojis are uploaded, as docs/scaling.md says.

The tables are bench/bot_load.py's players (human pace: exponential think, mean
`--think-ms`; half Duo, half Pizza), spread over 64 servers, 16 on each shard. The
window is cut in slices as in bot_load, each followed by as many clicks on the no-op
bot (bench/noop_bot.py, its own emulator and pace), so both see the same neighbours.

Measured in the bot's slices: failed interactions and 429s (global, and per route,
from the emulator's log; the set-up's too); bot-token requests a second for the whole
application (mean, and the busiest sliding second); the public table's lag: from each
accepted action (its row in the database) to the first later change of its table's
message (the emulator's own message hooks); accepted actions a second; click latency;
each process's CPU per action of its shards' servers (/proc utime + stime). Derived:
the CPU ratio of the two set-ups at each size, and bench/scale_figures.py's capacity
figures at 10,000 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bot_load import (  # noqa: E402
    SETTLE_SECONDS,
    SLICES,
    BotBench,
    LoopLag,
    NoopRig,
    TableRun,
    cpu_seconds,
    gc_pauses,
    latency_ms,
    own_collector_paused,
    percentile,
    probe_duo,
    settle_own_heap,
)
from bench.scale_figures import (  # noqa: E402
    BUDGET_PER_S,
    TABLE_EDIT_ROUTE,
    TARGET_CPU_RATIO,
    TARGET_TABLES,
    capacity,
    guilds_per_shard,
    is_bot_token_route,
    request_rate,
    table_lags,
    within,
)
from cogs.uno.art import cached_images, every_card_image  # noqa: E402
from db.shards import shard_of  # noqa: E402
from playground import Emulator, Guild, Interaction, Message  # noqa: E402
from tests.e2e.botproc import BotProcess  # noqa: E402
from tests.postgres import PostgresServer  # noqa: E402

SIZES = (200, 400, 800)
GUILDS = 64
SHARDS = 4
SPLIT = ((0, 1), (2, 3))  # the postgres set-up's processes and their shards
SETUPS = ("sqlite", "postgres")
START_SECONDS = 120.0  # a loaded machine starts a bot slowly
OPEN_SECONDS = 90.0  # for every table to be live, after the last was opened
WARM_SECONDS = 5.0
EMOJIS_READY = "Card emojis ready"
ACTIONS_SQL = (
    "SELECT m.guild_id, m.channel_id, a.created_at FROM actions a "
    "JOIN matches m ON m.match_id = a.match_id WHERE a.created_at >= {}"
)

# -- the database's accepted actions ---------------------------------------------------------


async def actions_since(database: Path, url: str | None, since: float) -> list[tuple[int, ...]]:
    """(guild, channel, created ms) of every action saved since `since` (seconds)."""
    since_ms = int(since * 1000)
    if url is not None:
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch(ACTIONS_SQL.format("$1"), since_ms)
        finally:
            await conn.close()
        return [tuple(row) for row in rows]
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as lite:
        return [tuple(row) for row in lite.execute(ACTIONS_SQL.format("?"), (since_ms,))]


# -- the set-up --------------------------------------------------------------------------------


def spread_guilds(emu: Emulator) -> list[Guild]:
    """GUILDS servers, as many on each shard."""
    return [emu.add_guild(f"Scale {k}", shard=(k % SHARDS, SHARDS)) for k in range(GUILDS)]


def bot_processes(
    emu: Emulator, setup: str, tmp: Path, work: Path, url: str | None
) -> list[tuple[BotProcess, frozenset[int]]]:
    """The set-up's bot processes, with the shards each runs (None: every shard).

    Their databases' folder is `tmp`, where the card pictures are drawn once for all."""
    split: tuple[tuple[int, ...] | None, ...] = (None,) if setup == "sqlite" else SPLIT
    processes = []
    for k, shards in enumerate(split):
        env = {"UNO_GC_LOG": str(work / f"gc-{k}.txt")}
        if url is not None:
            env["DATABASE_URL"] = url
        if shards is not None:
            env.update(SHARD_COUNT=str(SHARDS), SHARD_IDS=f"{shards[0]}-{shards[-1]}")
        (work / f"gc-{k}.txt").touch()
        bot = BotProcess(
            emu,
            database=tmp / f"bot-{work.name}.db",
            guild_id=None,
            turn_seconds=3600,
            log_path=work / f"bot-{k}.log",
            launcher=[str(Path(__file__).with_name("gc_pauses.py"))],
            extra_env=env,
        )
        processes.append((bot, frozenset(shards or range(SHARDS))))
    return processes


async def start_bots(emu: Emulator, bots: list[BotProcess]) -> None:
    """The first alone until its card emojis are up (docs/scaling.md), then the others."""
    first, *others = bots
    await first.start(timeout=START_SECONDS)
    await emu.world.wait_for(lambda: EMOJIS_READY in first.output(), timeout=START_SECONDS)
    for bot in others:
        await bot.start(timeout=START_SECONDS)
    await emu.wait_connected(shards=SHARDS, timeout=START_SECONDS)


def record_shows(emu: Emulator, bench: BotBench) -> list[tuple[int, float]]:
    """(channel, time) of every change of a table's public message, appended as it
    happens: a post or an edit, whatever route the bot took."""
    shows: list[tuple[int, float]] = []
    world = emu.world
    new_message, apply_edit = world._new_message, world._apply_edit

    def shown(message: Message) -> None:
        run = bench.by_channel.get(message.channel.id)
        if run is not None and message is run.table:
            shows.append((message.channel.id, world.clock.now()))

    def on_new(*args: Any, **kwargs: Any) -> Message:
        message = new_message(*args, **kwargs)
        shown(message)
        return message

    def on_edit(message: Message, payload: Any, uploads: Any) -> None:
        apply_edit(message, payload, uploads)
        shown(message)

    world._new_message = on_new  # type: ignore[method-assign]
    world._apply_edit = on_edit  # type: ignore[method-assign]
    return shows


async def open_tables(
    args: argparse.Namespace, emu: Emulator, bench: BotBench, guilds: list[Guild]
) -> tuple[list[TableRun], list[asyncio.Task[None]]]:
    """One channel a table, round the servers; opened `--open-per-s` a second (the first
    play while the last open), then all played a while."""
    scene = []
    for i in range(args.tables):
        guild = guilds[i % len(guilds)]
        users = [emu.add_user(f"t{i}p{j}", guild=guild) for j in range(3)]
        scene.append((emu.add_text_channel(guild, f"uno-{i}"), users))
    duo = False if args.pizza_only else await probe_duo(bench, emu)
    runs = bench.seat(scene, duo)
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()
    began = loop.time()
    for i, run in enumerate(runs):
        await asyncio.sleep(max(0.0, began + i / args.open_per_s - loop.time()))
        tasks.append(asyncio.create_task(bench.run_table(run)))
    with contextlib.suppress(TimeoutError):
        await emu.world.wait_for(lambda: all(r.live for r in runs), timeout=OPEN_SECONDS)
    await asyncio.sleep(WARM_SECONDS)
    return runs, tasks


def lower_priority(pids: list[int], nice: int) -> None:
    """Run the bots (and the no-op beside them) at `nice`: the playground and the players
    stand in for Discord and its users, whose clocks a busy bot machine cannot slow. On
    a saturated machine sharing cores with them, a starved playground reads a second and
    more of requests in one go and counts them in the same second."""
    for pid in pids:
        os.setpriority(os.PRIO_PROCESS, pid, nice)


# -- the measured window -------------------------------------------------------------------------


async def window(
    args: argparse.Namespace, emu: Emulator, bench: BotBench, pids: list[int], noop: NoopRig
) -> tuple[list[tuple[float, float]], list[float]]:
    """SLICES slices of play, each settled, then the no-op's share of clicks; return the
    slices' spans (emulator clock) and each process's CPU seconds in them."""
    spans: list[tuple[float, float]] = []
    cpu = [0.0] * len(pids)
    with own_collector_paused():
        for _ in range(SLICES):
            settle_own_heap()
            bench.clicks.recording = True
            bench.go.set()
            cpu0 = [cpu_seconds(pid) for pid in pids]
            start = emu.clock.now()
            await asyncio.sleep(args.seconds / SLICES)
            bench.go.clear()  # the tables finish their click in flight, then wait
            bench.clicks.recording = False
            with contextlib.suppress(TimeoutError):
                await emu.world.wait_for(lambda: not bench.clicks.waiters, timeout=5)
            spans.append((start, emu.clock.now()))
            await asyncio.sleep(SETTLE_SECONDS)  # the slice's coalesced edits go out
            cpu = [c + cpu_seconds(pid) - c0 for c, pid, c0 in zip(cpu, pids, cpu0, strict=True)]
            await noop.burst(len(bench.clicks.recorded) - noop.clicks_done)
    return spans, cpu


def kernel_counters() -> tuple[int, int]:
    """The kernel's network softirq runs cut short for want of time ("time squeeze",
    then deferred to ksoftirqd: loopback packets wait in its queue) and the CPU time
    stolen from this virtual machine by its host (ms), since boot."""
    squeezed = 0
    with contextlib.suppress(OSError):
        rows = Path("/proc/net/softnet_stat").read_text().splitlines()
        squeezed = sum(int(row.split()[2], 16) for row in rows)
    steal = 0
    with contextlib.suppress(OSError, IndexError, ValueError):
        cpu = Path("/proc/stat").read_text().splitlines()[0].split()
        steal = int(cpu[8]) * 1000 // os.sysconf("SC_CLK_TCK")
    return squeezed, steal


STALL_MS = 50.0  # a wake-up later than this counts as a stall of the bench's loop


def stall_figures(lag: LoopLag, emu: Emulator, spans: list[tuple[float, float]]) -> dict[str, Any]:
    """The bench's own loop (the playground's and the players'): its longest stall in the
    slices, and the longest in the second before each global 429 met in them.

    Discord counts a request when it arrives; the playground counts it when its loop
    reads it. A stall of the loop reads the requests of the stall and of the moments
    after it together, and may count more in a second than the bot sent in one."""
    stalls = [(at, ms) for at, ms in zip(lag.at, lag.lags_ms, strict=True) if ms > STALL_MS]
    inside = [ms for at, ms in stalls if within(at, spans)]
    refused = [
        c.at
        for c in emu.log.calls
        if c.status == 429 and within(c.at, spans) and is_bot_token_route(c.route)
    ]
    before = [max((ms for at, ms in stalls if t - 1.0 <= at <= t), default=0.0) for t in refused]
    return {
        "bench_loop_stall_max_ms": round(max(inside, default=0.0), 1),
        "bench_loop_stalls_over_100ms": sum(ms > 100 for ms in inside),
        "bench_loop_stall_before_429_ms": [round(ms, 1) for ms in before],
    }


def rate_limits(emu: Emulator) -> dict[str, Any]:
    """The emulator's 429s since its log was cleared: global, per route, by route."""
    log = emu.log
    return {
        "global": len(log.of_kind("global_rate_limited")),
        "route": len(log.of_kind("rate_limited")),
        "by_route": dict(Counter(f"{c.method} {c.route}" for c in log.calls if c.status == 429)),
    }


def request_figures(emu: Emulator, spans: list[tuple[float, float]], tables: int) -> dict[str, Any]:
    """The application's bot-token requests in the slices, and per table and second."""
    calls = [c for c in emu.log.calls if is_bot_token_route(c.route) and within(c.at, spans)]
    mean, busiest = request_rate([c.at for c in calls], spans)
    seconds = sum(end - start for start, end in spans)
    edits = sum(1 for c in calls if (c.method, c.route) == TABLE_EDIT_ROUTE)
    return {
        "bot_token_per_s": round(mean, 1),
        "bot_token_busiest_s": busiest,
        "bot_token_calls": dict(Counter(f"{c.method} {c.route}" for c in calls)),
        "table_edits_per_table_s": edits / seconds / tables,
        "other_requests_per_table_s": (len(calls) - edits) / seconds / tables,
    }


def gc_log_size(bot: BotProcess) -> int:
    """Where the collector's log of `bot` stands: the window's lines come after it."""
    return Path(bot.extra_env["UNO_GC_LOG"]).stat().st_size


def process_figures(
    processes: list[tuple[BotProcess, frozenset[int]]],
    cpu: list[float],
    rows: list[tuple[int, ...]],
    gc_offsets: list[int],
) -> list[dict[str, Any]]:
    """Each process's CPU per action of its own servers' tables, collector and errors."""
    out = []
    for k, ((bot, shards), seconds) in enumerate(zip(processes, cpu, strict=True)):
        actions = sum(1 for guild, _, _ in rows if shard_of(guild, SHARDS) in shards)
        log = bot.output()
        errors = [line for line in log.splitlines() if "ERROR" in line or "Traceback" in line]
        gc_log = Path(bot.extra_env["UNO_GC_LOG"])
        out.append(
            {
                "shards": sorted(shards),
                "actions": actions,
                "cpu_s": round(seconds, 2),
                "cpu_ms_per_action": round(1000 * seconds / max(actions, 1), 2),
                "gc_max_pause_ms": gc_pauses(gc_log, gc_offsets[k])["gc_max_pause_ms"],
                "log_errors": len(errors),
                "log_error_sample": errors[:3],
            }
        )
    return out


def play_figures(
    rows: list[tuple[int, ...]],
    shows: list[tuple[int, float]],
    spans: list[tuple[float, float]],
    clicks: list[Interaction],
    cpu: list[float],
    tables: int,
) -> dict[str, Any]:
    """The table lag, the actions, the clicks and the CPU of the window's slices."""
    seconds = sum(end - start for start, end in spans)
    lags, unshown = table_lags([(channel, at / 1000) for _, channel, at in rows], shows)
    latencies = latency_ms(clicks)
    return {
        "window_s": round(seconds, 1),
        "table_lag_p50_ms": round(percentile(lags, 50), 1),
        "table_lag_p99_ms": round(percentile(lags, 99), 1),
        "table_lag_max_ms": round(max(lags, default=math.nan), 1),
        "actions_unshown": unshown,
        "accepted_actions": len(rows),
        "actions_per_s": round(len(rows) / seconds, 1),
        "actions_per_table_s": len(rows) / seconds / tables,
        "clicks": len(latencies),
        "click_p50_ms": round(percentile(latencies, 50), 1),
        "click_p99_ms": round(percentile(latencies, 99), 1),
        "cpu_ms_per_action": round(1000 * sum(cpu) / max(len(rows), 1), 2),
    }


async def measure(
    args: argparse.Namespace,
    emu: Emulator,
    processes: list[tuple[BotProcess, frozenset[int]]],
    url: str | None,
    noop: NoopRig,
) -> dict[str, Any]:
    """Open the tables, measure the window, and sum it up."""
    guilds = spread_guilds(emu)
    bench = BotBench(emu, guilds[0], random.Random(args.seed), think_ms=args.think_ms)
    shows = record_shows(emu, bench)
    lag = LoopLag(emu.clock.now)
    bots = [bot for bot, _ in processes]
    await start_bots(emu, bots)
    lower_priority([b.process.pid for b in bots if b.process is not None], args.bot_nice)
    bench.clicks.start_pruning()
    t_setup = time.monotonic()
    runs, tasks = await open_tables(args, emu, bench, guilds)
    setup_s = time.monotonic() - t_setup
    try:
        await bench.pause()  # set-up's clicks answered and its edits sent: not counted
        setup = {"failed": len(emu.log.failed), "429": rate_limits(emu)}
        emu.log.clear()
        shows.clear()
        gc_offsets = [gc_log_size(b) for b in bots]
        pids = [b.process.pid for b in bots if b.process is not None]
        lag.recording = True
        lag.start()
        kernel0 = kernel_counters()
        spans, cpu = await window(args, emu, bench, pids, noop)
        kernel = [now - then for now, then in zip(kernel_counters(), kernel0, strict=True)]
        await lag.stop()
        shown = list(shows)  # the window's changes only: the tables stop below
        rows = await actions_since(bots[0].database, url, spans[0][0])
        rows = [row for row in rows if within(row[2] / 1000, spans)]
    finally:
        bench.stop = True
        bench.go.set()
        _, pending = await asyncio.wait(tasks, timeout=10) if tasks else (set(), set())
        for task in pending:
            task.cancel()
        await bench.clicks.stop_pruning()
    return {
        "tables": len(runs),
        "live_tables": sum(r.live for r in runs),
        "duo_tables": sum(r.variant == "duo" for r in runs),
        "guilds_per_shard": guilds_per_shard((g.id for g in guilds), SHARDS),
        "setup_s": round(setup_s, 1),
        "failed": len(emu.log.failed),
        "failed_setup": setup["failed"],
        "rate_limited": rate_limits(emu),
        "rate_limited_setup": setup["429"],
        **request_figures(emu, spans, len(runs)),
        **play_figures(rows, shown, spans, bench.clicks.recorded, cpu, len(runs)),
        "processes": process_figures(processes, cpu, rows, gc_offsets),
        "stalls": sum(r.stalls for r in runs),
        **stall_figures(lag, emu, spans),
        "softirq_squeezes": kernel[0],
        "steal_ms": kernel[1],
    }


async def run_setup(
    args: argparse.Namespace, size: int, setup: str, tmp: Path, postgres: PostgresServer | None
) -> dict[str, Any]:
    """One size, one set-up, beside its own no-op bot at the same tables and pace."""
    sized = argparse.Namespace(**{**vars(args), "tables": size})
    work = tmp / f"{setup}-{size}"
    work.mkdir()
    url = await postgres.new_database() if postgres is not None else None
    async with NoopRig(sized, work) as noop, Emulator(shards=SHARDS) as emu:
        assert noop.process is not None
        lower_priority([noop.process.pid], args.bot_nice)
        processes = bot_processes(emu, setup, tmp, work, url)
        try:
            figures = await measure(sized, emu, processes, url, noop)
        finally:
            for bot, _ in processes:
                await bot.stop()
        figures.update(noop.figures())
    figures["setup"] = setup
    figures["noop_cpu_ratio"] = round(
        figures["cpu_ms_per_action"] / max(figures["noop_bot_cpu_ms_per_click"], 1e-9), 2
    )
    figures["capacity"] = capacity(
        figures["cpu_ms_per_action"],
        figures["actions_per_table_s"],
        figures["table_edits_per_table_s"],
        figures["other_requests_per_table_s"],
    )
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    report(figures)
    return figures


# -- the report ------------------------------------------------------------------------------------


def report(f: dict[str, Any]) -> None:
    """One set-up at one size: what the headline sums up, and what explains it."""

    def line(name: str, value: Any, note: str = "") -> None:
        print(f"  {name:<36} {value!s:<28} {note}")

    print(
        f"\n{f['tables']} tables, {f['setup']} ({len(f['processes'])} process(es)), "
        f"{f['duo_tables']} Duo; servers per shard {f['guilds_per_shard']}; "
        f"{f['window_s']} s window after {f['setup_s']} s set-up"
    )
    line("failed interactions (set-up)", f"{f['failed']} ({f['failed_setup']})")
    rl, rs = f["rate_limited"], f["rate_limited_setup"]
    line("429s global / route", f"{rl['global']} / {rl['route']}", str(rl["by_route"]))
    line("  in the set-up", f"{rs['global']} / {rs['route']}", str(rs["by_route"]))
    line(
        "bench loop: longest stall (ms)",
        f["bench_loop_stall_max_ms"],
        f"{f['bench_loop_stalls_over_100ms']} over 100 ms; "
        f"before each 429: {f['bench_loop_stall_before_429_ms']}",
    )
    line(
        "kernel: softirq squeezes / steal ms",
        f"{f['softirq_squeezes']} / {f['steal_ms']}",
        "in the window: loopback packets deferred to ksoftirqd; CPU the host took",
    )
    line(
        "bot-token requests/s mean / busiest",
        f"{f['bot_token_per_s']} / {f['bot_token_busiest_s']}",
        str(f["bot_token_calls"]),
    )
    line(
        "table lag p50 / p99 / max (ms)",
        f"{f['table_lag_p50_ms']} / {f['table_lag_p99_ms']} / {f['table_lag_max_ms']}",
        f"({f['actions_unshown']} actions never shown)",
    )
    line("accepted actions (per s)", f"{f['accepted_actions']} ({f['actions_per_s']}/s)")
    line("click p50 / p99 (ms)", f"{f['click_p50_ms']} / {f['click_p99_ms']}")
    line("no-op click p50 / p99 (ms)", f"{f['noop_p50_ms']} / {f['noop_p99_ms']}")
    line(
        "CPU ms per action, all / no-op",
        f"{f['cpu_ms_per_action']} / {f['noop_bot_cpu_ms_per_click']}",
        f"(ratio {f['noop_cpu_ratio']})",
    )
    for p in f["processes"]:
        line(
            f"  process on shards {p['shards']}",
            f"{p['cpu_ms_per_action']} ms x {p['actions']} actions",
            f"GC max {p['gc_max_pause_ms']} ms; {p['log_errors']} log errors "
            f"{p['log_error_sample'][:1]}",
        )


def cpu_ratios(runs: list[dict[str, Any]]) -> dict[int, float]:
    """postgres CPU per action over sqlite's, at each size both ran."""
    by = {(r["tables"], r["setup"]): r["cpu_ms_per_action"] for r in runs}
    return {
        size: round(by[size, "postgres"] / max(by[size, "sqlite"], 1e-9), 2)
        for size, setup in by
        if setup == "sqlite" and (size, "postgres") in by
    }


def verdicts(run: dict[str, Any], ratio: float | None) -> dict[str, bool]:
    ok = {
        "0 failed": run["failed"] + run["failed_setup"] == 0,
        "0 429s": all(
            limited["global"] + limited["route"] == 0
            for limited in (run["rate_limited"], run["rate_limited_setup"])
        ),
        f"<= {BUDGET_PER_S:.0f}/s": run["bot_token_busiest_s"] <= BUDGET_PER_S,
    }
    if ratio is not None and run["setup"] == "postgres":
        ok[f"ratio <= {TARGET_CPU_RATIO}"] = ratio <= TARGET_CPU_RATIO
    return ok


HEADLINE = (
    ("tables", "tables", "{}"),
    ("set-up", "setup", "{}"),
    ("failed", "failed", "{}"),
    ("req/s", "bot_token_per_s", "{:.1f}"),
    ("busiest s", "bot_token_busiest_s", "{}"),
    ("lag p50 ms", "table_lag_p50_ms", "{:.0f}"),
    ("lag p99 ms", "table_lag_p99_ms", "{:.0f}"),
    ("act/s", "actions_per_s", "{:.1f}"),
    ("click p50", "click_p50_ms", "{:.1f}"),
    ("click p99", "click_p99_ms", "{:.1f}"),
    ("no-op p99", "noop_p99_ms", "{:.1f}"),
    ("CPU ms/act", "cpu_ms_per_action", "{:.2f}"),
    ("no-op CPU ms", "noop_bot_cpu_ms_per_click", "{:.2f}"),
)


def headline(runs: list[dict[str, Any]], ratios: dict[int, float]) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nHeadline: human pace, global limit on; load average {load}")
    names = [name for name, _, _ in HEADLINE]
    print("  " + " | ".join([*names, "429 g/r", "per process ms/act", "targets missed"]))
    for run in runs:
        cells = [fmt.format(run[key]) for _, key, fmt in HEADLINE]
        cells.append(f"{run['rate_limited']['global']}/{run['rate_limited']['route']}")
        cells.append("/".join(str(p["cpu_ms_per_action"]) for p in run["processes"]))
        missed = [k for k, ok in verdicts(run, ratios.get(run["tables"])).items() if not ok]
        run["targets_missed"] = missed
        print("  " + " | ".join([*cells, ", ".join(missed) or "none"]))
    for size, ratio in ratios.items():
        met = "met" if ratio <= TARGET_CPU_RATIO else "missed"
        print(
            f"  {size} tables: CPU per action, 2 processes on PostgreSQL over 1 on SQLite: "
            f"{ratio}x (target <= {TARGET_CPU_RATIO}x: {met})"
        )
    for run in runs:
        c = run["capacity"]
        after_posts = c["s_between_edits_after_posts"]
        after = "never: the posts alone exceed it" if after_posts is None else f"{after_posts} s"
        print(
            f"  {run['tables']} {run['setup']}: one core carries {c['tables_per_core']} tables "
            f"({run['actions_per_table_s']:.3f} actions per table a second); "
            f"{TARGET_TABLES:,} tables need {c['processes_for_tables']} processes and want "
            f"{c['requests_per_s_wanted']} bot-token requests/s ({c['posts_per_s_wanted']} "
            f"of them not table edits); a budget of {BUDGET_PER_S:.0f}/s edits each table "
            f"every {c['s_between_edits_all_budget']} s if all of it went to edits; after "
            f"the posts: {after}"
        )
    print(
        "  targets: 0 failed interactions and 0 429s at every size, set-up included; "
        f"<= {BUDGET_PER_S:.0f} bot-token requests in the busiest second; CPU "
        f"per action of 2 processes on PostgreSQL <= {TARGET_CPU_RATIO}x 1 on SQLite's"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="table counts")
    parser.add_argument("--seconds", type=float, default=40.0, help="window per set-up")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--pizza-only", action="store_true", help="skip the Duo probe")
    parser.add_argument("--think-ms", type=float, default=2000.0, help="mean think time")
    parser.add_argument(
        "--open-per-s", type=float, default=20.0, help="tables opened a second in the set-up"
    )
    parser.add_argument(
        "--bot-nice",
        type=int,
        default=10,
        help="the bots' (and no-op's) nice value; 0: the same priority as the playground",
    )
    parser.add_argument(
        "--setups", default=",".join(SETUPS), help="sqlite, postgres or both (the default)"
    )
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    setups = [s for s in SETUPS if s in args.setups.split(",")]
    postgres = PostgresServer() if "postgres" in setups else None
    runs = []
    with tempfile.TemporaryDirectory(prefix="scale_") as tmp_dir:
        tmp = Path(tmp_dir)
        cached_images(tmp / "art-cache", every_card_image)  # drawn once for every bot
        if postgres is not None:
            postgres.start()
        try:
            for size in sizes:
                for setup in setups:
                    pg = postgres if setup == "postgres" else None
                    runs.append(await run_setup(args, size, setup, tmp, pg))
                    settle_own_heap()
        finally:
            if postgres is not None:
                postgres.stop()
    ratios = cpu_ratios(runs)
    headline(runs, ratios)
    summary = {
        "think_ms": args.think_ms,
        "window_s_per_setup": args.seconds,
        "open_per_s": args.open_per_s,
        "bot_nice": args.bot_nice,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpu_ratio_postgres_over_sqlite": ratios,
        "targets": {
            "failed": 0,
            "429s": 0,
            "bot_token_busiest_s": BUDGET_PER_S,
            "cpu_ratio": TARGET_CPU_RATIO,
        },
        "runs": runs,
    }
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main())
