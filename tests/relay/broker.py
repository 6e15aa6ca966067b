"""A real Mosquitto for a test: on a free port of 127.0.0.1, with a configuration file of
its own (persistence in the test's folder), stopped by its process id whatever happens.

A port found free may be taken by another test's server before Mosquitto binds it, and
then a check that something answers on the port passes while our Mosquitto has exited:
the relay and the boards would talk MQTT to someone else's web page. So the broker is up
only once its own log says it is running, and a taken port is tried again with another."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.children import stop

MOSQUITTO = "/usr/sbin/mosquitto"
MAX_QUEUED = 100_000
START_S = 10
ATTEMPTS = 5


class PortTaken(RuntimeError):
    """Mosquitto could not bind its port: another server took it first."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Broker:
    def __init__(self, folder: Path, port: int, config: Path | None = None) -> None:
        """An open broker on `port`, or the one `config` describes (already written,
        listening on `port`)."""
        self.folder = folder
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.begun = 0  # where the log of the latest start begins
        self.url = f"mqtt{'s' if config else ''}://127.0.0.1:{port}"
        self.config = config or folder / "mosquitto.conf"
        if config is None:
            self._write_open_config()

    def _write_open_config(self) -> None:
        folder, port = self.folder, self.port
        self.config.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\n"
            f"persistence true\npersistence_location {folder}/\n"
            # As docs/relay.md's club set-up says: Mosquitto drops the QoS 1 messages it
            # holds for a client beyond this (1,000 by default), and a reader behind a
            # whole room of boards, or a test's listener on a busy machine, falls that far.
            f"max_queued_messages {MAX_QUEUED}\n"
            # Mosquitto's usual log, and each subscription: a test can wait for a client
            # to have subscribed again after the broker is restarted (`wait_logged`).
            "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
            "log_type subscribe\n"
        )

    def start(self) -> None:
        """Start Mosquitto and wait until it has bound its port (its log says "running",
        which it writes once its listener is open)."""
        log_path = self.log_path
        with open(log_path, "ab") as log:
            begun = self.begun = log.tell()  # a restart appends: only this start's lines count
            process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=log, stderr=log)
        self.process = process
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            with open(log_path, "rb") as log:
                log.seek(begun)
                said = log.read().decode(errors="replace")
            if " running" in said:
                return
            if process.poll() is not None:
                self.process = None
                if "Address already in use" in said:
                    raise PortTaken(f"port {self.port} was taken before mosquitto bound it")
                raise RuntimeError(f"mosquitto exited with {process.returncode}: {said}")
            time.sleep(0.05)  # waiting for the broker's log, not timing anything
        self.kill()
        raise RuntimeError(f"mosquitto did not start within {START_S} s")

    @property
    def log_path(self) -> Path:
        return self.folder / "mosquitto.log"

    def logged_since_start(self) -> str:
        """What Mosquitto has logged since it was last started."""
        with open(self.log_path, "rb") as log:
            log.seek(self.begun)
            return log.read().decode(errors="replace")

    def wait_logged(self, text: str, wait_s: float = START_S * 6) -> None:
        """Until Mosquitto has logged `text` since it was last started (a bound for a
        client that never comes)."""
        deadline = time.monotonic() + wait_s
        while text not in self.logged_since_start():
            assert time.monotonic() < deadline, f"mosquitto never logged {text!r}"
            time.sleep(0.05)  # waiting for the broker's log, not timing anything

    def kill(self) -> None:
        if self.process is not None:
            stop(self.process, signal.SIGKILL)
            self.process = None


@contextlib.contextmanager
def broker_on_a_free_port(make: Callable[[int], Broker]) -> Iterator[Broker]:
    """The broker `make` sets up for a port, started on the first free port another
    process does not take first (ATTEMPTS tries), and killed whatever happens."""
    for attempt in range(ATTEMPTS):
        broker = make(free_port())
        try:
            broker.start()
            break
        except PortTaken:
            if attempt == ATTEMPTS - 1:
                raise
    try:
        yield broker
    finally:
        broker.kill()


def running_broker(folder: Path) -> contextlib.AbstractContextManager[Broker]:
    return broker_on_a_free_port(lambda port: Broker(folder, port))
