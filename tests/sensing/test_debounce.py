"""The debouncer: bounce never makes an event, real changes (even 30 ms ones) never vanish."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reedboard.errors import InvalidInputError
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import DEFAULT_HOLD_MS, Debouncer, SquareChange

E4 = parse_square("e4")
D5 = parse_square("d5")


def signal(initial: bool, edges: list[int], t: int) -> bool:
    """The raw level at time t of a square that toggles at each edge time."""
    return initial ^ (sum(1 for edge in edges if edge <= t) % 2 == 1)


def run_events(initial: bool, edges: list[int], end: int) -> list[SquareChange]:
    debouncer = Debouncer((1 << E4) if initial else 0)
    changes: list[SquareChange] = []
    level = initial
    for t in edges:
        level = not level
        changes += debouncer.feed_change(E4, level, t)
    return changes + debouncer.flush(end)


def run_scans(
    initial: bool, edges: list[int], start: int, end: int, period: int
) -> list[SquareChange]:
    debouncer = Debouncer((1 << E4) if initial else 0)
    changes: list[SquareChange] = []
    for t in range(start, end, period):
        changes += debouncer.feed((1 << E4) if signal(initial, edges, t) else 0, t)
    return changes


@st.composite
def chatter(draw: st.DrawFn, *, settles_changed: bool, width: int = 5) -> list[int]:
    """Edge offsets within `width` ms starting at 0; odd count when the level ends changed."""
    offsets = draw(st.lists(st.integers(1, width), unique=True, max_size=8))
    edges = sorted({0, *offsets})
    if (len(edges) % 2 == 1) != settles_changed:
        if len(edges) > 1:
            edges.pop()
        else:
            edges.append(width)
    return edges


def test_defaults() -> None:
    assert DEFAULT_HOLD_MS == 12
    assert Debouncer().hold_ms == 12


def test_square_change_is_a_frozen_value() -> None:
    change = SquareChange(E4, True, 100)
    assert change == SquareChange(28, True, 100)
    assert str(change) == "e4 occupied at 100 ms"
    with pytest.raises(FrozenInstanceError):
        change.t_ms = 5  # type: ignore[misc]  # mypy sees the frozen field too: the test is that run time refuses it


def test_clean_lift_is_reported_at_the_time_it_happened() -> None:
    debouncer = Debouncer(1 << E4)
    assert debouncer.feed_change(E4, False, 1000) == []
    assert debouncer.tick(1011) == []
    assert debouncer.tick(1012) == [SquareChange(E4, False, 1000)]
    assert debouncer.occupancy == 0
    assert not debouncer.busy


def test_scan_loop_reports_change_once_scans_saw_it_for_hold_time() -> None:
    debouncer = Debouncer(0)
    assert debouncer.feed(0, 0) == []
    assert debouncer.feed(1 << E4, 5) == []
    assert debouncer.feed(1 << E4, 10) == []
    assert debouncer.feed(1 << E4, 15) == []
    assert debouncer.feed(1 << E4, 20) == [SquareChange(E4, True, 5)]
    assert debouncer.feed(1 << E4, 25) == []


def test_unchanged_scans_cost_nothing_and_say_nothing() -> None:
    debouncer = Debouncer(0xFFFF)
    assert all(debouncer.feed(0xFFFF, t) == [] for t in range(0, 1000, 5))


@given(
    initial=st.booleans(),
    start=st.integers(0, 10_000),
    edges=chatter(settles_changed=False),
)
def test_bounce_of_up_to_5_ms_never_makes_an_event(
    initial: bool, start: int, edges: list[int]
) -> None:
    edges = [start + e for e in edges]
    assert run_events(initial, edges, start + 1000) == []


@given(
    initial=st.booleans(),
    start=st.integers(0, 10_000),
    edges=chatter(settles_changed=False),
    period=st.integers(1, 5),
    phase=st.integers(0, 4),
)
def test_bounce_never_makes_an_event_in_a_scan_loop(
    initial: bool, start: int, edges: list[int], period: int, phase: int
) -> None:
    edges = [start + 20 + e for e in edges]
    assert run_scans(initial, edges, start + phase, start + 200, period) == []


@given(
    initial=st.booleans(),
    start=st.integers(0, 10_000),
    edges=chatter(settles_changed=True),
)
def test_a_real_change_through_bounce_is_one_event_at_its_first_edge(
    initial: bool, start: int, edges: list[int]
) -> None:
    edges = [start + e for e in edges]
    assert run_events(initial, edges, start + 1000) == [SquareChange(E4, not initial, start)]


@given(
    initial=st.booleans(),
    start=st.integers(0, 10_000),
    edges=chatter(settles_changed=True),
    period=st.integers(1, 5),
)
def test_a_real_change_through_bounce_is_one_event_in_a_scan_loop(
    initial: bool, start: int, edges: list[int], period: int
) -> None:
    edges = [start + 20 + e for e in edges]
    changes = run_scans(initial, edges, start, start + 200, period)
    assert len(changes) == 1
    assert changes[0].occupied is not initial
    # Reported at the first scan that saw the burst, never later than its first edge + a scan.
    assert edges[0] <= changes[0].t_ms <= edges[0] + 5 + period


@given(
    start=st.integers(0, 10_000),
    lift=chatter(settles_changed=True),
    place=chatter(settles_changed=True),
    vacancy=st.integers(30, 60),
)
def test_a_fast_swap_vacancy_of_30_ms_is_never_lost(
    start: int, lift: list[int], place: list[int], vacancy: int
) -> None:
    # A capture where the victim is swapped out fast: e4 empty for 30 ms, chatter at both ends.
    edges = [start + e for e in lift] + [start + vacancy + e for e in place]
    assert run_events(True, edges, start + 1000) == [
        SquareChange(E4, False, start),
        SquareChange(E4, True, start + vacancy),
    ]


@given(
    start=st.integers(0, 10_000),
    lift=chatter(settles_changed=True),
    place=chatter(settles_changed=True),
    period=st.integers(1, 5),
    phase=st.integers(0, 4),
)
def test_a_fast_swap_is_never_lost_in_a_200_hz_scan_loop(
    start: int, lift: list[int], place: list[int], period: int, phase: int
) -> None:
    edges = [start + 20 + e for e in lift] + [start + 50 + e for e in place]
    changes = run_scans(True, edges, start + phase, start + 300, period)
    assert [c.occupied for c in changes] == [False, True]


def test_changes_come_out_in_time_order_across_squares() -> None:
    # d5 starts chattering first and settles last; e4's clean change must wait for it.
    debouncer = Debouncer((1 << E4) | (1 << D5))
    out: list[SquareChange] = []
    out += debouncer.feed_change(D5, False, 100)
    out += debouncer.feed_change(D5, True, 103)
    out += debouncer.feed_change(E4, False, 104)
    out += debouncer.feed_change(D5, False, 108)
    assert out == []
    out += debouncer.tick(116)  # e4 has held 12 ms, but d5's burst (from 100) is undecided
    assert out == []
    assert debouncer.busy
    out += debouncer.tick(120)
    assert out == [SquareChange(D5, False, 100), SquareChange(E4, False, 104)]


def test_held_back_change_is_released_when_the_earlier_burst_was_noise() -> None:
    debouncer = Debouncer(1 << E4)
    out = debouncer.feed_change(D5, True, 100)
    out += debouncer.feed_change(E4, False, 101)
    out += debouncer.feed_change(D5, False, 104)
    out += debouncer.feed_change(D5, True, 108)
    out += debouncer.feed_change(D5, False, 110)
    assert out == []
    assert debouncer.tick(122) == [SquareChange(E4, False, 101)]


def test_feed_change_to_the_current_level_is_no_edge() -> None:
    debouncer = Debouncer(1 << E4)
    assert debouncer.feed_change(E4, True, 10) == []
    assert not debouncer.busy


def test_scan_and_event_feeding_mix() -> None:
    debouncer = Debouncer(0)
    debouncer.feed(1 << E4, 0)
    assert debouncer.feed_change(D5, True, 20) == [SquareChange(E4, True, 0)]
    assert debouncer.tick(40) == [SquareChange(D5, True, 20)]
    assert debouncer.occupancy == (1 << E4) | (1 << D5)


def test_time_going_backwards_is_refused() -> None:
    debouncer = Debouncer()
    debouncer.tick(100)
    with pytest.raises(InvalidInputError, match="backwards"):
        debouncer.feed(0, 99)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InvalidInputError):
        Debouncer(hold_ms=0)
    with pytest.raises(InvalidInputError):
        Debouncer().feed_change(64, True, 0)


def test_longer_hold_time_is_honoured() -> None:
    debouncer = Debouncer(0, hold_ms=30)
    debouncer.feed_change(E4, True, 0)
    assert debouncer.tick(29) == []
    assert debouncer.tick(30) == [SquareChange(E4, True, 0)]


def test_next_deadline_says_when_tick_can_release() -> None:
    debouncer = Debouncer(0)
    assert debouncer.next_deadline() is None
    debouncer.feed_change(E4, True, 100)
    debouncer.feed_change(D5, True, 103)
    assert debouncer.next_deadline() == 112
    assert debouncer.tick(112) == [SquareChange(E4, True, 100)]
    assert debouncer.next_deadline() == 115
