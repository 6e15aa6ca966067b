"""What can still be read from a damaged journal: each game's start and the unbroken run
of its moves from the first ply that are legal one after the other. Never more: a game
read this way is partial (it may have gone on, its result may be lost), and it is written
out as such, never resumed as if it were the game.

The reading expects anything: a file SQLite cannot open, tables missing, rows that break
off midway (a damaged page), text where numbers belong. Moves are read without the index
(`NOT INDEXED`), since a damaged index is what hides moves from ordinary queries."""

from __future__ import annotations

import datetime
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reedboard.errors import InvalidInputError
from reedboard.rules.game import Game
from reedboard.rules.pgn import RESULTS, write_pgn
from reedboard.rules.position import Position


@dataclass(frozen=True, slots=True)
class RecoveredGame:
    id: int
    game: Game
    started_at: float | None
    result: str | None  # as the damaged journal gave it; not to be trusted
    reason: str | None


def recover_games(path: str | Path) -> list[RecoveredGame]:
    """Every game of the journal at `path` with a readable start, with the moves that
    could be read; games in order of their number."""
    try:
        db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    try:
        games = _rows(db, "SELECT id, start_fen, chess960, started_at, result, reason FROM games")
        moves = _rows(db, "SELECT game_id, ply, uci FROM moves NOT INDEXED")
    finally:
        db.close()
    by_game: dict[Any, dict[Any, Any]] = {}
    for game_id, ply, uci in moves:
        by_game.setdefault(game_id, {}).setdefault(ply, uci)
    recovered = []
    for game_id, fen, chess960, started_at, result, reason in games:
        if not isinstance(game_id, int):
            continue
        try:
            game = Game(Position.from_fen(fen, chess960=chess960 == 1))
        except (InvalidInputError, TypeError):
            continue  # no start, no game
        plies = by_game.get(game_id, {})
        while isinstance(plies.get(len(game) + 1), str):
            try:
                game.push_uci(plies[len(game) + 1])
            except InvalidInputError:
                break
        recovered.append(
            RecoveredGame(
                game_id,
                game,
                float(started_at) if isinstance(started_at, (int, float)) else None,
                result if result in RESULTS else None,
                reason if isinstance(reason, str) else None,
            )
        )
    return sorted(recovered, key=lambda g: g.id)


def _rows(db: sqlite3.Connection, query: str) -> list[tuple[Any, ...]]:
    """The rows the query gives before the file fails it, if it does."""
    rows: list[tuple[Any, ...]] = []
    try:
        for row in db.execute(query):
            rows.append(tuple(row))
    except sqlite3.Error:
        pass  # a damaged page ends the reading; what came before it stands
    return rows


def partial_pgn(games: list[RecoveredGame], source: str) -> str:
    """The recovered games as PGN, each marked partial: `*` as its result, and a comment
    before its moves saying where it came from and what the journal said of its end."""
    texts = []
    for recovered in games:
        note = (
            f"Recovered from the damaged board journal {source}: the first "
            f"{len(recovered.game)} plies that could be read; the game may have gone on."
        )
        if recovered.result is not None:
            note += f" The journal gave the result {recovered.result}"
            note += f" ({recovered.reason})." if recovered.reason else "."
        headers = {
            "Event": f"Partial game {recovered.id}, recovered",
            "Site": "reedboard",
            "Date": _date(recovered.started_at),
            "Round": "-",
            "Annotator": "reedboard journal recovery",
        }
        texts.append(write_pgn(recovered.game, headers, {0: note}, result="*"))
    return "\n".join(texts)


def _date(started_at: float | None) -> str:
    if started_at is None:
        return "????.??.??"
    try:
        return datetime.datetime.fromtimestamp(started_at, datetime.UTC).strftime("%Y.%m.%d")
    except (OverflowError, OSError, ValueError):
        return "????.??.??"
