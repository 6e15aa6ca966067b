"""A damaged journal is never resumed as if it were the game. Each kind of damage is done
here to a real journal (two finished games and one of 72 plies in progress), by SQLite or
by writing raw bytes; opening it at start sets it aside under a new name with one log
line, starts a fresh journal, and writes what can be read to a PGN beside it, each game
marked partial and never more than was played."""

from __future__ import annotations

import io
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import chess.pgn
import pytest
from reedboard.app import App
from reedboard.app_ports import Sensing
from reedboard.cli import main
from reedboard.hal.clock import VirtualClock
from reedboard.journal.opening import open_journal
from reedboard.journal.store import Journal
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.fen import STARTING_FEN

from tests.app.games import random_game

NOW = 1_790_000_000.0  # 2026-09-21, the board's wall clock in these tests
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
IN_PROGRESS = random_game(72, 72)
ABANDONED = random_game(5, 9)
GAMES = {1: FOOLS_MATE, 2: ABANDONED, 3: IN_PROGRESS}


def _write_journal(path: Path) -> None:
    with Journal(path, wall=lambda: NOW) as journal:
        for game_id, moves in GAMES.items():
            assert (
                journal.start_game(STARTING_FEN, chess960=False, variant="standard", mode="casual")
                == game_id
            )
            for ply, uci in enumerate(moves, start=1):
                journal.append_move(game_id, ply, uci, ply * 1000)
            if game_id == 1:
                journal.finish(1, "0-1", "checkmate")
    assert len(IN_PROGRESS) == 72


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        db = sqlite3.connect(path)
        db.execute("PRAGMA foreign_keys = OFF")
        for statement in statements:
            db.execute(statement)
        db.commit()
        db.close()

    return damage


def _page_of(path: Path, name: str) -> tuple[int, int]:
    """Where the b-tree `name` starts in the file: (offset, page size)."""
    db = sqlite3.connect(path)
    size = int(db.execute("PRAGMA page_size").fetchone()[0])
    [root] = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    db.close()
    return (int(root) - 1) * size, size


def _overwrite(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as handle:
        handle.seek(offset)
        handle.write(data)


def _truncate(keep: Callable[[int], int]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(data[: keep(len(data))])

    return damage


def _replace(data: bytes) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        path.write_bytes(data)

    return damage


def _garble_tree(name: str, *, keep_header: bool) -> Callable[[Path], None]:
    """Random bytes over the root page of table or index `name` (after its page header,
    so that SQLite still takes it for a page, when `keep_header`)."""

    def damage(path: Path) -> None:
        offset, size = _page_of(path, name)
        skip = 12 if keep_header else 0
        rng = random.Random(name)
        _overwrite(path, offset + skip, bytes(rng.randrange(256) for _ in range(size - skip)))

    return damage


def _lose_index_entries(path: Path) -> None:
    """The index of moves loses most of its entries while staying a well-formed page: the
    cell count in the page header says fewer than there are. Ordinary queries that use the
    index then see only some of the moves; the integrity check sees the difference."""
    offset, _ = _page_of(path, "sqlite_autoindex_moves_1")
    with path.open("r+b") as handle:
        handle.seek(offset)
        header = bytearray(handle.read(8))
        assert header[0] in (0x0A, 0x02), "the index fits one page in this journal"
        count = int.from_bytes(header[3:5], "big")
        _overwrite(path, offset + 3, (count * 3 // 5).to_bytes(2, "big"))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated in the header": _truncate(lambda n: 50),
    "truncated to one page": _truncate(lambda n: 4096),
    "truncated in half": _truncate(lambda n: n // 2),
    "truncated by one byte": _truncate(lambda n: n - 1),
    "garbage bytes": _replace(bytes(random.Random(1).randrange(256) for _ in range(16384))),
    "a text file": _replace(b"this is not a journal\n" * 40),
    "zeros": _replace(bytes(16384)),
    "magic overwritten": lambda p: _overwrite(p, 0, b"SQLite format 2\x00"),
    "page size garbled": lambda p: _overwrite(p, 16, b"\x00\x03"),
    "moves table page garbled": _garble_tree("moves", keep_header=False),
    "moves table cells garbled": _garble_tree("moves", keep_header=True),
    "index entries lost": _lose_index_entries,
    "another program's database": _sql(
        "DROP TABLE moves", "DROP TABLE games", "CREATE TABLE notes (x TEXT)"
    ),
    "moves table missing": _sql("DROP TABLE moves"),
    "games table without mode": _sql("ALTER TABLE games DROP COLUMN mode"),
    "moves column of another type": _sql(
        "ALTER TABLE moves RENAME COLUMN t_ms TO old", "ALTER TABLE moves ADD COLUMN t_ms TEXT"
    ),
    "text in a ply": _sql("UPDATE moves SET ply = 'x' WHERE game_id = 3 AND ply = 10"),
    "text in a Chess960 flag": _sql("UPDATE games SET chess960 = 'no' WHERE id = 3"),
    "a number for a start position": _sql("UPDATE games SET start_fen = 5 WHERE id = 2"),
    "text in a move's time": _sql("UPDATE moves SET t_ms = 'soon' WHERE ply = 3"),
    "a start position that is not one": _sql("UPDATE games SET start_fen = 'x' WHERE id = 3"),
    "an illegal move in the game": _sql(
        "UPDATE moves SET uci = 'e1e8' WHERE game_id = 3 AND ply = 40"
    ),
    "a ply missing": _sql("DELETE FROM moves WHERE game_id = 3 AND ply = 30"),
    "a result that is none": _sql("UPDATE games SET result = '2-0' WHERE id = 1"),
    "a mode that is none": _sql("UPDATE games SET mode = 'blitz' WHERE id = 3"),
    "a move of no game": _sql("UPDATE moves SET game_id = 99 WHERE game_id = 2 AND ply = 9"),
    "a ply of zero": _sql("UPDATE moves SET ply = 0 WHERE game_id = 2 AND ply = 9"),
}


def _recovered(pgn: Path) -> dict[int, list[str]]:
    """The games in the recovery PGN by their journal number, checked to be marked."""
    games: dict[int, list[str]] = {}
    handle = io.StringIO(pgn.read_text())
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors
        assert game.headers["Result"] == "*"
        assert "Recovered from the damaged board journal" in game.comment
        number = int(game.headers["Event"].split()[2].rstrip(","))
        games[number] = [move.uci() for move in game.mainline_moves()]
    return games


def test_there_are_enough_kinds_of_damage() -> None:
    assert len(DAMAGE) >= 16


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_a_damaged_journal_is_set_aside_and_never_resumed(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "board.journal"
    _write_journal(path)
    DAMAGE[kind](path)
    damaged = path.read_bytes()

    journal = open_journal(path, wall=lambda: NOW)
    try:
        [line] = caplog.messages
        aside = tmp_path / "board.journal.damaged-20260921T141320Z"
        assert (
            "\n" not in line and "is damaged (" in line and f"set aside as {aside.name}" in line
        ), line
        assert aside.read_bytes() == damaged, "the damaged file is kept as it was"
        # A fresh journal, and a board on it starts a new game instead of resuming.
        assert journal.current() is None and journal.finished_games() == []
        board = scripted_board(parse_script("@start standard\n"))
        app = App(Sensing(board, source=board), VirtualClock(), journal=journal)
        app.start()
        assert not app.resumed and app.board_game is not None and len(app.board_game.game) == 0
        pgn = Path(f"{aside}.pgn")
        if pgn.exists():
            assert "plies of" in line and pgn.name in line and "partial" in line
            for number, moves in _recovered(pgn).items():
                assert moves, "only games with moves are written"
                assert moves == GAMES[number][: len(moves)], "never more than was played"
        else:
            assert "no moves could be recovered" in line
    finally:
        journal.close()


def test_lost_index_entries_hide_no_move_from_the_recovery(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The damage that once resumed 42 of 72 plies in silence: the recovery reads the
    table itself, and finds all 72."""
    path = tmp_path / "board.journal"
    _write_journal(path)
    _lose_index_entries(path)
    db = sqlite3.connect(path)
    seen = db.execute("SELECT count(*) FROM moves WHERE game_id = 3").fetchone()[0]
    db.close()
    assert seen < 72, "the damage hides moves from ordinary queries"
    open_journal(path, wall=lambda: NOW).close()
    assert "integrity check failed" in caplog.messages[0]
    pgn = tmp_path / "board.journal.damaged-20260921T141320Z.pgn"
    assert _recovered(pgn)[3] == IN_PROGRESS


def test_a_sound_journal_is_resumed_untouched(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "board.journal"
    _write_journal(path)
    with open_journal(path) as journal:
        current = journal.current()
        assert current is not None and [m.uci for m in current.moves] == IN_PROGRESS
    assert caplog.messages == []
    assert [p.name for p in tmp_path.iterdir() if "damaged" in p.name] == []


def test_no_journal_yet_is_a_fresh_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with open_journal(tmp_path / "board.journal") as journal:
        assert journal.current() is None
    assert caplog.messages == []


def test_an_empty_journal_is_a_fresh_one_and_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """0 bytes where a journal was: whatever it held is lost, and the player is told."""
    path = tmp_path / "board.journal"
    path.write_bytes(b"")
    with open_journal(path) as journal:
        assert journal.current() is None
    [line] = caplog.messages
    assert f"the journal {path} is empty (0 bytes)" in line and "\n" not in line
    assert "reedboard journal resume" in line


def test_a_set_aside_game_is_resumed_from_what_was_recovered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """The log line names the command; the command makes the recovered game the one in
    progress; the board resumes it at its next start."""
    path = tmp_path / "board.journal"
    _write_journal(path)
    DAMAGE["index entries lost"](path)
    open_journal(path, wall=lambda: NOW).close()
    [line] = caplog.messages
    aside = tmp_path / "board.journal.damaged-20260921T141320Z"
    assert f"`reedboard journal resume {aside}` resumes the last of them" in line
    assert main(["journal", "resume", str(aside), "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"game 3 of {aside} (72 plies) is now game 1, in progress, in {path}" in out
    with Journal(path) as journal:
        board = scripted_board(parse_script("@start standard\n"))
        app = App(Sensing(board, source=board), VirtualClock(), journal=journal)
        app.start()
        assert app.resumed and app.board_game is not None
        assert [m.uci() for m in app.board_game.game.moves] == IN_PROGRESS


def test_a_second_damage_the_same_second_gets_its_own_name(tmp_path: Path) -> None:
    path = tmp_path / "board.journal"
    for _ in range(2):
        path.write_bytes(b"not a journal" * 100)
        open_journal(path, wall=lambda: NOW).close()
    names = sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name)
    assert names == [
        "board.journal.damaged-20260921T141320Z",
        "board.journal.damaged-20260921T141320Z-2",
    ]


def test_the_running_board_sets_a_damaged_journal_aside(tmp_path: Path) -> None:
    """`reedboard run` itself: one line on stderr, and the game played goes into a fresh
    journal."""
    path = tmp_path / "board.journal"
    _write_journal(path)
    DAMAGE["index entries lost"](path)
    script = tmp_path / "e4.events"
    script.write_text("@start standard\n1000 lift e2\n1400 place e4\n")
    done = subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
         "--journal", str(path), "--speed", "20", "--until-done", "--web", "off"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"reedboard: the journal {path} is damaged (integrity check failed")
    assert "72 plies" not in line and "recovered as partial games" in line
    with Journal(path) as journal:
        current = journal.current()
        assert current is not None and [m.uci for m in current.moves] == ["e2e4"]
    [pgn] = tmp_path.glob("board.journal.damaged-*.pgn")
    assert _recovered(pgn)[3] == IN_PROGRESS
