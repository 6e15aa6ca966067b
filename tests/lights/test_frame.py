"""Frames: a frozen value per scene; effects turned into colours at a given time."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from reedboard.lights.frame import (
    BLINK_HALF_MS,
    DARK,
    PULSE_FLOOR,
    PULSE_PERIOD_MS,
    Cell,
    Frame,
    pulse_level,
)
from reedboard.lights.palette import PALETTE
from reedboard.rules.squares import parse_square as sq


def test_lit_roles_names_every_lit_square_a1_upwards() -> None:
    frame = Frame.from_roles({sq("e4"): "target", sq("e2"): "origin"})
    assert list(frame.lit_roles().items()) == [("e2", "origin"), ("e4", "target")]
    assert frame.role_at(sq("e4")) == "target"
    assert frame.role_at(sq("e3")) is None
    assert DARK.lit_roles() == {}


def test_equal_scenes_make_equal_frames() -> None:
    a = Frame.from_roles({sq("a1"): "check"})
    assert a == Frame.from_roles({sq("a1"): "check"})
    assert a != Frame.from_roles({sq("a1"): "extra", sq("b1"): "extra"})


def test_a_frame_has_64_squares() -> None:
    with pytest.raises(ValueError):
        Frame((None,) * 63)


def test_steady_is_constant_and_dark_is_black() -> None:
    frame = Frame.from_roles({sq("a1"): "origin"})
    assert not frame.animated
    for t in (0, 123, BLINK_HALF_MS, 10_000):
        colours = frame.at(t)
        assert colours[sq("a1")] == PALETTE["origin"].colour
        assert colours[sq("a2")] == (0, 0, 0)


def test_blink_alternates_full_colour_and_off() -> None:
    frame = Frame.from_roles({sq("a1"): "extra"})
    assert frame.animated
    assert frame.at(0)[0] == PALETTE["extra"].colour
    assert frame.at(BLINK_HALF_MS)[0] == (0, 0, 0)
    assert frame.at(2 * BLINK_HALF_MS)[0] == PALETTE["extra"].colour


def test_pulse_stays_visible_and_reaches_full_strength() -> None:
    levels = {pulse_level(t) for t in range(0, PULSE_PERIOD_MS, 10)}
    assert min(levels) == PULSE_FLOOR
    assert max(levels) == 1.0
    frame = Frame.from_roles({sq("a1"): "missing"})
    red, green, _ = PALETTE["missing"].colour
    darkest = frame.at(0)[0]
    brightest = frame.at(PULSE_PERIOD_MS // 2)[0]
    assert brightest == PALETTE["missing"].colour
    assert 0 < darkest[0] < red and darkest[1] < green


def test_a_pulse_changes_in_steps_not_every_millisecond() -> None:
    frame = Frame.from_roles({sq("a1"): "missing"})
    distinct = {frame.at(t) for t in range(PULSE_PERIOD_MS)}
    assert len(distinct) <= 9


class CountedCells(tuple[Cell | None, ...]):
    """A frame's cells that count how often they are walked through."""

    walks = 0

    def __iter__(self) -> Iterator[Cell | None]:
        CountedCells.walks += 1
        return super().__iter__()


def test_whether_a_frame_is_animated_is_worked_out_once_when_it_is_made() -> None:
    # The loop asks it every turn of an idle board: the 64 cells are walked once, when
    # the scene changes, not on each question.
    blinking = Frame.from_roles({sq("a1"): "extra"})
    frame = Frame(CountedCells(blinking.cells))
    walked = CountedCells.walks
    assert all(frame.animated for _ in range(100))
    assert CountedCells.walks == walked
    assert frame == blinking
    assert not replace(frame, cells=DARK.cells).animated
