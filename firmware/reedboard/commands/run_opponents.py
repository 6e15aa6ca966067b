"""The board's opponent as `reedboard run` assembles it, from its command line,
`[engine]` and `[lichess]`."""

from __future__ import annotations

import argparse
import os

from reedboard.config import BoardConfig
from reedboard.lichess.game import parse_clock
from reedboard.link.clients import Clients
from reedboard.opponents.chosen import Opponents
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.lichess_spec import LichessSettings, is_lichess, read_lichess
from reedboard.opponents.spec import BadOpponent


def board_opponents(
    args: argparse.Namespace,
    config: BoardConfig,
    journal_path: str | None,
    clients: Clients | None = None,
) -> Opponents:
    """The board's opponent: `--opponent`, else the one chosen before the board last
    stopped (saved beside the journal), else `[engine] play`'s engine, else `[lichess]
    play`'s Lichess, else a person. Lichess plays through `clients`."""
    e = config.engine
    engine = EngineSettings(level=e.level, elo=e.elo or None, side=e.side, movetime_ms=e.movetime_ms,
                            path=e.path, nice=e.nice)  # fmt: skip
    data_dir = os.path.dirname(os.path.abspath(journal_path)) if journal_path else None
    lichess = LichessSettings(config.lichess.server, parse_clock(config.lichess.clock))
    opponents = Opponents(engine, data_dir=data_dir, clients=clients, lichess=lichess)
    spec = args.opponent or _resumed(opponents.saved(), lichess) or ("engine" if e.play else None)
    spec = spec or ("lichess" if config.lichess.play else None)
    if spec is not None:
        refused = opponents.choose(spec)
        if refused is not None:
            raise BadOpponent(refused)
    return opponents


def _resumed(saved: str | None, lichess: LichessSettings) -> str | None:
    """The choice saved, as the board takes it up again: a Lichess seek or challenge is
    not made again after a restart (a power cut in its game)."""
    if saved is None or not is_lichess(saved):
        return saved
    try:
        return read_lichess(saved, lichess.clock).resumed().spec()
    except BadOpponent:
        return saved  # said when it is chosen
