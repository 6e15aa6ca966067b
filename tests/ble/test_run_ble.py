"""`reedboard run --ble`: the board's own command, on BlueZoo's virtual adapters, found by
a phone's app under its advertised name and answering CPP; and a board whose Bluetooth is
not there says so in one line and stops."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.ble.central import Central
from tests.ble.mock_bluez import mock_bluez
from tests.children import child

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
REEDBOARD = [sys.executable, "-m", "reedboard.cli"]


def test_reedboard_run_ble_answers_a_phone(tmp_path: Path) -> None:
    with (
        mock_bluez(tmp_path / "bluez"),
        child(
            [*REEDBOARD, "run", "--fake", "--ble"],
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
        [*REEDBOARD, "run", "--fake", "--ble"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "reedboard run: Bluetooth on hci0 as reedboard-XXXX: cannot reach the system bus:"
        " [Errno 2] No such file or directory"
    ]
