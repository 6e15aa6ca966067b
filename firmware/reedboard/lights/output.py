"""From frames to the strip: effects at the current time, the layout, one `show()`.

The board's loop calls `update(frame, now)` as often as it likes; the strip is written
only when the pixels change: a steady frame is sent once, a blinking or pulsing one at
the pace of its effect, and nothing at all while the board stands still. `dim(share)`
sets the share of the board's brightness the host asked for (`lights/dimming.py`).
"""

from __future__ import annotations

from reedboard.arbiter.view import BoardView
from reedboard.hal.ports import LedStrip
from reedboard.lights.dimming import dimmed
from reedboard.lights.frame import Frame
from reedboard.lights.layout import StripLayout
from reedboard.lights.palette import RGB
from reedboard.lights.scenes import scene_for


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

    def dim(self, share: float, t_ms: int) -> bool:
        """Show everything at `share` (0..1) of the board's brightness from now on; the
        frame standing is shown again at once. True when the strip was written."""
        self.share = min(max(share, 0.0), 1.0)
        frame, self._frame = self._frame, None
        return frame is not None and self.update(frame, t_ms)


class LightsRenderer:
    """The app's lights: `render(view, t_ms)` shows the scene of a new view, `animate(t_ms)`
    moves the last one on in time (blink, pulse) without asking for a new view."""

    def __init__(self, output: LightsOutput) -> None:
        self.output = output
        self.frame: Frame | None = None

    def render(self, view: BoardView, t_ms: int) -> None:
        self.frame = scene_for(view)
        self.output.update(self.frame, t_ms)

    def animate(self, t_ms: int) -> None:
        if self.frame is not None and self.frame.animated:
            self.output.update(self.frame, t_ms)

    def dim(self, share: float, t_ms: int) -> None:
        self.output.dim(share, t_ms)


__all__ = ["LightsOutput", "LightsRenderer"]
