"""The board's own way to ask the voice something: tapping on an empty square.

A player puts any spare piece (one taken earlier will do) on an empty square and takes it
off again at once: a tap. Two taps on the same square ask for the last move; three for
the whole position, piece by piece; four or more for the clocks of a timed game. Play never makes it: no move puts a piece on
an empty square without lifting one first, and the arbiter lets a piece that comes and
goes this fast pass unnoticed (it is gone before any move or mismatch is decided). The
tapped square blinks to tell a sighted player that the board heard.

Pure: fed the board's settled occupancy and the position's, one change at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.rules.squares import Bitboard, Square, squares_of

TAP_MAX_MS = 700  # a tap's piece stays no longer than this
GAP_MAX_MS = 900  # taps of one request follow each other within this; then it is asked
REQUESTS = {2: "last", 3: "position", 4: "clock"}  # taps -> what is asked (4 or more: clock)


@dataclass(frozen=True, slots=True)
class Asked:
    what: str  # "last", "position" or "clock"
    square: Square  # where the player tapped
    t_ms: int


class Taps:
    def __init__(self) -> None:
        self.square: Square | None = None
        self.count = 0
        self._placed_at: int | None = None  # the tap's piece stands since
        self._lifted_at = 0

    def reset(self) -> None:
        self.square, self.count, self._placed_at = None, 0, None

    def changed(self, occupancy: Bitboard, expected: Bitboard, t_ms: int) -> None:
        """The settled occupancy is now `occupancy`; the position has `expected`."""
        extra = occupancy & ~expected
        if occupancy & expected != expected or extra & (extra - 1):
            self.reset()  # a piece lifted, or more than one too many: play, not a tap
            return
        if extra:
            square = next(squares_of(extra))
            if self.square is not None and square != self.square:
                self.reset()
            if self.square is not None and t_ms - self._lifted_at > GAP_MAX_MS:
                self.reset()
            self.square = square
            self._placed_at = t_ms
            return
        if self._placed_at is None:
            return
        if t_ms - self._placed_at > TAP_MAX_MS:
            self.reset()  # a piece left standing a while, then taken off: no tap
            return
        self.count += 1
        self._placed_at = None
        self._lifted_at = t_ms

    def waiting(self) -> bool:
        """Whether taps were made that `due` has yet to answer or let go: the player may
        still be tapping, or has just stopped. A piece left standing waits for no time."""
        return self.square is not None and self._placed_at is None

    def due(self, t_ms: int) -> Asked | None:
        """What the taps asked, once the player has stopped tapping."""
        if self.square is None or self._placed_at is not None:
            return None
        if t_ms - self._lifted_at <= GAP_MAX_MS:
            return None
        square, count = self.square, self.count
        self.reset()
        if count < 2:
            return None
        return Asked(REQUESTS.get(count, "clock"), square, t_ms)
