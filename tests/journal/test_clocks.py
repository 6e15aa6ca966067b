"""A timed game's clocks in the journal: kept with every move and press, resumed after a
power cut with the running player's time going on from there, checked by the journal
check, and exported with the script."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, Sensing
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.hal.clock import VirtualClock
from reedboard.journal.check import journal_problem
from reedboard.journal.store import Journal
from reedboard.link.board_messages import Ack
from reedboard.link.messages import StartGame
from reedboard.reader.waits import RELAND_MS
from reedboard.replay.journal_events import events_text
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

SCRIPT = """@clock 1+2
1000 lift e2
1400 place e4
2500 lift e7
2900 place e5
"""


def play(path: Path, text: str, until_ms: int, settings: Settings) -> App:
    script = parse_script(text)
    board = scripted_board(script, electrical=False)
    with Journal(path) as journal:
        app = App(
            Sensing(board, source=board),
            VirtualClock(),
            journal=journal,
            game=GameSetup(start=Game(script.start), settings=settings),
        )
        app.start()
        for now in range(0, until_ms, 5):
            app.step(now)
    return app


def test_a_power_cut_resumes_the_running_players_time(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    settings = Settings(time_control=parse_time_control("1+2"))
    play(path, SCRIPT, 10_000, settings)  # the power goes at 10 s, White thinking
    with Journal(path) as journal:
        current = journal.current()
        assert current is not None
        kept = journal.clocks(current.id)
    # Written when the loop decided Black's move, once its pawn had rested RELAND_MS
    # (150 ms) after the landing at 2900: White's time had run 150 ms of its thinking.
    assert kept is not None and kept.running is True
    assert (kept.white_ms, kept.black_ms) == (
        60_000 - 1_400 + 2_000 - RELAND_MS,
        60_000 - 1_500 + 2_000,
    )
    assert journal_problem(path) is None
    # Back on: no script, the pieces as they stand.
    resumed = play(path, "@start fen " + current.to_game().position.fen() + "\n", 1_000, Settings())
    board_game = resumed.board_game
    assert board_game is not None and board_game.timer is not None
    assert board_game.timer.left(1_000) == (kept.white_ms - 1_000, 60_500)


@pytest.mark.parametrize(("own", "white_ms"), [(None, None), ("5+0", 300_000)])
def test_a_new_game_after_a_power_cut_has_the_boards_own_clock(
    tmp_path: Path, own: str | None, white_ms: int | None
) -> None:
    """The resumed game keeps its clocks; the host's next `new` without a clock plays
    the board's configured control, as it would have without the power cut."""
    path = tmp_path / "journal.sqlite"
    play(path, SCRIPT, 10_000, Settings(time_control=parse_time_control("1+2")))
    with Journal(path) as journal:
        current = journal.current()
        assert current is not None
    configured = Settings(time_control=None if own is None else parse_time_control(own))
    resumed = play(path, "@start fen " + current.to_game().position.fen() + "\n", 1_000, configured)
    board_game = resumed.board_game
    assert board_game is not None and board_game.timer is not None  # the 1+2 game goes on
    assert isinstance(board_game.command(StartGame(), 2_000).reply, Ack)
    clock = board_game.clock_now(2_000)
    assert (None if clock is None else clock.white_ms) == white_ms


def test_the_export_says_the_clock_and_the_presses(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    text = SCRIPT.replace("2500 lift e7", "1500 press white\n2500 lift e7") + "3000 press black\n"
    play(path, text, 4_000, Settings(time_control=parse_time_control("1+2"), clock_buttons=True))
    with Journal(path) as journal:
        game = journal.current()
        assert game is not None
        control = journal.clocks(game.id)
        assert control is not None
        exported = events_text(game, journal.sensor_lines(game.id), control.control)
    script = parse_script(exported)
    assert script.clock == parse_time_control("1+2")
    presses = [(line.t_ms, line.what) for line in script.lines if line.action == "press"]
    assert presses == [(1500, "white"), (3000, "black")]


def test_a_damaged_clock_row_is_named(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    play(path, SCRIPT, 4_000, Settings(time_control=parse_time_control("1+2")))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE clocks SET running = 'red'")
    assert journal_problem(path) == "a clock's running side is not white, black or none"


def test_a_journal_from_before_the_clocks_is_taken_and_gains_their_table(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    play(path, SCRIPT, 4_000, Settings())
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE clocks")  # as a journal written before the clocks were kept
    assert journal_problem(path) is None
    with Journal(path) as journal:
        tables = {row[0] for row in journal.connection.execute("SELECT name FROM sqlite_master")}
        current = journal.current()
        assert "clocks" in tables and current is not None
        assert journal.clocks(current.id) is None  # an untimed game
