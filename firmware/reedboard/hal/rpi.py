"""The real board's GPIO: `RPi.GPIO`, imported here only, and only when asked for.

On a Pi 4 (and earlier) the `RPi.GPIO` package provides the module; on a Pi 5 install
`rpi-lgpio` instead, which provides a module of the same name on top of lgpio, so the
scanner runs there unchanged.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from reedboard.errors import ReedboardError
from reedboard.hal.gpio import GpioModule
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout

T = TypeVar("T")


def import_rpi_gpio() -> GpioModule:
    """The `RPi.GPIO` module, or a `HardwareError` saying what to install."""
    try:
        module: GpioModule = importlib.import_module("RPi.GPIO")
    except (ImportError, RuntimeError) as exc:
        # RPi.GPIO (and rpi-lgpio) refuse to import on a machine that is not a Raspberry Pi.
        from reedboard.hal.setup_trouble import gpio_import_trouble  # see set_up_pins

        raise gpio_import_trouble(exc) from exc
    return module


def set_up_pins(what: str, make: Callable[[], T]) -> T:
    """`make()`, which sets up the pins of `what` on RPi.GPIO; what the module raises
    (RuntimeError from RPi.GPIO, lgpio's `error` from rpi-lgpio) becomes one line saying
    what to do, and the traceback goes to the debug log."""
    try:
        return make()
    except ReedboardError:
        raise
    except Exception as exc:
        # On this path only: a board opens its matrix before it logs, and the words of
        # its libraries' failures are read with `re`, which Python 3.13 does not load
        # for the board's first scan otherwise.
        import logging

        from reedboard.hal.setup_trouble import gpio_trouble

        logging.getLogger(__name__).debug("cannot set up %s", what, exc_info=True)
        raise gpio_trouble(exc, what) from exc


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
    return set_up_pins(
        "the switch matrix",
        lambda: MatrixScanner(module, rows, columns, layout, settle_s=settle_us / 1e6, sleep=sleep),
    )
