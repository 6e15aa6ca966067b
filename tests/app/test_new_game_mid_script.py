"""A host's new game while a fake board's script runs: overdue decisions are taken at the
next turn, and time never runs backwards for the debouncer."""

from __future__ import annotations

from reedboard.app import App
from reedboard.app_ports import GameSetup, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.link.host import HostEndpoint
from reedboard.link.messages import StartGame
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n"


def test_a_new_game_from_a_fen_mid_script_keeps_the_board_running() -> None:
    script = parse_script(SCRIPT)
    board = scripted_board(script)
    app = App(
        Sensing(board, source=board), VirtualClock(), game=GameSetup(start=Game(script.start))
    )
    for now in range(0, 2600, 5):
        app.step(now)
    host = HostEndpoint()
    host.hello()
    host.request(StartGame(fen="4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"))
    app.step(2600, host.data_to_send())
    board_game = app.board_game
    assert board_game is not None
    # The loop, behind its clock, catches up line by line and decision by decision: the
    # new game's overdue mismatch deadline must not send the debouncer back in time.
    app.catch_up(3000)
    for now in range(3000, 6000, 5):
        app.step(now)
    assert board_game.game.start.fen() == "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"
    # The board still shows the old game's pieces: the lights ask to put them right.
    assert board_game.arbiter.view().missing or board_game.arbiter.view().extra
