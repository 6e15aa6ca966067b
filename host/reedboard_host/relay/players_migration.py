"""The arbiter's players as an older relay kept them, one set per board for every game
it would ever play, moved to the table that keeps them game by game.

The older relay showed them on whatever game the board had, so they are given to the
game each board has now, as the relay rebuilt it from its store: the one the arbiter
was looking at, unless the board started another since (which showed them too). A board
the store holds no game for gets them for its first game. Nothing is dropped."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from reedboard_host.relay.corrections import NOT_STARTED, GameOnBoard

OLD_TABLE = "arbiter_players"  # (board, field, value), PRIMARY KEY (board, field)


def keyed_players(db: sqlite3.Connection, games: Mapping[str, GameOnBoard]) -> None:
    """Moves the older table's rows, if there is one, and drops it (in the caller's
    transaction, so a relay stopped halfway leaves the older table whole)."""
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (OLD_TABLE,)
    ).fetchone()
    if found is None:
        return
    rows = db.execute(f"SELECT board, field, value FROM {OLD_TABLE} ORDER BY rowid").fetchall()
    for board, field, value in rows:
        ordinal, game = games.get(board, (0, NOT_STARTED))
        db.execute(
            "INSERT OR REPLACE INTO arbiter_game_players VALUES (?, ?, ?, ?, ?)",
            (board, ordinal, game, field, value),
        )
    db.execute(f"DROP TABLE {OLD_TABLE}")
