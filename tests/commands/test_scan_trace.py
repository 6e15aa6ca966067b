"""`reedboard scan --trace SQUARE`: each change on a square and its neighbours as a piece
slides across, read by the real scanner on the fake matrix."""

from __future__ import annotations

import io

import pytest
from reedboard.cli import main
from reedboard.commands.scan_trace import changes, neighbourhood, trace
from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import bitboard_of, parse_square, square_names_of


def test_the_neighbourhood_is_the_square_and_those_around_it() -> None:
    assert square_names_of(neighbourhood(parse_square("a1"))) == ["a1", "b1", "a2", "b2"]
    assert len(square_names_of(neighbourhood(parse_square("e4")))) == 9


def test_a_piece_slid_across_e4_is_traced_change_by_change() -> None:
    layout = MatrixLayout()
    gpio = FakeGPIO(FAKE_ROWS, FAKE_COLUMNS)
    # A piece slid from d4 across e4 to f4, scan by scan; c6 is outside the watch.
    path = [["d4"], ["d4", "e4"], ["e4"], ["e4", "c6"], ["f4"], []]
    steps = iter(path)
    clock = iter(float(t) for t in range(100))

    def advance(_seconds: float) -> None:
        gpio.set_closed(layout.cell_of(parse_square(n)) for n in next(steps))

    advance(0)
    out = io.StringIO()
    scanner = MatrixScanner(gpio, FAKE_ROWS, FAKE_COLUMNS, layout, sleep=lambda _s: None)
    with scanner:
        trace(scanner, parse_square("e4"), out, period_s=0.005, clock=lambda: next(clock),
              sleep=advance, max_scans=len(path))  # fmt: skip
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("tracing e4 and its neighbours (d3, e3, f3, d4, f4, d5, e5, f5)")
    assert [line.split(" s  ", 1)[1] for line in lines[1:]] == [
        "e4 closed  (closed: d4, e4)",
        "d4 opened  (closed: e4)",
        "e4 opened; f4 closed  (closed: f4)",
        "f4 opened  (closed: none)",
    ]


def test_changes_name_what_opened_and_closed() -> None:
    e4, d4 = parse_square("e4"), parse_square("d4")
    assert changes(bitboard_of([d4]), bitboard_of([e4]), neighbourhood(e4)) == [
        "d4 opened",
        "e4 closed",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fake", "--trace", "e4,e5"], "--trace: give one square"),
        (["--fake", "--trace", "z9"], "--trace: 'z9' is not a square"),
        (["--fake", "--trace", "e4", "--watch"], "--trace runs on its own"),
    ],
)
def test_bad_trace_options_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["scan", *args]) == 2
    assert message in capsys.readouterr().err
