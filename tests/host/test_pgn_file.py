"""The PGN the host writes: each game's Round is its number in the file, Termination one of
the PGN standard's values with the reason in words in a comment, and python-chess (the
test oracle) reads every game back as written."""

from __future__ import annotations

import io
from pathlib import Path

import chess.pgn
import pytest
from reedboard.rules.game import Game
from reedboard_host.mirror import GameMirror, MirroredGame
from reedboard_host.pgn_file import PgnFile, reason_comment, termination

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
REPETITION = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]


def mirrored(moves: list[str], result: str | None, reason: str | None) -> MirroredGame:
    game = Game()
    for uci in moves:
        game.push_uci(uci)
    return MirroredGame(game, result=result, reason=reason)


def read_all(path: Path) -> list[chess.pgn.Game]:
    games = []
    with path.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors, game.errors
            games.append(game)
    return games


def test_rounds_count_the_games_in_the_file_and_terminations_are_standard(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.pgn"
    path.write_text('[Event "earlier"]\n[Round "1"]\n\n1. e4 *\n')
    mirror = GameMirror()
    mirror.finished = [
        mirrored(FOOLS_MATE, "0-1", "checkmate"),
        mirrored(REPETITION, "1/2-1/2", "threefold_repetition"),
    ]
    mirror.current = mirrored(["e2e4"], None, None)
    out = PgnFile(str(path), players=("Ada", "Stockfish 16 (level 5)"))
    out.update(mirror)
    out.close()
    earlier, mate, draw, going_on = read_all(path)
    assert [g.headers["Round"] for g in (mate, draw, going_on)] == ["2", "3", "4"]
    assert (mate.headers["Termination"], mate.headers["Result"]) == ("normal", "0-1")
    assert mate.end().comment == "Black wins by checkmate"
    assert draw.headers["Termination"] == "normal"
    assert draw.end().comment == "Draw by threefold repetition"
    assert "Termination" not in going_on.headers
    assert (mate.headers["White"], mate.headers["Black"]) == ("Ada", "Stockfish 16 (level 5)")
    assert [m.uci() for m in draw.mainline_moves()] == REPETITION
    assert earlier.headers["Event"] == "earlier"  # untouched


@pytest.mark.parametrize(
    ("reason", "result", "value", "words"),
    [
        ("resignation", "1-0", "normal", "Black resigns"),
        ("agreement", "1/2-1/2", "normal", "Draw by agreement"),
        ("stalemate", "1/2-1/2", "normal", "Draw by stalemate"),
        ("insufficient_material", "1/2-1/2", "normal", "Draw by insufficient material"),
        ("timeout", "0-1", "time forfeit", "Black wins: timeout"),
        ("aborted", "*", "abandoned", "Aborted"),
    ],
)
def test_each_reason_has_a_standard_termination_and_words(
    reason: str, result: str, value: str, words: str
) -> None:
    assert termination(reason) == value
    assert value in ("normal", "time forfeit", "abandoned", "adjudication", "rules infraction")
    assert reason_comment(reason, result) == words


def test_a_game_ended_before_its_first_move_has_its_comment_first(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    mirror = GameMirror()
    mirror.current = mirrored([], "0-1", "resignation")
    out = PgnFile(str(path))
    out.update(mirror)
    out.close()
    (game,) = read_all(path)
    assert game.comment == "White resigns"
    assert game.headers["Round"] == "1"
    assert chess.pgn.read_game(io.StringIO(path.read_text())) is not None
