"""`reedboard run --ble`: the board's own command, on BlueZoo's virtual adapters, found by
a phone's app under its advertised name and answering CPP, the phone in control shown by
`reedboard-host watch`; and a board whose Bluetooth is not there says so in one line and
stops."""

from __future__ import annotations

import asyncio
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

from tests.ble.central import Central
from tests.ble.mock_bluez import mock_bluez
from tests.children import child
from tests.host.running_board import host_command
from tests.link.ptybridge import PtyBridge

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
REEDBOARD = [sys.executable, "-m", "reedboard.cli"]
# The board's page is not these tests' subject (tests/web/): left off, it costs the board
# half a second of CPU to start (the web server's imports).
NO_PAGE = ("--web", "off")


def test_reedboard_run_ble_answers_a_phone(tmp_path: Path) -> None:
    with (
        mock_bluez(tmp_path / "bluez"),
        child(
            [*REEDBOARD, "run", "--fake", "--ble", *NO_PAGE],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        ) as board,
    ):

        async def phone() -> None:
            app = Central("reedboard-0001")
            await app.connect()
            await app.write("feature option")
            assert await app.next() == "ok"
            await app.write(f"begin {START}")
            assert await app.next() == f"sync {START}"
            await app.write("options_begin")
            assert await app.next() == "option mode enum casual casual strict"
            await app.disconnect()

        asyncio.run(phone())
        assert board.poll() is None


def test_without_bluez_the_board_says_so_and_stops(tmp_path: Path) -> None:
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={tmp_path}/no_bus"}
    done = subprocess.run(
        [*REEDBOARD, "run", "--fake", "--ble", *NO_PAGE],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "reedboard run: Bluetooth on hci0 as reedboard-XXXX: cannot reach the system bus:"
        " [Errno 2] No such file or directory"
    ]


def test_the_host_shows_which_phone_controls_the_board(tmp_path: Path) -> None:
    with (
        mock_bluez(tmp_path / "bluez"),
        PtyBridge() as bridge,
        child(
            [*REEDBOARD, "run", "--fake", "--ble", *NO_PAGE, "--serial", bridge.board_path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ),
        child(
            host_command("watch", "--port", bridge.host_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        ) as watch,
    ):
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            assert watch.stdout is not None
            for line in watch.stdout:
                lines.put(line.strip())

        threading.Thread(target=read, daemon=True).start()

        seen: list[str] = []

        def shown(words: str) -> None:
            """Until `watch` prints a line ending in `words` (what it printed, if not)."""
            while not any(line.endswith(words) for line in seen[-12:]):
                try:
                    seen.append(lines.get(timeout=60))
                except queue.Empty:
                    raise AssertionError("\n".join(seen[-40:])) from None

        async def phone() -> None:
            app = Central("reedboard-0001")
            await app.connect()
            await app.write(f"begin {START}")
            assert await app.next() == f"sync {START}"
            # The phone's own name (BlueZoo names its adapters), its address, its protocol.
            await asyncio.to_thread(shown, "(00:AA:00:00:00:02) controls the board over"
                                    " Bluetooth, with the Chess Peripheral Protocol.")  # fmt: skip
            await app.disconnect()

        asyncio.run(phone())
        shown("no phone connected over Bluetooth")
