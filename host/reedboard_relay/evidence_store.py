"""The arbiter's evidence (evidence.py) in the relay's SQLite file: one row per thing
heard or decided, written in the same transaction as what it is evidence of (a board's
messages, a status, an arbiter's decision), so a relay killed at any moment keeps both
or neither."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

from reedboard_relay.evidence import Evidence
from reedboard_relay.game_on_board import GameOnBoard

SCHEMA = """
CREATE TABLE IF NOT EXISTS evidence (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL, ordinal INTEGER NOT NULL, game INTEGER NOT NULL,
    ply INTEGER NOT NULL, at REAL NOT NULL, board_ms INTEGER,
    kind TEXT NOT NULL, data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS evidence_board ON evidence (board, ordinal, game);
"""


def create(db: sqlite3.Connection) -> None:
    db.executescript(SCHEMA)


Row = tuple[str, int, int, int, float, int | None, str, str]


def record(db: sqlite3.Connection, board: str, entries: list[Evidence]) -> None:
    """The entries kept, inside the caller's transaction."""
    record_rows(db, rows(board, entries))


def rows(board: str, entries: list[Evidence]) -> list[Row]:
    """The entries as `record_rows` writes them (a turn's, written at once)."""
    return [
        (board, *e.game, e.ply, e.at, e.board_ms, e.kind, json.dumps(dict(e.data))) for e in entries
    ]


def record_rows(db: sqlite3.Connection, written: list[Row]) -> None:
    db.executemany(
        "INSERT INTO evidence (board, ordinal, game, ply, at, board_ms, kind, data) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        written,
    )


def recorded(db: sqlite3.Connection, board: str, game: GameOnBoard) -> list[Evidence]:
    return list(_rows(db, "WHERE board = ? AND ordinal = ? AND game = ?", (board, *game)))


def games_of(db: sqlite3.Connection, board: str) -> list[GameOnBoard]:
    """The board's games that have evidence, in the order they were played."""
    rows = db.execute(
        "SELECT ordinal, game FROM evidence WHERE board = ? GROUP BY ordinal, game "
        "ORDER BY min(number)",
        (board,),
    )
    return [(ordinal, game) for ordinal, game in rows]


def _rows(db: sqlite3.Connection, where: str, args: tuple[object, ...]) -> Iterator[Evidence]:
    for ordinal, game, ply, at, board_ms, kind, data in db.execute(
        f"SELECT ordinal, game, ply, at, board_ms, kind, data FROM evidence {where} "
        "ORDER BY number",
        args,
    ):
        yield Evidence(at, (ordinal, game), ply, kind, json.loads(data), board_ms)
