"""A serial port that is not there yet, or goes away mid-game, is waited for: the board
(`reedboard run`, as a process) says so in one line and opens it when it appears, for
every protocol. The port is a real pty behind a fixed path that appears, vanishes and
appears again, as a USB gadget port does when a PC is plugged in, pulled and plugged in
again."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial
from reedboard.errors import LinkError
from reedboard.link.frame import FrameDecoder, encode_frame
from reedboard.link.serial_port import open_port

from tests.link.emulated import chesslink_message, chesslink_replies, dgt_messages

WAIT_S = 60  # a generous bound for a loaded machine; the test ends as soon as it can


def _native(master: int) -> bool:
    """Ask the board's hello; True once a hello reply arrived."""
    decoder = FrameDecoder()
    return _converse(
        master,
        encode_frame({"type": "hello", "id": 1, "protocol": 1, "client": "test"}),
        lambda data: any(m["type"] == "hello" for m in decoder.feed(data)),
    )


def _dgt(master: int) -> bool:
    seen = bytearray()

    def answered(data: bytes) -> bool:
        seen.extend(data)
        return any(kind == 0x86 for kind, _ in dgt_messages(bytes(seen)))

    return _converse(master, bytes((0x42,)), answered)  # DGT_SEND_BRD: the board dump


def _chesslink(master: int) -> bool:
    seen = bytearray()

    def answered(data: bytes) -> bool:
        seen.extend(data)
        text = bytes(b & 0x7F for b in seen)
        # The version reply among the status reports; only whole messages are checked.
        return b"v" in text and any(r.startswith("v") for r in _whole(text))

    return _converse(master, chesslink_message("V"), answered)


def _whole(text: bytes) -> list[str]:
    for end in range(len(text), 0, -1):
        try:
            return chesslink_replies(text[:end])
        except (KeyError, IndexError, ValueError, AssertionError):
            continue
    return []


TALK: dict[str, Callable[[int], bool]] = {
    "native": _native,
    "dgt": _dgt,
    "chesslink": _chesslink,
}


def _converse(master: int, request: bytes, answered: Callable[[bytes], bool]) -> bool:
    """Send `request` every half second until the board's answer satisfies `answered`."""
    deadline = time.monotonic() + WAIT_S
    asked = 0.0
    while time.monotonic() < deadline:
        if time.monotonic() - asked > 0.5:
            os.write(master, request)
            asked = time.monotonic()
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready and answered(os.read(master, 65536)):
            return True
    return False


class Port:
    """A fixed path that is a pty while `plug()`ged and nothing after `pull()`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.master: int | None = None
        self.slave: int | None = None

    def plug(self) -> int:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path.symlink_to(os.ttyname(self.slave))
        return self.master

    def pull(self) -> None:
        self.path.unlink(missing_ok=True)
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        self.master = self.slave = None


def _wait_for_line(log: Path, text: str, count: int = 1) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if log.read_text().count(text) >= count:
            return
        time.sleep(0.05)  # polling a file the board writes: waits on the condition
    raise AssertionError(f"the board never said {text!r}; it said {log.read_text()!r}")


@pytest.fixture
def port(tmp_path: Path) -> Iterator[Port]:
    port = Port(tmp_path / "ttyGS0")
    yield port
    port.pull()


@pytest.fixture
def start_board(tmp_path: Path) -> Iterator[Callable[[str, Path], Path]]:
    boards: list[subprocess.Popen[bytes]] = []

    def start(protocol: str, path: Path) -> Path:
        log = tmp_path / f"{protocol}.log"
        command = [
            sys.executable,
            "-m",
            "reedboard.cli",
            "run",
            "--fake",
            "--serial",
            str(path),
            "--web",
            "off",
        ]
        with log.open("wb") as out:
            boards.append(
                subprocess.Popen(
                    [*command, "--protocol", protocol], stdout=subprocess.DEVNULL, stderr=out
                )
            )
        return log

    yield start
    for board in boards:
        if board.poll() is None:
            board.send_signal(signal.SIGTERM)
            try:
                board.wait(20)
            except subprocess.TimeoutExpired:
                board.kill()
                board.wait()
    for board in boards:
        assert board.returncode == 0, "the board did not end cleanly on SIGTERM"


@pytest.mark.parametrize("protocol", ["native", "dgt", "chesslink"])
def test_a_port_that_appears_later_and_comes_and_goes_is_waited_for(
    port: Port, start_board: Callable[[str, Path], Path], protocol: str
) -> None:
    log = start_board(protocol, port.path)
    _wait_for_line(log, f"no serial port {port.path}")  # the board is up, and waits
    talk = TALK[protocol]
    assert talk(port.plug()), f"no answer once the port appeared: {log.read_text()!r}"
    port.pull()  # the PC is unplugged mid-game
    _wait_for_line(log, "the serial link failed")
    assert talk(port.plug()), f"no answer once plugged in again: {log.read_text()!r}"
    _wait_for_line(log, "the serial link is open again")
    said = log.read_text()
    assert "Traceback" not in said
    # Quiet: one line when a wait begins and one when it ends, not one per attempt (on a
    # shared machine a pty can also be busy for a moment: another wait, as quiet).
    lines = said.splitlines()
    assert len(lines) >= 4, said
    for number, line in enumerate(lines):
        ending = number % 2 == 1
        assert line.endswith("open again") if ending else "trying again" in line, said


@pytest.mark.parametrize(
    "line", [{}, {"bytesize": serial.SEVENBITS, "parity": serial.PARITY_ODD}], ids=["8N1", "7O1"]
)
def test_an_absent_port_is_a_link_error_at_any_line_setting(
    tmp_path: Path, line: dict[str, Any]
) -> None:
    """ChessLink's 7O1 once met an absent port with an UnboundLocalError, which the run
    loop does not expect: the board died instead of waiting."""
    with pytest.raises(LinkError, match="no serial port"):
        open_port(str(tmp_path / "ttyGS0"), **line)
