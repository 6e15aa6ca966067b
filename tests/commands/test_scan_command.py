"""`reedboard scan`, through `reedboard.cli.main` and once as the installed console script."""

from __future__ import annotations

import io
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.cli import main
from reedboard.commands.scan_matrix import watch
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner

EMPTY = "........"


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_fake_closed_switches_print_rank_8_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = scan(capsys, "--fake", "--closed", "a1,a2,b1,h8")
    assert code == 0 and err == ""
    assert lines == [".......#", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "#.......", "##......"]


def test_fake_without_diodes_shows_the_ghost(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = scan(capsys, "--fake", "--closed", "a1,a2,b1", "--no-diodes")
    assert code == 0
    assert lines[6:] == ["##......", "##......"]


def test_fake_stuck_and_broken(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = scan(
        capsys, "--fake", "--closed", "a1,a2,b2,c3", "--stuck", "e4", "--broken-row", "2"
    )
    assert code == 0
    assert lines[4] == "....#..."  # rank 4: e4 stuck closed
    assert lines[5] == "..#....."  # rank 3
    assert lines[6] == EMPTY  # rank 2: ROW2's wire is cut
    assert lines[7] == "#......."


def test_fake_broken_column_and_stuck_open(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = scan(
        capsys, "--fake", "--closed", "a1,b1,c1", "--broken-column", "1", "--stuck-open", "c1"
    )
    assert code == 0
    assert lines[7] == ".#......"


def test_config_orientation_is_used(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[matrix]\na1 = "R8C8"\nrows_are = "files"\n', encoding="utf-8")
    code, lines, _ = scan(capsys, "--config", str(config), "--fake", "--closed", "a1,a2")
    assert code == 0
    assert lines[6:] == ["#.......", "#......."]


def test_expect_runs_the_self_test(capsys: pytest.CaptureFixture[str]) -> None:
    start = ",".join(f"{f}{r}" for f in "abcdefgh" for r in "1278")
    code, lines, _ = scan(capsys, "--fake", "--closed", start, "--expect", "start")
    assert code == 0
    assert lines[8] == "self-test passed: all 64 squares read as expected"
    code, lines, _ = scan(capsys, "--fake", "--closed", start, "--stuck", "e4", "--expect", "start")
    assert code == 1
    assert any("e4 (ROW4 (GPIO22) x COL5 (GPIO12)) reads occupied" in line for line in lines)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fake", "--closed", "a1,z9"], "--closed: 'z9' is not a square"),
        (["--fake", "--stuck", "e9"], "--stuck: 'e9' is not a square"),
        (["--fake", "--broken-row", "9"], "--broken-row: '9' is not a line number 1..8"),
        (["--fake", "--broken-column", "x"], "--broken-column: 'x' is not a line number"),
        (["--closed", "a1"], "--closed needs --fake"),
        (["--no-diodes"], "--no-diodes needs --fake"),
        (["--fake", "--expect", "q3"], "--expect: 'q3' is not a square"),
        (["--config", "/nonexistent/board.toml", "--fake"], "cannot read config file"),
    ],
)
def test_bad_input_is_one_line_on_stderr_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, lines, err = scan(capsys, *args)
    assert code == 2
    assert lines == []
    assert err.count("\n") == 1 and message in err


def test_bad_config_value_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[matrix]\nrows = [1]\n", encoding="utf-8")
    code, _, err = scan(capsys, "--config", str(config), "--fake")
    assert code == 2
    assert err.startswith("reedboard scan: matrix.rows:")


def test_real_board_without_rpi_gpio_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    code, lines, err = scan(capsys)
    assert code == 1
    assert lines == []
    assert err.count("\n") == 1 and "RPi.GPIO is not installed" in err


def test_watch_prints_each_change_once() -> None:
    gpio = FakeGPIO(range(2, 10), range(11, 19))
    scanner = MatrixScanner(gpio, range(2, 10), range(11, 19), sleep=lambda _s: None)
    frames = iter([[], [], [(0, 0)], [(0, 0)], []])

    def step(_period: float) -> None:
        gpio.set_closed(next(frames, []))

    out = io.StringIO()
    gpio.set_closed([])
    watch(scanner, out, period_s=0.005, sleep=step, max_scans=6)
    blocks = out.getvalue().split("\n\n")
    assert len(blocks) == 3
    assert blocks[1].splitlines()[7] == "#......."


def test_console_script_runs_as_a_subprocess() -> None:
    script = shutil.which("reedboard", path=str(Path(sys.executable).parent))
    assert script is not None, "the reedboard console script is not installed"
    result = subprocess.run(
        [script, "scan", "--fake", "--closed", "a1,a2,b1", "--no-diodes"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[6:] == ["##......", "##......"]
    bad = subprocess.run(
        [script, "scan", "--fake", "--closed", "k1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == "reedboard scan: --closed: 'k1' is not a square (a1 .. h8)"


def test_watch_ends_cleanly_on_sigterm() -> None:
    """A service manager's SIGTERM ends `scan --watch` as Ctrl-C does: status 0, after the
    scanner is released, rather than a kill by the signal."""
    script = shutil.which("reedboard", path=str(Path(sys.executable).parent))
    assert script is not None, "the reedboard console script is not installed"
    watching = subprocess.Popen(
        [script, "scan", "--fake", "--closed", "a1", "--no-diodes", "--watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert watching.stdout is not None
        first = [watching.stdout.readline() for _ in range(8)]  # the board, printed once
        assert first[7].strip() == "#......."
        watching.send_signal(signal.SIGTERM)
        assert watching.wait(timeout=60) == 0, watching.stderr.read() if watching.stderr else ""
    finally:
        if watching.poll() is None:
            watching.kill()
            watching.wait()
