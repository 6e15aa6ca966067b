"""The DGT board protocol, board end: a pure codec in the manner of `link/board.py`.

`receive_data(bytes)` takes the client's command bytes and returns what the board must
act on (`LedCommand`s); everything the protocol answers by itself (board dump, clock,
version, serial numbers, trademark, battery) is queued at once. `squares_changed` queues
field updates while the client has asked for updates; `clock_changed` and `tick(now_ms)`
queue the clock (`BWTIME`, see `dgt_clock.py`) as a board with a DGT3000 sends it in the
update modes that carry it: in `43` at least once a second, in `4b` when it changed.
`data_to_send()` hands over the bytes.

Wire facts (docs/emulation.md): 9600 baud 8N1. A message is its id with bit 7 set, a
14-bit length in two 7-bit bytes (high first) that counts the 3 header bytes, then the
data. DGT numbers squares a8 = 0, b8 = 1 ... h1 = 63; ours are a1 = 0 ... h8 = 63.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from reedboard.link.dgt_clock import ClockReading, bwtime_body, clock_ack
from reedboard.rules.squares import Square

BAUD: Final = 9600

# Commands (client -> board).
RESET: Final = 0x40
SEND_CLOCK: Final = 0x41
SEND_BOARD: Final = 0x42
SEND_UPDATE: Final = 0x43
SEND_UPDATE_BOARD: Final = 0x44
RETURN_SERIALNR: Final = 0x45
RETURN_BUSADDRESS: Final = 0x46
SEND_TRADEMARK: Final = 0x47
SEND_BATTERY: Final = 0x4C
SEND_VERSION: Final = 0x4D
SEND_UPDATE_NICE: Final = 0x4B
RETURN_LONG_SERIALNR: Final = 0x55
CLOCK_MESSAGE: Final = 0x2B  # followed by a length byte and that many bytes
CLOCK_START: Final = 0x03  # the first of a clock message's bytes
SET_LEDS: Final = 0x60  # Revelation II: followed by a length byte and that many bytes

# Messages (board -> client), bit 7 already set.
BOARD_DUMP: Final = 0x86
BWTIME: Final = 0x8D
FIELD_UPDATE: Final = 0x8E
SERIALNR: Final = 0x91
TRADEMARK: Final = 0x92
VERSION: Final = 0x93
BATTERY_STATUS: Final = 0xA0
LONG_SERIALNR: Final = 0xA2

PIECE_CODES: Final = {
    "": 0,
    "P": 1,
    "R": 2,
    "N": 3,
    "B": 4,
    "K": 5,
    "Q": 6,
    "p": 7,
    "r": 8,
    "n": 9,
    "b": 10,
    "k": 11,
    "q": 12,
}
LETTERS: Final = {code: letter for letter, code in PIECE_CODES.items()}

# Commands with a length byte and a body; the rest are one byte.
_WITH_BODY: Final = (CLOCK_MESSAGE, SET_LEDS)
_MAX_BODY: Final = 64  # clock and LED commands are a few bytes long
_UPDATE_MODES: Final = (SEND_UPDATE, SEND_UPDATE_BOARD, SEND_UPDATE_NICE)
_CLOCK_EVERY_MS: Final = 1000  # mode 43 sends the clock at least this often
_VERSION: Final = (1, 7)
_SERIAL: Final = "0000000001"  # 10 digits; the short form is the last 5
_TRADEMARK: Final = "reedboard presence-sensing board, DGT board protocol emulation"


@dataclass(frozen=True, slots=True)
class LedCommand:
    """The client's LED wish: the squares (ours, a1 = 0) of a move to show (from, to), or
    None for all off."""

    from_to: tuple[Square, Square] | None


def dgt_square(sq: Square) -> int:
    """Our square (a1 = 0) in DGT's numbering (a8 = 0)."""
    return (7 - sq // 8) * 8 + sq % 8


def our_square(number: int) -> Square:
    """A DGT square number (a8 = 0) as ours (a1 = 0)."""
    return (7 - number // 8) * 8 + number % 8


def message(kind: int, data: bytes) -> bytes:
    size = 3 + len(data)
    return bytes((kind, size >> 7 & 0x7F, size & 0x7F)) + data


def board_dump(shown: list[str]) -> bytes:
    """The 64 piece codes, a8 first, then b8 ... h1."""
    return message(BOARD_DUMP, bytes(PIECE_CODES[shown[our_square(n)]] for n in range(64)))


def field_update(sq: Square, piece: str) -> bytes:
    return message(FIELD_UPDATE, bytes((dgt_square(sq), PIECE_CODES[piece])))


class DgtBoard:
    def __init__(self) -> None:
        self.updates = False  # idle until the client asks for an update mode
        self.mode = RESET  # the update mode asked for last (RESET: idle)
        self.clock: ClockReading | None = None  # None: an untimed game, no clock to report
        self._now_ms = 0
        self._clock_sent: tuple[bytes, int] | None = None  # the last BWTIME body, when
        self.shown: list[str] = [""] * 64
        self._pending = bytearray()  # a command whose body has not all arrived
        self._outbox = bytearray()
        self.ignored = 0

    # ----- out -----

    def squares_changed(self, shown: list[str], changes: list[tuple[Square, str]]) -> None:
        """The board the client may ask for is now `shown`, after `changes` (square and
        piece letter, in order)."""
        self.shown = list(shown)
        if self.updates:
            for sq, piece in changes:
                self._outbox += field_update(sq, piece)

    def clock_changed(self, reading: ClockReading | None) -> None:
        """The game's clocks now read `reading` (a move, a press, time added, a state)."""
        self.clock = reading
        self.tick(max(self._now_ms, reading.at_ms) if reading is not None else self._now_ms)

    def tick(self, now_ms: int) -> None:
        """Time passes: in an update mode that carries the clock, send it when it shows
        another second, status or time than last sent (mode 43: also once a second)."""
        self._now_ms = max(self._now_ms, now_ms)
        if self.clock is None or self.mode not in (SEND_UPDATE, SEND_UPDATE_NICE):
            return
        body = bwtime_body(self.clock, self._now_ms)
        sent = self._clock_sent
        due = sent is not None and self._now_ms - sent[1] >= _CLOCK_EVERY_MS
        if sent is None or sent[0] != body or (due and self.mode == SEND_UPDATE):
            self._send_clock(body)

    def _send_clock(self, body: bytes) -> None:
        self._outbox += message(BWTIME, body)
        self._clock_sent = (body, self._now_ms)

    def data_to_send(self) -> bytes:
        data = bytes(self._outbox)
        self._outbox.clear()
        return data

    # ----- in -----

    def receive_data(self, data: bytes) -> list[LedCommand]:
        commands: list[LedCommand] = []
        buffer = self._pending + data
        i = 0
        while i < len(buffer):
            byte = buffer[i]
            if byte in _WITH_BODY:
                if i + 1 >= len(buffer):
                    break  # wait for the length
                if buffer[i + 1] > _MAX_BODY:
                    i += 1  # no such command: a stray byte must not swallow what follows
                    self.ignored += 1
                    continue
                if i + 2 + buffer[i + 1] > len(buffer):
                    break  # wait for the rest
                body = bytes(buffer[i + 2 : i + 2 + buffer[i + 1]])
                i += 2 + len(body)
                if byte == SET_LEDS:
                    led = _leds(body)
                    if led is not None:
                        commands.append(led)
                elif byte == CLOCK_MESSAGE:
                    self._clock_command(body)
                continue
            i += 1
            self._command(byte)
        self._pending = bytearray(buffer[i:])
        return commands

    def _clock_command(self, body: bytes) -> None:
        """A command for the clock (start byte 03, the command, its content, 00): in a
        timed game, in the update modes that carry the clock, acknowledged as a DGT3000
        does; its text and beeps have no display here, and its times none either (the
        game's clock is the board's)."""
        if len(body) < 2 or body[0] != CLOCK_START or self.clock is None:
            return
        if self.mode in (SEND_UPDATE, SEND_UPDATE_NICE):
            self._outbox += message(BWTIME, clock_ack(body[1]))

    def _command(self, byte: int) -> None:
        if byte == RESET:
            self.updates, self.mode = False, RESET
        elif byte == SEND_BOARD:
            self._outbox += board_dump(self.shown)
        elif byte in _UPDATE_MODES:
            self.updates, self.mode = True, byte
            self._clock_sent = None  # the clock's modes start with the clock
            self.tick(self._now_ms)
        elif byte == SEND_CLOCK and self.clock is not None:
            self._send_clock(bwtime_body(self.clock, self._now_ms))
        elif byte == RETURN_SERIALNR:
            self._outbox += message(SERIALNR, _SERIAL[-5:].encode("ascii"))
        elif byte == RETURN_LONG_SERIALNR:
            self._outbox += message(LONG_SERIALNR, _SERIAL.encode("ascii"))
        elif byte == SEND_TRADEMARK:
            self._outbox += message(TRADEMARK, _TRADEMARK.encode("ascii"))
        elif byte == SEND_VERSION:
            self._outbox += message(VERSION, bytes(_VERSION))
        elif byte == SEND_BATTERY:
            # Powered from its host: always full, not charging (9 status bytes).
            self._outbox += message(BATTERY_STATUS, bytes((100, 0, 0, 0, 0, 0, 0, 0, 0)))
        else:
            # A clock request in an untimed game, bus mode, EEPROM moves, bootloader and
            # anything unknown: a board without a clock or memory has nothing to say.
            self.ignored += 1


def _leds(body: bytes) -> LedCommand | None:
    """A Revelation II LED command body: mode, from, to, 0. Mode 0 turns them off."""
    if not body:
        return None
    if body[0] == 0:
        return LedCommand(None)
    if len(body) < 3 or body[1] > 63 or body[2] > 63:
        return None
    return LedCommand((our_square(body[1]), our_square(body[2])))
