"""Time the arbiter added to a clock, on the board with its journal: kept with the clocks
so that a power cut does not lose it, kept as a script line so that the exported game
replays to the same clocks, and refused when meant for another game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard.app import App
from reedboard.app_ports import GameSetup, Sensing
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import TimeAdded
from reedboard.hal.clock import VirtualClock
from reedboard.journal.check import journal_problem
from reedboard.journal.store import Journal
from reedboard.link.acks import TimeGiven
from reedboard.link.board_messages import Ack, ErrorReply
from reedboard.link.messages import AddTime
from reedboard.replay.journal_events import events_text
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

# White plays e4 (complete at 1.4 s); the arbiter gives Black two minutes at 2 s, while
# Black thinks; the power goes at 10 s.
SCRIPT = """@clock 1+0
1000 lift e2
1400 place e4
2000 add black:120000
"""
SETTINGS = Settings(time_control=parse_time_control("1+0"))


def open_app(path: Path, text: str, journal: Journal) -> App:
    script = parse_script(text)
    board = scripted_board(script, electrical=False)
    app = App(
        Sensing(board, source=board),
        VirtualClock(),
        journal=journal,
        game=GameSetup(start=Game(script.start), settings=SETTINGS),
    )
    app.start()
    return app


def play(path: Path, text: str, until_ms: int) -> None:
    with Journal(path) as journal:
        app = open_app(path, text, journal)
        for now in range(0, until_ms, 5):
            app.step(now)


def test_the_added_time_survives_a_power_cut(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    play(path, SCRIPT, 10_000)
    with Journal(path) as journal:
        current = journal.current()
        assert current is not None
        kept = journal.clocks(current.id)
    assert kept is not None and kept.running is False
    # Kept when the time was added, at 2 s: Black's time ran from 1.4 s (the move's
    # completion) to 2 s.
    assert (kept.white_ms, kept.black_ms) == (60_000 - 1_400, 60_000 - 600 + 120_000)
    assert journal_problem(path) is None
    with Journal(path) as journal:
        back_on = "@start fen " + current.to_game().position.fen() + "\n"
        board_game = open_app(path, back_on, journal).board_game
    assert board_game is not None and board_game.timer is not None
    assert board_game.timer.left(0) == (58_600, 179_400)


def test_the_exported_game_replays_to_the_same_clocks(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    play(path, SCRIPT, 10_000)
    with Journal(path) as journal:
        game = journal.current()
        assert game is not None
        control = journal.clocks(game.id)
        assert control is not None
        exported = events_text(game, journal.sensor_lines(game.id), control.control)
    assert "2000 add black:120000" in exported
    added = [e for e in replay_script(parse_script(exported)) if isinstance(e, TimeAdded)]
    assert added == [TimeAdded(2_000, False, 120_000, 58_600, 179_400)]


def test_the_hosts_command_is_journaled_and_another_games_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        app = open_app(path, "@clock 1+0\n", journal)
        app.step(0)
        wrong = app.local_command(AddTime("white", 60_000, game=app.game_id + 1), 500)
        assert isinstance(wrong.reply, ErrorReply)
        assert wrong.reply.message == f"game {app.game_id + 1} is not in progress (game 1 is)"
        done = app.local_command(AddTime("white", 60_000, game=app.game_id), 1_000)
        assert isinstance(done.reply, Ack) and isinstance(done.reply.done, TimeGiven)
        assert done.reply.done.clock.white_ms == 119_000
        app.step(1_005)
        lines = journal.sensor_lines(app.game_id).lines
    assert [line.text() for line in lines] == ["1000 add white:60000"]


def test_a_damaged_add_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    play(path, SCRIPT, 3_000)
    assert journal_problem(path) is None
    with sqlite3.connect(path) as db:
        db.execute("UPDATE sensor_lines SET arg = 'black:12x' WHERE action = 'add'")
    assert journal_problem(path) == "a sensor line is not a script line"
