"""Benchmark: how long the simulator's page waits for a move it asked for by clicks.

    python bench/sim_capture.py [--rounds N]

The simulated board runs as `reedboard sim` runs it (the firmware's own loop on a real
clock). Each round starts a new game and plays 1. e4 d5 2. exd5 with the page's clicks:
a click on the piece, then a click on its square; for the capture the second click is on
the black pawn, which the simulator takes off and replaces by the white one, as a hand
would. The figure is the wall time from the second click to the move in the page's state
(the board's own waits included: a capture waits for the knock that may follow it). The
quiet moves are the yardstick; the capture's extra time over them is the board's knock
wait plus what the simulator's hands add (`SimBoard.capture_step_ms`), which should be small.
"""

from __future__ import annotations

import argparse
import statistics
import time

from reedboard.simweb.board import SimBoard

POLL_S = 0.002
TIMEOUT_S = 10.0


def _clicked_move(board: SimBoard, start: str, end: str, plies: int) -> float:
    """Seconds from the click on `end` until the game has `plies` moves."""
    board.gesture("touch", {"square": start})
    board.gesture("touch", {"square": end})
    clicked = time.monotonic()
    while len(board.snapshot()["san"]) < plies:
        if time.monotonic() - clicked > TIMEOUT_S:
            shown = board.snapshot()
            raise SystemExit(
                f"{start}-{end} was never played: {shown['san']} {shown['effects'][-6:]}"
            )
        time.sleep(POLL_S)
    return time.monotonic() - clicked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    quiet: list[float] = []
    captures: list[float] = []
    board = SimBoard()
    board.start()
    step_ms = board.capture_step_ms()
    try:
        for _ in range(rounds):
            board.command({"type": "new_game"})
            quiet.append(_clicked_move(board, "e2", "e4", 1))
            quiet.append(_clicked_move(board, "d7", "d5", 2))
            captures.append(_clicked_move(board, "e4", "d5", 3))
            if board.snapshot()["san"] != ["e4", "d5", "exd5"]:
                raise SystemExit(f"not the capture: {board.snapshot()['san']}")
    finally:
        board.stop()
    q, c = statistics.median(quiet), statistics.median(captures)
    print(f"the simulator's capture step: {step_ms} ms; {rounds} rounds")
    print(f"quiet move by clicks:   median {q * 1000:7.1f} ms  (max {max(quiet) * 1000:.1f})")
    print(f"capture by clicks:      median {c * 1000:7.1f} ms  (max {max(captures) * 1000:.1f})")
    print(f"capture minus quiet:    {(c - q) * 1000:.1f} ms; ratio {c / q:.1f}")


if __name__ == "__main__":
    main()
