"""The journal: SQLite (stdlib) in WAL mode with `synchronous=FULL`, so every committed
move is on disk before the board tells anyone about it, and a power cut or a killed
process loses nothing that was reported.

Why these choices: WAL makes a commit one append and one fsync of the log (cheap on an SD
card) and a reader never blocks the writer; FULL is what makes that commit survive a
power cut. A move's (game, ply) is the primary key, so a move can never be recorded twice,
whatever order a crash and a restart happen in.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from reedboard.chess_clock.clocks import Clocks
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import InvalidInputError, ReedboardError
from reedboard.hal.sensor_line import SensorLine, action_named
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard

# The sensor lines' and the clocks' tables come first: a journal's last pages then hold
# its moves, as they did before those tables were added, and a file cut short loses moves
# the check can see.
SCHEMA = """
CREATE TABLE IF NOT EXISTS clocks (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    ply         INTEGER NOT NULL,   -- 0: at the game's start; n: after move n (or a press)
    control     TEXT NOT NULL,      -- the time control, as `@clock` writes it
    white_ms    INTEGER NOT NULL,   -- time left when the row was written
    black_ms    INTEGER NOT NULL,
    running     TEXT NOT NULL,      -- whose time runs: white, black, or none
    white_moves INTEGER NOT NULL,   -- moves made, for the periods of a classical control
    black_moves INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS sensor_lines (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,       -- 0: the sensors at the game's start; then 1, 2, 3...
    t_ms    INTEGER NOT NULL,       -- ms from the game's start, never decreasing
    action  TEXT NOT NULL,          -- sensors, lift, place, choose or press
    arg     TEXT NOT NULL,          -- the occupancy (16 hex digits), a square, a piece, a side
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    start_fen   TEXT NOT NULL,
    chess960    INTEGER NOT NULL,
    variant     TEXT NOT NULL,      -- standard, chess960 or fen
    mode        TEXT NOT NULL,      -- casual or strict
    started_at  REAL NOT NULL,      -- seconds since the epoch (the Pi's wall clock)
    result      TEXT,               -- NULL while the game goes on
    reason      TEXT,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    ply     INTEGER NOT NULL,       -- 1 for White's first move
    uci     TEXT NOT NULL,
    t_ms    INTEGER NOT NULL,       -- the board's clock when the move was committed
    at      REAL NOT NULL,          -- seconds since the epoch
    PRIMARY KEY (game_id, ply)
);
"""
# The raw sensor changes kept of the game in progress: the latest ones, enough for a long
# game with a chattering switch (a clean move is two to four changes). The lines of the
# games before are dropped when a game starts.
SENSOR_LINES_KEPT = 20_000


class JournalError(ReedboardError, OSError):
    """The journal file cannot be used (unreadable, not a database, a write failed)."""


@dataclass(frozen=True, slots=True)
class JournalMove:
    ply: int
    uci: str
    t_ms: int
    at: float


@dataclass(frozen=True, slots=True)
class JournalGame:
    id: int
    start_fen: str
    chess960: bool
    variant: str
    mode: str
    started_at: float
    moves: tuple[JournalMove, ...]
    result: str | None = None
    reason: str | None = None

    def to_game(self) -> Game:
        """The game replayed from its start: raises `InvalidInputError` on a move that is
        not legal (a journal written by something else)."""
        game = Game(Position.from_fen(self.start_fen, chess960=self.chess960))
        for move in self.moves:
            game.push_uci(move.uci)
        return game


@dataclass(frozen=True, slots=True)
class KeptLines:
    """The raw sensor changes kept of a game: what the sensors read at its start (None
    when the journal keeps nothing of it) and the latest lines, the first of them the
    game's line number `first_seq` (1 when none was dropped)."""

    start_sensors: Bitboard | None = None
    lines: tuple[SensorLine, ...] = ()
    first_seq: int = 1

    @property
    def next_seq(self) -> int:
        """The number the next line written gets."""
        return self.first_seq + len(self.lines)

    @property
    def last_ms(self) -> int:
        return self.lines[-1].t_ms if self.lines else 0


class Journal:
    """One journal file. Every method is one durable transaction, or part of the one
    `together` opens."""

    def __init__(self, path: str | Path, *, wall: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self._wall = wall
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise JournalError(f"cannot use the journal {self.path}: {exc}") from None

    @property
    def connection(self) -> sqlite3.Connection:
        """The open connection: for maintenance, and for tests that interrupt it."""
        return self._db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # ----- reading -----

    def current(self) -> JournalGame | None:
        """The game in progress: the latest game without a result."""
        row = self._db.execute(
            "SELECT id FROM games WHERE result IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else self.game(int(row[0]))

    def game(self, game_id: int) -> JournalGame | None:
        row = self._db.execute(
            "SELECT id, start_fen, chess960, variant, mode, started_at, result, reason"
            " FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        moves = tuple(
            JournalMove(int(ply), str(uci), int(t_ms), float(at))
            for ply, uci, t_ms, at in self._db.execute(
                "SELECT ply, uci, t_ms, at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            )
        )
        return JournalGame(
            int(row[0]), str(row[1]), bool(row[2]), str(row[3]), str(row[4]), float(row[5]),
            moves, row[6], row[7],
        )  # fmt: skip

    def sensor_lines(self, game_id: int) -> KeptLines:
        """The raw sensor changes kept of a game, in order (see `SENSOR_LINES_KEPT`).
        Raises `JournalError` on a line that is none (a journal written by something
        else)."""
        start: Bitboard | None = None
        lines: list[SensorLine] = []
        first_seq = 1
        for seq, t_ms, action, arg in self._db.execute(
            "SELECT seq, t_ms, action, arg FROM sensor_lines WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ):
            known = action_named(str(action))
            try:
                if seq == 0 and action == "sensors":
                    start = int(str(arg), 16)
                    continue
                if known is None:
                    raise ValueError(action)
            except ValueError:
                raise JournalError(
                    f"sensor line {seq} of game {game_id} is not a script line: {action} {arg}"
                ) from None
            if not lines:
                first_seq = int(seq)
            lines.append(SensorLine(int(t_ms), known, str(arg)))
        return KeptLines(start, tuple(lines), first_seq)

    def clocks(self, game_id: int) -> Clocks | None:
        """A timed game's clocks as last written (None: untimed, or written by nothing
        this board reads), the running player's time counted from 0."""
        row = self._db.execute(
            "SELECT control, white_ms, black_ms, running, white_moves, black_moves FROM clocks"
            " WHERE game_id = ? ORDER BY ply DESC LIMIT 1",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        try:
            control = parse_time_control(str(row[0]))
        except InvalidInputError:
            return None
        running = {"white": True, "black": False}.get(str(row[3]))
        return Clocks(control, int(row[1]), int(row[2]), running, 0, int(row[4]), int(row[5]))

    def unfinished(self) -> list[tuple[int, int]]:
        """Every game without a result and its number of plies, oldest first."""
        return [
            (int(game_id), int(plies))
            for game_id, plies in self._db.execute(
                "SELECT id, (SELECT count(*) FROM moves WHERE game_id = games.id) FROM games"
                " WHERE result IS NULL ORDER BY id"
            )
        ]

    def latest_game(self) -> JournalGame | None:
        """The game in progress, or the one played last."""
        row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return None if row is None or row[0] is None else self.game(int(row[0]))

    def finished_games(self) -> list[JournalGame]:
        ids = [
            int(r[0])
            for r in self._db.execute("SELECT id FROM games WHERE result IS NOT NULL ORDER BY id")
        ]
        return [g for g in map(self.game, ids) if g is not None]

    # ----- writing -----

    def last_game_id(self) -> int:
        """The number of the latest game (0: none yet)."""
        try:
            row = self._db.execute("SELECT max(id) FROM games").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {self.path}: {exc}") from None
        return 0 if row is None or row[0] is None else int(row[0])

    def start_game(
        self, start_fen: str, *, chess960: bool, variant: str, mode: str, id: int | None = None
    ) -> int:
        """A new game, numbered `id` (None: the next number); one still in progress is
        closed as unfinished (`*`, abandoned)."""
        now = self._wall()
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET result = '*', reason = 'abandoned', finished_at = ?"
                " WHERE result IS NULL",
                (now,),
            )
            cursor = db.execute(
                "INSERT INTO games (id, start_fen, chess960, variant, mode, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (id, start_fen, int(chess960), variant, mode, now),
            )
            db.execute("DELETE FROM sensor_lines")  # only the game in progress keeps them
        return int(cursor.lastrowid or 0)

    def keep_start_sensors(self, game_id: int, sensors: Bitboard) -> None:
        """Record what the sensors read at the start of the game in progress: its line 0,
        from which its sensor lines count."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO sensor_lines (game_id, seq, t_ms, action, arg) VALUES (?, 0, 0, ?, ?)",
                (game_id, "sensors", f"{sensors:016x}"),
            )

    def append_sensor_lines(
        self, game_id: int, first_seq: int, lines: Sequence[SensorLine]
    ) -> None:
        """Record raw sensor changes of the game in progress, in the order the board took
        them, numbered from `first_seq`; the oldest beyond `SENSOR_LINES_KEPT` are dropped
        (the sensors at the start, line 0, are kept: an export then says what is
        missing)."""
        if not lines:
            return
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO sensor_lines (game_id, seq, t_ms, action, arg) VALUES (?, ?, ?, ?, ?)",
                [(game_id, first_seq + i, t, act, arg) for i, (t, act, arg) in enumerate(lines)],
            )
            last = first_seq + len(lines) - 1
            if last > SENSOR_LINES_KEPT:
                db.execute(
                    "DELETE FROM sensor_lines WHERE game_id = ? AND seq BETWEEN 1 AND ?",
                    (game_id, last - SENSOR_LINES_KEPT),
                )

    def append_move(self, game_id: int, ply: int, uci: str, t_ms: int) -> None:
        """Record move number `ply`. Recording the same move again changes nothing; a
        different move at a ply already taken replaces it and everything after it."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT uci FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply)
            ).fetchone()
            if row is not None and row[0] == uci:
                return
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            db.execute(
                "INSERT INTO moves (game_id, ply, uci, t_ms, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, ply, uci, t_ms, self._wall()),
            )

    def take_back(self, game_id: int, ply: int) -> None:
        """Forget move `ply` and any after it. A game that move ended (mate, stalemate)
        goes on: its result is forgotten too."""
        with self._transaction() as db:
            db.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
            db.execute(
                "UPDATE games SET result = NULL, reason = NULL, finished_at = NULL"
                " WHERE id = ? AND result IS NOT NULL",
                (game_id,),
            )

    def set_clocks(self, game_id: int, ply: int, clocks: Clocks, now_ms: int) -> None:
        """The clocks of a timed game as they stand at `now_ms`, after move `ply` (0: at
        the start); rows of later plies (taken back) go."""
        running = {True: "white", False: "black", None: "none"}[clocks.running]
        with self._transaction() as db:
            db.execute("DELETE FROM clocks WHERE game_id = ? AND ply >= ?", (game_id, ply))
            db.execute(
                "INSERT INTO clocks (game_id, ply, control, white_ms, black_ms, running,"
                " white_moves, black_moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    ply,
                    clocks.control.text(),
                    clocks.left_ms(True, now_ms),
                    clocks.left_ms(False, now_ms),
                    running,
                    clocks.white_moves,
                    clocks.black_moves,
                ),
            )

    def set_mode(self, game_id: int, mode: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE games SET mode = ? WHERE id = ?", (mode, game_id))

    def finish(self, game_id: int, result: str, reason: str) -> None:
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET result = ?, reason = ?, finished_at = ? WHERE id = ?",
                (result, reason, self._wall(), game_id),
            )

    def together(self) -> _Transaction:
        """One transaction for every write inside it: what happened at one moment is on
        disk whole or not at all (a mating move and the result it gives, say), so a power
        cut cannot leave a move without what it decided."""
        return _Transaction(self._db, self.path)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db, self.path)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on an error; SQLite errors as JournalError.
    Inside another transaction (`Journal.together`) it is part of that one: the outer one
    commits."""

    def __init__(self, db: sqlite3.Connection, path: str) -> None:
        self._db = db
        self._path = path
        self._inner = False

    def __enter__(self) -> sqlite3.Connection:
        self._inner = self._db.in_transaction
        if self._inner:
            return self._db
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalError(f"the journal {self._path} cannot be written: {exc}") from None
        return self._db

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._inner:
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"the journal {self._path} cannot be written: {exc}") from None
            return
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
                return
            except sqlite3.Error as error:
                self._db.execute("ROLLBACK")
                raise JournalError(f"the journal {self._path} cannot be written: {error}") from None
        self._db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise JournalError(f"the journal {self._path} cannot be written: {exc}") from None
