"""The journal keeps the raw sensor changes of the game in progress, and `reedboard journal
export --events` turns them into an event script that `reedboard replay` makes into the
same game: the board's path and the replay's are one."""

from __future__ import annotations

import io
import random
import shutil
import sqlite3
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.board_game import Settings
from reedboard.cli import main
from reedboard.hal.clock import VirtualClock
from reedboard.hal.sensor_line import SensorLine
from reedboard.journal.check import journal_problem
from reedboard.journal.store import SENSOR_LINES_KEPT, Journal, JournalError, KeptLines
from reedboard.link.event_codec import effect_json
from reedboard.reader.mode import Mode
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import square_name, squares_of
from reedboard.sim.games import random_game
from reedboard.sim.human import human_script
from reedboard.sim.settings import HumanSettings

from tests.app.games import game_script
from tests.app.games import random_game as uci_game

NOISY = HumanSettings(knock=0.3, slide=0.5)


def _play(
    journal_path: Path, seed: int, *, strict: bool = False, plies: int = 30
) -> list[dict[str, Any]]:
    """A game played by hands that knock pieces and slide them, on the fake board through
    the board's whole loop with a journal; the effects it sent."""
    game = random_game(Position.standard(), random.Random(seed), max_plies=plies)
    mode: Mode = "strict" if strict else "casual"
    human = human_script(game.start, game.moves, seed, mode=mode, settings=NOISY)
    script = parse_script(human.text())
    # The switches read as set (the matrix's electrics are the scanner's tests', and cost
    # three quarters of this game's CPU): the journal keeps the changes the loop saw.
    board = scripted_board(script, electrical=False)
    sent: list[dict[str, Any]] = []
    with Journal(journal_path) as journal:
        app = App(
            Sensing(board, source=board),
            VirtualClock(),
            link=HostLink(on_effect=lambda message: sent.append(message.to_wire())),
            journal=journal,
            game=GameSetup(start=Game(script.start), settings=Settings(mode=mode)),
        )
        app.run(until_done=True)
    return [
        {k: v for k, v in m.items() if k not in ("type", "seq", "game", "chess960", "variant")}
        for m in sent
    ]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal with a short game's sensor lines, played once for the tests that damage a
    copy of it (a game through the board's loop takes seconds of CPU)."""
    path = tmp_path_factory.mktemp("played") / "journal.sqlite"
    _play(path, 5, plies=8)
    return path


def _copy(played: Path, folder: Path) -> Path:
    path = folder / "journal.sqlite"
    shutil.copyfile(played, path)
    return path


def _export(journal_path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["journal", "export", "--events", "--journal", str(journal_path)])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize(("seed", "strict"), [(3, False), (8, True), (21, False)])
def test_an_exported_game_replays_into_the_same_game(
    tmp_path: Path, seed: int, strict: bool
) -> None:
    path = tmp_path / "journal.sqlite"
    sent = _play(path, seed, strict=strict)
    assert any(m["event"] == "move" for m in sent)
    code, text, err = _export(path)
    assert code == 0, err
    replayed = [effect_json(e) for e in replay_script(parse_script(text))]
    assert replayed == sent


def test_a_journal_from_before_sensor_lines_is_taken_and_brought_up_to_date(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, start_fen TEXT NOT NULL,"
        " chess960 INTEGER NOT NULL, variant TEXT NOT NULL, mode TEXT NOT NULL,"
        " started_at REAL NOT NULL, result TEXT, reason TEXT, finished_at REAL);"
        "CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id),"
        " ply INTEGER NOT NULL, uci TEXT NOT NULL, t_ms INTEGER NOT NULL, at REAL NOT NULL,"
        " PRIMARY KEY (game_id, ply));"
        "INSERT INTO games VALUES (1, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',"
        " 0, 'standard', 'casual', 1.0, NULL, NULL, NULL);"
        "INSERT INTO moves VALUES (1, 1, 'e2e4', 100, 1.0);"
    )
    db.close()
    assert journal_problem(path) is None
    with Journal(path) as journal:
        saved = journal.current()
        assert saved is not None and [m.uci for m in saved.moves] == ["e2e4"]
        assert journal.sensor_lines(1) == KeptLines()
    assert journal_problem(path) is None
    code, text, err = _export(path)
    assert code == 2 and text == ""
    assert err.strip() == "reedboard journal: game 1 has no sensor changes kept"


def test_a_bad_sensor_line_is_named_by_the_check(played: Path, tmp_path: Path) -> None:
    path = _copy(played, tmp_path)
    assert journal_problem(path) is None
    db = sqlite3.connect(path)
    db.execute("UPDATE sensor_lines SET arg = 'z9' WHERE seq = 1")
    db.commit()
    db.close()
    assert journal_problem(path) == "a sensor line is not a script line"


def test_a_line_that_is_no_sensor_change_is_refused_when_read(played: Path, tmp_path: Path) -> None:
    """A journal written by something else: reading its lines names the bad one."""
    path = _copy(played, tmp_path)
    db = sqlite3.connect(path)
    db.execute("UPDATE sensor_lines SET action = 'drop' WHERE seq = 2")
    db.commit()
    db.close()
    with Journal(path) as journal, pytest.raises(JournalError) as refused:
        journal.sensor_lines(1)
    assert str(refused.value) == "sensor line 2 of game 1 is not a script line: drop " + (
        _arg_of(path, 2)
    )


def _arg_of(path: Path, seq: int) -> str:
    db = sqlite3.connect(path)
    try:
        return str(db.execute("SELECT arg FROM sensor_lines WHERE seq = ?", (seq,)).fetchone()[0])
    finally:
        db.close()


def test_only_the_latest_lines_are_kept_and_an_export_says_so(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game_id = journal.start_game(
            Position.standard().fen(), chess960=False, variant="standard", mode="casual"
        )
        journal.keep_start_sensors(game_id, Position.standard().occupied)
        flicks = [
            SensorLine(t, "lift" if t % 2 == 0 else "place", "e2")
            for t in range(SENSOR_LINES_KEPT + 10)
        ]
        journal.append_sensor_lines(game_id, 1, flicks)
        kept = journal.sensor_lines(game_id)
        assert kept.start_sensors == Position.standard().occupied
        assert len(kept.lines) == SENSOR_LINES_KEPT  # the latest
        assert kept.first_seq == 11 and kept.next_seq == SENSOR_LINES_KEPT + 11
        assert kept.lines == tuple(flicks[10:])
    code, text, err = _export(path)
    assert code == 2 and text == ""
    assert "the first 10 sensor changes of game 1 were dropped" in err


def test_a_new_game_drops_the_lines_of_the_one_before(played: Path, tmp_path: Path) -> None:
    path = _copy(played, tmp_path)
    with Journal(path) as journal:
        first = journal.latest_game()
        assert first is not None and journal.sensor_lines(first.id).lines
        second = journal.start_game(
            Position.standard().fen(), chess960=False, variant="standard", mode="casual"
        )
        assert journal.sensor_lines(first.id) == KeptLines() == journal.sensor_lines(second)


def _run_script(journal: Journal, text: str, start: Game) -> None:
    script = parse_script(text)
    board = scripted_board(script, electrical=False)
    app = App(
        Sensing(board, source=board), VirtualClock(), journal=journal, game=GameSetup(start=start)
    )
    app.run(until_done=True)


def test_a_game_resumed_after_a_power_cut_exports_as_one_script(tmp_path: Path) -> None:
    """The board goes off between two moves and a piece is knocked off its square
    meanwhile, then put back: the resumed game's lines go on after the kept ones, with
    the knock, and the export replays the whole game."""
    moves = uci_game(77, 12)
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _run_script(journal, game_script(moves[:6]), Game())
    position = Game()
    for uci in moves[:6]:
        position.push_uci(uci)
    # While the board was off, a piece went off its square; it is put back at once.
    occupied = position.position.occupied
    square = next(squares_of(occupied))
    header, rest = game_script(moves[6:], position.position).split("\n", 1)
    text = (
        f"{header}\n@sensors {occupied & ~(1 << square):016x}\n"
        f"50 place {square_name(square)}\n{rest}"
    )
    with Journal(path) as journal:
        _run_script(journal, text, Game())
        saved = journal.current()
        assert saved is not None and [m.uci for m in saved.moves] == moves
    code, exported, err = _export(path)
    assert code == 0, err
    name = square_name(square)
    assert f" lift {name}\n" in exported and f" place {name}\n" in exported
    replayed = [effect_json(e) for e in replay_script(parse_script(exported))]
    assert [e["uci"] for e in replayed if e["event"] == "move"] == moves
