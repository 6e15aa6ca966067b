"""Opening the board's journal at start: checked first (`check`), and a damaged one set
aside under a new name, never resumed by itself, with a fresh journal in its place.

What the player gets back: the games that can still be read from the damaged file are
written beside it as PGN, each marked as a partial game (`recover`), and one log line says
all of it, and how to resume the game that was in progress from what was recovered
(`reedboard journal resume`). The damaged file itself is kept as it was, for whoever
wants to dig further."""

from __future__ import annotations

import datetime
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from reedboard.journal.check import journal_problem
from reedboard.journal.recover import partial_pgn, recover_games
from reedboard.journal.store import Journal, JournalError

# SQLite's companions of a WAL database: they belong to the file they were written for.
_COMPANIONS = ("-wal", "-shm")

logger = logging.getLogger(__name__)


def open_journal(
    path: str | Path,
    *,
    wall: Callable[[], float] = time.time,
) -> Journal:
    """The journal at `path`, checked; a damaged one is set aside and a fresh one started.
    An empty one, and one holding more than one unfinished game, are said (one line
    each)."""
    path = Path(path)
    if path.is_file() and path.stat().st_size == 0:
        logger.warning(
            "the journal %s is empty (0 bytes): whatever it held is lost, a new game starts "
            "in it; if a game was in progress, look for a journal set aside beside it and "
            "resume that with `reedboard journal resume FILE`",
            path,
        )
    problem = journal_problem(path)
    if problem is not None:
        logger.warning("%s", set_aside(path, problem, wall()))
    journal = Journal(path, wall=wall)
    _say_unfinished(journal)
    return journal


def _say_unfinished(journal: Journal) -> None:
    """The board resumes the latest unfinished game; any other one is left, and said."""
    unfinished = journal.unfinished()
    if len(unfinished) < 2:
        return
    (resumed, plies), others = unfinished[-1], unfinished[:-1]
    left = ", ".join(f"game {game} ({n} plies)" for game, n in others)
    logger.warning(
        "the journal %s holds %d unfinished games: game %d (%d plies) is resumed, %s left "
        "as it stands; to go on with one of them instead, stop the board and run "
        "`reedboard journal resume %s --game N`",
        journal.path, len(unfinished), resumed, plies, left, journal.path,
    )  # fmt: skip


def set_aside(path: Path, problem: str, now: float) -> str:
    """Move the damaged journal (with its WAL) to `<path>.damaged-<UTC time>`, write what
    can be recovered to that name plus `.pgn`, and return the one log line that says so."""
    stamp = datetime.datetime.fromtimestamp(now, datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    try:
        os.replace(path, aside)
        for suffix in _COMPANIONS:
            companion = Path(f"{path}{suffix}")
            if companion.exists():
                os.replace(companion, Path(f"{aside}{suffix}"))
    except OSError as error:
        raise JournalError(
            f"the journal {path} is damaged ({problem}) and cannot be set aside: {error}"
        ) from None
    line = (
        f"the journal {path} is damaged ({problem}): set aside as {aside.name}, "
        "a fresh journal started"
    )
    games = [g for g in recover_games(aside) if len(g.game)]
    if not games:
        return f"{line}; no moves could be recovered from it"
    resume = f"`reedboard journal resume {aside}` resumes the last of them"
    pgn = Path(f"{aside}.pgn")
    try:
        pgn.write_text(partial_pgn(games, aside.name), encoding="utf-8")
    except OSError as error:
        return f"{line}; its moves could not be written out: {error}; {resume}"
    plies = sum(len(g.game) for g in games)
    return (
        f"{line}; {plies} plies of {len(games)} games recovered as partial games in "
        f"{pgn.name} (not resumed: {resume})"
    )
