"""The arbiter's decisions as older relays kept them, read into the tables that keep
them game by game (game_on_board.py), as the relay starts.

- Players, kept one set per board for every game it would ever play, go to the game
  each board has now: the one the arbiter was looking at, unless the board started
  another since (which showed them too). A board with no game gets them for its first.
- Results, corrections and time added, kept by the game's number alone, go to the
  latest game the board played with that number: on a board with a journal the only
  one; on a board without, which numbers every game 0, the one the arbiter was most
  likely looking at (the older relay showed them on every game so numbered).

Nothing is dropped. Each step is in the caller's transaction, so a relay stopped
halfway leaves the older tables whole, and a step finds nothing to do the next time."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from reedboard_relay.game_on_board import BoardGames

OLD_PLAYERS = "arbiter_players"  # (board, field, value), PRIMARY KEY (board, field)
OLD_RESULTS = "arbiter_results"  # (board, game, result, reason), PRIMARY KEY (board, game)
NUMBERED = ("arbiter_corrections", "arbiter_time_added")  # an `ordinal` column added later


def keyed_decisions(db: sqlite3.Connection, games: Mapping[str, BoardGames]) -> None:
    """Moves what the older tables hold, if there are any, and drops them."""
    if _has_table(db, OLD_PLAYERS):
        rows = db.execute(f"SELECT board, field, value FROM {OLD_PLAYERS} ORDER BY rowid")
        for board, field, value in rows.fetchall():
            ordinal, game = games.get(board, BoardGames()).now()
            db.execute(
                "INSERT OR REPLACE INTO arbiter_game_players VALUES (?, ?, ?, ?, ?)",
                (board, ordinal, game, field, value),
            )
        db.execute(f"DROP TABLE {OLD_PLAYERS}")
    if _has_table(db, OLD_RESULTS):
        rows = db.execute(f"SELECT board, game, result, reason FROM {OLD_RESULTS} ORDER BY rowid")
        for board, game, result, reason in rows.fetchall():
            ordinal, _ = games.get(board, BoardGames()).latest(game)
            db.execute(
                "INSERT OR REPLACE INTO arbiter_game_results VALUES (?, ?, ?, ?, ?)",
                (board, ordinal, game, result, reason),
            )
        db.execute(f"DROP TABLE {OLD_RESULTS}")
    for table in NUMBERED:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if "ordinal" not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN ordinal INTEGER")
        rows = db.execute(f"SELECT number, board, game FROM {table} WHERE ordinal IS NULL")
        for number, board, game in rows.fetchall():
            ordinal, _ = games.get(board, BoardGames()).latest(game)
            db.execute(f"UPDATE {table} SET ordinal = ? WHERE number = ?", (ordinal, number))


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return found is not None
