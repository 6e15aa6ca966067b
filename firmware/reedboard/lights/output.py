"""From frames to the strip: effects at the current time, the layout, one `show()`.

The board's loop calls `update(frame, now)` as often as it likes; the strip is written
only when the pixels change: a steady frame is sent once, a blinking or pulsing one at
the pace of its effect, and nothing at all while the board stands still. `dim(share)`
sets the share of the board's brightness the host asked for (`lights/dimming.py`).
"""

from __future__ import annotations

from reedboard.hal.ports import LedStrip
from reedboard.lights import led_test
from reedboard.lights.dimming import dimmed
from reedboard.lights.fair_play import fair_play
from reedboard.lights.frame import Frame
from reedboard.lights.palette import RGB
from reedboard.lights.scenes import scene_for
from reedboard.lights.strip_layout import StripLayout
from reedboard.reader.view import BoardView
from reedboard.rules.pieces import Color


class LightsOutput:
    """Shows frames on one strip through one layout."""

    def __init__(self, layout: StripLayout, strip: LedStrip) -> None:
        self.layout = layout
        self.strip = strip
        self.shows = 0
        self.share = 1.0
        self._frame: Frame | None = None
        self._pixels: list[RGB] | None = None

    def update(self, frame: Frame, t_ms: int) -> bool:
        """Show `frame` as it looks at `t_ms`; True when the strip was written."""
        if frame == self._frame and not frame.animated:
            return False  # the same steady frame: nothing to compute, nothing to send
        pixels = dimmed(self.layout.pixels(frame.at(t_ms)), self.share)
        self._frame = frame
        if pixels == self._pixels:
            return False
        self.strip.show(pixels)
        self._pixels = pixels
        self.shows += 1
        return True

    def show_pixels(self, pixels: list[RGB]) -> None:
        """Show raw pixels in chain order (the LED test), at the host's share of the
        brightness; the next frame is drawn afresh."""
        pixels = dimmed(pixels, self.share)
        self._frame = None
        if pixels != self._pixels:
            self.strip.show(pixels)
            self._pixels = pixels
            self.shows += 1

    def dim(self, share: float, t_ms: int) -> bool:
        """Show everything at `share` (0..1) of the board's brightness from now on; the
        frame standing is shown again at once. True when the strip was written."""
        self.share = min(max(share, 0.0), 1.0)
        frame, self._frame = self._frame, None
        return frame is not None and self.update(frame, t_ms)


class LightsRenderer:
    """The app's lights: `render(view, t_ms)` shows the scene of a new view, `animate(t_ms)`
    moves the last one on in time (blink, pulse) without asking for a new view, and
    `led_test(t_ms)` runs the LED test (`lights/led_test.py`) for a few seconds, after
    which the board's scene stands again."""

    def __init__(self, output: LightsOutput, *, tournament: bool = False) -> None:
        self.output = output
        self.tournament = tournament  # fair play: no assistance on the LEDs
        self.frame: Frame | None = None
        self.testing_since: int | None = None
        self.low_time: Color | None = None  # whose time runs low, in a timed game
        self._view: BoardView | None = None

    def render(self, view: BoardView, t_ms: int) -> None:
        self._view = view
        self.frame = scene_for(fair_play(view) if self.tournament else view, low_time=self.low_time)
        if not self._testing(t_ms):
            self.output.update(self.frame, t_ms)

    def fair_play(self, tournament: bool) -> None:
        """Tournament mode switched on or off (by the host, for a round): the next view
        is shown with or without assistance."""
        self.tournament = tournament

    def show_low_time(self, color: Color | None, t_ms: int) -> None:
        """A player's time began (or ceased) to run low: their back rank lights."""
        self.low_time = color
        if self._view is not None:
            self.render(self._view, t_ms)

    def animate(self, t_ms: int) -> None:
        if self._testing(t_ms):
            return
        if self.frame is not None and self.frame.animated:
            self.output.update(self.frame, t_ms)

    def led_test(self, t_ms: int) -> None:
        self.testing_since = t_ms
        self._testing(t_ms)

    def _testing(self, t_ms: int) -> bool:
        """Shows the LED test while it runs; once it is over, the scene again."""
        if self.testing_since is None:
            return False
        pixels = led_test.pattern_pixels(self.output.layout.count, t_ms - self.testing_since)
        if pixels is not None:
            self.output.show_pixels(pixels)
            return True
        self.testing_since = None
        if self.frame is not None:
            self.output.update(self.frame, t_ms)
        return False

    def dim(self, share: float, t_ms: int) -> None:
        self.output.dim(share, t_ms)


__all__ = ["LightsOutput", "LightsRenderer"]
