"""From frames to a strip: one show per change, none while nothing changes."""

from __future__ import annotations

from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights.frame import BLINK_HALF_MS, DARK, Frame
from reedboard.lights.output import LightsOutput
from reedboard.lights.palette import PALETTE
from reedboard.lights.strip_layout import StripLayout
from reedboard.rules.squares import parse_square as sq


def test_a_steady_frame_is_sent_once() -> None:
    strip = RecordingStrip()
    output = LightsOutput(StripLayout.per_square("rows", "a1", "ranks"), strip)
    frame = Frame.from_roles({sq("b1"): "origin"})
    assert output.update(frame, 0)
    for t in range(1, 5000, 20):
        assert not output.update(Frame.from_roles({sq("b1"): "origin"}), t)
    assert len(strip.frames) == 1
    assert strip.frames[0][1] == PALETTE["origin"].colour


def test_a_blinking_frame_is_sent_when_the_blink_turns() -> None:
    strip = RecordingStrip()
    output = LightsOutput(StripLayout.per_square(), strip)
    frame = Frame.from_roles({sq("a1"): "extra"})
    for t in range(0, 4 * BLINK_HALF_MS, 10):
        output.update(frame, t)
    assert len(strip.frames) == 4
    assert [f[0] for f in strip.frames] == [PALETTE["extra"].colour, (0, 0, 0)] * 2


def test_a_new_scene_is_sent_and_an_unchanged_look_is_not() -> None:
    strip = RecordingStrip()
    output = LightsOutput(StripLayout.per_square(), strip)
    output.update(DARK, 0)
    output.update(Frame.from_roles({sq("a1"): "setup"}), 10)
    # Another role with the same look at that time: the LEDs would not change.
    output.update(Frame.from_roles({sq("a1"): "sweep"}), 20)
    assert len(strip.frames) == 2


def test_dimming_scales_the_frame_standing_at_once_and_keeps_lit_channels_on() -> None:
    strip = RecordingStrip()
    output = LightsOutput(StripLayout.per_square(), strip)
    output.update(Frame.from_roles({sq("a1"): "origin", sq("b1"): "last_move"}), 0)
    assert output.dim(0.25, 10)  # the steady frame is written again, dimmer
    assert strip.frames[-1][0] == (64, 64, 64)
    assert strip.frames[-1][1] == (10, 10, 16)  # last_move (40, 40, 64) at a quarter
    output.dim(0.01, 20)
    assert strip.frames[-1][1] == (1, 1, 1)  # dim, never dark
    assert strip.frames[-1][2] == (0, 0, 0)
    # A new frame keeps the share; full again restores the palette's colours.
    output.update(Frame.from_roles({sq("a1"): "origin"}), 30)
    assert strip.frames[-1][0] == (3, 3, 3)
    output.dim(1.0, 40)
    assert strip.frames[-1][0] == PALETTE["origin"].colour
