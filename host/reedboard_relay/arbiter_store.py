"""The arbiter's decisions, kept in the relay's own SQLite file beside the boards' games:
results, players, FIDE 7.5 corrections, time added to a clock and the round's tournament
switch. Each decision
is one transaction, so a relay restarted shows what the arbiter decided before."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TypeVar

from reedboard_relay import evidence_store
from reedboard_relay.added_time import AddedState, AddedTime, amount_words
from reedboard_relay.corrections import (
    ArbiterResult,
    Correction,
    CorrectionState,
    Decisions,
    PlayerFix,
)
from reedboard_relay.decisions_migration import keyed_decisions
from reedboard_relay.evidence import Evidence
from reedboard_relay.game_on_board import NOT_STARTED, BoardGames, GameOnBoard

SCHEMA = """
CREATE TABLE IF NOT EXISTS arbiter_game_results (
    board TEXT NOT NULL, ordinal INTEGER NOT NULL, game INTEGER NOT NULL,
    result TEXT NOT NULL, reason TEXT NOT NULL,
    PRIMARY KEY (board, ordinal, game)
);
CREATE TABLE IF NOT EXISTS arbiter_game_players (
    board TEXT NOT NULL, ordinal INTEGER NOT NULL, game INTEGER NOT NULL,
    field TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (board, ordinal, game, field)
);
CREATE TABLE IF NOT EXISTS arbiter_corrections (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL, game INTEGER NOT NULL, to_ply INTEGER NOT NULL,
    cancelled TEXT NOT NULL, note TEXT NOT NULL, state TEXT NOT NULL, answer TEXT NOT NULL,
    ordinal INTEGER
);
CREATE TABLE IF NOT EXISTS arbiter_time_added (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    board TEXT NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, color TEXT NOT NULL,
    ms INTEGER NOT NULL, note TEXT NOT NULL, state TEXT NOT NULL, answer TEXT NOT NULL,
    ordinal INTEGER
);
CREATE TABLE IF NOT EXISTS arbiter_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

STATES: tuple[CorrectionState, ...] = ("sent", "done", "refused", "withdrawn")
ADDED_STATES: tuple[AddedState, ...] = ("sent", "done", "refused")
State = TypeVar("State", CorrectionState, AddedState)
# One shared value for every board the arbiter has not ruled on: the web side compares
# what it shows with what it showed, a thousand boards at each poll, and one object is
# equal to itself at once.
NO_DECISIONS = Decisions()


class ArbiterStore:
    """Reads everything once; each change written at once and kept in memory. Every
    decision is about one game, told apart from the board's others (game_on_board.py)."""

    def __init__(
        self, db: sqlite3.Connection, games: Mapping[str, BoardGames] | None = None
    ) -> None:
        """`games`: each board's games as the relay rebuilt them, which decisions an
        older relay kept by board or by number alone are taken to be about."""
        self.db = db
        self.db.executescript(SCHEMA)
        evidence_store.create(db)
        with _transaction(db):
            keyed_decisions(db, games or {})
        self._boards: dict[str, Decisions] = {}
        for board, ordinal, game, result, reason in db.execute(
            "SELECT board, ordinal, game, result, reason FROM arbiter_game_results ORDER BY rowid"
        ):
            ruled = ArbiterResult((ordinal, game), result, reason)
            self._put(board, results=(*self.of(board).results, ruled))
        for board, ordinal, game, name, value in db.execute(
            "SELECT board, ordinal, game, field, value FROM arbiter_game_players ORDER BY rowid"
        ):
            fix = PlayerFix((ordinal, game), name, value)
            self._put(board, players=(*self.of(board).players, fix))
        for number, board, ordinal, game, to_ply, cancelled, note, state, answer in db.execute(
            "SELECT number, board, ordinal, game, to_ply, cancelled, note, state, answer "
            "FROM arbiter_corrections ORDER BY number"
        ):
            kept = Correction(
                number,
                (ordinal, game),
                to_ply,
                tuple(json.loads(cancelled)),
                note,
                _state(state, STATES),
                answer,
            )
            self._put(board, corrections=(*self.of(board).corrections, kept))
        for number, board, ordinal, game, ply, color, ms, note, state, answer in db.execute(
            "SELECT number, board, ordinal, game, ply, color, ms, note, state, answer "
            "FROM arbiter_time_added ORDER BY number"
        ):
            added = AddedTime(
                number,
                (ordinal, game),
                ply,
                color == "white",
                ms,
                note,
                _state(state, ADDED_STATES),
                answer,
            )
            self._put(board, added_times=(*self.of(board).added_times, added))

    def of(self, board: str) -> Decisions:
        return self._boards.get(board, NO_DECISIONS)

    def set_result(
        self, board: str, game: GameOnBoard, result: str, reason: str, ply: int = 0
    ) -> None:
        """`*` undoes the arbiter's result: the board's own stands again. (`ply`: the
        game's plies then, for the evidence.)"""
        with _transaction(self.db):
            self._noted(board, game, ply, "result", result=result, reason=reason)
            if result == "*":
                self.db.execute(
                    "DELETE FROM arbiter_game_results WHERE board = ? AND ordinal = ? AND game = ?",
                    (board, *game),
                )
            else:
                self.db.execute(
                    "INSERT OR REPLACE INTO arbiter_game_results VALUES (?, ?, ?, ?, ?)",
                    (board, *game, result, reason),
                )
        others = tuple(r for r in self.of(board).results if r.game != game)
        ruled = () if result == "*" else (ArbiterResult(game, result, reason),)
        self._put(board, results=(*others, *ruled))

    def set_players(self, board: str, game: GameOnBoard, fields: dict[str, str]) -> None:
        """Each field given replaces the pairing's for the game (and one fixed before the
        board had a game, when this is its first); an empty one gives the pairing's back."""
        with _transaction(self.db):
            for name, value in fields.items():
                self.db.execute(
                    "DELETE FROM arbiter_game_players WHERE board = ? AND ordinal = ? "
                    "AND game IN (?, ?) AND field = ?",
                    (board, game[0], game[1], NOT_STARTED, name),
                )
                if value:
                    self.db.execute(
                        "INSERT INTO arbiter_game_players VALUES (?, ?, ?, ?, ?)",
                        (board, *game, name, value),
                    )
        replaced = {game, (game[0], NOT_STARTED)}
        kept = [
            f for f in self.of(board).players if f.game not in replaced or f.field not in fields
        ]
        fixed = [PlayerFix(game, name, value) for name, value in fields.items() if value]
        self._put(board, players=(*kept, *fixed))

    def add_correction(
        self, board: str, game: GameOnBoard, to_ply: int, cancelled: tuple[str, ...], note: str
    ) -> Correction:
        with _transaction(self.db):
            self._noted(
                board,
                game,
                to_ply + 1,
                "correction",
                at_ply=to_ply + 1,
                cancelled=cancelled,
                note=note,
            )
            cursor = self.db.execute(
                "INSERT INTO arbiter_corrections "
                "(board, ordinal, game, to_ply, cancelled, note, state, answer) "
                "VALUES (?, ?, ?, ?, ?, ?, 'sent', '')",
                (board, *game, to_ply, json.dumps(list(cancelled)), note),
            )
        number = cursor.lastrowid
        assert number is not None
        made = Correction(number, game, to_ply, cancelled, note)
        self._put(board, corrections=(*self.of(board).corrections, made))
        return made

    def answer(self, board: str, number: int, state: CorrectionState, answer: str = "") -> bool:
        """The board's answer to a correction sent to it, or the arbiter withdrawing it;
        False when nothing changed. A withdrawn one stays so unless the board carried it
        out after all (then it is done: the board took the moves back)."""
        found = [c for c in self.of(board).corrections if c.number == number]
        if not found or found[0].state == state:
            return False
        if found[0].state == "withdrawn" and state != "done":
            return False
        with _transaction(self.db):
            about = f"correction at ply {found[0].to_ply + 1}"
            state_said = "withdrawn by the arbiter" if state == "withdrawn" else state
            self._noted(
                board, found[0].game, found[0].to_ply + 1, "answer",
                about=about, state=state_said, answer=answer,
            )  # fmt: skip
            self.db.execute(
                "UPDATE arbiter_corrections SET state = ?, answer = ? WHERE number = ?",
                (state, answer, number),
            )
        changed = replace(found[0], state=state, answer=answer)
        corrections = tuple(
            changed if c.number == number else c for c in self.of(board).corrections
        )
        self._put(board, corrections=corrections)
        return True

    def add_time(
        self, board: str, game: GameOnBoard, ply: int, white: bool, ms: int, note: str
    ) -> AddedTime:
        """Time the arbiter added to a player's clock, sent to the board."""
        color = "white" if white else "black"
        with _transaction(self.db):
            words = amount_words(ms)
            self._noted(board, game, ply, "time_added", words=words, color=color, note=note)
            cursor = self.db.execute(
                "INSERT INTO arbiter_time_added "
                "(board, ordinal, game, ply, color, ms, note, state, answer)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'sent', '')",
                (board, *game, ply, color, ms, note),
            )
        number = cursor.lastrowid
        assert number is not None
        made = AddedTime(number, game, ply, white, ms, note)
        self._put(board, added_times=(*self.of(board).added_times, made))
        return made

    def answer_time(self, board: str, number: int, state: AddedState, answer: str = "") -> bool:
        """The board's answer to time added; False when nothing changed."""
        found = [a for a in self.of(board).added_times if a.number == number]
        if not found or found[0].state == state:
            return False
        with _transaction(self.db):
            kept = found[0]
            about = f"{amount_words(kept.ms)} added"
            self._noted(
                board, kept.game, kept.ply, "answer", about=about, state=state, answer=answer
            )
            self.db.execute(
                "UPDATE arbiter_time_added SET state = ?, answer = ? WHERE number = ?",
                (state, answer, number),
            )
        changed = replace(found[0], state=state, answer=answer)
        added = tuple(changed if a.number == number else a for a in self.of(board).added_times)
        self._put(board, added_times=added)
        return True

    def tournament(self) -> bool:
        row = self.db.execute(
            "SELECT value FROM arbiter_settings WHERE name = 'tournament'"
        ).fetchone()
        return row is not None and row[0] == "1"

    def set_tournament(self, on: bool) -> None:
        with _transaction(self.db):
            self.db.execute(
                "INSERT OR REPLACE INTO arbiter_settings VALUES ('tournament', ?)",
                ("1" if on else "0",),
            )

    def _noted(self, board: str, game: GameOnBoard, ply: int, kind: str, **data: object) -> None:
        """A decision (or a board's answer to one) as evidence, inside its transaction."""
        entry = Evidence(time.time(), game, ply, kind, data)
        evidence_store.record(self.db, board, [entry])

    def _put(self, board: str, **changes: object) -> None:
        self._boards[board] = replace(self.of(board), **changes)  # type: ignore[arg-type]


def _state(text: str, states: tuple[State, ...]) -> State:
    """The state the file names, of those a decision can be in (the first, "sent", for
    one it does not know)."""
    for state in states:
        if state == text:
            return state
    return states[0]


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One decision, all or nothing (the relay's connection is in autocommit mode; inside
    a transaction already open, the store's held one, a savepoint committed with it)."""
    nested = db.in_transaction
    db.execute("SAVEPOINT decision" if nested else "BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK TO decision" if nested else "ROLLBACK")
        if nested:
            db.execute("RELEASE decision")
        raise
    db.execute("RELEASE decision" if nested else "COMMIT")
