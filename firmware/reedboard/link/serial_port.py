"""The serial transport: pyserial's `serial_for_url`, so a device (`/dev/ttyGS0`,
`/dev/serial0`, `/dev/ttyACM0`), a pty path, `loop://` or `spy://...` all work alike.
Errors come out as `LinkError` with one line that says what to do.

Writing never waits for the line. A USB gadget port that nobody reads fills the kernel's
buffer within a second of ChessLink's status reports, and a UART at 9600 baud takes a
tenth of a second to send one board dump: a blocking write, or waiting for the bytes to
leave (`flush`), would stop the board's scanning for that long. So a write hands the OS
only what it takes at once (the port's descriptor is non-blocking, and `select` says
whether there is room), and keeps the rest in a bounded `Outbox` for later turns, which
drops the oldest whole batches when the host falls far behind. Ports without a
descriptor (`loop://`) are written through pyserial as before.
"""

from __future__ import annotations

import contextlib
import os
import select
from types import TracebackType
from typing import Any

import serial

from reedboard.errors import LinkError
from reedboard.link.outbox import DEFAULT_LIMIT, Outbox

DEFAULT_BAUD = 115200


def open_port(
    url: str,
    *,
    baud: int = DEFAULT_BAUD,
    exclusive: bool = True,
    bytesize: int = serial.EIGHTBITS,
    parity: str = serial.PARITY_NONE,
) -> SerialPort:
    """Open a serial port by path or URL, refusing one another program holds. `bytesize`
    and `parity` are for the emulations (ChessLink speaks 7 data bits, odd parity); a port
    that carries bytes rather than characters (a pty, a USB gadget) may refuse them, and is
    then opened 8N1: the emulation's ASCII passes either way."""
    if (bytesize, parity) != (serial.EIGHTBITS, serial.PARITY_NONE):
        # An absent or busy port is the caller's LinkError, as for any other port.
        port = open_port(url, baud=baud, exclusive=exclusive)
        try:
            port._port.bytesize, port._port.parity = bytesize, parity
            return port
        except Exception:  # termios.error on a pty, SerialException elsewhere
            port.close()
            return open_port(url, baud=baud, exclusive=exclusive)
    kwargs: dict[str, Any] = {
        "baudrate": baud,
        "bytesize": bytesize,
        "parity": parity,
        "timeout": 0,
        "write_timeout": 0.5,
    }
    if "://" not in url:
        if not os.path.exists(url):
            raise LinkError(f"no serial port {url}")
        kwargs["exclusive"] = exclusive
    try:
        return SerialPort(serial.serial_for_url(url, **kwargs))
    except serial.SerialException as exc:
        text = str(exc)
        if "lock" in text or "busy" in text.lower():
            raise LinkError(f"serial port {url} is busy: another program has it open") from None
        raise LinkError(f"cannot open serial port {url}: {_reason(exc)}") from None
    except (OSError, ValueError) as exc:
        raise LinkError(f"cannot open serial port {url}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    """Why, in a few words: the system's words for the error number where there is one
    (pyserial's own text repeats the port's name twice around them), else the first line
    of the message, else the kind of error."""
    number = getattr(exc, "errno", None)
    if isinstance(number, int) and number > 0:
        return os.strerror(number)
    text = str(getattr(exc, "strerror", None) or exc)
    return text.splitlines()[0] if text.strip() else type(exc).__name__


class SerialPort:
    """A byte pipe over an open pyserial port: never blocks unless asked to wait."""

    def __init__(self, port: Any, *, limit: int = DEFAULT_LIMIT) -> None:
        self._port = port
        self.outbox = Outbox(limit)
        self._fd = self.fileno()
        if self._fd is not None:
            os.set_blocking(self._fd, False)  # a write takes what fits, never waits

    def read(self, wait_s: float = 0.0) -> bytes:
        """What has arrived; with `wait_s`, wait up to that long for the first byte.
        A peer that has gone (a closed pty, an unplugged cable) is a `LinkError`."""
        try:
            waiting = self._port.in_waiting
            if waiting:
                return bytes(self._port.read(waiting))
            if wait_s <= 0:
                return b""
            self._port.timeout = wait_s
            try:
                first = bytes(self._port.read(1))
            finally:
                self._port.timeout = 0
            if first and self._port.in_waiting:
                first += bytes(self._port.read(self._port.in_waiting))
            return first
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"the serial link failed: {_reason(exc)}") from None

    def write(self, data: bytes) -> None:
        """Queue `data` (whole messages) and write what the line takes now; the rest goes
        on later calls, an empty `data` included."""
        self.outbox.add(data)
        try:
            self.outbox.drain(self._write_some)
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"the serial link failed: {_reason(exc)}") from None

    def _write_some(self, data: bytes) -> int:
        """Write what the line takes of `data` without waiting; how many bytes it took."""
        fd = self._fd
        if fd is None:
            try:
                return int(self._port.write(data) or 0)
            except serial.SerialTimeoutException:
                # A URL port with nobody reading at the other end (no host yet): the
                # batch is dropped, and a host that connects later asks for what it missed.
                return len(data)
        _, writable, _ = select.select([], [fd], [], 0)
        if not writable:
            return 0
        try:
            return os.write(fd, data)
        except BlockingIOError:
            return 0

    def fileno(self) -> int | None:
        try:
            fd = self._port.fileno()
        except (AttributeError, serial.SerialException, OSError):
            return None
        return fd if isinstance(fd, int) else None

    def close(self) -> None:
        with contextlib.suppress(serial.SerialException, OSError):
            self._port.close()

    def __enter__(self) -> SerialPort:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
