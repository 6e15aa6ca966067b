"""The event script of a journaled game: the raw sensor changes the board kept of it, in
the format `reedboard replay` reads, so that the replay shows what the board made of the
game (`reedboard journal export --events`)."""

from __future__ import annotations

from reedboard.chess_clock.time_control import TimeControl
from reedboard.errors import InvalidInputError
from reedboard.journal.store import JournalGame, KeptLines
from reedboard.replay.script import format_script
from reedboard.rules.chess960 import start_number_of
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position


def events_text(game: JournalGame, kept: KeptLines, clock: TimeControl | None = None) -> str:
    """The script of `game` from its `kept` lines (a timed game's `clock` control too);
    `InvalidInputError` when they do not reach back to the game's start (none kept, or the
    oldest dropped)."""
    if kept.start_sensors is None:
        raise InvalidInputError(f"game {game.id} has no sensor changes kept")
    if kept.lines and kept.first_seq != 1:
        raise InvalidInputError(
            f"the first {kept.first_seq - 1} sensor changes of game {game.id} were dropped"
            " (the journal keeps the latest ones): the rest cannot be replayed from the start"
        )
    start = Position.from_fen(game.start_fen, chess960=game.chess960)
    sensors = kept.start_sensors
    header = [
        f"# game {game.id} as the board's sensors saw it; `reedboard replay` shows what the",
        "# board made of it",
    ]
    text = format_script(
        kept.lines,
        _start_label(game, start),
        game.mode,
        None if sensors == start.occupied else sensors,
        clock,
    )
    return "\n".join(header) + "\n" + text


def _start_label(game: JournalGame, start: Position) -> str:
    if game.start_fen == STARTING_FEN and not game.chess960:
        return "standard"
    number = start_number_of(start) if game.chess960 else None
    return f"fen {game.start_fen}" if number is None else f"chess960 {number}"
