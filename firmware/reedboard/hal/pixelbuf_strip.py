"""An `LedStrip` over any Adafruit pixel buffer: `neopixel.NeoPixel`, `NeoPixel_SPI`, or
a recording `adafruit_pixelbuf.PixelBuf` on a PC.

The buffer is made with `auto_write=False` and the brightness of the board's
configuration; pixel order on the wire and brightness scaling are the buffer's job, as
in Adafruit's own code. This adapter adds what a chessboard needs: a frame equal to the
last one is not sent again (the data line stays quiet while the board is still), only
changed pixels are written into the buffer, and the power budget caps a bright frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from reedboard.hal.led_power import DEFAULT_BUDGET_MA, within_budget

RGB = tuple[int, int, int]


class PixelBuffer(Protocol):
    """The part of `adafruit_pixelbuf.PixelBuf` this adapter uses."""

    @property
    def brightness(self) -> float: ...

    def __len__(self) -> int: ...

    def __setitem__(self, index: int, value: RGB) -> None: ...

    def show(self) -> None: ...


class PixelBufStrip:
    """`LedStrip.show` on a pixel buffer: one `show()` per changed frame, none otherwise."""

    def __init__(self, buffer: PixelBuffer, *, budget_ma: float = DEFAULT_BUDGET_MA) -> None:
        self.buffer = buffer
        self.budget_ma = budget_ma
        self.transmissions = 0
        self._last: tuple[RGB, ...] | None = None
        self._written: list[RGB | None] = [None] * len(buffer)

    def show(self, pixels: Sequence[RGB]) -> None:
        frame = tuple(pixels)
        if frame == self._last:
            return
        if len(frame) != len(self._written):
            raise ValueError(f"{len(frame)} pixels for a strip of {len(self._written)} LEDs")
        capped = within_budget(frame, self.buffer.brightness, self.budget_ma)
        written = self._written
        for index, colour in enumerate(capped):
            if written[index] != colour:
                self.buffer[index] = colour
                written[index] = colour
        self.buffer.show()
        self.transmissions += 1
        self._last = frame

    def close(self) -> None:
        """Leave the LEDs dark."""
        self.show([(0, 0, 0)] * len(self._written))

    def __enter__(self) -> PixelBufStrip:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["PixelBufStrip", "PixelBuffer"]
