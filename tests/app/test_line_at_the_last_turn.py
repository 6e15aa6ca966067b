"""A line scheduled for the very millisecond of the loop's last turn, after that turn ran
(the simulator's click on a victim: its lift now, its capturer set down 32 ms later), is
applied at its own time, not merged with the next line by a loop that turns late."""

from __future__ import annotations

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import SensorLine
from reedboard.rules.game import Game

# 1.Nf3 d5 2.g3 Bh3: the f1 bishop can take on h3.
FEN = "rn1qkbnr/ppp1pppp/8/3p4/8/5NPb/PPPPPP1P/RNBQKB1R w KQkq - 2 3"
SCAN_MS = 10


def _turn(app: App, clock: VirtualClock, now: int) -> None:
    clock.t_ms = now
    app.catch_up(now)
    app.step(now)


@pytest.mark.parametrize("late_ms", [40, 300, 2000])
def test_a_capture_clicked_in_the_same_millisecond_as_a_turn_is_made(late_ms: int) -> None:
    game = Game.from_fen(FEN)
    board = FakeBoard(game.position.occupied, electrical=False)
    clock = VirtualClock()
    app = App(Sensing(board, source=board), clock, game=GameSetup(start=game))
    for now in range(0, 1000, SCAN_MS):
        _turn(app, clock, now)
    board.lift("f1")  # the bishop taken into the hand
    for now in range(1000, 2000, SCAN_MS):
        _turn(app, clock, now)
    last = 2000 - SCAN_MS
    # The victim lifted at the time of the last turn, the bishop set down 32 ms later;
    # the loop turns again only `late_ms` after.
    board.insert(SensorLine(last, "lift", "h3"))
    board.insert(SensorLine(last + 32, "place", "h3"))
    for now in range(last + late_ms, last + late_ms + 5000, SCAN_MS):
        _turn(app, clock, now)
    assert game.san_moves() == ["Bxh3"]
