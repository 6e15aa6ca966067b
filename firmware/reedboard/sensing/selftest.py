"""The start-up self-test: compare what the switches read with what should stand there.

Run it on the first scans after power-on (with the pieces in the start position, or the
board empty) and it names what is wrong in the maker's terms: the squares, the matrix lines
(ROW1..ROW8, COL1..COL8 as on the circuit) and their GPIO pins. Whole-line patterns are
reported as one line fault rather than 8 square faults, because that is what to repair:

- a row line that reads nothing although pieces stand on it: its wire is broken or its pin
  dead; the same for a column line;
- a row line that reaches every column, or a column that reads HIGH whichever row is
  driven: a short;
- squares that read occupied without a piece, exactly as one missing or reversed diode
  would make them read (the matrix model says so, `sensing.diode_check`): that diode is
  named, with the rectangle that revealed it; or as a board without diodes reads;
- an extra square at the fourth corner of a rectangle whose three other corners hold
  pieces, when no single diode explains the reading: a ghost, a diode there is missing;
- a square that changes between scans taken with nothing moving: a flaky switch or joint;
- a reading that is exactly the pieces seen through another orientation, or through two
  row (or two column) wires swapped at the Pi (`sensing.miswiring`): that is named alone,
  since every switch and diode then reads, only on the wrong squares.

Switches already known to be closed (`already_closed`: what an empty board read) count as
pieces, so a fault named once is not blamed on the parts around it later.

What remains is per square: stuck occupied (switch welded closed, a stray magnet) or stuck
empty (switch cracked or misplaced, magnet too weak or too far).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reedboard.errors import HardwareError
from reedboard.hal.matrix_layout import MatrixWiring
from reedboard.rules.squares import Bitboard, Square, bitboard_of, square_name, squares_of
from reedboard.sensing.diode_check import GhostExplanation, explain_ghosts
from reedboard.sensing.miswiring import find_miswiring


@dataclass(frozen=True)
class Fault:
    """One thing wrong: what kind, which squares and GPIO pins it concerns, in words."""

    kind: str  # row_dead, column_dead, row_short, column_short, diode, no_diodes, ghost,
    # unstable, stuck_occupied, stuck_empty, miswired
    squares: tuple[Square, ...]
    pins: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class SelfTestReport:
    faults: tuple[Fault, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.faults

    def lines(self) -> list[str]:
        if self.ok:
            return ["self-test passed: all 64 squares read as expected"]
        count = len(self.faults)
        return [f"self-test found {count} fault{'s' if count > 1 else ''}:"] + [
            f"  {fault.message}" for fault in self.faults
        ]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def raise_if_faulty(self) -> None:
        """Raise `HardwareError` with the whole report when anything is wrong."""
        if not self.ok:
            raise HardwareError(str(self))


def self_test(
    scans: Bitboard | Sequence[Bitboard],
    expected: Bitboard,
    wiring: MatrixWiring,
    *,
    already_closed: Bitboard = 0,
) -> SelfTestReport:
    """Check one scan, or several taken with nothing moving, against `expected`; the
    switches in `already_closed` are known to be closed (a fault named before)."""
    scan_list = [scans] if isinstance(scans, int) else list(scans)
    return _Checker(wiring).run(scan_list, expected | already_closed)


@dataclass(frozen=True, slots=True)
class SwitchPlace:
    """Where a switch sits on the matrix: its row and column lines (`ROW3`, `COL5`), their
    GPIO pins, and the two in words as the self-test names them."""

    row: str
    column: str
    pins: tuple[int, ...]
    where: str


def switch_place(square: Square, wiring: MatrixWiring) -> SwitchPlace:
    """Where `square`'s switch sits on the matrix, for a fault found during play."""
    checker = _Checker(wiring)
    row, column = checker.layout.cell_of(square)
    return SwitchPlace(
        f"ROW{row + 1}",
        f"COL{column + 1}",
        tuple(checker.pins_of((square,))),
        checker.where(square),
    )


# A matrix line: "row" or "column", its index, its squares, its name, its GPIO pin.
_Line = tuple[str, int, tuple[Square, ...], str, tuple[int, ...]]


@dataclass
class _Found:
    """The faults found so far, and the squares they account for."""

    faults: list[Fault] = field(default_factory=list)
    explained: Bitboard = 0

    def add(self, fault: Fault, explains: Bitboard) -> None:
        self.faults.append(fault)
        self.explained |= explains


class _Checker:
    def __init__(self, wiring: MatrixWiring) -> None:
        self.wiring = wiring
        self.layout = wiring.layout

    def row_name(self, row: int) -> str:
        return f"ROW{row + 1} (GPIO{self.wiring.rows[row]})"

    def column_name(self, column: int) -> str:
        return f"COL{column + 1} (GPIO{self.wiring.columns[column]})"

    def where(self, sq: Square) -> str:
        row, column = self.layout.cell_of(sq)
        return f"{square_name(sq)} ({self.row_name(row)} x {self.column_name(column)})"

    def pins_of(self, squares: Sequence[Square]) -> tuple[int, ...]:
        pins: set[int] = set()
        for sq in squares:
            row, column = self.layout.cell_of(sq)
            pins.update((self.wiring.rows[row], self.wiring.columns[column]))
        return tuple(sorted(pins))

    def run(self, scans: list[Bitboard], expected: Bitboard) -> SelfTestReport:
        if not scans:
            raise ValueError("the self-test needs at least one scan")
        always = ever = scans[0]
        for scan in scans[1:]:
            always &= scan
            ever |= scan
        if always == ever and (miswired := self._miswired(always, expected)):
            return SelfTestReport((miswired,))
        # In this order: each kind of fault leaves out the squares an earlier one explains.
        found = _Found()
        self._unstable(found, ever & ~always)
        lines = self._lines()
        # Dead lines first: the diode model then leaves their pins out.
        dead_rows, dead_columns = self._dead_lines(found, lines, ever, expected)
        if always & ~expected & ~found.explained:
            self._diodes(found, always, expected, dead_rows, dead_columns)
        self._shorts(found, lines, always, expected)
        self._extra(found, always & ~expected & ~found.explained, always | expected)
        self._missing(found, expected & ~ever & ~found.explained)
        return SelfTestReport(tuple(found.faults))

    def _miswired(self, reading: Bitboard, expected: Bitboard) -> Fault | None:
        """The whole reading as another orientation or two swapped lines give it."""
        explanations = find_miswiring(reading, expected, self.wiring)
        if not explanations:
            return None
        pins = tuple(sorted({pin for e in explanations for pin in e.pins}))
        message = "; or ".join(e.message for e in explanations)
        return Fault("miswired", tuple(squares_of(reading ^ expected)), pins, message)

    def _unstable(self, found: _Found, unstable: Bitboard) -> None:
        if not unstable:
            return
        squares = tuple(squares_of(unstable))
        names = ", ".join(self.where(sq) for sq in squares)
        found.add(
            Fault(
                "unstable",
                squares,
                self.pins_of(squares),
                f"flickering with nothing moving: {names}",
            ),
            unstable,
        )

    def _dead_lines(
        self, found: _Found, lines: list[_Line], ever: Bitboard, expected: Bitboard
    ) -> tuple[int, int]:
        """Lines that never read although pieces stand on them; returns the dead rows and
        the dead columns, one bit per line."""
        dead = {"row": 0, "column": 0}
        for kind, line, members, name, pins in lines:
            bits = bitboard_of(members)
            wanted = (expected & bits).bit_count()
            if not ever & bits and wanted >= 2:
                found.add(
                    Fault(
                        f"{kind}_dead",
                        members,
                        pins,
                        f"{kind} line {name} reads nothing although {wanted} pieces stand "
                        "on it: broken wire, dry joint or dead pin",
                    ),
                    bits,
                )
                dead[kind] |= 1 << line
        return dead["row"], dead["column"]

    def _diodes(
        self,
        found: _Found,
        always: Bitboard,
        expected: Bitboard,
        dead_rows: int,
        dead_columns: int,
    ) -> None:
        """Squares read occupied without a piece, as one faulty diode (or none) explains."""
        ghosts = explain_ghosts(
            always, expected, self.layout, dead_rows=dead_rows, dead_columns=dead_columns
        )
        if ghosts is None:
            return
        explained = ghosts.ghosts
        if ghosts.fault == "reversed" and ghosts.square is not None:
            explained |= 1 << ghosts.square
        found.add(self._diode_fault(ghosts), explained)

    def _shorts(
        self, found: _Found, lines: list[_Line], always: Bitboard, expected: Bitboard
    ) -> None:
        """Lines that read every square they cross, some of which should be empty."""
        for kind, _line, members, name, pins in lines:
            bits = bitboard_of(members)
            wanted = (expected & bits).bit_count()
            if always & bits == bits and wanted < 8 and bits & ~expected & ~found.explained:
                cause = (
                    "reaches every column: a short between it and the column lines"
                    if kind == "row"
                    else "reads HIGH whichever row is driven: shorted to 3.3 V or to the "
                    "row lines, or its pull-down is not working"
                )
                found.add(
                    Fault(f"{kind}_short", members, pins, f"{kind} line {name} {cause}"), bits
                )

    def _extra(self, found: _Found, extra: Bitboard, closed: Bitboard) -> None:
        """Squares still unexplained that read occupied without a piece: ghosts of a
        rectangle, or stuck switches."""
        for sq in squares_of(extra):
            corners = self._ghost_corners(sq, closed)
            if corners:
                names = ", ".join(square_name(c) for c in corners)
                found.faults.append(
                    Fault(
                        "ghost",
                        (sq, *corners),
                        self.pins_of((sq, *corners)),
                        f"{self.where(sq)} reads occupied but should be empty, and {names} "
                        "close a rectangle with it: a ghost, so a diode on one of those "
                        "squares is missing or reversed (the one opposite the ghost, "
                        f"{square_name(corners[1])}, if only one is)",
                    )
                )
            else:
                found.faults.append(
                    Fault(
                        "stuck_occupied",
                        (sq,),
                        self.pins_of((sq,)),
                        f"{self.where(sq)} reads occupied but should be empty: switch stuck "
                        "closed, a short, or a stray magnet",
                    )
                )

    def _missing(self, found: _Found, missing: Bitboard) -> None:
        for sq in squares_of(missing):
            found.faults.append(
                Fault(
                    "stuck_empty",
                    (sq,),
                    self.pins_of((sq,)),
                    f"{self.where(sq)} reads empty but should be occupied: switch open or "
                    "cracked, diode reversed, or the magnet too weak or too far",
                )
            )

    def _lines(self) -> list[_Line]:
        """Every matrix line: row or column, its index, its squares, its name, its pin."""
        lines: list[_Line] = []
        for line in range(8):
            lines.append(
                (
                    "row",
                    line,
                    self.layout.squares_on_row(line),
                    self.row_name(line),
                    (self.wiring.rows[line],),
                )
            )
            lines.append(
                (
                    "column",
                    line,
                    self.layout.squares_on_column(line),
                    self.column_name(line),
                    (self.wiring.columns[line],),
                )
            )
        return lines

    def _diode_fault(self, found: GhostExplanation) -> Fault:
        ghosts = tuple(squares_of(found.ghosts))
        ghost_names = ", ".join(square_name(sq) for sq in ghosts)
        reads = "reads" if len(ghosts) == 1 else "read"
        if found.square is None:
            if len(ghosts) > 6:
                shown = ", ".join(square_name(sq) for sq in ghosts[:4])
                ghost_names = f"{len(ghosts)} squares ({shown} ...)"
            return Fault(
                "no_diodes",
                ghosts,
                self.pins_of(ghosts),
                f"{ghost_names} {reads} occupied without a piece, exactly as a matrix without "
                "diodes reads: fit a diode in series with every reed, band (cathode) towards "
                "the column line",
            )
        diode = found.square
        rectangles = "; ".join(" ".join(square_name(c) for c in rect) for rect in found.rectangles)
        if found.fault == "reversed":
            what = (
                f"the diode at {self.where(diode)} is reversed: {square_name(diode)} reads "
                f"empty with its piece on it and {ghost_names} {reads} occupied without one"
            )
            fix = "turn it round"
        else:
            what = (
                f"the diode at {self.where(diode)} is missing or shorted: {ghost_names} "
                f"{reads} occupied without a piece"
            )
            fix = "fit it"
        return Fault(
            "diode",
            (diode, *ghosts),
            self.pins_of((diode, *ghosts)),
            f"{what}, the ghost of the rectangle {rectangles}; {fix}, band (cathode) towards "
            "the column line",
        )

    def _ghost_corners(self, sq: Square, closed: Bitboard) -> tuple[Square, ...]:
        row, column = self.layout.cell_of(sq)
        at = self.layout.square_at
        for other_row in range(8):
            if other_row == row or not closed >> at(other_row, column) & 1:
                continue
            for other_column in range(8):
                if other_column == column:
                    continue
                if (
                    closed >> at(row, other_column) & 1
                    and closed >> at(other_row, other_column) & 1
                ):
                    return (
                        at(row, other_column),
                        at(other_row, other_column),
                        at(other_row, column),
                    )
        return ()
