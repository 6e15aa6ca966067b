"""The start-up self-test as the loop runs it: the board's first reads against the
position its game stands in, or, for a game resumed a few plies behind the board, a
word that the journal is behind (the wiring is not to blame then)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from reedboard.hal.matrix_layout import MatrixWiring
from reedboard.hal.scan_ahead import FIRST_READS
from reedboard.journal.behind import behind_line, plies_ahead
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard
from reedboard.sensing.selftest import SelfTestReport, self_test

logger = logging.getLogger("reedboard.app")  # the loop's log: the lines are the loop's


def start_self_test(
    first: list[Bitboard],
    game: Game,
    wiring: MatrixWiring,
    *,
    shown: bool,
    resumed: bool,
    scan: Callable[[], Bitboard],
) -> SelfTestReport | None:
    """The self-test of the `first` reads (`scan` reads more, up to `FIRST_READS`)
    against `game`'s position (`shown`: with one move more, as the sensors show it); its
    faults are logged naming the squares, matrix lines and GPIO pins, and the report
    returned (None when it found nothing, or the journal was behind)."""
    ahead = None if shown or not resumed else plies_ahead(game.position, first[0])
    if ahead is not None:
        logger.warning("%s", behind_line(ahead, len(game)))
        return None
    expected = first[0] if shown else game.position.occupied
    scans = first + [scan() for _ in range(FIRST_READS - len(first))]
    report = self_test(scans, expected, wiring)
    if report.ok:
        return None
    for line in report.lines():
        logger.warning("self-test: %s", line.strip())
    return report
