"""The games the page offers as PGN: the one on the board (from the board's `state`) and
the journal's past games, read on a connection of the page's own (SQLite lets a reader
beside the board's writer), never on the scan loop's thread."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from reedboard.errors import InvalidInputError
from reedboard.journal.store import Journal, JournalError, JournalGame
from reedboard.link.board_messages import StateMessage
from reedboard.rules.game import Game
from reedboard.rules.pgn import write_pgn
from reedboard.rules.position import Position
from reedboard.web.page_messages import ListedGame

LISTED = 200  # the latest games the page lists


class GameShelf:
    def __init__(self, journal_path: str | None, board: str = "reedboard") -> None:
        self.journal_path = journal_path
        self.board = board
        self._journal: Journal | None = None
        self._lock = threading.Lock()

    def this_game(self, state: StateMessage | None) -> str:
        """The game on the board as PGN (an empty game before the board's first state)."""
        if state is None:
            return write_pgn(Game(), {"Event": self.board})
        game = Game(Position.from_fen(state.start_fen, chess960=state.chess960))
        for uci in state.moves:
            game.push_uci(uci)
        return write_pgn(game, {"Event": self.board}, result=state.result or "*")

    def listed(self) -> list[ListedGame]:
        """The journal's latest games, newest first: number, start, result, plies."""
        journal = self._open()
        if journal is None:
            return []
        with self._lock:
            rows = journal.connection.execute(
                "SELECT id, started_at, result, reason,"
                " (SELECT count(*) FROM moves WHERE game_id = games.id)"
                " FROM games ORDER BY id DESC LIMIT ?",
                (LISTED,),
            ).fetchall()
        return [
            ListedGame(
                number=int(number),
                started=_when(float(started)),
                result=result or "*",
                reason=reason,
                plies=int(plies),
            )
            for number, started, result, reason, plies in rows
        ]

    def pgn(self, number: int) -> str | None:
        """Game `number` of the journal as PGN; None when there is no such game."""
        journal = self._open()
        if journal is None:
            return None
        with self._lock:
            kept = journal.game(number)
        return None if kept is None else _pgn(kept, self.board)

    def _open(self) -> Journal | None:
        with self._lock:
            if self._journal is None and self.journal_path is not None:
                try:
                    self._journal = Journal(self.journal_path)
                except JournalError:
                    return None
            return self._journal

    def close(self) -> None:
        with self._lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None


def _pgn(kept: JournalGame, board: str) -> str:
    try:
        game = kept.to_game()
    except InvalidInputError:
        game = Game(Position.from_fen(kept.start_fen, chess960=kept.chess960))
    started = datetime.fromtimestamp(kept.started_at, UTC)
    headers = {"Event": board, "Round": str(kept.id), "Date": started.strftime("%Y.%m.%d")}
    return write_pgn(game, headers, result=kept.result or "*")


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M UTC")
