"""The simulated board's lights as its loop drives them: the scenes on the page's strip,
their animation and the host's dimming, each view also handed to the page."""

from __future__ import annotations

from collections.abc import Callable

from reedboard.app_ports import NoLights
from reedboard.lights.output import LightsRenderer
from reedboard.reader.view import BoardView


class PageLights(NoLights):
    def __init__(self, seen: Callable[[BoardView, int], None], lights: LightsRenderer) -> None:
        self.seen = seen
        self.lights = lights

    def render(self, view: BoardView, t_ms: int) -> None:
        self.seen(view, t_ms)

    def animate(self, t_ms: int) -> None:
        self.lights.animate(t_ms)

    def dim(self, share: float, t_ms: int) -> None:
        self.lights.dim(share, t_ms)
