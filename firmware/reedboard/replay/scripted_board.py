"""A fake board played from an event script: the script's sensor changes are applied to a
fake switch matrix at their times, and the firmware reads it through its scanner like a
real board. By default the real `MatrixScanner` code reads a `FakeGPIO` wired like the
board's matrix; `electrical=False` reads the occupancy directly (faster, for long
test runs)."""

from __future__ import annotations

from collections.abc import Sequence

from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.replay.script import Script
from reedboard.rules.squares import Bitboard, squares_of


class ScriptedBoard:
    """A `SwitchMatrix` whose switches follow a script; `advance(t_ms)` applies the lines
    due by then and returns the host's and the players' own actions among them: the
    promotion choices (`choose` lines, q r b n) and the clock presses (white, black)."""

    def __init__(
        self,
        script: Script,
        *,
        rows: Sequence[int] = FAKE_ROWS,
        columns: Sequence[int] = FAKE_COLUMNS,
        layout: MatrixLayout | None = None,
        electrical: bool = True,
    ) -> None:
        """`rows`, `columns` and `layout`: the matrix's wiring, as `MatrixScanner` takes it."""
        self.script = script
        self.occupancy: Bitboard = script.first_sensors
        self._next = 0
        self._scanner: MatrixScanner | None = None
        if electrical:
            self._layout = layout or MatrixLayout()
            self._gpio = FakeGPIO(rows, columns)
            self._scanner = MatrixScanner(self._gpio, rows, columns, self._layout, sleep=_no_wait)
            self._show()

    @property
    def done(self) -> bool:
        return self._next >= len(self.script.lines)

    @property
    def end_ms(self) -> int:
        return self.script.end_ms

    def next_change_ms(self) -> int | None:
        lines = self.script.lines
        return lines[self._next].t_ms if self._next < len(lines) else None

    def advance(self, t_ms: int) -> list[str]:
        choices: list[str] = []
        lines = self.script.lines
        changed = False
        while self._next < len(lines) and lines[self._next].t_ms <= t_ms:
            line = lines[self._next]
            self._next += 1
            if line.action == "choose":
                choices.append(line.piece)
                continue
            if line.action == "press":
                choices.append(line.side)
                continue
            bit = 1 << line.square
            self.occupancy = (
                self.occupancy | bit if line.action == "place" else self.occupancy & ~bit
            )
            changed = True
        if changed and self._scanner is not None:
            self._show()
        return choices

    def scan(self) -> Bitboard:
        if self._scanner is not None:
            return self._scanner.scan()
        return self.occupancy

    def _show(self) -> None:
        self._gpio.set_closed(self._layout.cell_of(sq) for sq in squares_of(self.occupancy))

    def close(self) -> None:
        if self._scanner is not None:
            self._scanner.close()


def _no_wait(_seconds: float) -> None:
    """A fake matrix settles at once."""
