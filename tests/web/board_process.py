"""`reedboard run --fake --web 127.0.0.1:0` as a child process, as a user starts it: the
page's URL read from its stderr, a host on a real pty beside it (the serial link, which
also reads the LEDs' marks: the pairing code a player reads at the board), its journal in
the test's folder. Stopped (killed if need be) when the block ends, whatever happened."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reedboard.link.frame import FrameDecoder, encode_frame

from tests.children import child
from tests.support.linked_pty import LinkedPty

URL = re.compile(r"http://127\.0\.0\.1:[1-9][0-9]*/")
# The test boards' matrix scanned 50 times a second, not the default 200: the fake GPIO
# solves the matrix's electrics at each scan, and a board scanning at 200 Hz spent 8 % of
# a core doing nothing, most of these tests' board CPU. A hand here keeps 200 ms and more
# between switches, the settle time is 150 ms: a scan every 20 ms reads them all the same.
# A test's own configuration (`--config`) adds these lines (`quiet_scan`).
QUIET_SCAN = "[matrix]\nscan_hz = 50\n"


def quiet_scan(config: Path) -> Path:
    """`config` (a board configuration the test wrote) with the test boards' scan rate."""
    config.write_text(config.read_text(encoding="utf-8") + "\n" + QUIET_SCAN, encoding="utf-8")
    return config


START_S = 60.0  # a loaded machine starts Python, the board and aiohttp slowly
ANSWER_S = 30.0

# An opening a live board's switches play when the test says (`opening_lines`), for a
# page to see its moves arrive.
OPENING = [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6")]


def opening_lines(first: int, last: int) -> list[str]:
    """The live script's lines (`RunningBoard.play`) of the opening's moves `first` to
    `last` (0: e2-e4), each by a clean hand: lifted 300 ms after the move before was set
    down (the board has read it 150 ms after), set down 200 ms later (the board's settle
    time is 150 ms)."""
    lines: list[str] = []
    for start, end in OPENING[first:last]:
        lines += [f"+300 lift {start}", f"+200 place {end}"]
    return lines


class PtyHost:
    """The host's end of the board's serial link: asks and reads the board's state."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.decoder = FrameDecoder()
        self._id = 0

    def ask(self, command: dict[str, Any]) -> dict[str, Any]:
        """`command` answered by the board (its reply, decoded)."""
        self._id += 1
        os.write(self.master, b"\n" + encode_frame({**command, "id": self._id}))
        deadline = time.monotonic() + ANSWER_S
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if not ready:
                continue
            for message in self.decoder.feed(os.read(self.master, 65536)):
                if message.get("id") == self._id and message.get("type") != "alive":
                    return dict(message)
        raise AssertionError(f"the board did not answer {command}")

    def state(self) -> dict[str, Any]:
        return self.ask({"type": "state"})

    def pairing_code(self) -> str:
        """The code lit on the board, read from its marked squares (a to d)."""
        deadline = time.monotonic() + ANSWER_S
        while time.monotonic() < deadline:
            marked = sorted(self.state().get("marked") or [])
            if len(marked) == 4:
                return "".join(square[1] for square in marked)
            time.sleep(0.1)
        raise AssertionError("no pairing code lit on the board")


@dataclass
class RunningBoard:
    url: str
    process: subprocess.Popen[str]
    host: PtyHost
    folder: Path
    errors: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return self.url.rstrip("/")

    def play(self, lines: list[str]) -> None:
        """Have a live board's switches do `lines` (a live script's, docs/reference.md)."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()


@contextlib.contextmanager
def running_board(
    folder: Path,
    script: str | None = None,
    *extra: str,
    live: str | None = None,
    settle_ms: int = 150,
) -> Iterator[RunningBoard]:
    """The board; `live`: its switches played from its stdin as the test writes to it
    (`--script -`), `live` its headers ("": none, the standard position); `settle_ms`:
    how long it waits for the hands to be still (`--settle-ms`: shorter than any pause
    of the test's hands)."""
    line = LinkedPty("board")  # a path of the test's own, never another test's pty
    args = ["--fake", "--web", "127.0.0.1:0", "--serial", line.path]
    args += ["--journal", str(folder / "journal.sqlite"), "--settle-ms", str(settle_ms)]
    if "--config" not in extra:
        (folder / "scan.toml").write_text(QUIET_SCAN, encoding="utf-8")
        args += ["--config", str(folder / "scan.toml")]
    if script is not None:
        (folder / "game.events").write_text(script)
        args += ["--script", str(folder / "game.events")]
    if live is not None:
        args += ["--script", "-"]
    try:
        with child(
            [sys.executable, "-m", "reedboard.cli", "run", *args, *extra],
            stdin=subprocess.PIPE if live is not None else subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        ) as process:
            if live is not None:
                assert process.stdin is not None
                process.stdin.write(live + "\n\n")  # the headers end: the board starts
                process.stdin.flush()
            lines: queue.Queue[str] = queue.Queue()
            errors: list[str] = []

            def read() -> None:
                assert process.stderr is not None
                for line in process.stderr:
                    errors.append(line)
                    lines.put(line)

            threading.Thread(target=read, daemon=True).start()
            url = ""
            deadline = time.monotonic() + START_S
            while not URL.fullmatch(url):  # the URL's own line (a log line may come first)
                url = lines.get(timeout=max(0.1, deadline - time.monotonic())).strip()
            yield RunningBoard(url, process, PtyHost(line.master), folder, errors)
    finally:
        line.close()


def page_json(text: str) -> dict[str, Any]:
    decoded = json.loads(text)
    assert isinstance(decoded, dict)
    return decoded
