"""`reedboard journal resume FILE`: a game recovered from a journal set aside as damaged
made the game in progress of the board's journal, so that the board resumes it at its
next start."""

from __future__ import annotations

import argparse
from pathlib import Path

from reedboard.commands.journal import refuse
from reedboard.errors import InvalidInputError
from reedboard.game_report import variant_of
from reedboard.journal.check import journal_problem
from reedboard.journal.recover import recover_games
from reedboard.journal.store import Journal, JournalError
from reedboard.rules.game import Game


def resume(args: argparse.Namespace) -> int:
    source, target = Path(args.file), Path(args.journal)
    if not source.is_file():
        return refuse(f"there is no journal at {source}")
    games = [g for g in recover_games(source) if len(g.game)]
    if args.game is not None:
        games = [g for g in games if g.id == args.game]
    if not games:
        which = "no game" if args.game is None else f"no game {args.game}"
        return refuse(f"{which} with moves can be read from {source}")
    chosen = games[-1]
    problem = journal_problem(target)
    if problem is not None:
        return refuse(
            f"the journal {target} cannot be trusted: {problem}; start the board once to set "
            "it aside, then resume"
        )
    try:
        with Journal(target) as journal:
            left = [(g, n) for g, n in journal.unfinished() if n]
            game_id = _take_up(journal, chosen.game)
    except (JournalError, InvalidInputError) as error:
        return refuse(str(error))
    kept = "".join(f"; game {g} ({n} plies) there is kept as abandoned" for g, n in left)
    print(
        f"reedboard journal: game {chosen.id} of {source} ({len(chosen.game)} plies) is now "
        f"game {game_id}, in progress, in {target}{kept}; set the pieces up as it stands "
        f"({chosen.game.position.fen()}) and start the board"
    )
    return 0


def _take_up(journal: Journal, game: Game) -> int:
    """`game` written to `journal` as its game in progress, in one transaction."""
    with journal.together():
        game_id = journal.start_game(
            game.start.fen(), chess960=game.chess960, variant=variant_of(game), mode="casual"
        )
        position = game.start
        for ply, move in enumerate(game.moves, start=1):
            journal.append_move(game_id, ply, position.uci(move), 0)
            position = position.play(move)
    return game_id
