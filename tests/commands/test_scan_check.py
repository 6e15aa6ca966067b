"""`reedboard scan --check`: the build check on a recording strip and the fake matrix, read
by the real scanner, and through the command line."""

from __future__ import annotations

import io

import pytest
from reedboard.cli import main
from reedboard.commands.scan_check import run_check
from reedboard.config import LedConfig, MatrixConfig
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights import led_test
from reedboard.lights.output import LightsOutput
from reedboard.lights.palette import PALETTE
from reedboard.rules.squares import Bitboard, parse_square, squares_of
from reedboard.sensing.build_check import check_steps
from reedboard.wiring import matrix_wiring, strip_layout

MATRIX = MatrixConfig()
WIRING = matrix_wiring(MATRIX)
BLACK = (0, 0, 0)


class Bench:
    """A fake board on the bench: the matrix, the strip, and a maker who places pieces
    where the lights say and answers from a script."""

    def __init__(self, answers: list[str] | None = None) -> None:
        self.gpio = FakeGPIO(MATRIX.rows, MATRIX.columns)
        self.scanner = MatrixScanner(
            self.gpio, MATRIX.rows, MATRIX.columns, WIRING.layout, sleep=lambda _s: None
        )
        self.strip = RecordingStrip(64)
        self.layout = strip_layout(LedConfig())
        self.lights = LightsOutput(self.layout, self.strip)
        self.answers = list(answers or [])
        self.prompts: list[str] = []
        self.lit_when_asked: list[tuple[tuple[int, int, int], ...] | None] = []
        self.out = io.StringIO()

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.lit_when_asked.append(self.strip.last)
        return self.answers.pop(0) if self.answers else ""

    def place(self, squares: Bitboard) -> None:
        self.gpio.set_closed(WIRING.layout.cell_of(sq) for sq in squares_of(squares))

    def run(self) -> bool:
        with self.scanner:
            return run_check(
                self.scanner,
                WIRING,
                self.lights,
                self.out,
                ask=self.ask,
                place=self.place,
                pause=lambda _s: None,
            )

    def lit(self, frame: tuple[tuple[int, int, int], ...] | None) -> set[int]:
        assert frame is not None
        return {self.layout.sources[i][0] for i, rgb in enumerate(frame) if rgb != BLACK}


def test_a_good_board_passes_and_every_setup_is_lit_before_the_pieces_go_down() -> None:
    bench = Bench()
    assert bench.run()
    assert "Build check passed" in bench.out.getvalue()
    steps = check_steps()
    # The first question follows the LED test; then one per setup, asked while it is lit.
    assert len(bench.prompts) == 1 + len(steps)
    for step, frame in zip(steps, bench.lit_when_asked[1:], strict=True):
        if step.squares:
            assert bench.lit(frame) == set(squares_of(step.squares)), step.name
    assert bench.strip.last == tuple([BLACK] * 64)


def test_the_led_test_shows_the_chain_order_then_the_colours() -> None:
    bench = Bench()
    bench.run()
    frames = list(bench.strip.frames)
    dots = frames[:64]
    for index, frame in enumerate(dots):
        assert [i for i, rgb in enumerate(frame) if rgb != BLACK] == [index]
    # Serpentine from a1 along ranks: LED 8 is h2, the square above LED 7 (h1).
    assert bench.layout.sources[7] == (parse_square("h1"),)
    assert bench.layout.sources[8] == (parse_square("h2"),)
    assert frames[64:68] == [tuple([colour] * 64) for colour in led_test.COLOURS]
    assert "a1 b1 c1 d1 e1 f1 g1 h1 h2 g2" in bench.out.getvalue()


def test_a_no_to_the_led_test_fails_the_check_with_what_to_look_at() -> None:
    bench = Bench(answers=["n"])
    assert not bench.run()
    text = bench.out.getvalue()
    assert "[leds] order" in text and "Build check failed: LED test." in text


def test_a_missing_diode_is_named_and_its_squares_lit_as_faulty() -> None:
    bench = Bench()
    bench.gpio.remove_diode(*WIRING.layout.cell_of(parse_square("e4")))
    assert not bench.run()
    text = bench.out.getvalue()
    assert "the diode at e4 (ROW4 (GPIO22) x COL5 (GPIO12)) is missing" in text
    assert "rectangle e4 e5 d5 d4" in text
    assert "Build check failed: diagonals 1 of 4." in text
    prompt = bench.prompts.index("The faulty squares are lit. Press Enter to go on. ")
    faulty = bench.lit_when_asked[prompt]
    assert bench.lit(faulty) == {parse_square("e4"), parse_square("d5")}
    assert faulty is not None
    assert {rgb for rgb in faulty if rgb != BLACK} == {PALETTE["fault"].colour}


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_command_line_check_passes_on_a_good_fake_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = scan(capsys, "--fake", "--check")
    assert (code, err) == (0, "")
    assert "Build check passed" in out


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        (["--no-diode", "g7"], "the diode at g7 (ROW7 (GPIO13) x COL7 (GPIO20)) is missing"),
        (["--reversed-diode", "c6"], "the diode at c6 (ROW6 (GPIO6) x COL3 (GPIO24)) is reversed"),
        (["--no-diodes"], "exactly as a matrix without diodes reads"),
        (["--broken-row", "4"], "row line ROW4 (GPIO22) reads nothing although 2 pieces"),
        (["--broken-column", "5"], "column line COL5 (GPIO12) reads nothing although 2 pieces"),
        (["--stuck", "d5"], "d5 (ROW5 (GPIO5) x COL4 (GPIO25)) reads occupied"),
        (["--transposed"], "the matrix is transposed: its row lines run along files, not ranks"),
        (["--swapped-rows", "2,3"], "row lines ROW2 (GPIO17) and ROW3 (GPIO27) are swapped"),
        (["--swapped-columns", "4,5"], "column lines COL4 (GPIO25) and COL5 (GPIO12) are swapped"),
    ],
)
def test_command_line_check_finds_each_fault(
    capsys: pytest.CaptureFixture[str], fault: list[str], words: str
) -> None:
    code, out, _ = scan(capsys, "--fake", "--check", *fault)
    assert code == 1
    assert words in out
    assert "Build check failed" in out


def test_diode_patterns_print_four_lines_that_expect_takes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = scan(capsys, "--diode-patterns")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert all(len(line.split(",")) == 16 for line in lines)
    code, out, _ = scan(capsys, "--fake", "--closed", lines[1], "--expect", lines[1])
    assert code == 0 and "self-test passed" in out
    code, out, _ = scan(
        capsys, "--fake", "--closed", lines[1], "--expect", lines[1], "--no-diode", "f4"
    )
    assert code == 1
    assert "the diode at f4 (ROW4 (GPIO22) x COL6 (GPIO16)) is missing" in out
    assert "rectangle f4 " in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--check", "--watch"], "--check runs on its own"),
        (["--check", "--expect", "start"], "--check runs on its own"),
        (["--fake", "--check", "--closed", "a1"], "--closed: with --check the pieces go"),
        (["--no-diode", "e4"], "--no-diode needs --fake"),
        (["--transposed"], "--transposed needs --fake"),
        (["--fake", "--no-diode", "e9"], "--no-diode: 'e9' is not a square"),
        (["--fake", "--swapped-rows", "2"], "--swapped-rows: give two different line numbers"),
        (["--fake", "--swapped-columns", "3,3"], "--swapped-columns: give two different"),
        (["--swapped-rows", "2,3"], "--swapped-rows needs --fake"),
    ],
)
def test_bad_options_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = scan(capsys, *args)
    assert code == 2
    assert message in err


def test_expect_on_a_transposed_matrix_names_the_transposition(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = scan(capsys, "--fake", "--transposed", "--closed", "a1,b1", "--expect", "a1,b1")
    assert code == 1
    assert "the matrix is transposed: its row lines run along files, not ranks" in out
    assert "stuck" not in out and "reads empty" not in out
