"""A relay restarted on its store serves at once: each board is rebuilt from its kept
snapshot and the messages stored after it, not from every message again (real SQLite,
the relay's command run in the test's process, stopped as SIGTERM stops it). A snapshot that cannot be trusted is
ignored: the board is replayed from its messages, the same games."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard_host.mirror import GameMirror
from reedboard_relay import snapshots
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.relay_thread import relay_thread
from tests.relay.test_game_pairings import FOOLS_MATE, MATED, hello, moves, new_game, state

OPENING = ["e2e4", "e7e5", "g1f3", "b8c6"]


def games(mirror: GameMirror) -> list[tuple[list[str], str | None, str | None]]:
    every = [*mirror.finished, *([mirror.current] if mirror.current else [])]
    return [(g.game.san_moves(), g.result, g.reason) for g in every]


def played(boards: Boards, board: str = "b1") -> None:
    """A finished fool's mate, then a new game's opening."""
    for frame in (hello(1, "s1"), state(2), *moves(3, FOOLS_MATE), MATED, new_game(8)):
        boards.heard(board, read(frame), 0)
    for frame in moves(9, OPENING):
        boards.heard(board, read(frame), 0)


def test_a_snapshot_holds_the_games_results_comments_and_clocks(boards: Boards) -> None:
    played(boards)
    mirror = boards.boards["b1"].mirror
    assert mirror.current is not None
    mirror.current.comments[2] = "a comment"
    mirror.current.clocks[3] = (59_000, 60_000)
    again = snapshots.read(snapshots.written(mirror))
    assert again is not None and games(again) == games(mirror)
    assert again.current is not None and again.current.comments == {2: "a comment"}
    assert again.current.clocks == {3: (59_000, 60_000)}
    assert (again.stands_at, again.needs_state) == (mirror.stands_at, mirror.needs_state)
    assert again.finished[0].game.position.is_checkmate()


def test_a_snapshot_that_cannot_be_trusted_is_none(boards: Boards) -> None:
    played(boards)
    text = snapshots.written(boards.boards["b1"].mirror)
    fen = boards.boards["b1"].mirror.finished[0].game.position.fen()
    elsewhere = '"fen":"4k3/8/8/8/8/8/8/4K3 w - - 0 1"'
    other_end = text.replace(f'"fen":"{fen}"', elsewhere, 1)  # the game ends elsewhere
    assert other_end != text
    for bad in (other_end, text.replace('"format":1', '"format":99'), "{", "[]", '{"format":1}'):
        assert snapshots.read(bad) is None, bad


def test_a_restarted_relay_rebuilds_from_the_snapshot_and_what_came_after(
    boards: Boards, path: Path
) -> None:
    for frame in (hello(1, "s1"), state(2), *moves(3, FOOLS_MATE), MATED, new_game(8)):
        boards.heard("b1", read(frame), 0)
    assert boards.keep_snapshots() == 1
    assert boards.keep_snapshots() == 0  # nothing new: nothing written
    for frame in moves(9, OPENING):  # stored after the snapshot (a relay killed then)
        boards.heard("b1", read(frame), 0)
    expected = games(boards.boards["b1"].mirror)
    boards.store.close()
    with sqlite3.connect(path) as db:  # the messages the snapshot holds: no longer read
        db.execute("DELETE FROM messages WHERE number <= (SELECT number FROM snapshots)")
    again = Boards(RelayStore(str(path)))
    try:
        assert games(again.boards["b1"].mirror) == expected
        assert again.boards["b1"].receiver.last_seq == 12  # where the board's stream stood
    finally:
        again.store.close()


def test_a_damaged_snapshot_is_replayed_from_the_messages(boards: Boards, path: Path) -> None:
    played(boards)
    boards.keep_snapshots()
    expected = games(boards.boards["b1"].mirror)
    boards.store.close()
    with sqlite3.connect(path) as db:
        db.execute('UPDATE snapshots SET mirror = \'{"format": 1, "stands_at": "x"}\'')
    again = Boards(RelayStore(str(path)))
    try:
        assert games(again.boards["b1"].mirror) == expected
    finally:
        again.store.close()


def test_the_relay_keeps_every_boards_snapshot_when_stopped(boards: Boards, path: Path) -> None:
    played(boards, "b1")
    played(boards, "b2")
    boards.store.close()
    with relay_thread(["--mqtt", "mqtt://127.0.0.1:9", "--db", str(path)]) as running:
        assert running.line().startswith("http://127.0.0.1:")  # it serves
        assert running.stop() == 0
    with sqlite3.connect(path) as db:
        kept = dict(db.execute("SELECT board, number FROM snapshots").fetchall())
        last = dict(db.execute("SELECT board, max(number) FROM messages GROUP BY board"))
    assert kept == last and set(kept) == {"b1", "b2"}
