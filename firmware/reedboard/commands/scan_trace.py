"""`reedboard scan --trace SQUARE`: what one square and its neighbours read while a piece
is slid across them, change by change, with the time since the start.

The maker's check of a reed's placement and band (the test coupon of hardware/README.md):
slide a piece slowly across the square from one side to the other and watch where its
switch closes and opens, and that no neighbour's switch closes with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from reedboard.hal.matrix import MatrixScanner
from reedboard.rules.squares import (
    Bitboard,
    Square,
    bitboard_of,
    square_file,
    square_name,
    square_names_of,
    square_rank,
    squares_of,
)
from reedboard.stopping import stop_on_signals


def neighbourhood(sq: Square) -> Bitboard:
    """The square and the up to 8 squares around it."""
    file, rank = square_file(sq), square_rank(sq)
    return bitboard_of(
        [
            f + 8 * r
            for f in range(file - 1, file + 2)
            for r in range(rank - 1, rank + 2)
            if 0 <= f < 8 and 0 <= r < 8
        ]
    )


def changes(before: Bitboard, after: Bitboard, watched: Bitboard) -> list[str]:
    """What changed among the watched squares, in words: `e4 closed`, `d4 opened`."""
    return [
        f"{square_name(sq)} {'closed' if after >> sq & 1 else 'opened'}"
        for sq in squares_of((before ^ after) & watched)
    ]


def trace(
    scanner: MatrixScanner,
    square: Square,
    out: TextIO,
    *,
    period_s: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    max_scans: int | None = None,
) -> None:
    """Print each change around `square` until Ctrl-C (or `max_scans`)."""
    watched = neighbourhood(square)
    out.write(
        f"tracing {square_name(square)} and its neighbours "
        f"({', '.join(square_names_of(watched & ~(1 << square)))}): slide a piece across "
        f"{square_name(square)}; Ctrl-C to stop\n"
    )
    out.flush()
    start = clock()
    last = scanner.scan()
    count = 1
    # Ctrl-C or SIGTERM ends it; the caller's `with scanner` then releases the pins.
    with stop_on_signals():
        while max_scans is None or count < max_scans:
            sleep(period_s)
            now = scanner.scan()
            count += 1
            said = changes(last, now, watched)
            if said:
                closed = ", ".join(square_names_of(now & watched)) or "none"
                out.write(f"{clock() - start:8.3f} s  {'; '.join(said)}  (closed: {closed})\n")
                out.flush()
            last = now


__all__ = ["changes", "neighbourhood", "trace"]
