"""The real `adafruit_pixelbuf.PixelBuf` with a `_transmit` that records the bytes.

`_transmit` is where `neopixel.NeoPixel` hands the buffer to the wire; everything before
it (byte order, brightness) is Adafruit's code and runs unchanged. Tests and the PC
simulator use it to see exactly what a strip would receive. It needs the
`adafruit-circuitpython-pixelbuf` package (the `dev` extra), which installs on any PC.
"""

from __future__ import annotations

import adafruit_pixelbuf


# adafruit_pixelbuf ships no types, so its PixelBuf is Any to mypy, which refuses it as a base.
class RecordingPixelBuf(adafruit_pixelbuf.PixelBuf):  # type: ignore[misc]
    """A pixel buffer whose transmissions are kept in `transmitted`, oldest first."""

    def __init__(self, size: int, *, byteorder: str = "GRB", brightness: float = 1.0) -> None:
        self.transmitted: list[bytes] = []
        super().__init__(size, byteorder=byteorder, brightness=brightness, auto_write=False)

    def _transmit(self, buffer: bytearray) -> None:
        self.transmitted.append(bytes(buffer))


__all__ = ["RecordingPixelBuf"]
