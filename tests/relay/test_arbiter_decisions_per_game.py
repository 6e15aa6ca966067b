"""The arbiter's result, corrections and time added belong to the game they were made on:
a board without a journal, which numbers every game 0, starts its next game without
them, before and after a restart of the relay. The file of an older relay, which kept
them by the game's number alone, is read into the same: each goes to the latest game the
board played with that number."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from reedboard_relay.arbiter_console import ArbiterDesk
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import Boards
from reedboard_relay.game_on_board import BoardGames, game_on
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import (
    FOOLS_MATE,
    MATED,
    ROUND_1,
    Relay,
    hello,
    moves,
    new_game,
    rewrite,
    state,
)


def ruled_on_first_game(relay: Relay) -> ArbiterDesk:
    """b1, without a journal, plays 1.e4 e5 2.Nf3; the arbiter cancels 1...e5 (the board
    never answers), adds two minutes to Black's clock and gives the game to White."""
    relay.heard("b1", hello(1, "s1"), state(2), *moves(3, ["e2e4", "e7e5", "g1f3"]))
    desk = ArbiterDesk(relay.service, relay.arbiter, relay.games, lambda board: None)
    desk.correct("b1", 2, "set up wrong")
    on = game_on(relay.boards.boards["b1"].mirror)
    assert on == (0, 0)
    relay.arbiter.add_time("b1", on, 1, False, 120_000, "FIDE 7.5.5")
    desk.set_result("b1", "1-0", "forfeit")
    return desk


def test_a_boards_next_game_of_the_same_number_starts_without_them(tmp_path: Path) -> None:
    db, pairings = tmp_path / "relay.sqlite", tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    relay = Relay(db, pairings)
    try:
        desk = ruled_on_first_game(relay)
        ruled = relay.web.pgn("b1") or ""
        assert "Arbiter: 1-0, forfeit" in ruled and "1... e5 and 1 later ply cancelled" in ruled
        assert "two minutes added to Black's clock" in ruled and "2. Nf3" not in ruled
        # The players set the board up and play on: a new game, numbered 0 again.
        relay.heard("b1", new_game(6), *moves(7, ["d2d4", "d7d5", "c2c4"]))
        assert game_on(relay.boards.boards["b1"].mirror) == (1, 0)
        assert_plain_next_game(relay, desk)
    finally:
        relay.close()
    again = Relay(db, pairings)
    try:
        desk = ArbiterDesk(again.service, again.arbiter, again.games, lambda board: None)
        assert_plain_next_game(again, desk)
        kept = again.arbiter.of("b1")  # and still the first game's
        assert kept.result_for((0, 0)) is not None and kept.result_for((1, 0)) is None
        assert [c.game for c in kept.corrections] == [(0, 0)]
        assert [a.game for a in kept.added_times] == [(0, 0)]
    finally:
        again.close()


def assert_plain_next_game(relay: Relay, desk: ArbiterDesk) -> None:
    pgn = relay.web.pgn("b1") or ""
    assert "Arbiter" not in pgn and "1. d4 d5 2. c4" in pgn and '[Result "*"]' in pgn
    summary = next(s for s in relay.web.summaries() if s["id"] == "b1")
    assert (summary["ply"], summary["result"]) == (3, None)
    row = next(r for r in desk.boards() if r["id"] == "b1")
    assert (row["arbiter_result"], row["corrections"], row["moves"]) == (
        None,
        [],
        ["d4", "d5", "c4"],
    )


# The arbiter's tables as the relay made them before results, corrections and time added
# were kept game by game (players already were).
NUMBERED_SCHEMA = """
CREATE TABLE arbiter_results (
    board TEXT NOT NULL, game INTEGER NOT NULL, result TEXT NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (board, game)
);
CREATE TABLE arbiter_corrections (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL, game INTEGER NOT NULL, to_ply INTEGER NOT NULL,
    cancelled TEXT NOT NULL, note TEXT NOT NULL, state TEXT NOT NULL, answer TEXT NOT NULL
);
CREATE TABLE arbiter_time_added (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, color TEXT NOT NULL,
    ms INTEGER NOT NULL, note TEXT NOT NULL, state TEXT NOT NULL, answer TEXT NOT NULL
);
INSERT INTO arbiter_results VALUES ('b1', 0, '1-0', 'forfeit');
INSERT INTO arbiter_results VALUES ('b2', 9, '0-1', 'a game the relay never saw');
INSERT INTO arbiter_corrections VALUES (1, 'b2', 3, 1, '["e5"]', '', 'done', '');
INSERT INTO arbiter_time_added VALUES (1, 'b2', 4, 1, 'black', 120000, '', 'done', '');
INSERT INTO arbiter_time_added VALUES (2, 'b1', 0, 0, 'white', 60000, '', 'sent', '');
"""


def numbered(game: int, *frames: dict[str, Any]) -> list[dict[str, Any]]:
    return [frame | {"game": game} for frame in frames]


def test_an_older_relays_decisions_go_to_the_latest_game_of_their_number(
    tmp_path: Path,
) -> None:
    path = tmp_path / "relay.sqlite"
    with sqlite3.connect(path) as older:
        older.executescript(NUMBERED_SCHEMA)
    older.close()
    store = RelayStore(str(path))
    try:
        boards = Boards(store)
        # b1, no journal: a game mated, and the next begun, both 0. b2, a journal: game
        # 3 mated, game 4 begun.
        b1_frames = (hello(1, "s1"), state(2), *moves(3, FOOLS_MATE), MATED, new_game(8))
        for frame in (*b1_frames, *moves(9, ["e2e4"])):
            boards.heard("b1", read(frame), 0)
        b2_first = numbered(3, hello(1, "s2"), state(2), *moves(3, FOOLS_MATE), MATED)
        for frame in (*b2_first, *numbered(4, new_game(8), *moves(9, ["d2d4"]))):
            boards.heard("b2", read(frame), 0)
        games = {board.id: BoardGames.of(board.mirror) for board in boards.boards.values()}
        assert games == {"b1": BoardGames((0,), 0), "b2": BoardGames((3,), 4)}
        arbiter = ArbiterStore(store.db, games)
        b1, b2 = arbiter.of("b1"), arbiter.of("b2")
        assert [r.game for r in b1.results] == [(1, 0)]  # the game it has now
        assert [a.game for a in b1.added_times] == [(1, 0)]
        assert [c.game for c in b2.corrections] == [(0, 3)]  # its finished game
        assert [a.game for a in b2.added_times] == [(1, 4)]
        assert [r.game for r in b2.results] == [(2, 9)]  # none so numbered: its next
        tables = {row[0] for row in store.db.execute("SELECT name FROM sqlite_master")}
        assert "arbiter_results" not in tables and "arbiter_game_results" in tables
        # Opened again: the same, from the new tables alone, and new decisions kept too.
        again = ArbiterStore(store.db)
        assert [again.of(b) for b in ("b1", "b2")] == [b1, b2]
        made = again.add_correction("b1", (1, 0), 0, ("e4",), "")
        assert ArbiterStore(store.db).of("b1").corrections == (made,)
    finally:
        store.close()
