"""`reedboard run` reads its matrix from its first moments, on the real scanner code (a
fake GPIO module under it): a move made while the board loads its game reaches the game
as the move it is, each change at its own time, and the thread that read it is stopped
once the game has its backlog, or when the loading fails."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from reedboard.cli import build_parser
from reedboard.commands.first_scan import START_OCCUPANCY, FirstScan, open_first
from reedboard.commands.run import run
from reedboard.commands.run_board import assemble
from reedboard.config import load_config
from reedboard.events import MoveMade
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.scan_ahead import FIRST_READS
from reedboard.link.board_messages import EffectMessage
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square, squares_of
from reedboard.wiring import matrix_wiring

from tests.commands.test_run_config import stand_in_neopixel

SCAN_CALLS = 8 * (1 + 8 + 1)  # a scan's GPIO calls: per row, drive it, read 8 columns, float it


def read_again(gpio: FakeGPIO, scans: int = 2) -> None:
    """Wait until the thread has read the matrix `scans` times more (so at least once
    whole after now: what the switches are now has been read)."""
    calls = gpio.calls
    deadline = time.monotonic() + 60  # a stuck thread fails the test, it does not hang it
    while gpio.calls < calls + scans * SCAN_CALLS:
        assert time.monotonic() < deadline, "the matrix is not read"
        time.sleep(0.001)


def wait_past(clock: MonotonicClock, t_ms: int) -> None:
    while clock.now_ms() <= t_ms:
        time.sleep(0.001)


def board_on_fake_gpio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[FirstScan, Any]:
    made: list[Any] = []
    stand_in_neopixel(monkeypatch, made)
    args = build_parser().parse_args(["run", "--journal", str(tmp_path / "journal.sqlite")])
    matrix = load_config(None).matrix
    gpio = FakeGPIO(matrix.rows, matrix.columns)
    layout = matrix_wiring(matrix).layout
    gpio.set_closed(layout.cell_of(square) for square in squares_of(START_OCCUPANCY))
    first = open_first(args, gpio=gpio)
    assert first is not None
    return first, (args, gpio, layout)


def test_a_move_made_while_the_board_loads_is_read_with_its_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, (args, gpio, layout) = board_on_fake_gpio(tmp_path, monkeypatch)
    clock = first.clock
    with first.ahead.start():
        read_again(gpio, FIRST_READS + 1)  # the self-test's reads are done
        gpio.set_switch(*layout.cell_of(parse_square("e2")), False)
        read_again(gpio)
        lifted_by = clock.now_ms()
        wait_past(clock, lifted_by + 50)  # the piece is held in the air for 50 ms at least
        gpio.set_switch(*layout.cell_of(parse_square("e4")), True)
        read_again(gpio)
        placed_by = clock.now_ms()
        # Only now is the game loaded and started.
        board = assemble(args, first.config, None, gpio=gpio, first=first)
    app = board.app
    effects: list[EffectMessage] = []
    app.on_effect = effects.append

    def moves() -> list[MoveMade]:
        return [m.effect for m in effects if isinstance(m.effect, MoveMade)]

    try:
        app.run(lambda: bool(moves()) or clock.now_ms() > placed_by + 30_000)
        assert board.journal is not None
        kept = board.journal.sensor_lines(app.game_id)
    finally:
        first.close()
        assert board.journal is not None
        board.journal.close()
    assert not first.ahead.running
    assert [move.uci for move in moves()] == ["e2e4"]
    assert kept.start_sensors == Game().position.occupied  # it started from the first read
    lines = [(line.action, line.what) for line in kept.lines]
    assert lines == [("lift", "e2"), ("place", "e4")]
    lift, place = (line.t_ms for line in kept.lines)
    # Each at its own time, as read before the game was loaded: not in a lump at its start.
    assert place - lift >= 50
    assert place <= placed_by
    assert lift <= lifted_by


def test_the_board_reads_ahead_only_without_a_script() -> None:
    parse = build_parser().parse_args
    assert open_first(parse(["run", "--fake", "--script", "game.events"])) is None
    assert open_first(parse(["run", "--fake", "--random-game", "7"])) is None
    fake = open_first(parse(["run", "--fake"]))
    assert fake is not None and fake.source is fake.scanner
    assert fake.scanner.scan() == START_OCCUPANCY == Game().position.occupied


def test_the_thread_is_stopped_when_the_board_fails_to_load(tmp_path: Path) -> None:
    # The journal cannot be opened: the board stops, after its matrix was read ahead.
    (tmp_path / "file").write_text("")
    args = build_parser().parse_args(["run", "--fake", "--journal", str(tmp_path / "file/j")])
    assert run(args) != 0
    assert not [t for t in threading.enumerate() if t.name == "scan-ahead"]
