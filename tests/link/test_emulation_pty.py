"""A whole game through each emulation over a real pseudo-terminal: `reedboard run --fake
--script ... --protocol dgt|chesslink --serial PTY` with a test client on the other end,
and `reedboard-host emulate dgt|chesslink` in front of a board on its own protocol."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import tempfile
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import chess
import pytest
from app.games import game_script, move_lines
from children import child, stop
from host.running_board import RunningBoard, host_command
from reedboard.arbiter.view import BoardView
from reedboard.rules.position import Position

from link.emulated import (
    DgtClient,
    chesslink_lights,
    chesslink_message,
    chesslink_replies,
    dgt_messages,
    status_fen,
)
from link.ptybridge import PtyBridge

pytestmark = pytest.mark.timeout(150)  # a whole game through an emulation, with its own 60 s limit

# Castling on both sides, en passant, captures, a check.
MOVES = [
    "e2e4",
    "g8f6",
    "e4e5",
    "d7d5",
    "e5d6",
    "e7d6",
    "g1f3",
    "f8e7",
    "f1c4",
    "e8g8",
    "e1g1",
    "b8c6",
    "c4f7",
    "f8f7",
]


def _final() -> str:
    board = chess.Board()
    for uci in MOVES:
        board.push_uci(uci)
    return board.board_fen()


def _run_game(
    tmp_path: Path, protocol: str, talk: Callable[[int, bytes], tuple[bytes, bool]]
) -> None:
    """Start the board on a pty; `talk(master, received)` returns what to send and
    whether the client is satisfied. Fails if it is not within the time limit."""
    script = tmp_path / "game.events"
    script.write_text(game_script(MOVES, t0=20_000))
    master, slave = os.openpty()
    received = b""
    done = False
    try:
        tty.setraw(slave)
        with child(
            [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
             "--speed", "40", "--serial", os.ttyname(slave), "--protocol", protocol],
        ) as board:  # fmt: skip
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not done:
                ready, _, _ = select.select([master], [], [], 0.1)
                if ready:
                    received += os.read(master, 65536)
                reply, done = talk(master, received)
                if reply:
                    os.write(master, reply)
            assert stop(board) == 0
    finally:
        os.close(master)
        os.close(slave)
    assert done, f"the client never saw the game's end; it read {len(received)} bytes"


def test_a_whole_game_through_the_dgt_emulation(tmp_path: Path) -> None:
    state = {"asked": 0.0, "updates": False}

    def talk(_master: int, received: bytes) -> tuple[bytes, bool]:
        complete = _whole_dgt(received)
        client = DgtClient()
        client.feed(complete)
        kinds = [kind for kind, _ in dgt_messages(complete)]
        if 0x86 not in kinds:
            # The board opens its port when it starts: ask until it answers.
            if time.monotonic() - state["asked"] > 0.2:
                state["asked"] = time.monotonic()
                return bytes((0x40, 0x4D, 0x42)), False
            return b"", False
        if not state["updates"]:
            state["updates"] = True
            return bytes((0x44,)), False
        return b"", client.board_fen() == _final() and 0x8E in kinds

    _run_game(tmp_path, "dgt", talk)


def _whole_dgt(data: bytes) -> bytes:
    """The complete messages at the front of `data`."""
    i = 0
    while i + 3 <= len(data):
        size = data[i + 1] << 7 | data[i + 2]
        if i + size > len(data):
            break
        i += size
    return data[:i]


def test_a_whole_game_through_the_chesslink_emulation(tmp_path: Path) -> None:
    state = {"asked": False}

    def talk(_master: int, received: bytes) -> tuple[bytes, bool]:
        text = bytes(b & 0x7F for b in received).decode("ascii")
        replies = chesslink_replies(_whole_chesslink(text).encode("ascii"))
        if not replies:
            return b"", False
        if not state["asked"]:
            state["asked"] = True  # it reports on every scan: it is listening
            return chesslink_message("V") + chesslink_message("W0203"), False
        statuses = [r for r in replies if r.startswith("s")]
        done = "v0105" in replies and "w0203" in replies and status_fen(statuses[-1]) == _final()
        return b"", done

    _run_game(tmp_path, "chesslink", talk)


def _whole_chesslink(text: str) -> str:
    sizes = {"s": 67, "v": 7, "l": 3, "x": 3, "w": 7, "r": 7}
    i = 0
    while i < len(text) and i + sizes[text[i]] <= len(text):
        i += sizes[text[i]]
    return text[:i]


def test_a_whole_game_through_the_hosts_dgt_emulation(tmp_path: Path) -> None:
    """The board speaks its own protocol; `reedboard-host emulate dgt` makes the DGT board
    on a pty, and a DGT client there sees the whole game."""
    script = tmp_path / "game.events"
    script.write_text(game_script(MOVES, t0=8000))
    link = tmp_path / "dgt"
    with (
        PtyBridge() as bridge,
        child(
            [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
             "--speed", "8", "--serial", bridge.board_path],
        ) as board,
        child(
            [sys.executable, "-m", "reedboard_host.cli", "emulate", "dgt", "--pty", str(link),
             "--port", bridge.host_path],
            stderr=subprocess.PIPE, text=True,
        ) as host,
    ):  # fmt: skip
        fd = -1
        try:
            deadline = time.monotonic() + 60
            while not link.exists() and time.monotonic() < deadline and host.poll() is None:
                time.sleep(0.05)  # polling for the host's pty to appear, not timing anything
            fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
            os.write(fd, bytes((0x42, 0x44)))
            received = b""
            client = DgtClient()
            while time.monotonic() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    received += os.read(fd, 65536)
                client = DgtClient()
                client.feed(_whole_dgt(received))
                if client.board_fen() == _final():
                    break
            assert client.board_fen() == _final()
            assert any(kind == 0x8E for kind, _ in dgt_messages(_whole_dgt(received)))
        finally:
            if fd >= 0:
                os.close(fd)
        assert stop(host) == 0, host.stderr.read() if host.stderr else ""
        assert stop(board) == 0
    assert not link.exists()


# Captures, en passant, a promotion with capture, castling on both sides.
SPECIAL = [
    "e2e4",
    "d7d5",
    "e4d5",
    "c7c5",
    "d5c6",
    "g8f6",
    "c6b7",
    "e7e6",
    "b7a8q",
    "f8d6",
    "g1f3",
    "e8g8",
    "f1e2",
    "d8e7",
    "e1g1",
]


def test_a_whole_game_through_the_hosts_chesslink_emulation() -> None:
    """`reedboard-host emulate chesslink` in front of a running board on its own protocol:
    a ChessLink client on the pty shakes hands, gets status reports without asking, and
    after every move of a game with captures, en passant, a promotion and castling its
    board is the game's. Each move is made only once the client agrees with the last."""
    with RunningBoard(speed=4) as board, _host_emulation(board.port, "chesslink") as fd:
        client = _ChessLinkClient(fd)
        client.send("V", "R02", "S")
        replies = client.until(lambda r: "v0105" in r and "r0200" in r and bool(_statuses(r)))
        assert status_fen(_statuses(replies)[0]) == chess.Board().board_fen()
        # Automatic reports, every scan by default: more come without asking.
        client.until(lambda r: len(_statuses(r)) >= 5)
        game = chess.Board()
        position = Position.standard()
        for uci in SPECIAL:
            lines, _end = move_lines(position, uci, 0)
            board.live.push(_pushed(lines))
            position = position.play(position.parse_uci(uci))
            game.push_uci(uci)
            _committed(board, len(game.move_stack))
            assert board.moves() == [m.uci() for m in game.move_stack]
            # The reports after the board committed the move come to show the game's board.
            client.status_after(len(client.statuses()), game.board_fen())
        assert game.board_fen() == "Qnb2rk1/p3qppp/3bpn2/8/8/5N2/PPPPBPPP/RNBQ1RK1"
        # The client's LEDs reach the board's lights: squares that are no move are marked,
        # a legal move is shown as the move to carry out.
        os.write(fd, chesslink_lights({"d4": 0xFF, "h3": 0x0F}))
        _lit(board, lambda v: (v.marked, v.marked_blink) == (1 << 27, 1 << 23))
        os.write(fd, chesslink_lights({"b8": 0xFF, "c6": 0xFF}))  # Nc6
        _lit(board, lambda v: v.hint == (57, 42) and not v.marked and not v.marked_blink)


@contextmanager
def _host_emulation(port: str, protocol: str) -> Iterator[int]:
    """`reedboard-host emulate PROTOCOL` on the board at `port`; yields the client's end
    of its pty, and checks that the host ends cleanly and removes its link."""
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / protocol
        command = host_command("emulate", protocol, "--pty", str(link), "--port", port)
        with child(command, stderr=subprocess.PIPE, text=True) as host:
            fd = -1
            try:
                deadline = time.monotonic() + 30
                while not link.exists() and time.monotonic() < deadline and host.poll() is None:
                    time.sleep(0.05)  # polling for the host's pty to appear, not timing anything
                fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
                yield fd
            finally:
                if fd >= 0:
                    os.close(fd)
            assert stop(host) == 0, host.stderr.read() if host.stderr else ""
        assert not link.exists()


class _ChessLinkClient:
    """A ChessLink client on a pty: sends commands with their check digits and keeps
    every whole message the board sent."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""

    def send(self, *commands: str) -> None:
        os.write(self.fd, b"".join(chesslink_message(c) for c in commands))

    def until(self, done: Callable[[list[str]], bool], limit_s: float = 60) -> list[str]:
        """Read until `done(replies)`, replies being all whole messages so far; fails
        after `limit_s` (a limit for a stuck run, not a measurement)."""
        deadline = time.monotonic() + limit_s
        while True:
            replies = chesslink_replies(_whole_chesslink(self.text).encode("ascii"))
            if replies and done(replies):
                return replies
            assert time.monotonic() < deadline, f"the client gave up; last: {replies[-3:]}"
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                self.text += bytes(b & 0x7F for b in os.read(self.fd, 65536)).decode("ascii")

    def statuses(self) -> list[str]:
        return _statuses(chesslink_replies(_whole_chesslink(self.text).encode("ascii")))

    def status_after(self, count: int, fen: str) -> None:
        """Wait for a status report beyond the first `count` that shows `fen`."""
        self.until(lambda r: len(_statuses(r)) > count and status_fen(_statuses(r)[-1]) == fen)


def _lit(board: RunningBoard, done: Callable[[BoardView], bool], limit_s: float = 30) -> None:
    """Wait until the board's lights show a view `done` accepts."""
    with board.changed:
        assert board.changed.wait_for(lambda: board.view is not None and done(board.view), limit_s)


def _committed(board: RunningBoard, plies: int, limit_s: float = 60) -> None:
    """Wait until the board's game has `plies` moves (a limit for a stuck run only)."""
    with board.changed:
        assert board.changed.wait_for(lambda: len(board.moves()) >= plies, limit_s)


def _statuses(replies: list[str]) -> list[str]:
    return [r for r in replies if r.startswith("s")]


def _pushed(lines: list[str]) -> list[tuple[int, str, str]]:
    """`move_lines` text ("300 lift e2") as `PushedBoard.push` lines."""
    pushed = []
    for line in lines:
        t, action, square = line.split()
        pushed.append((int(t), action, square))
    return pushed
