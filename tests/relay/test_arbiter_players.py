"""The arbiter's players are kept game by game in the relay's SQLite: a new game on the
board starts with the pairing's, a restarted relay shows each game's as before, and the
file of an older relay, which kept one set per board, is read into the new table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import Boards
from reedboard_relay.game_on_board import NOT_STARTED, BoardGames, game_on
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

# The arbiter's tables as the relay made them before players were kept game by game.
OLDER_SCHEMA = """
CREATE TABLE arbiter_results (
    board TEXT NOT NULL, game INTEGER NOT NULL, result TEXT NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (board, game)
);
CREATE TABLE arbiter_players (
    board TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (board, field)
);
CREATE TABLE arbiter_corrections (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL, game INTEGER NOT NULL, to_ply INTEGER NOT NULL,
    cancelled TEXT NOT NULL, note TEXT NOT NULL, state TEXT NOT NULL, answer TEXT NOT NULL
);
CREATE TABLE arbiter_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO arbiter_results VALUES ('b2', 0, '1/2-1/2', 'agreed');
INSERT INTO arbiter_players VALUES ('b1', 'white', 'Ann Smith');
INSERT INTO arbiter_players VALUES ('b1', 'white_elo', '2100');
INSERT INTO arbiter_players VALUES ('b2', 'black_title', 'IM');
INSERT INTO arbiter_players VALUES ('b9', 'black', 'Zed');
"""


def test_an_older_relays_players_go_to_the_game_each_board_has_now(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    with sqlite3.connect(path) as older:
        older.executescript(OLDER_SCHEMA)
    older.close()
    store = RelayStore(str(path))
    try:
        boards = Boards(store)
        # b1 finished a game and started its next; b2 plays its first; b9 has no game.
        for frame in (hello(1, "s1"), state(2), *moves(3, FOOLS_MATE), MATED, new_game(8)):
            boards.heard("b1", read(frame), 0)
        for frame in (hello(1, "s2"), state(2), *moves(3, ["e2e4"])):
            boards.heard("b2", read(frame), 0)
        games = {board.id: BoardGames.of(board.mirror) for board in boards.boards.values()}
        assert {name: had.now() for name, had in games.items()} == {"b1": (1, 0), "b2": (0, 0)}
        arbiter = ArbiterStore(store.db, games)
        b1, b2, b9 = (arbiter.of(b) for b in ("b1", "b2", "b9"))
        assert b1.players_for((1, 0)) == {"white": "Ann Smith", "white_elo": "2100"}
        assert b1.players_for((0, 0)) == {} and b1.players_for((2, 0)) == {}
        assert b2.players_for((0, 0)) == {"black_title": "IM"}
        assert b2.result_for((0, 0)) is not None  # the rest of the older file read as well
        assert b9.players_for((0, 4)) == {"black": "Zed"}  # its first game, when it comes
        tables = {row[0] for row in store.db.execute("SELECT name FROM sqlite_master")}
        assert "arbiter_players" not in tables and "arbiter_game_players" in tables
        # Opened again: the same, from the new table alone.
        again = ArbiterStore(store.db)
        assert [again.of(b) for b in ("b1", "b2", "b9")] == [b1, b2, b9]
    finally:
        store.close()


def test_a_new_game_on_the_board_starts_with_the_pairings_players(tmp_path: Path) -> None:
    db, pairings = tmp_path / "relay.sqlite", tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    relay = Relay(db, pairings)
    try:
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, FOOLS_MATE[:2]))
        relay.arbiter.set_players(
            "b1", game_on(relay.boards.boards["b1"].mirror), {"white": "A. Smith"}
        )
        relay.heard("b1", *moves(5, FOOLS_MATE[2:]), MATED)
        assert relay.players()["b1"] == ("A. Smith", "Bob")  # over, still that game's
        relay.heard("b1", new_game(8))  # no journal: numbered 0 again, yet another game
        assert relay.players()["b1"] == ("Ann", "Bob")
        assert '[White "Ann"]' in (relay.web.pgn("b1") or "")
    finally:
        relay.close()
    again = Relay(db, pairings)
    try:
        assert again.players()["b1"] == ("Ann", "Bob")
        board = again.boards.boards["b1"]
        fixed = again.arbiter.of("b1")
        assert fixed.players_for((0, 0)) == {"white": "A. Smith"}
        # Fixed again on the new game, then given back: the pairing's.
        again.arbiter.set_players("b1", game_on(board.mirror), {"black": "Rob"})
        assert again.players()["b1"] == ("Ann", "Rob")
        again.arbiter.set_players("b1", game_on(board.mirror), {"black": ""})
        assert again.players()["b1"] == ("Ann", "Bob")
    finally:
        again.close()


def test_players_fixed_before_the_boards_first_game_go_to_that_game(tmp_path: Path) -> None:
    db, pairings = tmp_path / "relay.sqlite", tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    relay = Relay(db, pairings)
    try:
        board = relay.boards.board("b1")  # known (say, from its status), no game yet
        assert game_on(board.mirror) == (0, NOT_STARTED)
        relay.arbiter.set_players("b1", game_on(board.mirror), {"white": "Early"})
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, ["e2e4"]))
        assert relay.players()["b1"] == ("Early", "Bob")
        relay.arbiter.set_players("b1", game_on(board.mirror), {"white": ""})  # given back
        assert relay.players()["b1"] == ("Ann", "Bob")
    finally:
        relay.close()
