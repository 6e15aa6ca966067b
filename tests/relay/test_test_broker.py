"""The tests' Mosquitto is up only when it holds its port: a port another server took
first is found out (not mistaken for the broker because something answers there), and
`running_broker` moves to another port."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.relay.broker import Broker, PortTaken, running_broker


def test_a_port_another_server_holds_is_not_taken_for_the_broker(tmp_path: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()  # answers a connection, as a web server on that port would
        broker = Broker(tmp_path, other.getsockname()[1])
        with pytest.raises(PortTaken):
            broker.start()
        assert broker.process is None


def test_the_running_broker_holds_its_port(tmp_path: Path) -> None:
    with running_broker(tmp_path) as broker:
        assert broker.process is not None and broker.process.poll() is None
        with socket.socket() as other, pytest.raises(OSError):
            other.bind(("127.0.0.1", broker.port))  # ours: nobody else can have it
    assert broker.process is None
