"""The broadcast delay replays only what the store has committed. It reads the relay's
own SQLite connection, which sees the rows of a turn still held open (store.py's `hold`):
with a delay near zero those rows were due at once, so the public could be shown moves
the store then lost (a turn rolled back), and the delayed boards, past their numbers,
never showed the moves stored again under the same numbers (real SQLite)."""

from __future__ import annotations

import time
from pathlib import Path

from reedboard_relay.boards import Boards
from reedboard_relay.broadcast_delay import DelayedBoards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import hello, moves, state

OPENING = ["e2e4", "e7e5", "g1f3", "b8c6"]
NEAR_ZERO_S = 0.001


def shown(delayed: DelayedBoards) -> list[str]:
    board = delayed.boards.get("b1")
    current = None if board is None else board.mirror.current
    return [] if current is None else [m.uci() for m in current.game.moves]


def test_a_held_turn_is_not_replayed_before_it_is_committed(tmp_path: Path) -> None:
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    try:
        for frame in (hello(1, "s1"), state(2), *moves(3, OPENING[:2])):
            boards.heard("b1", read(frame), 0)
        delayed = DelayedBoards(boards.store, NEAR_ZERO_S, time.time() + 1)
        assert shown(delayed) == OPENING[:2]
        boards.store.hold()  # a turn of reading the broker's socket
        for frame in moves(3, OPENING)[2:]:
            boards.heard("b1", read(frame), 0)
        delayed.catch_up(boards, time.time() + 1)
        assert shown(delayed) == OPENING[:2]  # before: all four, not yet committed
        assert boards.store.commit()
        delayed.catch_up(boards, time.time() + 1)
        assert shown(delayed) == OPENING
    finally:
        boards.store.close()


def test_a_turn_rolled_back_is_shown_once_stored_again(tmp_path: Path) -> None:
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    try:
        for frame in (hello(1, "s1"), state(2)):
            boards.heard("b1", read(frame), 0)
        delayed = DelayedBoards(boards.store, NEAR_ZERO_S, time.time() + 1)
        boards.store.hold()
        first = moves(3, OPENING)
        boards.heard("b1", read(first[0]), 0)
        delayed.catch_up(boards, time.time() + 1)
        boards.store.discard()  # the turn not stored (a failed insert or commit)
        boards.reload({"b1"})
        for frame in first:  # the broker sends them again
            boards.heard("b1", read(frame), 0)
        delayed.catch_up(boards, time.time() + 1)
        assert shown(delayed) == OPENING
    finally:
        boards.store.close()
