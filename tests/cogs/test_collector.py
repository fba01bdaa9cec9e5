"""The collector's policy (cogs/uno/collector.py) on the real garbage collector."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from cogs.uno.collector import FULL_AFTER, Collector


class Thing:
    """A tracked object, found by identity among the objects the collector scans."""


def scanned(thing: object) -> bool:
    """Whether a full collection would scan `thing` (frozen objects are left out)."""
    return any(o is thing for o in gc.get_objects())


@pytest.fixture
def collector() -> Iterator[Collector]:
    """A collector freezing after every full collection; the process thawed after."""
    made = Collector(every=0.0, slow_ms=0.0)
    try:
        yield made
    finally:
        made.close()
        gc.unfreeze()


def test_start_up_freezes_what_is_there() -> None:
    collector = Collector()
    try:
        old = Thing()
        collector.freeze()
        assert not scanned(old)
        assert gc.get_freeze_count() > 0
    finally:
        collector.close()
        gc.unfreeze()


def test_full_collections_come_sooner_until_it_is_closed() -> None:
    before = gc.get_threshold()
    made = Collector()
    made.freeze()
    try:
        assert gc.get_threshold() == (*before[:2], FULL_AFTER)
    finally:
        made.close()
        gc.unfreeze()
    assert gc.get_threshold() == before


def test_what_outlives_a_full_collection_is_left_out_of_the_next(collector: Collector) -> None:
    collector.freeze()
    kept = Thing()
    assert scanned(kept)
    gc.collect()  # the collector's own full collection ends with a freeze
    assert not scanned(kept)


def test_a_young_collection_freezes_nothing(collector: Collector) -> None:
    collector.freeze()
    kept = Thing()
    gc.collect(0)
    gc.collect(1)
    assert scanned(kept)


def test_freezes_are_spaced_by_every() -> None:
    collector = Collector(every=3600.0, slow_ms=0.0)
    try:
        collector.freeze()  # the start-up freeze counts as the last one
        kept = Thing()
        gc.collect()
        assert scanned(kept)  # too soon after the last freeze
    finally:
        collector.close()
        gc.unfreeze()


def test_closed_it_freezes_no_more(collector: Collector) -> None:
    collector.freeze()
    collector.close()
    kept = Thing()
    gc.collect()
    assert scanned(kept)


def test_a_quick_full_collection_freezes_nothing() -> None:
    collector = Collector(every=0.0, slow_ms=3_600_000.0)  # none is that slow
    try:
        collector.freeze()
        kept = Thing()
        gc.collect()
        assert scanned(kept)
    finally:
        collector.close()
        gc.unfreeze()


async def test_a_freeze_in_the_bot_is_followed_by_a_full_collection_of_nothing() -> None:
    """CPython waits for the objects that outlived the last full collection to grow by a
    quarter of what it kept, frozen objects included: without a recount right after a
    freeze, the next full collection would come late and scan a big pile."""
    collector = Collector(every=0.0, slow_ms=0.0)
    try:
        collector.freeze()  # in the event loop, as the cog does
        await asyncio.sleep(0)  # the recount after the start-up freeze
        before = gc.get_stats()[2]["collections"]
        gc.collect()  # a full collection, then a freeze: a recount is queued
        assert gc.get_stats()[2]["collections"] == before + 1
        await asyncio.sleep(0)
        assert gc.get_stats()[2]["collections"] == before + 2
    finally:
        collector.close()
        gc.unfreeze()
