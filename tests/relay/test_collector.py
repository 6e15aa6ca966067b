"""The relay's collector ticks: what the relay holds is frozen at each tick, so the
garbage collector's passes no longer look at it (a full pass over a thousand boards'
games stalled the loop for about 0.3 s every few seconds), and a sweep every
`sweep_s` still frees the cycles that became garbage after they were frozen. Python's
own collector, on a clock the test sets; everything is given back to it at the end."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from reedboard_relay.collector import Collector


class Node:
    def __init__(self) -> None:
        self.itself = self  # a cycle: only the collector frees it


class Clock:
    def __init__(self) -> None:
        self.s = 100.0

    def __call__(self) -> float:
        return self.s


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def collector(clock: Clock) -> Iterator[Collector]:
    made = Collector(sweep_s=600.0, clock=clock)
    try:
        yield made
    finally:
        Collector.stop()


def dropped_cycle() -> weakref.ref[Node]:
    """A cycle nothing refers to any more (a weak reference to it)."""
    return weakref.ref(Node())


def test_what_a_tick_froze_is_not_looked_at_by_a_full_pass(collector: Collector) -> None:
    held = Node()
    before = gc.get_freeze_count()
    collector.tick()
    assert gc.get_freeze_count() > before
    freed_later = weakref.ref(held)
    del held  # garbage only after it was frozen
    gc.collect()
    assert freed_later() is not None  # the full pass did not look at it


def test_a_sweep_frees_what_became_garbage_after_it_was_frozen(
    collector: Collector, clock: Clock
) -> None:
    held = Node()
    collector.tick()
    freed_later = weakref.ref(held)
    del held
    clock.s += 599.0
    collector.tick()
    assert freed_later() is not None and collector.sweeps == 0
    clock.s += 1.0
    collector.tick()
    assert freed_later() is None and collector.sweeps == 1
    assert gc.get_freeze_count() > 0  # frozen again after the sweep


def test_garbage_made_between_ticks_is_collected_as_ever(collector: Collector) -> None:
    collector.tick()
    freed = dropped_cycle()
    gc.collect()
    assert freed() is None


def test_stopping_gives_everything_back(collector: Collector) -> None:
    collector.tick()
    Collector.stop()
    assert gc.get_freeze_count() == 0
