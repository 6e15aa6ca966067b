"""The host coming back to the same run of the board (a cable pulled and put back): it
asks only for what it missed, and does not fetch the whole game again."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.follow import Follower

from tests.host.running_board import RunningBoard

BOUND_S = 60.0  # a generous bound on waiting for a condition, never a measured time


def _mirrored(follower: Follower) -> list[str]:
    current = follower.mirror.current
    if current is None:
        return []
    game = current.game
    return [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]


def _follow_until(follower: Follower, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + BOUND_S
    follower.run(lambda: done() or time.monotonic() > deadline, wait_s=0.05)
    assert done()


def _play(board: RunningBoard, position: Position, uci: str, seed: int) -> Position:
    move = position.parse_uci(uci)
    board.live.push(human_script(position, [move], seed=seed).lines)
    return position.play(move)


def test_a_reconnection_asks_only_for_what_was_missed() -> None:
    delivered: list[dict[str, Any]] = []
    with RunningBoard(speed=10) as board:
        follower = Follower(board.port, on_message=lambda m: delivered.append(m.to_wire()))
        try:
            follower.connect()
            position = _play(board, Position.standard(), "e2e4", seed=1)
            _follow_until(follower, lambda: _mirrored(follower) == ["e2e4"])
            # The cable is pulled: the host loses its port while the board plays on.
            follower.connection.close()
            follower.connected = False
            position = _play(board, position, "e7e5", seed=2)
            deadline = time.monotonic() + BOUND_S
            while board.moves() != ["e2e4", "e7e5"] and time.monotonic() < deadline:
                time.sleep(0.05)  # waiting for the board, not timing it
            seen = len(delivered)
            _follow_until(follower, lambda: _mirrored(follower) == ["e2e4", "e7e5"])
        finally:
            follower.connection.close()
    after = delivered[seen:]
    assert [m["uci"] for m in after if m.get("event") == "move"] == ["e7e5"]
    assert not [m for m in after if m["type"] in ("moves", "state", "hello")]  # no refetch
