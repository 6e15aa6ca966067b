"""The real board's GPIO: `RPi.GPIO`, imported here only, and only when asked for.

On a Pi 4 (and earlier) the `RPi.GPIO` package provides the module; on a Pi 5 install
`rpi-lgpio` instead, which provides a module of the same name on top of lgpio, so the
scanner runs there unchanged.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence

from reedboard.errors import HardwareError
from reedboard.hal.gpio import GpioModule
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout


def import_rpi_gpio() -> GpioModule:
    """The `RPi.GPIO` module, or a `HardwareError` saying what to install."""
    try:
        module: GpioModule = importlib.import_module("RPi.GPIO")
    except ImportError as exc:
        raise HardwareError(
            "RPi.GPIO is not installed (on the board: pip install 'reedboard[pi]'; on a Pi 5 "
            "use rpi-lgpio); on a PC use --fake"
        ) from exc
    except RuntimeError as exc:
        # RPi.GPIO refuses to import on a machine that is not a Raspberry Pi.
        raise HardwareError(f"RPi.GPIO cannot run here: {exc}") from exc
    return module


def open_matrix_scanner(
    rows: Sequence[int],
    columns: Sequence[int],
    layout: MatrixLayout,
    *,
    settle_us: float,
    gpio: GpioModule | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> MatrixScanner:
    """A scanner for the matrix on these BCM pins (row lines, column lines), lying under
    the board as `layout` says, on `RPi.GPIO` unless another module is given."""
    module = gpio if gpio is not None else import_rpi_gpio()
    try:
        return MatrixScanner(module, rows, columns, layout, settle_s=settle_us / 1e6, sleep=sleep)
    except RuntimeError as exc:
        # The real module reports missing permissions or a busy pin as RuntimeError.
        raise HardwareError(f"cannot set up the matrix pins: {exc}") from exc
