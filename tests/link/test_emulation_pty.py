"""A whole game through each emulation over a real pseudo-terminal: `reedboard run --fake
--script ... --protocol dgt|chesslink --serial PTY` with a test client on the other end,
and `reedboard-host emulate dgt|chesslink` in front of a board on its own protocol."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
import tty
from collections.abc import Callable
from pathlib import Path

import chess
from app.games import game_script

from link.emulated import (
    DgtClient,
    chesslink_message,
    chesslink_replies,
    dgt_messages,
    status_fen,
)
from link.ptybridge import PtyBridge

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
    tty.setraw(slave)
    board = subprocess.Popen(
        [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
         "--speed", "40", "--serial", os.ttyname(slave), "--protocol", protocol],
    )  # fmt: skip
    received = b""
    done = False
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not done:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                received += os.read(master, 65536)
            reply, done = talk(master, received)
            if reply:
                os.write(master, reply)
    finally:
        board.send_signal(signal.SIGTERM)
        assert board.wait(10) == 0
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
    with PtyBridge() as bridge:
        board = subprocess.Popen(
            [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
             "--speed", "8", "--serial", bridge.board_path],
        )  # fmt: skip
        host = subprocess.Popen(
            [sys.executable, "-m", "reedboard_host.cli", "emulate", "dgt", "--pty", str(link),
             "--port", bridge.host_path],
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        fd = -1
        try:
            deadline = time.monotonic() + 60
            while not link.exists() and time.monotonic() < deadline:
                time.sleep(0.05)  # waiting for the host to make the pty, not timing anything
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
            host.send_signal(signal.SIGTERM)
            board.send_signal(signal.SIGTERM)
            assert host.wait(10) == 0, host.stderr.read() if host.stderr else ""
            assert board.wait(10) == 0
    assert not link.exists()
