"""bench/scale.py's arithmetic: the shard spread, the matching of actions to table
changes, the request rates and what they imply at 10,000 tables."""

from __future__ import annotations

import pytest

from bench.scale import cpu_ratios, spread_guilds, verdicts
from bench.scale_figures import (
    capacity,
    guilds_per_shard,
    is_bot_token_route,
    request_rate,
    table_lags,
)
from playground import Emulator


def test_the_benchs_servers_are_spread_evenly_over_the_four_shards() -> None:
    guilds = spread_guilds(Emulator(shards=4))  # not started: only its ids are needed
    assert len(guilds) == 64
    assert guilds_per_shard((g.id for g in guilds), 4) == [16, 16, 16, 16]


def test_shard_counts_follow_discords_rule() -> None:
    ids = [5 << 22, 4 << 22, (7 << 22) + 123, 0]  # shards 1, 0, 3, 0 of 4
    assert guilds_per_shard(ids, 4) == [2, 1, 0, 1]
    assert guilds_per_shard(ids, 1) == [4]


def test_interaction_routes_are_outside_the_global_limit() -> None:
    assert not is_bot_token_route("/interactions/{interaction_id}/{token}/callback")
    assert not is_bot_token_route("/webhooks/{application_id}/{token}/messages/@original")
    assert is_bot_token_route("/channels/{channel_id}/messages/{message_id}")
    assert is_bot_token_route("/applications/{application_id}/emojis")


def test_request_rate_counts_only_the_spans_and_the_busiest_sliding_second() -> None:
    spans = [(10.0, 14.0), (20.0, 24.0)]  # 8 s measured
    times = [10.5, 10.9, 11.2, 11.4, 12.0, 15.0, 16.0, 20.0, 23.9, 30.0]
    mean, busiest = request_rate(times, spans)
    assert mean == pytest.approx(7 / 8)
    # 10.5, 10.9, 11.2 and 11.4 are within one second of each other; 12.0 is not of 10.9
    assert busiest == 4
    # as the playground's limit: a request leaves the window exactly one second later
    assert request_rate([10.0, 11.0], spans)[1] == 1
    assert request_rate([], spans) == (0.0, 0)
    assert request_rate([1.0], []) == (0.0, 0)


def test_an_action_is_matched_to_its_own_tables_next_change() -> None:
    shows = [(1, 10.0), (1, 12.5), (2, 11.0), (1, 11.2)]  # not in order
    actions = [(1, 9.5), (1, 10.0), (1, 11.0), (2, 10.5), (2, 11.5), (3, 1.0)]
    lags, unshown = table_lags(actions, shows)
    # 9.5 -> 10.0; a change at the same moment counts; 11.0 -> 11.2, not channel 2's 11.0
    assert lags == pytest.approx([500.0, 0.0, 200.0, 500.0])
    assert unshown == 2  # channel 2 after 11.0, and channel 3, never changed


def test_what_the_measured_rates_imply_at_ten_thousand_tables() -> None:
    # 4 ms of CPU an action, an action every 2 s a table: 2 ms a second a table
    c = capacity(4.0, 0.5, 0.2, 0.001)
    assert c["tables_per_core"] == 500
    assert c["processes_for_tables"] == 20
    assert c["requests_per_s_wanted"] == pytest.approx(2010.0)
    assert c["posts_per_s_wanted"] == pytest.approx(10.0)
    assert c["s_between_edits_all_budget"] == 250.0  # 10,000 tables share 40 a second
    assert c["s_between_edits_after_posts"] == pytest.approx(10_000 / 30, abs=0.05)
    crowded = capacity(4.0, 0.5, 0.2, 0.005, tables=10_000)  # posts alone want 50/s
    assert crowded["s_between_edits_after_posts"] is None
    assert capacity(1.0, 1.0, 0.0, 0.0, tables=1000, budget=50.0)["processes_for_tables"] == 1
    assert capacity(0.0, 1.0, 0.0, 0.0)["tables_per_core"] is None  # no CPU: unbounded


def test_the_cpu_ratio_and_the_targets_of_a_run() -> None:
    runs = [
        {"tables": 200, "setup": "sqlite", "cpu_ms_per_action": 2.0},
        {"tables": 200, "setup": "postgres", "cpu_ms_per_action": 2.5},
        {"tables": 400, "setup": "sqlite", "cpu_ms_per_action": 2.0},
    ]
    assert cpu_ratios(runs) == {200: 1.25}
    calm = {"global": 0, "route": 0}
    run = {
        "setup": "postgres",
        "failed": 0,
        "failed_setup": 0,
        "rate_limited": calm,
        "rate_limited_setup": {"global": 3, "route": 0},
        "bot_token_busiest_s": 41,
    }
    assert verdicts(run, 1.31) == {
        "0 failed": True,
        "0 429s": False,
        "<= 40/s": False,
        "ratio <= 1.3": False,
    }
    run.update(rate_limited_setup=calm, bot_token_busiest_s=40, failed_setup=1)
    assert verdicts(run, 1.3) == {
        "0 failed": False,
        "0 429s": True,
        "<= 40/s": True,
        "ratio <= 1.3": True,
    }
