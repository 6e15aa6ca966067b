"""The journal on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from reedboard.journal.store import Journal
from reedboard.rules.fen import STARTING_FEN


def test_moves_survive_a_reopen_and_are_never_recorded_twice(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        assert journal.connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        game_id = journal.start_game(
            STARTING_FEN, chess960=False, variant="standard", mode="casual"
        )
        for ply, uci in enumerate(["e2e4", "e7e5", "g1f3"], start=1):
            journal.append_move(game_id, ply, uci, ply * 1000)
        journal.append_move(game_id, 3, "g1f3", 9999)  # the same move again: no change
    with Journal(path) as journal:
        current = journal.current()
        assert current is not None and current.id == game_id
        assert [m.uci for m in current.moves] == ["e2e4", "e7e5", "g1f3"]
        assert current.moves[2].t_ms == 3000
        assert current.to_game().position.fen().startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/")
        journal.take_back(game_id, 3)
        journal.finish(game_id, "1-0", "resignation")
        assert journal.current() is None
        [done] = journal.finished_games()
        assert (done.result, done.reason, len(done.moves)) == ("1-0", "resignation", 2)


def test_a_new_game_closes_the_one_in_progress(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        first = journal.start_game(STARTING_FEN, chess960=False, variant="standard", mode="strict")
        second = journal.start_game(STARTING_FEN, chess960=False, variant="standard", mode="casual")
        current = journal.current()
        assert current is not None and current.id == second != first
        assert [(g.id, g.result, g.reason) for g in journal.finished_games()] == [
            (first, "*", "abandoned")
        ]


def test_a_mate_taken_back_reopens_the_game(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        game_id = journal.start_game(
            STARTING_FEN, chess960=False, variant="standard", mode="casual"
        )
        for ply, uci in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"], start=1):
            journal.append_move(game_id, ply, uci, ply * 1000)
        journal.finish(game_id, "0-1", "checkmate")
        assert journal.current() is None
        journal.take_back(game_id, 4)
        current = journal.current()
        assert current is not None and current.id == game_id
        assert (current.result, current.reason, len(current.moves)) == (None, None, 3)
        assert journal.finished_games() == []
