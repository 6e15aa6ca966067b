"""The `reedboard perft` command-line contract: outside checks compare its output with
other engines' `divide` output, so the format is fixed (see the replay spec)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import pytest
from reedboard.cli import main

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# A Chess960 middle game (chess960.perft, id 271) where white may castle on both wings:
# king e1 takes rook g1 (king to g1, rook to f1) and rook d1, its neighbour (king to c1,
# the rook stays on d1).
CHESS960_ROOT = "bbnrk1rq/pp2p1pp/2ppn3/5p2/8/3NNP1P/PPPPP1P1/BB1RK1RQ w GDgd - 0 1"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(["perft", *argv])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def divide_of(lines: list[str]) -> tuple[dict[str, int], int]:
    """Parse `--divide` output: `<uci> <count>` lines, then the total alone."""
    *rows, last = lines
    counts: dict[str, int] = {}
    for row in rows:
        uci, count = row.split(" ")
        assert uci not in counts, f"{uci} printed twice"
        counts[uci] = int(count)
    return counts, int(last)


def oracle_divide(fen: str, depth: int, chess960: bool) -> dict[str, int]:
    board = chess.Board(fen, chess960=chess960)
    result = {}
    for move in board.legal_moves:
        uci = board.uci(move)
        board.push(move)
        result[uci] = _oracle_perft(board, depth - 1)
        board.pop()
    return result


def _oracle_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _oracle_perft(board, depth - 1)
        board.pop()
    return total


def test_total_alone_for_the_start_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "3") == (0, ["8902"], "")


def test_depth_zero_counts_the_root(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "0", "--fen", KIWIPETE) == (0, ["1"], "")
    assert run(capsys, "0", "--divide") == (0, ["1"], "")


def test_divide_standard_writes_castling_as_king_two_squares(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, lines, err = run(capsys, "2", "--fen", KIWIPETE, "--divide")
    assert (status, err) == (0, "")
    counts, total = divide_of(lines)
    assert total == sum(counts.values()) == 2039
    assert {"e1g1", "e1c1"} <= counts.keys()
    assert not {"e1h1", "e1a1"} & counts.keys()
    assert counts == oracle_divide(KIWIPETE, 2, chess960=False)


def test_divide_chess960_writes_castling_as_king_takes_rook(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, lines, err = run(capsys, "2", "--fen", KIWIPETE, "--chess960", "--divide")
    assert (status, err) == (0, "")
    counts, total = divide_of(lines)
    assert total == 2039
    assert {"e1h1", "e1a1"} <= counts.keys()
    assert not {"e1g1", "e1c1"} & counts.keys()
    assert counts == oracle_divide(KIWIPETE, 2, chess960=True)


def test_divide_on_a_chess960_middle_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "2", "--fen", CHESS960_ROOT, "--chess960", "--divide")
    counts, total = divide_of(lines)
    assert status == 0
    assert total == 697  # chess960.perft, id 271, depth 2
    assert {"e1g1", "e1d1"} <= counts.keys()  # king takes rook, both wings
    assert counts == oracle_divide(CHESS960_ROOT, 2, chess960=True)


@pytest.mark.parametrize(
    "fen",
    [
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",  # a square short
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",  # no white king
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1",  # a castling right without a rook
    ],
)
def test_bad_fen_exits_2_with_one_line_on_stderr(
    capsys: pytest.CaptureFixture[str], fen: str
) -> None:
    status, lines, err = run(capsys, "1", "--fen", fen, "--divide")
    assert status == 2
    assert lines == []
    assert err.endswith("\n")
    assert err.count("\n") == 1
    assert "FEN" in err


def test_installed_console_script() -> None:
    """The real `reedboard` executable, as a shell or another program would call it."""
    script = Path(sys.executable).with_name("reedboard")
    assert script.is_file(), "the project is not installed: no reedboard console script"
    done = subprocess.run(
        [str(script), "perft", "2", "--fen", KIWIPETE, "--chess960", "--divide"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    counts, total = divide_of(done.stdout.splitlines())
    assert total == 2039
    assert counts["e1h1"] == oracle_divide(KIWIPETE, 2, chess960=True)["e1h1"]
