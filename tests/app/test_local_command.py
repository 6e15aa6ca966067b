"""A command from the board's own side of the link (the simulator's controls) is carried
out as the host's would be: journaled first, then sent to the host, and the lights redrawn
at once; only the answer goes back to the caller instead of over the link."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, RecordingLights, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.journal.store import Journal
from reedboard.link.acks import MoveNamed
from reedboard.link.board_messages import Ack, ErrorReply
from reedboard.link.host import HostEndpoint
from reedboard.link.messages import parse_command
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square

from tests.app.wire_link import WireLink

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n"


class Board:
    """A board with a journal and a link that has played 1. e4 from its script."""

    def __init__(self, tmp_path: Path) -> None:
        script = parse_script(SCRIPT)
        board = scripted_board(script)
        self.journal = Journal(tmp_path / "journal.sqlite")
        self.link = WireLink()
        self.lights = RecordingLights()
        self.app = App(
            Sensing(board, source=board),
            VirtualClock(),
            link=HostLink(self.link),
            journal=self.journal,
            lights=self.lights,
            game=GameSetup(start=Game(script.start)),
        )
        for now in range(0, 3000, 5):
            self.app.step(now)
        self.host = HostEndpoint()
        self.heard: list[dict[str, Any]] = []
        self.hear()
        assert [m["uci"] for m in self.effects("move")] == ["e2e4"]

    def hear(self) -> None:
        # As the host reads them, written back as wire objects for the checks below.
        self.heard += [m.to_wire() for m in self.host.receive_data(bytes(self.link.written), 0)]
        self.link.written.clear()

    def effects(self, event: str) -> list[dict[str, Any]]:
        return [m for m in self.heard if m["type"] == "effect" and m["event"] == event]

    def journaled_moves(self) -> list[str]:
        game = self.journal.current()
        assert game is not None
        return [m.uci for m in game.moves]


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    board = Board(tmp_path)
    yield board
    board.journal.close()


def test_a_local_takeback_is_journaled_sent_to_the_host_and_lit(board: Board) -> None:
    assert board.journaled_moves() == ["e2e4"]
    views = len(board.lights.views)
    answer = board.app.local_command(parse_command({"type": "takeback"}), 3000)
    assert answer.reply == Ack(MoveNamed("e2e4"))
    # Journaled before the host hears of it, as any takeback.
    assert board.journaled_moves() == []
    board.hear()
    (taken,) = board.effects("takeback")
    assert taken["uci"] == "e2e4" and taken["game"] == board.app.game_id
    # The answer went to the caller: the host sees no reply, only the effects.
    assert not [m for m in board.heard if m["type"] == "ack"]
    # The lights show at once where the pawn goes back, without waiting for a scan.
    assert len(board.lights.views) == views + 1
    _t, view = board.lights.views[-1]
    assert view.missing == 1 << parse_square("e2") and view.extra == 1 << parse_square("e4")


def test_a_local_new_game_and_mode_are_journaled_and_sent_to_the_host(board: Board) -> None:
    first = board.app.game_id
    fen = "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"
    answer = board.app.local_command(parse_command({"type": "new_game", "fen": fen}), 3000)
    assert isinstance(answer.reply, Ack)
    game = board.journal.current()
    assert game is not None and game.id == board.app.game_id != first
    assert game.start_fen == fen and game.moves == ()
    answer = board.app.local_command(parse_command({"type": "mode", "mode": "strict"}), 3010)
    assert isinstance(answer.reply, Ack)
    game = board.journal.current()
    assert game is not None and game.mode == "strict"
    board.hear()
    (new_game,) = board.effects("new_game")
    assert new_game["game"] == board.app.game_id and new_game["variant"] == "fen"


def test_a_refused_local_command_changes_nothing(board: Board) -> None:
    board.app.local_command(parse_command({"type": "takeback"}), 3000)
    answer = board.app.local_command(parse_command({"type": "takeback"}), 3010)
    assert isinstance(answer.reply, ErrorReply) and answer.reply.code == "refused"
    assert board.journaled_moves() == []
    board.hear()
    assert len(board.effects("takeback")) == 1
    assert not [m for m in board.heard if m["type"] == "error"]
