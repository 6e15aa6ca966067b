"""The power went while a move waited to settle: at restart the switches show the
journaled position plus that one legal move. It is the move, not stuck switches. And a
journal that lost its last plies: the switches show its position a few plies on, which
is said as such, not blamed on the wiring."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reedboard.app import App
from reedboard.app_ports import HostLink, Sensing
from reedboard.config import MatrixConfig
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.journal.store import Journal
from reedboard.reader.waits import DEFAULT_SETTLE_MS
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard, parse_square, squares_of


def scanner_showing(occupancy: Bitboard) -> MatrixScanner:
    config = MatrixConfig()
    layout = MatrixLayout(config.a1, config.rows_are)
    gpio = FakeGPIO(config.rows, config.columns)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(occupancy))
    return MatrixScanner(gpio, config.rows, config.columns, layout, sleep=lambda _s: None)


def restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, journaled: list[str], on_board: list[str]
) -> tuple[Any, ...]:
    """A journal holding `journaled`, a board showing the game after `on_board`; start
    the board and return (log lines, effects, journaled moves after the start)."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.start_game(
            STARTING_FEN, chess960=False, variant="standard", mode="casual"
        )
        for ply, uci in enumerate(journaled, start=1):
            journal.append_move(game_id, ply, uci, 1000 * ply)
    shown = Game()
    for uci in on_board:
        shown.push_uci(uci)
    effects: list[dict[str, Any]] = []
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = App(
            Sensing(scanner_showing(shown.position.occupied), matrix=MatrixConfig()),
            VirtualClock(),
            link=HostLink(on_effect=lambda message: effects.append(message.to_wire())),
            journal=journal,
        )
        app.start()
        for now in range(0, 1000, 5):
            app.step(now)
        current = journal.current()
        assert current is not None
        moves = [m.uci for m in current.moves]
    return caplog.messages, effects, moves


def test_the_move_made_before_the_power_went_is_committed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lines, effects, moves = restart(tmp_path, caplog, ["e2e4"], ["e2e4", "g8f6"])
    assert not [line for line in lines if line.startswith("self-test")]
    assert [e["uci"] for e in effects if e["event"] == "move"] == ["g8f6"]
    assert not [e for e in effects if e["event"] == "illegal"]
    assert moves == ["e2e4", "g8f6"]


def test_a_capture_shown_at_start_is_no_move_nobody_played(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """exd5's sensors are the e4 pawn in the hand when the power went: the board waits
    for the hands and records no move (a capture complete before the power went is
    made again by hand: the board cannot tell it from the pawn lifted)."""
    lines, effects, moves = restart(tmp_path, caplog, ["e2e4", "d7d5"], ["e2e4", "d7d5", "e4d5"])
    assert not [line for line in lines if line.startswith("self-test")]
    assert [e for e in effects if e["event"] == "move"] == []
    assert moves == ["e2e4", "d7d5"]


def test_a_slide_shown_at_start_waits_for_the_hands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """1.e4 e5 2.Qh5: the queen resting on g4, on its way from d1 when the power went,
    could go on: it is made only if the hands leave it there for settle_ms."""
    _lines, effects, moves = restart(tmp_path, caplog, ["e2e4", "e7e5"], ["e2e4", "e7e5", "d1g4"])
    assert [e["t_ms"] for e in effects if e["event"] == "move"] == [DEFAULT_SETTLE_MS]
    assert moves == ["e2e4", "e7e5", "d1g4"]


def test_two_moves_on_the_board_are_no_move_and_the_journal_may_be_behind(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The journal lost its last plies: the wiring is not blamed, the journal is."""
    lines, effects, moves = restart(tmp_path, caplog, ["e2e4"], ["e2e4", "e7e5", "g1f3"])
    assert not [line for line in lines if line.startswith("self-test")]
    [said] = [line for line in lines if "journal may be behind" in line]
    assert "(1 plies) with 2 more plies played" in said and "resumes at ply 1" in said
    assert not [e for e in effects if e["event"] == "move"]
    assert moves == ["e2e4"]


def test_four_lost_plies_are_told_as_such(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journaled = ["e2e4", "e7e5", "g1f3", "b8c6"]
    lost = ["f1c4", "g8f6", "d2d3", "f8c5"]
    lines, _, moves = restart(tmp_path, caplog, journaled, journaled + lost)
    assert not [line for line in lines if line.startswith("self-test")]
    assert [line for line in lines if "with 4 more plies played" in line]
    assert moves == journaled


def test_a_capture_the_sensors_cannot_tell_is_not_guessed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """1.e4 d5 2.c4: the pawn on d5 taking on c4 or on e4 leaves the same sensors."""
    journaled = ["e2e4", "d7d5", "c2c4"]
    lines, effects, moves = restart(tmp_path, caplog, journaled, [*journaled, "d5c4"])
    assert not [e for e in effects if e["event"] == "move"]
    assert [line for line in lines if "with one more ply played" in line]
    assert moves == journaled


def test_a_switch_no_plies_explain_is_still_the_wiring(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A square read occupied where no piece could have gone: no move puts a piece on the
    board, so it is a fault, and the self-test says so."""
    effects: list[dict[str, Any]] = []
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.start_game(
            STARTING_FEN, chess960=False, variant="standard", mode="casual"
        )
        journal.append_move(game_id, 1, "e2e4", 1000)
    shown = Game()
    shown.push_uci("e2e4")
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = App(
            Sensing(
                scanner_showing(shown.position.occupied | 1 << parse_square("d4")),
                matrix=MatrixConfig(),
            ),
            VirtualClock(),
            link=HostLink(on_effect=lambda message: effects.append(message.to_wire())),
            journal=journal,
        )
        app.start()
    assert [line for line in caplog.messages if line.startswith("self-test")]
    assert not [line for line in caplog.messages if "journal may be behind" in line]
