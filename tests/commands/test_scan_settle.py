"""`reedboard scan --settle-test`: the shortest settle time that reads the board right,
measured on the fake matrix with slow (RC) column lines through the real scanner."""

from __future__ import annotations

import pytest
from reedboard.cli import main
from reedboard.commands.scan_settle import SettleTrial, judge_settle, shows_settling
from reedboard.hal.fake_gpio import FAKE_COLUMNS, FAKE_ROWS, FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import BB_RANKS, bitboard_of, parse_square


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_slow_column_reads_the_previous_row_until_it_has_discharged() -> None:
    gpio = FakeGPIO(FAKE_ROWS, FAKE_COLUMNS, discharge_s=14e-6)
    gpio.set_closed([(0, 0)])  # a1 only: column 1 HIGH on row 1, then LOW on row 2
    a1 = bitboard_of([parse_square("a1")])
    for settle_s, reads in ((20e-6, a1), (15e-6, a1), (10e-6, a1 | 1 << parse_square("a2"))):
        scanner = MatrixScanner(gpio, FAKE_ROWS, FAKE_COLUMNS, settle_s=settle_s, sleep=gpio.sleep)
        with scanner:
            assert scanner.scan() == reads, settle_s


def test_the_shortest_right_wait_gets_a_margin_of_two(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = scan(
        capsys, "--fake", "--closed", "a1,b2,c3,d4,a2", "--discharge-us", "14", "--settle-test"
    )
    assert err == ""
    assert "shortest wait that reads right: 15 us; with a margin of 2: settle_us = 30" in out
    assert "settle_us = 20 is too short: set it to at least 30" in out
    assert code == 1  # the default 20 us is not enough for this board
    code, out, _ = scan(
        capsys, "--fake", "--closed", "a1,a2,b3", "--discharge-us", "5", "--settle-test"
    )
    assert "shortest wait that reads right: 5 us; with a margin of 2: settle_us = 10" in out
    assert "settle_us = 20 is enough" in out
    assert code == 0


def test_nothing_to_measure_on_an_empty_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = scan(capsys, "--fake", "--discharge-us", "10", "--settle-test")
    assert code == 1 and "nothing to measure: put pieces on the board" in out


def test_judging_stops_at_the_first_wait_that_read_wrongly() -> None:
    trials = [SettleTrial(us, us, wrong) for us, wrong in ((50, 0), (20, 0), (10, 4), (5, 0))]
    result = judge_settle(trials)
    assert (result.shortest_us, result.recommended_us) == (20, 40)
    assert judge_settle([SettleTrial(0, 1, 0)]).recommended_us == 2  # reads take time too
    assert judge_settle([SettleTrial(200, 200, 1)]).shortest_us is None


def test_a_reading_shows_settling_only_where_a_column_falls_between_rows() -> None:
    layout = MatrixLayout()
    assert not shows_settling(0, layout)
    assert not shows_settling(BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[2] | BB_RANKS[3] | BB_RANKS[4]
                              | BB_RANKS[5] | BB_RANKS[6] | BB_RANKS[7], layout)  # fmt: skip
    assert shows_settling(BB_RANKS[0] | BB_RANKS[1], layout)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--settle-test", "--check"], "--settle-test runs on its own"),
        (["--fake", "--settle-test", "--expect", "start"], "--settle-test runs on its own"),
        (["--fake", "--discharge-us", "-1"], "--discharge-us: give a number"),
    ],
)
def test_bad_settle_options_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = scan(capsys, *args)
    assert code == 2 and message in err
