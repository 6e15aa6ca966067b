"""Speed of the rules core next to python-chess, on the same positions, in one run.

    python bench/perft.py [--quick] [--repeat N]

Perft (the number of leaf nodes of the legal move tree) with the same algorithm on both
sides: the legal moves are counted at depth 1 and played one by one above it. Then the
time to list the legal moves of a position as move values. Every figure is the median of
several runs, because a shared machine makes single runs noisy. Last, for scale, the
time to write the SAN of every legal move of a position, the board part of its FEN,
and to tell which Chess960 start a position is. The ratio is our time
over python-chess's: 1.0 or less means the core is at least as fast.

python-chess is a development dependency only (the `dev` extra); the product never
imports it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from reedboard.rules.chess960 import chess960_fen, start_number_of
from reedboard.rules.position import Position, perft
from reedboard.rules.san import san

try:
    import chess
except ImportError:  # pragma: no cover - a message, not a failure mode worth testing
    sys.exit("bench/perft.py compares with python-chess: pip install -e '.[dev]'")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS960_NUMBER = 0
LEGAL_MOVES_CASES = (("start", START), ("kiwipete", KIWIPETE))


@dataclass(frozen=True)
class Case:
    name: str
    fen: str
    chess960: bool
    depth: int


def oracle_perft(board: chess.Board, depth: int) -> int:
    """python-chess's perft, written the same way as ours."""
    if depth < 1:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


def median_seconds(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The median wall time of `repeat` runs, and what the last run returned."""
    times = []
    result: object = None
    for _ in range(repeat):
        began = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - began)
    return statistics.median(times), result


def bench_perft(case: Case, repeat: int) -> tuple[str, int, float, float]:
    position = Position.from_fen(case.fen, chess960=case.chess960)
    board = chess.Board(case.fen, chess960=case.chess960)
    ours, our_nodes = median_seconds(lambda: perft(position, case.depth), repeat)
    theirs, their_nodes = median_seconds(lambda: oracle_perft(board, case.depth), repeat)
    if our_nodes != their_nodes:
        sys.exit(f"{case.name}: perft {case.depth} is {our_nodes}, python-chess {their_nodes}")
    assert isinstance(our_nodes, int)
    return f"perft {case.name} d{case.depth}", our_nodes, ours, theirs


def bench_legal_moves(name: str, fen: str, repeat: int, calls: int) -> tuple[str, float, float]:
    """Microseconds per call, median over `repeat` batches of `calls` calls."""
    position = Position.from_fen(fen)
    board = chess.Board(fen)
    if {position.uci(m) for m in position.legal_moves()} != {
        board.uci(m) for m in board.legal_moves
    }:
        sys.exit(f"{name}: the legal moves differ from python-chess's")

    def ours() -> None:
        for _ in range(calls):
            position.legal_moves()

    def theirs() -> None:
        for _ in range(calls):
            list(board.legal_moves)

    our_time, _ = median_seconds(ours, repeat)
    their_time, _ = median_seconds(theirs, repeat)
    return f"legal moves {name}", our_time / calls * 1e6, their_time / calls * 1e6


def bench_san(name: str, fen: str, repeat: int, calls: int) -> tuple[str, float, float]:
    """Microseconds to write the SAN of every legal move once, median of batches."""
    position = Position.from_fen(fen)
    board = chess.Board(fen)
    our_moves = position.legal_moves()
    their_moves = list(board.legal_moves)

    def ours() -> None:
        for _ in range(calls):
            for move in our_moves:
                san(position, move)

    def theirs() -> None:
        for _ in range(calls):
            for move in their_moves:
                board.san(move)

    our_time, _ = median_seconds(ours, repeat)
    their_time, _ = median_seconds(theirs, repeat)
    return f"SAN of all moves {name}", our_time / calls * 1e6, their_time / calls * 1e6


def bench_board_fen(name: str, fen: str, repeat: int, calls: int) -> tuple[str, float, float]:
    """Microseconds to write the board part of the FEN (the reader writes a FEN for every
    move it commits), median of batches."""
    position = Position.from_fen(fen)
    board = chess.Board(fen)
    if position.board_fen() != board.board_fen():
        sys.exit(f"{name}: the board FEN differs from python-chess's")

    def ours() -> None:
        for _ in range(calls):
            position.board_fen()

    def theirs() -> None:
        for _ in range(calls):
            board.board_fen()

    our_time, _ = median_seconds(ours, repeat)
    their_time, _ = median_seconds(theirs, repeat)
    return f"board FEN {name}", our_time / calls * 1e6, their_time / calls * 1e6


def bench_start_number(repeat: int) -> tuple[str, float, float]:
    """Microseconds to tell which Chess960 start a position is (a journal of a Chess960
    game, a host's GUI and the simulator ask), over all 960, median of batches."""
    ours_positions = [Position.chess960_start(n) for n in range(960)]
    boards = [chess.Board.from_chess960_pos(n) for n in range(960)]
    if [start_number_of(p) for p in ours_positions] != [b.chess960_pos() for b in boards]:
        sys.exit("the Chess960 start numbers differ from python-chess's")

    def ours() -> None:
        for position in ours_positions:
            start_number_of(position)

    def theirs() -> None:
        for board in boards:
            board.chess960_pos()

    our_time, _ = median_seconds(ours, repeat)
    their_time, _ = median_seconds(theirs, repeat)
    return "Chess960 start number", our_time / 960 * 1e6, their_time / 960 * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one depth less, fewer runs")
    parser.add_argument("--repeat", type=int, help="runs per figure (default 5, quick 3)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    less = 1 if args.quick else 0
    cases = [
        Case("start", START, False, 4 - less),
        Case("kiwipete", KIWIPETE, False, 3 - less),
        Case(f"chess960 #{CHESS960_NUMBER}", chess960_fen(CHESS960_NUMBER), True, 4 - less),
    ]
    calls = 500 if args.quick else 2000

    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}")
    print(f"median of {repeat} runs; ratio = ours / python-chess (goal <= 1.0)")
    print()
    header = f"{'case':<26} {'nodes':>9} {'ours s':>8} {'ours n/s':>10} {'p-c s':>8} {'p-c n/s':>10} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for case in cases:
        name, nodes, ours, theirs = bench_perft(case, repeat)
        print(
            f"{name:<26} {nodes:>9} {ours:>8.3f} {nodes / ours:>10,.0f} "
            f"{theirs:>8.3f} {nodes / theirs:>10,.0f} {ours / theirs:>6.2f}"
        )
    print()
    header = f"{'case':<26} {'ours us/call':>13} {'p-c us/call':>13} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    rows = [bench_legal_moves(name, fen, repeat, calls) for name, fen in LEGAL_MOVES_CASES]
    # SAN is not perft, but it is the other hot path of a game record: shown for scale.
    rows.append(bench_san("kiwipete", KIWIPETE, repeat, max(1, calls // 40)))
    rows.append(bench_board_fen("kiwipete", KIWIPETE, repeat, calls))
    rows.append(bench_start_number(repeat))
    for label, ours_us, theirs_us in rows:
        print(f"{label:<26} {ours_us:>13.1f} {theirs_us:>13.1f} {ours_us / theirs_us:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
