"""Each game's players: the pairings file's while the game is played, kept once it is over.

A Swiss is paired round by round when every game has its result, and a pairing program
rewrites the round while it is played only when a name is misspelt or colours are
swapped. So a game in progress takes the file as it is now, and a game that is over
keeps the pairing in force when it ended, in the relay's SQLite beside the boards' games:
the next round written while a board still holds its finished game (its pieces not yet
set up again) does not rename that game, on the page, in the PGN or on Lichess, and a
restarted relay shows it as before. A pairing that names nobody is never kept: a game
that ended while the file did not name its board takes the first pairing that does."""

from __future__ import annotations

import dataclasses
import json
import sqlite3

from reedboard_relay.boards import Board
from reedboard_relay.corrections import Decisions
from reedboard_relay.game_on_board import game_on
from reedboard_relay.pairings import Pairing, Pairings

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_pairings (
    board TEXT NOT NULL, ordinal INTEGER NOT NULL, game INTEGER NOT NULL,
    pairing TEXT NOT NULL,
    PRIMARY KEY (board, ordinal, game)
);
"""

# A board's game: the board, then the game on it (game_on_board.py).
GameKey = tuple[str, int, int]

NOBODY = Pairing()


def game_pairing(kept: Pairing | None, now: Pairing, over: bool) -> tuple[Pairing, bool]:
    """The game's pairing, and whether it is to be kept from now on. Pure."""
    if kept is not None:
        return kept, False
    return now, over and now != NOBODY


class GamePairings:
    """The pairings file's answer, game by game. Used under the relay's lock, as the
    boards are: it reads them, and writes through the same connection."""

    def __init__(self, pairings: Pairings, db: sqlite3.Connection) -> None:
        self.pairings = pairings
        self.db = db
        self.db.executescript(SCHEMA)
        self._kept: dict[GameKey, Pairing] = {}
        for board, ordinal, game, text in db.execute(
            "SELECT board, ordinal, game, pairing FROM game_pairings"
        ):
            kept = _pairing(text)
            if kept is not None:  # else taken from the file again
                self._kept[(board, ordinal, game)] = kept

    def of(self, board: Board, decisions: Decisions) -> Pairing:
        """The pairing of the board's current game (before the arbiter's players)."""
        game = board.mirror.current
        if game is None:
            return self.pairings.get(board.id)
        on = game_on(board.mirror)
        key: GameKey = (board.id, *on)
        kept = self._kept.get(key)
        if kept is not None:
            return kept  # without asking the file: the page asks for every board often
        ruled = decisions.result_for(on)
        over = game.result is not None or (ruled is not None and ruled.result != "*")
        pairing, keep = game_pairing(kept, self.pairings.get(board.id), over)
        if keep:
            self.db.execute(
                "INSERT OR REPLACE INTO game_pairings VALUES (?, ?, ?, ?)",
                (*key, json.dumps(dataclasses.asdict(pairing), separators=(",", ":"))),
            )
            self._kept[key] = pairing
        return pairing


def _pairing(text: str) -> Pairing | None:
    """A kept pairing (None when unreadable); a field it does not know is left out."""
    try:
        fields = json.loads(text)
    except ValueError:
        return None
    if not isinstance(fields, dict):
        return None
    known = {f.name for f in dataclasses.fields(Pairing)}
    return Pairing(**{k: str(v) for k, v in fields.items() if k in known})
