"""The fake GPIO's kept solutions change nothing it reads.

Two fakes take the same random sequence of switch changes, wiring faults, set-ups, writes,
reads, waits and scans: one keeps its solutions (the default), the other works the
electrics out again on every read (`cache=False`). After every step each pin must read the
same on both, and every call must end the same (the same value, or the same error).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from reedboard.hal.fake_gpio import FakeGPIO

from tests.support.examples import examples

ROWS = (4, 17, 27, 22, 5, 6, 13, 19)
COLUMNS = (26, 23, 24, 25, 12, 16, 20, 21)
OTHER = 3  # a pin outside the matrix (a clock button's)
PINS = ROWS + COLUMNS + (OTHER,)

Step = tuple[Any, ...]

lines = st.integers(0, 7)
pins = st.sampled_from(PINS)
# Mostly the matrix's own pins; sometimes a pin the board lacks (40) or a bad direction (5).
setup_steps = st.tuples(
    st.just("setup"),
    st.one_of(pins, st.lists(pins, min_size=1, max_size=4), st.just(40)),
    st.sampled_from([FakeGPIO.OUT, FakeGPIO.IN, FakeGPIO.IN, 5]),
    st.sampled_from([FakeGPIO.PUD_OFF, FakeGPIO.PUD_DOWN, FakeGPIO.PUD_UP]),
    st.sampled_from([None, FakeGPIO.LOW, FakeGPIO.HIGH]),
)
steps = st.one_of(
    st.tuples(st.just("set_switch"), lines, lines, st.booleans()),
    st.tuples(st.just("set_closed"), st.lists(st.tuples(lines, lines), max_size=12)),
    st.tuples(st.just("stick_switch"), lines, lines, st.booleans()),
    st.tuples(st.just("remove_diode"), lines, lines),
    st.tuples(st.just("reverse_diode"), lines, lines),
    st.tuples(st.just("break_row"), lines),
    st.tuples(st.just("break_column"), lines),
    st.tuples(st.just("swap_rows"), lines, lines),
    st.tuples(st.just("swap_columns"), lines, lines),
    st.tuples(st.just("ground"), pins, st.booleans()),
    setup_steps,
    st.tuples(st.just("drive"), lines, st.booleans()),
    st.tuples(st.just("drive"), lines, st.booleans()),
    st.tuples(st.just("output"), pins, st.booleans()),
    st.tuples(st.just("input"), pins),
    st.tuples(st.just("sleep"), st.sampled_from([0.0, 5e-6, 20e-6, 1e-3])),
    st.tuples(st.just("cleanup"), st.one_of(st.none(), pins, st.sampled_from(ROWS))),
    st.tuples(st.just("setmode")),
    st.tuples(st.just("scan"), st.lists(lines, min_size=1, max_size=8)),
    st.tuples(st.just("scan"), st.lists(lines, min_size=1, max_size=8)),
)


def ready(cache: bool, diodes: bool, discharge_s: float) -> FakeGPIO:
    """A fake set up as the scanner sets it up."""
    gpio = FakeGPIO(ROWS, COLUMNS, diodes=diodes, discharge_s=discharge_s, cache=cache)
    gpio.setmode(gpio.BCM)
    gpio.setup(list(ROWS), gpio.IN)
    gpio.setup(list(COLUMNS), gpio.IN, pull_up_down=gpio.PUD_DOWN)
    return gpio


def scan_rows(gpio: FakeGPIO, rows: list[int]) -> list[int]:
    """Drive these row lines in turn, as the scanner does, reading all columns each time."""
    read: list[int] = []
    for row in rows:
        gpio.setup(ROWS[row], gpio.OUT, initial=gpio.HIGH)
        gpio.sleep(20e-6)
        read.extend(gpio.input(pin) for pin in COLUMNS)
        gpio.setup(ROWS[row], gpio.IN)
    return read


def apply(gpio: FakeGPIO, step: Step) -> object:
    """Take one step; what it returned or raised (the error's kind and message)."""
    name, *args = step
    call: Callable[..., object]
    if name == "scan":
        call, args = scan_rows, [gpio, *args]
    elif name == "setup":
        channel, direction, pull, initial = args
        if direction == gpio.OUT:
            pull = gpio.PUD_OFF
        elif direction == gpio.IN:
            initial = None
        call, args = gpio.setup, [channel, direction, pull, initial]
    elif name == "drive":  # a row line driven, as the scanner does, or driven LOW
        row, level = args
        call, args = gpio.setup, [ROWS[row], gpio.OUT, gpio.PUD_OFF, int(level)]
    elif name == "setmode":
        call, args = gpio.setmode, [gpio.BCM]
    else:
        call = getattr(gpio, name)
    try:
        return call(*args)
    except Exception as error:  # the error itself is what is compared
        return (type(error).__name__, str(error))


def every_read(gpio: FakeGPIO) -> list[object]:
    return [apply(gpio, ("input", pin)) for pin in PINS]


# A row pin released, or its wire swapped, while it drove: what it drives must be counted
# again, or its next drive would find the solution kept for the matrix without it.
DRIVEN_THEN_RELEASED = [("set_switch", 2, 5, True), ("drive", 2, True), ("cleanup", ROWS[2])]
DRIVEN_THEN_SWAPPED = [("set_switch", 2, 5, True), ("drive", 2, True), ("swap_rows", 2, 3)]


@settings(max_examples=examples(300))
@example(diodes=True, discharge_s=0.0, sequence=[*DRIVEN_THEN_RELEASED, ("drive", 2, True)])
@example(diodes=True, discharge_s=0.0, sequence=[*DRIVEN_THEN_SWAPPED, ("drive", 3, True)])
@given(
    diodes=st.booleans(),
    discharge_s=st.sampled_from([0.0, 0.0, 14e-6]),
    sequence=st.lists(steps, max_size=40),
)
def test_kept_solutions_read_as_solving_every_time(
    diodes: bool, discharge_s: float, sequence: list[Step]
) -> None:
    kept = ready(True, diodes, discharge_s)
    solved = ready(False, diodes, discharge_s)
    for step in sequence:
        assert apply(kept, step) == apply(solved, step), step
        assert every_read(kept) == every_read(solved), step
    assert kept.calls == solved.calls


def test_an_unchanged_matrix_is_solved_once_per_drive() -> None:
    """The cache is used: rescanning a still matrix solves nothing again, and a changed
    switch is seen at the next scan."""
    gpio = ready(True, True, 0.0)
    solves = 0
    solve = gpio._solve

    def counting() -> tuple[int, int]:
        nonlocal solves
        solves += 1
        return solve()

    gpio._solve = counting  # type: ignore[method-assign]
    gpio.set_switch(2, 5, True)
    first = scan_rows(gpio, list(range(8)))
    assert solves == 8
    assert scan_rows(gpio, list(range(8))) == first
    assert solves == 8
    gpio.set_switch(2, 5, False)
    assert not any(scan_rows(gpio, list(range(8))))
    assert solves == 16
