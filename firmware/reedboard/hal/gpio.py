"""The slice of the `RPi.GPIO` API that the matrix scanner and the clock buttons use, as a
protocol.

`RPi.GPIO` on a Pi 4, `rpi-lgpio` (same module name) on a Pi 5 and `FakeGPIO` on a PC all
satisfy it, so the scanner takes any of them through its constructor.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol


class GpioModule(Protocol):
    BCM: int
    IN: int
    OUT: int
    HIGH: int
    LOW: int
    PUD_DOWN: int
    PUD_UP: int

    def setmode(self, mode: int) -> None: ...

    def setwarnings(self, flag: bool) -> None: ...

    def setup(self, channel: int, direction: int, *args: Any, **kwargs: Any) -> None: ...

    def output(self, channel: int, value: int) -> None: ...

    def input(self, channel: int) -> int: ...

    def cleanup(self, channel: int | Iterable[int] | None = ...) -> None: ...
