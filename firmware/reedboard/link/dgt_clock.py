"""The game's clocks as a DGT board with a DGT3000 clock reports them: the body of its
`BWTIME` message (id 0x0D, 0x8D on the wire).

Wire facts (docs/emulation.md), from DGT's protocol description: seven bytes. The first
three are the right player's time, the next three the left player's: hours (0 to 9) in
the low four bits of the first byte, minutes and seconds in BCD in the next two. DGT
software takes the left player for White (the clock stands as it does beside a board
with White on its left, the usual way). Bit 4 of each hours byte says that player's flag
has fallen (time 0). The seventh byte is the status: bit 0 the clock runs, bit 1 the
lever is high on the right player's side (theirs runs), bit 3 the left player's turn,
bit 4 the right player's. A first or fourth byte whose low four bits are 0x0A is a clock
acknowledgement instead of times: hours never exceed 9, so times never read as one.

An acknowledgement carries four bytes: ack0 in the low 7 bits of the second byte, ack1
of the third, ack2 of the fifth, ack3 of the sixth; their high bits in bits 4 and 5 of
the fourth byte (ack0, ack1) and of the first (ack2, ack3). ack0 is 0x10 for a command
done, ack1 the command's id; a version's ack2 is the version, major in the high four
bits.

Pure: time comes in as an argument.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

Side = Literal["white", "black"]

MAX_MS: Final = ((9 * 60 + 59) * 60 + 59) * 1000  # 9:59:59, the most the display holds
FLAG: Final = 0x10
RUNNING: Final = 0x01
RIGHT_HIGH: Final = 0x02
LEFT_TURN: Final = 0x08
RIGHT_TURN: Final = 0x10


@dataclass(frozen=True, slots=True)
class ClockReading:
    """Both players' time left at `at_ms` (the emulation's time), and whose runs."""

    white_ms: int
    black_ms: int
    running: Side | None
    at_ms: int

    def left_now(self, now_ms: int) -> tuple[int, int]:
        """(White's, Black's) ms left at `now_ms`: the running player's goes down."""
        spent = max(0, now_ms - self.at_ms)
        white = self.white_ms - (spent if self.running == "white" else 0)
        black = self.black_ms - (spent if self.running == "black" else 0)
        return max(0, white), max(0, black)


def bwtime_body(reading: ClockReading, now_ms: int) -> bytes:
    """The seven bytes of `BWTIME` for the clocks at `now_ms`."""
    white, black = reading.left_now(now_ms)
    status = 0
    if reading.running is not None:
        status |= RUNNING
        status |= LEFT_TURN if reading.running == "white" else RIGHT_TURN | RIGHT_HIGH
    return _time_bytes(black) + _time_bytes(white) + bytes((status,))


ACK_DONE: Final = 0x10
ACK_MARK: Final = 0x0A
CLOCK_VERSION_COMMAND: Final = 0x09
CLOCK_VERSION: Final = 0x10  # 1.0


def clock_ack(command: int) -> bytes:
    """The `BWTIME` body that acknowledges clock command `command` (below 0x80)."""
    ack2 = CLOCK_VERSION if command == CLOCK_VERSION_COMMAND else 0
    return bytes((ACK_MARK, ACK_DONE, command & 0x7F, ACK_MARK, ack2, 0, 0))


def _time_bytes(ms: int) -> bytes:
    """Hours with the flag bit, minutes and seconds in BCD. A clock shows the second it
    is in (rounded up): 0:00:00 only once the time has run out."""
    seconds = math.ceil(min(ms, MAX_MS) / 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return bytes((hours | (FLAG if ms <= 0 else 0), _bcd(minutes), _bcd(seconds)))


def _bcd(value: int) -> int:
    return value // 10 << 4 | value % 10
