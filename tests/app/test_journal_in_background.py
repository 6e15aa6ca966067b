"""The journal written off the scan loop (`journal_in_background`, as `reedboard run`
does): the loop turns on while the disk is slow, the host hears of a move only once it is
on disk, a write that fails is told, and shutdown writes everything handed over.

The slow disk is the real journal held inside SQLite's work (a progress handler that
waits for the test), so nothing here times anything."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.journal.store import Journal
from reedboard.journal.writer import JournalWriter
from reedboard.link.host import HostEndpoint
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.wire_link import WireLink

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n2000 lift e7\n2400 place e5\n"
# Long enough never to run out on a loaded machine; a loop that waited on the disk would
# wait this long and then see its write fail.
PATIENCE_S = 30


class Board:
    def __init__(self, tmp_path: Path) -> None:
        script = parse_script(SCRIPT)
        self.board = scripted_board(script)
        self.journal = Journal(tmp_path / "journal.sqlite")
        self.link = WireLink()
        self.app = App(
            Sensing(self.board, source=self.board),
            VirtualClock(),
            link=HostLink(self.link),
            journal=JournalWriter(self.journal),
            game=GameSetup(start=Game(script.start)),
        )
        self.app.start()
        self.app.settle()
        self.host = HostEndpoint()
        self.heard: list[dict[str, Any]] = []
        self.hear()
        assert [m["type"] for m in self.heard] == ["hello"]

    def hear(self) -> None:
        self.heard += [m.to_wire() for m in self.host.receive_data(bytes(self.link.written), 0)]
        self.link.written.clear()

    def moves_heard(self) -> list[str]:
        return [m["uci"] for m in self.heard if m["type"] == "effect" and m["event"] == "move"]

    def journaled(self) -> list[str]:
        game = self.journal.current()
        assert game is not None
        return [m.uci for m in game.moves]

    def hold_the_disk(self) -> tuple[threading.Event, threading.Event]:
        """The writer stopped inside its next write until `release` is set (`entered` says
        it got there); past PATIENCE_S the write is interrupted and fails."""
        entered, release = threading.Event(), threading.Event()

        def held() -> int:
            entered.set()
            return 0 if release.wait(PATIENCE_S) else 1

        self.journal.connection.set_progress_handler(held, 1)
        return entered, release


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    board = Board(tmp_path)
    yield board
    board.journal.connection.set_progress_handler(None, 1)
    board.app.close()
    board.journal.close()


def test_the_loop_turns_on_while_the_disk_is_slow(board: Board) -> None:
    entered, release = board.hold_the_disk()
    for now in range(0, 3000, 5):
        board.app.step(now)
    assert entered.wait(PATIENCE_S), "the move was handed to the writer"
    # Both moves were made by the loop while the first write was still held.
    assert board.app.board_game is not None
    assert len(board.app.board_game.game) == 2
    board.hear()
    assert board.moves_heard() == [], "the host heard of a move not yet on disk"
    release.set()
    board.app.settle()
    board.hear()
    assert board.moves_heard() == ["e2e4", "e7e5"]
    assert board.journaled() == ["e2e4", "e7e5"]
    assert not [m for m in board.heard if m["type"] == "error"]


def test_a_write_that_fails_is_told_and_the_game_goes_on(board: Board) -> None:
    board.journal.connection.set_progress_handler(lambda: 1, 1)  # every write interrupted
    for now in range(0, 1800, 5):
        board.app.step(now)
    board.app.settle()
    board.hear()
    errors = [m for m in board.heard if m["type"] == "error"]
    assert errors and all(m["code"] == "journal" for m in errors)
    assert "interrupted" in errors[0]["message"]
    assert board.moves_heard() == ["e2e4"]


def test_shutdown_writes_everything_handed_over(board: Board) -> None:
    entered, release = board.hold_the_disk()
    for now in range(0, 3000, 5):
        board.app.step(now)
    assert entered.wait(PATIENCE_S)
    release.set()
    board.app.close()
    board.hear()
    assert board.journaled() == ["e2e4", "e7e5"]
    assert board.moves_heard() == ["e2e4", "e7e5"]
