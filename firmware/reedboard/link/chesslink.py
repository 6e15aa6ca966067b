"""The Millennium ChessLink protocol, board end: a pure codec in the manner of
`link/board.py`.

`receive_data(bytes)` takes the client's characters, answers what the protocol answers
by itself (version, status, registers, LED acknowledgements) and returns what the board's
lights must do: the LED patterns to show (`LedPattern`) and the brightness register's new
value (`Brightness`). `squares_changed` and `tick(now_ms)` queue the
automatic status reports the registers ask for. `data_to_send()` hands over the bytes.

Reports on a change follow the registers as a Millennium board does: the board scans
every scan time (register 1), and a change is reported only once that many consecutive
scans (register 2: 1 to 5) have seen the same board. A piece that rests on a square for
less than that on its way elsewhere is never reported there, so a client that reads a
move from each status (they set 5 scans of about 98 ms) does not take a slide's waypoint
for a move. The board's own inference does not wait for this: only the reports do.

Wire facts (docs/emulation.md): 38400 baud, 7 data bits, odd parity, 1 stop bit. Every
message is printable ASCII: a command letter, its data, then two upper-case hex digits,
the XOR of the characters before them. The board answers with the lower-case letter.
Received bytes have bit 7 stripped, so a client that puts the parity bit into each byte
itself is understood as well as a serial port that strips it; with `parity_bit` the
board puts it into the bytes it sends (for links that carry 8 bits, like a pty).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from reedboard.rules.squares import Bitboard, Square, squares_of

BAUD: Final = 38400
VERSION: Final = "0105"  # high byte, low byte, each two hex digits

# Command letter -> how many data characters follow before the check digits.
_DATA: Final = {"V": 0, "S": 0, "X": 0, "T": 0, "L": 2 + 81 * 2, "W": 4, "R": 2}
_HEX: Final = frozenset("0123456789ABCDEFabcdef")

# Registers (the board's EEPROM option bytes).
REG_SERIAL: Final = 0x00
REG_SCAN_TIME: Final = 0x01  # units of 2.048 ms; below 15 means 20
# Bits 2..0: 0 a status every scan, 1 none, 2 every report time, 3 on a change, 4..7 on a
# change that 2..5 consecutive scans have seen.
REG_AUTO_REPORT: Final = 0x02
REG_REPORT_TIME: Final = 0x03  # units of 4.096 ms
REG_BRIGHTNESS: Final = 0x04  # 0 dim ... 15 and above full
DEFAULTS: Final = {
    REG_SERIAL: 0,
    REG_SCAN_TIME: 20,
    REG_AUTO_REPORT: 0,
    REG_REPORT_TIME: 20,
    REG_BRIGHTNESS: 15,
}

SCAN_UNIT_MS: Final = 2.048
REPORT_UNIT_MS: Final = 4.096
FASTEST_SCAN: Final = 15  # register 1 below this means the default
REPORT_EVERY_SCAN: Final = 0
REPORT_TIMED: Final = 2
REPORT_ON_CHANGE: Final = 3  # and above: on a change seen by (mode - 2) scans

STEADY: Final = 0xFF  # a pattern byte with every slot on; any other non-zero one blinks
FULL_BRIGHTNESS: Final = 15  # register 4 at this value and above: full
# Register 4 at 0 is dim, not dark: the client still means its LEDs to be seen.
DIMMEST_PERCENT: Final = 25


@dataclass(frozen=True, slots=True)
class LedPattern:
    """The client's `L` (or `X`): a blink pattern byte for each of the 81 corner LEDs in
    the protocol's order, and the slot time in units of 4.096 ms."""

    slot_time: int
    patterns: tuple[int, ...]

    def lit_corners(self) -> frozenset[int]:
        return frozenset(i for i, pattern in enumerate(self.patterns) if pattern)

    def lit_squares(self) -> Bitboard:
        """The squares (ours, a1 = 0) whose four corners all blink or shine. Two squares
        lit with one between them light its corners too: compare corners to be exact."""
        lit = 0
        corners = self.lit_corners()
        for sq in range(64):
            if square_corners(sq) <= corners:
                lit |= 1 << sq
        return lit

    def marked_squares(self) -> tuple[Bitboard, Bitboard]:
        """The squares the client means to light, as (steady, blinking) bitboards.

        A square is lit when its four corners are. Corners are shared, so two squares lit
        with one between them (e2 and e4, as a client shows a move) light that one's
        corners too: a lit square all of whose corners belong to squares that must be lit
        (each owns a lit corner no other lit square has) is taken as lit by its
        neighbours, not by the client. A square shines steady when all four of its
        corners do (pattern byte 0xFF), else it blinks."""
        lit = self.lit_squares()
        candidates = list(squares_of(lit))
        owned: dict[int, int] = {}
        for sq in candidates:
            for corner in square_corners(sq):
                owned[corner] = owned.get(corner, 0) + 1
        chosen = [sq for sq in candidates if any(owned[c] == 1 for c in square_corners(sq))]
        covered: frozenset[int] = frozenset().union(*(square_corners(sq) for sq in chosen))
        for sq in candidates:
            if sq not in chosen and not square_corners(sq) <= covered:
                chosen.append(sq)
                covered |= square_corners(sq)
        steady = blinking = 0
        for sq in chosen:
            if all(self.patterns[c] == STEADY for c in square_corners(sq)):
                steady |= 1 << sq
            else:
                blinking |= 1 << sq
        return steady, blinking


@dataclass(frozen=True, slots=True)
class Brightness:
    """The client wrote the LED brightness register: 0 dim ... 15 and above full."""

    level: int

    @property
    def percent(self) -> int:
        """The share of the board's own brightness the client asks for."""
        level = min(max(self.level, 0), FULL_BRIGHTNESS)
        return DIMMEST_PERCENT + round((100 - DIMMEST_PERCENT) * level / FULL_BRIGHTNESS)


DARK: Final = LedPattern(0, (0,) * 81)


def corner_index(file_line: int, rank_line: int) -> int:
    """The LED number (0..80) of the corner where file line `file_line` (0 left of a,
    8 right of h) meets rank line `rank_line` (0 below rank 1, 8 above rank 8). As real
    clients drive them: LED 0 is the h1 corner, 8 the h8 corner, 72 a1, 80 a8."""
    return (8 - file_line) * 9 + rank_line


def square_corners(sq: Square) -> frozenset[int]:
    """The LED numbers of the four corners of square `sq` (ours, a1 = 0)."""
    file, rank = sq % 8, sq // 8
    return frozenset(corner_index(f, r) for f in (file, file + 1) for r in (rank, rank + 1))


def status_square(index: int) -> Square:
    """The square (ours) of character `index` of a status: h1, g1 ... a1, h2 ... a8."""
    return index // 8 * 8 + 7 - index % 8


def checksum(text: str) -> str:
    value = 0
    for char in text:
        value ^= ord(char)
    return f"{value:02X}"


def encode(text: str, *, parity_bit: bool = False) -> bytes:
    """One message: `text` and its check digits, bit 7 as odd parity if asked."""
    data = (text + checksum(text)).encode("ascii")
    if not parity_bit:
        return data
    return bytes(b | (0x80 if bin(b).count("1") % 2 == 0 else 0) for b in data)


def status_text(shown: list[str]) -> str:
    return "s" + "".join(shown[status_square(i)] or "." for i in range(64))


class ChessLinkBoard:
    def __init__(self, *, parity_bit: bool = False) -> None:
        self.parity_bit = parity_bit
        self.registers: dict[int, int] = dict(DEFAULTS)
        self.shown: list[str] = [""] * 64
        self.bad_messages = 0
        self._buffer = ""
        self._outbox = bytearray()
        self._next_report: int | None = None
        # The board's scans, for reports on a change: when the next one is due, the board
        # as the latest tick left it (what scans until the next tick see), the board the
        # latest scans saw and how many in a row, and the last board reported.
        self._next_scan: float | None = None
        self._board_then = status_text(self.shown)
        self._candidate = self._board_then
        self._seen = 0
        self._reported = self._board_then

    # ----- out -----

    def squares_changed(self, shown: list[str], changes: list[tuple[Square, str]]) -> None:
        """The board is now `shown`, after `changes` (square and piece letter). The
        scans of the next `tick` see it."""
        self.shown = list(shown)

    def tick(self, now_ms: int) -> None:
        """The board's scans up to `now_ms` and the automatic reports they make: a status
        every scan, every report time, or on a change that enough scans have seen."""
        self._scan(now_ms)
        mode = self._report_mode()
        if mode == REPORT_EVERY_SCAN:
            interval = self.scan_ms()
        elif mode == REPORT_TIMED:
            interval = max(1, self.registers[REG_REPORT_TIME]) * REPORT_UNIT_MS
        else:
            self._next_report = None
            return
        if self._next_report is None or now_ms >= self._next_report:
            self._send(status_text(self.shown))
            self._next_report = now_ms + max(1, round(interval))

    def scan_ms(self) -> float:
        """The time of one scan of the board, as register 1 sets it."""
        value = self.registers[REG_SCAN_TIME]
        return (value if value >= FASTEST_SCAN else DEFAULTS[REG_SCAN_TIME]) * SCAN_UNIT_MS

    def debounce_scans(self) -> int | None:
        """How many consecutive scans must see a change before it is reported, or None
        when register 2 asks for no reports on a change."""
        mode = self._report_mode()
        return mode - REPORT_ON_CHANGE + 1 if mode >= REPORT_ON_CHANGE else None

    def data_to_send(self) -> bytes:
        data = bytes(self._outbox)
        self._outbox.clear()
        return data

    def _scan(self, now_ms: int) -> None:
        """The scans since the last tick. A change reaches the codec with the tick that
        follows it, so the scans before `now_ms` saw the board as it was before; a scan
        falling on `now_ms` sees it as it is."""
        period = self.scan_ms()
        if self._next_scan is None:
            self._next_scan = float(now_ms)
        earlier = 0
        if self._next_scan < now_ms:
            earlier = math.ceil((now_ms - self._next_scan) / period)
            self._next_scan += earlier * period
        self._saw(self._board_then, earlier)
        self._board_then = status_text(self.shown)
        if self._next_scan <= now_ms:
            self._next_scan += period
            self._saw(self._board_then, 1)

    def _saw(self, board: str, scans: int) -> None:
        """`scans` more scans in a row saw `board`."""
        if scans <= 0:
            return
        if board != self._candidate:
            self._candidate, self._seen = board, 0
        self._seen += scans
        needed = self.debounce_scans()
        if needed is not None and self._seen >= needed and board != self._reported:
            self._send(board)
            self._reported = board

    def _send(self, text: str) -> None:
        self._outbox += encode(text, parity_bit=self.parity_bit)

    def _report_mode(self) -> int:
        return self.registers[REG_AUTO_REPORT] & 0x07

    # ----- in -----

    def receive_data(self, data: bytes) -> list[LedPattern | Brightness]:
        self._buffer += bytes(b & 0x7F for b in data).decode("ascii")
        commands: list[LedPattern | Brightness] = []
        while self._buffer:
            letter = self._buffer[0]
            size = _DATA.get(letter)
            if size is None:
                self._buffer = self._buffer[1:]  # noise or a line ending between commands
                continue
            if len(self._buffer) < 1 + size + 2:
                break
            text = self._buffer[: 1 + size]
            check = self._buffer[1 + size : 3 + size]
            data_ok = all(c in _HEX for c in text[1:] + check)
            if not data_ok or int(check, 16) != int(checksum(text), 16):
                # Not a message after all: drop the letter and look for the next one.
                self.bad_messages += 1
                self._buffer = self._buffer[1:]
                continue
            self._buffer = self._buffer[3 + size :]
            commands += self._command(letter, text[1:])
        # A client cannot send more than one L's worth without its check digits.
        self._buffer = self._buffer[-(3 + _DATA["L"]) :]
        return commands

    def _command(self, letter: str, data: str) -> list[LedPattern | Brightness]:
        if letter == "V":
            self._send("v" + VERSION)
        elif letter == "S":
            self._send(status_text(self.shown))
        elif letter == "X":
            self._send("x")
            return [DARK]
        elif letter == "L":
            self._send("l")
            values = [int(data[i : i + 2], 16) for i in range(0, len(data), 2)]
            return [LedPattern(values[0], tuple(values[1:]))]
        elif letter == "W":
            address, value = int(data[:2], 16), int(data[2:], 16)
            self.registers[address] = value
            self._next_report = None
            if address == REG_SCAN_TIME:
                self._next_scan = None  # scans at the new pace from the next tick
            if address == REG_AUTO_REPORT:
                # The client knows the board as it stands: from now on, changes to it.
                self._reported = status_text(self.shown)
            self._send("w" + data.upper())
            if address == REG_BRIGHTNESS:
                return [Brightness(value)]
        elif letter == "R":
            address = int(data, 16)
            self._send(f"r{address:02X}{self.registers.get(address, 0):02X}")
        elif letter == "T":
            # A hardware reset on the real board: no answer, registers and LEDs cleared.
            self.registers = dict(DEFAULTS)
            self._next_report = None
            self._next_scan = None
            return [DARK, Brightness(DEFAULTS[REG_BRIGHTNESS])]
        return []
