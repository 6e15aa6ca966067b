"""The board's opponent as `reedboard run` assembles it, from its command line and
`[engine]`."""

from __future__ import annotations

import argparse
import os

from reedboard.config import BoardConfig
from reedboard.opponents.chosen import Opponents
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.spec import BadOpponent


def board_opponents(
    args: argparse.Namespace, config: BoardConfig, journal_path: str | None
) -> Opponents:
    """The board's opponent: `--opponent`, else the one chosen before the board last
    stopped (saved beside the journal), else `[engine] play`'s engine, else a person."""
    e = config.engine
    engine = EngineSettings(level=e.level, elo=e.elo or None, side=e.side, movetime_ms=e.movetime_ms,
                            path=e.path, nice=e.nice)  # fmt: skip
    data_dir = os.path.dirname(os.path.abspath(journal_path)) if journal_path else None
    opponents = Opponents(engine, data_dir=data_dir)
    spec = args.opponent or opponents.saved() or ("engine" if e.play else None)
    if spec is not None:
        refused = opponents.choose(spec)
        if refused is not None:
            raise BadOpponent(refused)
    return opponents
