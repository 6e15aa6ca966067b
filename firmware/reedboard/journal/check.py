"""Is a journal file one the board can trust? SQLite's own integrity check, then the
schema, then the values, then the game in progress replayed move by move.

Why all of them: a file SQLite cannot read fails at once, but one whose integrity check
fails can still answer queries, wrongly (a damaged index once made the board resume 42
plies of a 72-ply game without a word), and a file another program wrote, or one with
text where numbers belong, reads as a game that is not the one played."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard.errors import InvalidInputError
from reedboard.rules.game import Game
from reedboard.rules.position import Position

# The columns of each table and their declared types, as store.SCHEMA creates them.
COLUMNS = {
    "games": {
        "id": "INTEGER",
        "start_fen": "TEXT",
        "chess960": "INTEGER",
        "variant": "TEXT",
        "mode": "TEXT",
        "started_at": "REAL",
        "result": "TEXT",
        "reason": "TEXT",
        "finished_at": "REAL",
    },
    "moves": {
        "game_id": "INTEGER",
        "ply": "INTEGER",
        "uci": "TEXT",
        "t_ms": "INTEGER",
        "at": "REAL",
    },
}
# Tables a journal written before them lacks: opening it adds them (store.SCHEMA).
ADDED_COLUMNS = {
    "sensor_lines": {
        "game_id": "INTEGER",
        "seq": "INTEGER",
        "t_ms": "INTEGER",
        "action": "TEXT",
        "arg": "TEXT",
    },
    "clocks": {
        "game_id": "INTEGER",
        "ply": "INTEGER",
        "control": "TEXT",
        "white_ms": "INTEGER",
        "black_ms": "INTEGER",
        "running": "TEXT",
        "white_moves": "INTEGER",
        "black_moves": "INTEGER",
    },
}
_NUMBER = "('integer', 'real')"
# Each query counts the rows that break one rule; the text says the rule.
VALUE_RULES = (
    ("SELECT count(*) FROM games WHERE typeof(id) != 'integer'", "a game number is not an integer"),
    (
        "SELECT count(*) FROM games WHERE typeof(start_fen) != 'text'",
        "a start position is not text",
    ),
    (
        "SELECT count(*) FROM games WHERE typeof(chess960) != 'integer' OR chess960 NOT IN (0, 1)",
        "a Chess960 flag is not 0 or 1",
    ),
    (
        "SELECT count(*) FROM games WHERE typeof(variant) != 'text'"
        " OR variant NOT IN ('standard', 'chess960', 'fen')",
        "a variant is not standard, chess960 or fen",
    ),
    (
        "SELECT count(*) FROM games WHERE typeof(mode) != 'text' OR mode NOT IN ('casual', 'strict')",
        "a mode is not casual or strict",
    ),
    (
        f"SELECT count(*) FROM games WHERE typeof(started_at) NOT IN {_NUMBER}"
        f" OR (finished_at IS NOT NULL AND typeof(finished_at) NOT IN {_NUMBER})",
        "a time is not a number",
    ),
    (
        "SELECT count(*) FROM games WHERE result IS NOT NULL"
        " AND (typeof(result) != 'text' OR result NOT IN ('1-0', '0-1', '1/2-1/2', '*'))",
        "a result is not 1-0, 0-1, 1/2-1/2 or *",
    ),
    (
        "SELECT count(*) FROM games WHERE reason IS NOT NULL AND typeof(reason) != 'text'",
        "a reason is not text",
    ),
    (
        "SELECT count(*) FROM moves WHERE typeof(game_id) != 'integer'"
        " OR typeof(ply) != 'integer' OR ply < 1",
        "a move's game or ply is not a positive integer",
    ),
    (
        "SELECT count(*) FROM moves WHERE typeof(uci) != 'text' OR length(uci) NOT IN (4, 5)",
        "a move is not in UCI notation",
    ),
    (
        f"SELECT count(*) FROM moves WHERE typeof(t_ms) != 'integer' OR typeof(at) NOT IN {_NUMBER}",
        "a move's time is not a number",
    ),
    (
        "SELECT count(*) FROM moves WHERE game_id NOT IN (SELECT id FROM games)",
        "a move belongs to no game",
    ),
    (
        "SELECT count(*) FROM (SELECT game_id FROM moves GROUP BY game_id"
        " HAVING count(*) != max(ply))",
        "a game's plies do not run 1, 2, 3...",
    ),
)
SENSOR_RULES = (
    (
        "SELECT count(*) FROM sensor_lines WHERE typeof(game_id) != 'integer'"
        " OR typeof(seq) != 'integer' OR seq < 0 OR typeof(t_ms) != 'integer' OR t_ms < 0",
        "a sensor line's game, number or time is not a whole number",
    ),
    (
        "SELECT count(*) FROM sensor_lines WHERE typeof(action) != 'text' OR typeof(arg) != 'text'"
        " OR NOT ((action = 'sensors' AND seq = 0 AND length(arg) = 16"
        " AND arg NOT GLOB '*[^0-9a-f]*')"
        " OR (action IN ('lift', 'place') AND seq > 0 AND arg GLOB '[a-h][1-8]')"
        " OR (action = 'choose' AND seq > 0 AND arg IN ('q', 'r', 'b', 'n'))"
        " OR (action = 'press' AND seq > 0 AND arg IN ('white', 'black'))"
        " OR (action = 'add' AND seq > 0 AND (arg GLOB 'white:[1-9]*' OR arg GLOB 'black:[1-9]*')"
        " AND arg NOT GLOB '*:*[^0-9]*'))",
        "a sensor line is not a script line",
    ),
    (
        "SELECT count(*) FROM sensor_lines WHERE game_id NOT IN (SELECT id FROM games)",
        "a sensor line belongs to no game",
    ),
)

CLOCK_RULES = (
    (
        "SELECT count(*) FROM clocks WHERE typeof(game_id) != 'integer'"
        " OR typeof(ply) != 'integer' OR ply < 0 OR typeof(control) != 'text'",
        "a clock row's game, ply or time control is not what it should be",
    ),
    (
        "SELECT count(*) FROM clocks WHERE typeof(white_ms) != 'integer' OR white_ms < 0"
        " OR typeof(black_ms) != 'integer' OR black_ms < 0"
        " OR typeof(white_moves) != 'integer' OR typeof(black_moves) != 'integer'",
        "a clock's time or count of moves is not a whole number",
    ),
    (
        "SELECT count(*) FROM clocks WHERE running NOT IN ('white', 'black', 'none')",
        "a clock's running side is not white, black or none",
    ),
    (
        "SELECT count(*) FROM clocks WHERE game_id NOT IN (SELECT id FROM games)",
        "a clock row belongs to no game",
    ),
)
ADDED_RULES = {"sensor_lines": SENSOR_RULES, "clocks": CLOCK_RULES}


def journal_problem(path: str | Path) -> str | None:
    """What is wrong with the journal at `path`, in a few words; None when it is sound or
    not there (a fresh journal is started then)."""
    path = Path(path)
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error as error:
        return f"it cannot be opened: {error}"
    try:
        return _problem(db)
    except sqlite3.Error as error:
        return f"it cannot be read: {error}"
    finally:
        db.close()


def _problem(db: sqlite3.Connection) -> str | None:
    rows = db.execute("PRAGMA integrity_check(5)").fetchall()
    if rows != [("ok",)]:
        said = " ".join("; ".join(str(r[0]) for r in rows).split())  # one line
        return f"integrity check failed: {said[:200]}"
    for table, columns in COLUMNS.items():
        found = {
            str(name): str(kind).upper()
            for _, name, kind, *_ in db.execute(f"PRAGMA table_info({table})")
        }
        if not found:
            return f"it has no {table} table"
        for name, kind in columns.items():
            if found.get(name) != kind:
                return f"its {table} table has no {kind} column {name}"
    for query, rule in VALUE_RULES:
        if db.execute(query).fetchone()[0]:
            return rule
    problem = _added_tables_problem(db)
    if problem is not None:
        return problem
    for game_id, fen, chess960 in db.execute("SELECT id, start_fen, chess960 FROM games"):
        try:
            Position.from_fen(fen, chess960=bool(chess960))
        except InvalidInputError as error:
            return f"game {game_id} starts from no position: {error}"
    return _current_game_problem(db)


def _added_tables_problem(db: sqlite3.Connection) -> str | None:
    """A table added since the first journals: absent is fine (an older journal, which
    opening brings up to date); present, it must be whole."""
    for table, columns in ADDED_COLUMNS.items():
        found = {
            str(name): str(kind).upper()
            for _, name, kind, *_ in db.execute(f"PRAGMA table_info({table})")
        }
        if not found:
            continue
        for name, kind in columns.items():
            if found.get(name) != kind:
                return f"its {table} table has no {kind} column {name}"
        for query, rule in ADDED_RULES[table]:
            if db.execute(query).fetchone()[0]:
                return rule
    return None


def _current_game_problem(db: sqlite3.Connection) -> str | None:
    """The game the board would resume, replayed: every move must be legal."""
    row = db.execute(
        "SELECT id, start_fen, chess960 FROM games WHERE result IS NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    game_id, fen, chess960 = row
    game = Game(Position.from_fen(fen, chess960=bool(chess960)))
    for ply, uci in db.execute(
        "SELECT ply, uci FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
    ):
        try:
            game.push_uci(uci)
        except InvalidInputError:
            return f"move {ply} ({uci}) of the game in progress is not legal"
    return None
