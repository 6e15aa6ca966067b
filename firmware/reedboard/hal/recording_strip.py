"""A fake `LedStrip` that keeps every frame it is asked to show: for tests, the PC
simulator and `reedboard run --fake`."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

RGB = tuple[int, int, int]


class RecordingStrip:
    """Records each `show` call's pixels in `frames`, oldest first."""

    def __init__(self, count: int = 64, keep: int | None = None) -> None:
        """`keep`: how many of the latest frames to keep (all by default); a fake board
        that runs for hours keeps a few."""
        self.count = count
        self.frames: deque[tuple[RGB, ...]] = deque(maxlen=keep)

    def show(self, pixels: Sequence[RGB]) -> None:
        frame = tuple(pixels)
        if len(frame) != self.count:
            raise ValueError(f"{len(frame)} pixels for a strip of {self.count} LEDs")
        self.frames.append(frame)

    @property
    def last(self) -> tuple[RGB, ...] | None:
        return self.frames[-1] if self.frames else None

    def close(self) -> None:
        pass


__all__ = ["RecordingStrip"]
