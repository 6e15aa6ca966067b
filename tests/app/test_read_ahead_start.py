"""A board read ahead while it loaded, with nobody touching it, starts as one that was
not: the same self-test, the same first position, the same effects."""

from __future__ import annotations

import logging

import pytest
from reedboard.app import App
from reedboard.app_ports import HostLink, Sensing
from reedboard.config import MatrixConfig
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.scan_ahead import ScanAhead
from reedboard.link.board_messages import EffectMessage
from reedboard.rules.game import Game


def started(ahead: bool, caplog: pytest.LogCaptureFixture) -> tuple[list[str], str, int]:
    """The effects, the log and the occupancy the debouncer holds, after the loop turned
    through a second of board time."""
    board = FakeBoard(Game().position.occupied)
    clock = MonotonicClock(speed=100)  # a second of board time in 10 ms
    effects: list[EffectMessage] = []
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="reedboard"):
        reading = ScanAhead(board, clock).start() if ahead else None
        app = App(
            Sensing(board, matrix=MatrixConfig(), ahead=reading),
            clock,
            link=HostLink(on_effect=effects.append),
        )
        game = app.start()
        app.run(lambda: clock.now_ms() > 1000)
    assert reading is None or not reading.running
    # The effects without their times, which differ from one run to the next.
    kinds = [type(message.effect).__name__ for message in effects]
    return kinds, caplog.text, game.debouncer.occupancy


def test_an_untouched_board_starts_alike_read_ahead_or_not(
    caplog: pytest.LogCaptureFixture,
) -> None:
    plain, plain_log, plain_read = started(False, caplog)
    ahead, ahead_log, ahead_read = started(True, caplog)
    assert ahead == plain
    assert ahead_read == plain_read == Game().position.occupied
    for log in (plain_log, ahead_log):
        assert "first scan: 32 squares occupied" in log
        assert "self-test" not in log
