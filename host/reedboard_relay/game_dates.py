"""Each game's date: the day the relay first heard of it (its new game, or the board's
state when the relay joined), kept in the relay's SQLite beside the boards' games.

The PGN's `[Date]` is the day the game was played, not the day it is served: a round
read the morning after, or a relay restarted past midnight, keeps each game's own day.
Used under the relay's lock, as the boards are."""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Callable

from reedboard_relay.boards import Board
from reedboard_relay.game_on_board import game_on
from reedboard_relay.game_pairings import GameKey

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_dates (
    board TEXT NOT NULL, ordinal INTEGER NOT NULL, game INTEGER NOT NULL,
    date TEXT NOT NULL,
    PRIMARY KEY (board, ordinal, game)
);
"""


class GameDates:
    def __init__(
        self,
        db: sqlite3.Connection,
        today: Callable[[], datetime.date] = datetime.date.today,
    ) -> None:
        self.db = db
        self.today = today
        self.db.executescript(SCHEMA)
        self._dates: dict[GameKey, datetime.date] = {}
        for board, ordinal, game, text in db.execute(
            "SELECT board, ordinal, game, date FROM game_dates"
        ):
            try:
                self._dates[(board, ordinal, game)] = datetime.date.fromisoformat(text)
            except ValueError:
                continue  # unreadable: the game takes the day it is next seen

    def of(self, board: Board) -> datetime.date | None:
        """The date of the board's current game (None between games), noted the first
        time it is asked for."""
        if board.mirror.current is None:
            return None
        key: GameKey = (board.id, *game_on(board.mirror))
        known = self._dates.get(key)
        if known is None:
            known = self._dates[key] = self.today()
            self.db.execute(
                "INSERT OR REPLACE INTO game_dates VALUES (?, ?, ?, ?)",
                (*key, known.isoformat()),
            )
        return known
