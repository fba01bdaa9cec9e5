"""The arithmetic of bench/scale.py, apart from its processes (tests/bench checks it).

Times are seconds on one clock (the emulator's and the bot's are both the machine's
wall clock); lags are returned in milliseconds.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from db.shards import shard_of

# Discord's global limit is 50 bot-token requests a second; the bot keeps to 40 of them.
BUDGET_PER_S = 40.0
GLOBAL_LIMIT_PER_S = 50
TARGET_CPU_RATIO = 1.3  # 2 processes on PostgreSQL over 1 on SQLite, CPU per action
TARGET_TABLES = 10_000
CORE_MS_PER_S = 1000.0
# Routes a bot reaches with an interaction's token: outside the global limit on Discord.
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")
TABLE_EDIT_ROUTE = ("PATCH", "/channels/{channel_id}/messages/{message_id}")


def guilds_per_shard(guild_ids: Iterable[int], count: int) -> list[int]:
    """How many of the servers each of `count` shards carries."""
    per = Counter(shard_of(guild_id, count) for guild_id in guild_ids)
    return [per[shard] for shard in range(count)]


def is_bot_token_route(route: str) -> bool:
    """Whether a call on this route template counts towards the global limit."""
    return not route.startswith(EXEMPT_PREFIXES)


def within(at: float, spans: Sequence[tuple[float, float]]) -> bool:
    return any(start <= at <= end for start, end in spans)


def request_rate(times: Iterable[float], spans: Sequence[tuple[float, float]]) -> tuple[float, int]:
    """Requests per second over `spans` (mean), and the most in any one second (the
    busiest sliding second, as Discord's global limit counts)."""
    inside = sorted(t for t in times if within(t, spans))
    seconds = sum(end - start for start, end in spans)
    busiest, first = 0, 0
    for last, at in enumerate(inside):
        while inside[first] <= at - 1.0:
            first += 1
        busiest = max(busiest, last - first + 1)
    return (len(inside) / seconds if seconds > 0 else 0.0), busiest


def table_lags(
    actions: Iterable[tuple[int, float]], shows: Iterable[tuple[int, float]]
) -> tuple[list[float], int]:
    """For each accepted action (channel, time), the wait until its channel's table
    message next changed (channel, time): the lags in ms, and how many actions no later
    change showed."""
    by_channel: dict[int, list[float]] = defaultdict(list)
    for channel, at in shows:
        by_channel[channel].append(at)
    for times in by_channel.values():
        times.sort()
    lags: list[float] = []
    unshown = 0
    for channel, at in actions:
        times = by_channel.get(channel, [])
        index = bisect_left(times, at)
        if index == len(times):
            unshown += 1
        else:
            lags.append(1000 * (times[index] - at))
    return lags, unshown


def capacity(
    cpu_ms_per_action: float,
    actions_per_table_s: float,
    edits_per_table_s: float,
    others_per_table_s: float,
    *,
    tables: int = TARGET_TABLES,
    budget: float = BUDGET_PER_S,
) -> dict[str, Any]:
    """What the measured rates imply at `tables` concurrent tables.

    One core gives CORE_MS_PER_S of CPU a second, a process uses one core at most.
    The application's `budget` of bot-token requests a second is shared by every
    table: the posts players must see (`others`) first, table edits with what is left,
    so each table can be edited once every `tables / left` seconds, the table's lag.
    """
    cpu_per_table_s = cpu_ms_per_action * actions_per_table_s
    per_core = CORE_MS_PER_S / cpu_per_table_s if cpu_per_table_s > 0 else math.inf
    left = budget - others_per_table_s * tables
    return {
        "tables_per_core": _finite(per_core, 0),
        "processes_for_tables": math.ceil(tables / per_core) if per_core > 0 else None,
        "requests_per_s_wanted": round((edits_per_table_s + others_per_table_s) * tables, 1),
        "posts_per_s_wanted": round(others_per_table_s * tables, 1),
        "s_between_edits_all_budget": round(tables / budget, 1),
        "s_between_edits_after_posts": _finite(tables / left if left > 0 else math.inf, 1),
    }


def _finite(value: float, digits: int) -> float | None:
    """JSON has no infinity: None stands for "never" / "unbounded"."""
    return round(value, digits) if math.isfinite(value) else None
