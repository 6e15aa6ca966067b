"""Event scripts: what a board's sensors saw, one change of one square per line.

The format is fixed (docs/reference.md, under `reedboard replay`): `@start`, `@mode` and `@clock`
headers (and `@sensors <16 hex digits>`, what the sensors read at the start when that is
not the start position, as a board's own record may say), then `<t_ms> lift|place
<square>`, `<t_ms> choose <q|r|b|n>`, `<t_ms> press white|black` and `<t_ms> add
white|black:<ms>` (time the arbiter added to a clock) lines, `#` comments.
Parsing is strict: a script that cannot be read raises `ScriptError` naming the line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from reedboard.chess_clock.time_control import TimeControl, parse_time_control
from reedboard.errors import InvalidInputError, ScriptError
from reedboard.hal.sensor_line import MAX_ADDED_MS, SensorLine, added_time
from reedboard.reader.mode import MODES
from reedboard.rules.chess960 import chess960_fen
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Bitboard, Square, parse_square

SIDES = ("white", "black")
PROMOTION_LETTERS = "qrbn"


@dataclass(frozen=True)
class Script:
    start: Position
    start_label: str  # "standard", "chess960 N" or "fen <FEN>"
    mode: str | None
    lines: tuple[SensorLine, ...]
    sensors: Bitboard | None = None  # what the sensors read at the start, if not `start`'s
    clock: TimeControl | None = None  # a timed game's control (`@clock`)

    @property
    def clock_buttons(self) -> bool:
        """Whether the players press a clock (`press` lines): then the press stops a
        player's time, not the move."""
        return any(line.action == "press" for line in self.lines)

    @property
    def first_sensors(self) -> Bitboard:
        return self.start.occupied if self.sensors is None else self.sensors

    @property
    def end_ms(self) -> int:
        return self.lines[-1].t_ms if self.lines else 0


def parse_script(text: str) -> Script:
    reader = ScriptReader()
    for line_no, raw in enumerate(text.splitlines(), start=1):
        reader.read(raw, line_no)
    return reader.script()


class ScriptReader:
    """A script read so far, line by line (a whole file, or a stream as it comes): its
    headers, then its timed lines checked against the sensors they change."""

    def __init__(self) -> None:
        self.start = Position.standard()
        self.label = "standard"
        self.mode: str | None = None
        self.lines: list[SensorLine] = []
        self.sensors: Bitboard | None = None
        self.clock: TimeControl | None = None
        self.occupancy: Bitboard | None = None  # the sensors as the lines so far leave them
        self.last_t = 0
        self.seen_start = False

    def read(self, raw: str, line_no: int) -> SensorLine | None:
        """Take in one line of the script; the timed line it adds, if any. Raises
        `ScriptError` naming the line, and then nothing of it is kept."""
        line = raw.split("#", 1)[0].strip()
        if not line:
            return None
        words = line.split()
        if words[0].startswith("@"):
            self.header(words, line_no)
            return None
        self.timed(words, line, line_no)
        return self.lines[-1]

    def script(self) -> Script:
        """The script as read so far."""
        return Script(
            self.start, self.label, self.mode, tuple(self.lines), self.sensors, self.clock
        )

    def header(self, words: list[str], line_no: int) -> None:
        if self.lines:
            raise ScriptError(f"line {line_no}: header {words[0]} after the first timed line")
        if words[0] == "@start":
            if self.seen_start:
                raise ScriptError(f"line {line_no}: a second @start")
            self.seen_start = True
            self.start, self.label = _parse_start(words[1:], line_no)
        elif words[0] == "@mode":
            if len(words) != 2 or words[1] not in MODES:
                raise ScriptError(f"line {line_no}: @mode is casual or strict")
            self.mode = words[1]
        elif words[0] == "@clock":
            self.clock = _parse_clock(words[1:], line_no)
        elif words[0] == "@sensors":
            self.sensors = _parse_sensors(words[1:], line_no)
        else:
            raise ScriptError(f"line {line_no}: unknown header {words[0]!r}")

    def timed(self, words: list[str], line: str, line_no: int) -> None:
        self.lines.append(self._timed_line(words, line, line_no))
        self.last_t = self.lines[-1].t_ms

    def _timed_line(self, words: list[str], line: str, line_no: int) -> SensorLine:
        if len(words) != 3:
            raise ScriptError(
                f"line {line_no}: expected '<t_ms> lift|place <square>', '<t_ms> choose <q|r|b|n>'"
                f" or '<t_ms> press white|black', got {line!r}"
            )
        t_text, action, arg = words
        t_ms = self._time(t_text, line_no)
        if action == "choose":
            if arg not in PROMOTION_LETTERS:
                raise ScriptError(f"line {line_no}: choose takes q, r, b or n, not {arg!r}")
            return SensorLine(t_ms, "choose", arg)
        if action == "press":
            if arg not in SIDES:
                raise ScriptError(f"line {line_no}: press takes white or black, not {arg!r}")
            return SensorLine(t_ms, "press", arg)
        if action == "add":
            if added_time(arg) is None:
                raise ScriptError(
                    f"line {line_no}: add takes white:<ms> or black:<ms>, 1..{MAX_ADDED_MS}"
                    f" ms, not {arg!r}"
                )
            return SensorLine(t_ms, "add", arg)
        if action not in ("lift", "place"):
            raise ScriptError(
                f"line {line_no}: unknown action {action!r} (lift, place, choose, press, add)"
            )
        self._sensor_change(action, arg, line_no)
        return SensorLine(t_ms, "lift" if action == "lift" else "place", arg)

    def _time(self, t_text: str, line_no: int) -> int:
        if not t_text.isdigit():
            raise ScriptError(f"line {line_no}: the time {t_text!r} is not a whole number of ms")
        t_ms = int(t_text)
        if t_ms < self.last_t:
            raise ScriptError(
                f"line {line_no}: time goes backwards ({t_ms} ms after {self.last_t} ms)"
            )
        return t_ms

    def _sensor_change(self, action: str, arg: str, line_no: int) -> Square:
        """The square a lift or place changes, which must read the other way before it."""
        if arg not in SQUARE_NAMES:
            raise ScriptError(f"line {line_no}: {arg!r} is not a square (a1 .. h8)")
        square = parse_square(arg)
        if self.occupancy is None:  # the first change: the headers are all read
            self.occupancy = self.start.occupied if self.sensors is None else self.sensors
        occupied = bool(self.occupancy >> square & 1)
        if action == "lift" and not occupied:
            raise ScriptError(
                f"line {line_no}: lift {arg}, but the sensor on {arg} already reads empty"
            )
        if action == "place" and occupied:
            raise ScriptError(
                f"line {line_no}: place {arg}, but the sensor on {arg} already reads occupied"
            )
        self.occupancy ^= 1 << square
        return square


def _parse_clock(words: list[str], line_no: int) -> TimeControl:
    if len(words) != 1:
        raise ScriptError(f"line {line_no}: @clock takes one time control (5+3, 90/40:30+30)")
    try:
        return parse_time_control(words[0])
    except InvalidInputError as error:
        raise ScriptError(f"line {line_no}: {error}") from None


def _parse_sensors(words: list[str], line_no: int) -> Bitboard:
    text = words[0] if len(words) == 1 else ""
    if len(text) != 16 or any(c not in "0123456789abcdef" for c in text):
        raise ScriptError(f"line {line_no}: @sensors takes 16 lower-case hex digits (a bitboard)")
    return int(text, 16)


def _parse_start(words: list[str], line_no: int) -> tuple[Position, str]:
    if words == ["standard"]:
        return Position.from_fen(STARTING_FEN), "standard"
    if len(words) == 2 and words[0] == "chess960":
        if not words[1].isdigit() or not 0 <= int(words[1]) <= 959:
            raise ScriptError(
                f"line {line_no}: @start chess960 takes a number 0..959, not {words[1]!r}"
            )
        number = int(words[1])
        return Position.from_fen(chess960_fen(number), chess960=True), f"chess960 {number}"
    if len(words) >= 2 and words[0] == "fen":
        fen = " ".join(words[1:])
        try:
            return Position.from_fen(fen), f"fen {fen}"
        except InvalidInputError as error:
            raise ScriptError(f"line {line_no}: bad FEN: {error}") from None
    raise ScriptError(f"line {line_no}: @start is 'standard', 'chess960 <N>' or 'fen <FEN>'")


def format_script(
    script_lines: Iterable[SensorLine],
    start_label: str = "standard",
    mode: str | None = None,
    sensors: Bitboard | None = None,
    clock: TimeControl | None = None,
) -> str:
    """Text of a script from its lines: the inverse of parsing."""
    out = [f"@start {start_label}"]
    if mode:
        out.append(f"@mode {mode}")
    if clock is not None:
        out.append(f"@clock {clock.text()}")
    if sensors is not None:
        out.append(f"@sensors {sensors:016x}")
    out += [line.text() for line in script_lines]
    return "\n".join(out) + "\n"
