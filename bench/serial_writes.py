"""Benchmark: what writing to a serial port nobody reads costs the board's loop.

    python bench/serial_writes.py [--writes N]

A real pseudo-terminal stands for a USB gadget port with no host reading it. The board
writes a ChessLink status report (67 bytes) per turn, as it does about 24 times a second
by default. Prints, per write call, the median, p99 and slowest time in microseconds, and
what the port keeps waiting (the outbox) and has dropped; then, for comparison, the
blocking write this replaced (pyserial with a 0.5 s write timeout, then `flush`), which
stops the loop for the whole timeout on every write once the pty's buffer is full (it
runs until three such writes, so the benchmark stays short).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import tty

import serial
from reedboard.link.chesslink import encode, status_text
from reedboard.link.serial_port import open_port

REPORT = encode(status_text(["P"] * 16 + [""] * 32 + ["p"] * 16))


def _us(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered) * 1e6
    return f"median {median:.0f} us, p99 {p99 * 1e6:.0f} us, slowest {ordered[-1] * 1e6:.0f} us"


def non_blocking(writes: int) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    port = open_port(os.ttyname(slave))
    times = []
    for _ in range(writes):
        start = time.perf_counter()
        port.write(REPORT)
        times.append(time.perf_counter() - start)
    print(f"non-blocking write, {writes} reports nobody reads: {_us(times)}")
    print(f"  waiting in the outbox {len(port.outbox)} bytes, dropped {port.outbox.dropped} bytes")
    port.close()
    os.close(master)
    os.close(slave)


def blocking(writes: int) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.serial_for_url(os.ttyname(slave), timeout=0, write_timeout=0.5)
    times = []
    slow = 0
    for _ in range(writes):
        start = time.perf_counter()
        try:
            port.write(REPORT)
            port.flush()
        except serial.SerialTimeoutException:
            port.reset_output_buffer()
        times.append(time.perf_counter() - start)
        if times[-1] > 0.1:
            slow += 1
            if slow == 3:
                break
    print(f"blocking write + flush (before), {len(times)} reports: {_us(times)}")
    port.close()
    os.close(master)
    os.close(slave)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--writes", type=int, default=5000)
    args = parser.parse_args()
    non_blocking(args.writes)
    blocking(args.writes)


if __name__ == "__main__":
    main()
