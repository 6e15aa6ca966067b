"""The app's lights renderer: a new view shows its scene; animation runs on the clock."""

from __future__ import annotations

from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights.output import LightsOutput, LightsRenderer
from reedboard.lights.strip_layout import StripLayout
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange


def test_a_view_is_shown_and_a_blinking_scene_moves_on_with_the_clock() -> None:
    strip = RecordingStrip(64, keep=2)
    output = LightsOutput(StripLayout.per_square("serpentine", "a1", "ranks"), strip)
    lights = LightsRenderer(output)
    arbiter = MoveReader(Game.from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"))
    lights.render(arbiter.view(), 0)
    lights.animate(10)  # a steady scene: nothing new to send
    assert output.shows == 1
    arbiter.feed(SquareChange(parse_square("e4"), False, 100))  # e4 lifted: the capture blinks
    lights.render(arbiter.view(), 100)
    lit = strip.frames[-1]
    lights.animate(100 + 400)  # half a blink later the capture square is dark
    assert strip.frames[-1] != lit
    assert output.shows == 3
    assert len(strip.frames) == 2  # only the latest frames are kept
