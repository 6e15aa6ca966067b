"""A real Mosquitto for a test: on a free port of 127.0.0.1, with a configuration file of
its own (persistence in the test's folder), stopped by its process id whatever happens."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from tests.children import stop

MOSQUITTO = "/usr/sbin/mosquitto"
MAX_QUEUED = 100_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Broker:
    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.url = f"mqtt://127.0.0.1:{port}"
        self.config = folder / "mosquitto.conf"
        self.config.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\n"
            f"persistence true\npersistence_location {folder}/\n"
            # As docs/relay.md's club set-up says: Mosquitto drops the QoS 1 messages it
            # holds for a client beyond this (1,000 by default), and a reader behind a
            # whole room of boards, or a test's listener on a busy machine, falls that far.
            f"max_queued_messages {MAX_QUEUED}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=log)
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 0.2),
            ):
                return
            time.sleep(0.05)  # waiting for the port to open, not timing anything
        raise RuntimeError("mosquitto did not open its port")

    def kill(self) -> None:
        if self.process is not None:
            stop(self.process, signal.SIGKILL)
            self.process = None


@contextlib.contextmanager
def running_broker(folder: Path) -> Iterator[Broker]:
    broker = Broker(folder, free_port())
    broker.start()
    try:
        yield broker
    finally:
        broker.kill()
