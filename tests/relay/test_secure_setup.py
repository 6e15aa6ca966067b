"""`reedboard-relay secure-setup`: the files it writes run a real Mosquitto as they are,
and that broker lets each client do its own part only: a board publishes and the relay
follows it; an anonymous client, a wrong password, a board writing another's stream or
any request, reading another's requests, or taking another's client id, are refused."""

from __future__ import annotations

import socket
import ssl
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard.link.mqtt_client import tls_context
from reedboard_relay.cli import main as relay_main

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker
from tests.relay.fake_board import quiet_board
from tests.relay.relay_thread import relay_thread
from tests.relay.secure_broker import client, secure_broker
from tests.relay.test_relay_end_to_end import SCRIPTS, boards_moves, made, relay_games

BIN = Path(sys.executable).parent


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with secure_broker(tmp_path / "club") as running:
        yield running


def test_the_files_are_written_with_secrets_for_their_owner_only(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    assert relay_main(["secure-setup", str(folder), "--boards", "b1,b2"]) == 0
    names = {p.name for p in folder.iterdir()}
    assert names >= {"mosquitto.conf", "ca.crt", "server.crt", "server.key", "passwords",
                     "acl", "relay.password", "board-b1.toml", "board-b2.toml",
                     "board-b1.password", "board-b2.password"}  # fmt: skip
    for secret in ("server.key", "passwords", "relay.password", "board-b1.password"):
        assert stat.S_IMODE((folder / secret).stat().st_mode) == 0o600, secret
    config = (folder / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in config and "use_username_as_clientid true" in config
    assert "listener 8883 localhost" in config
    board = (folder / "board-b1.toml").read_text()
    assert 'url = "mqtts://localhost:8883"' in board and 'username = "board-b1"' in board
    password = (folder / "board-b1.password").read_text().strip()
    assert password not in (folder / "passwords").read_text()  # hashed there


def test_a_bad_board_list_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert relay_main(["secure-setup", str(tmp_path), "--boards", "b1,b/2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "b/2" in err


def test_a_board_publishes_and_the_relay_follows_it(broker: Broker, tmp_path: Path) -> None:
    folder = broker.folder
    relay = [
        str(BIN / "reedboard-relay"), "--mqtt", broker.url, "--username", "relay",
        "--password-file", str(folder / "relay.password"), "--ca-file", str(folder / "ca.crt"),
        "--db", str(tmp_path / "relay.sqlite"),
    ]  # fmt: skip
    # The board stays on after its game, as a real one does: started with the relay, it
    # may be through its game before the relay has subscribed, and is then asked again.
    board = [
        str(BIN / "reedboard"), "run", "--fake", "--script", str(SCRIPTS["b1"]), "--speed",
        "10", "--print", *quiet_board(tmp_path, folder / "board-b1.toml"),
    ]  # fmt: skip
    # Both on threads of the test's process, from these command lines (the commands
    # themselves are tested elsewhere): the set-up's files are what is tested here.
    with relay_thread(relay[1:]) as watcher, board_of(board) as b1:
        url = watcher.line()
        assert b1.wait_output(made(7), 60), b1.output()
        moves = boards_moves(b1.output())
        assert len(moves) == 7
        assert relay_games(url, {"b1": moves}) == {"b1": moves}


def test_an_anonymous_client_and_a_wrong_password_are_refused(broker: Broker) -> None:
    with client(broker, None, "anyone") as anonymous:
        assert not anonymous.connected()
    with client(broker, "board-b1", "b1", password="guessed") as guessing:
        assert not guessing.connected()
    with client(broker, "board-b1", "b1") as b1:
        assert b1.connected()


def test_a_board_writes_only_its_own_stream_and_status(broker: Broker) -> None:
    with (
        client(broker, "relay", "relay") as relay,
        client(broker, "board-b1", "b1") as b1,
    ):
        assert relay.connected() and b1.connected()
        relay.subscribe("reedboard/boards/+/stream", "reedboard/boards/+/status")
        b1.publish("reedboard/boards/b2/stream", b"forged")
        b1.publish("reedboard/boards/b2/status", b"forged")
        b1.publish("reedboard/boards/b1/stream", b"own")  # after them: they came first or never
        b1.publish("reedboard/boards/b1/status", b"own status")
        heard = relay.wait_for(b"own status")
        assert ("reedboard/boards/b1/stream", b"own") in heard
        assert all(payload != b"forged" for _topic, payload in heard)


def test_a_board_reads_only_its_own_requests_and_writes_none(broker: Broker) -> None:
    with (
        client(broker, "relay", "relay") as relay,
        client(broker, "board-b1", "b1") as b1,
    ):
        assert relay.connected() and b1.connected()
        b1.subscribe("reedboard/boards/+/request")
        b1.publish("reedboard/boards/b1/request", b"forged by b1")
        relay.publish("reedboard/boards/b2/request", b"for b2")
        relay.publish("reedboard/boards/b1/request", b"for b1")
        heard = b1.wait_for(b"for b1")
        assert heard == [("reedboard/boards/b1/request", b"for b1")]


def test_a_stolen_client_id_does_not_push_the_board_off(broker: Broker) -> None:
    with (
        client(broker, "relay", "relay") as relay,
        client(broker, "board-b3", "reedboard-board-b3") as b3,
    ):
        assert relay.connected() and b3.connected()
        relay.subscribe("reedboard/boards/b3/stream")
        for stolen in ("reedboard-board-b3", "board-b3"):
            with client(broker, "board-b1", stolen) as thief:
                assert thief.connected()
                # A round trip after the thief is in: had b3 been pushed off, paho saw its
                # connection close before this message's acknowledgement could come.
                b3.publish("reedboard/boards/b3/stream", stolen.encode())
                relay.wait_for(stolen.encode())
        assert not b3.dropped.is_set()


def test_a_missing_ca_or_password_file_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "club"
    assert relay_main(["secure-setup", str(folder), "--boards", "b1"]) == 0
    capsys.readouterr()
    gone = str(tmp_path / "gone.crt")
    url = "mqtts://127.0.0.1:1"
    for option, named in (("--ca-file", gone), ("--password-file", gone)):
        other = "--password-file" if option == "--ca-file" else "--ca-file"
        present = folder / ("relay.password" if other == "--password-file" else "ca.crt")
        argv = ["--mqtt", url, "--username", "relay", option, named, other, str(present)]
        assert relay_main([*argv, "--db", str(tmp_path / "r.sqlite")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and named in err, err
    (folder / "board-b1.password").unlink()
    board = [str(BIN / "reedboard"), "run", "--fake", "--config", str(folder / "board-b1.toml")]
    done = subprocess.run(board, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and str(folder / "board-b1.password") in done.stderr


def test_the_publisher_of_a_usb_board_names_a_missing_ca_file_in_one_line(tmp_path: Path) -> None:
    gone = str(tmp_path / "gone.crt")
    publish = [
        str(BIN / "reedboard-host"), "publish", "--port", str(tmp_path / "no-port"), "--mqtt",
        "mqtts://127.0.0.1:1", "--board-id", "b7", "--ca-file", gone,
    ]  # fmt: skip
    done = subprocess.run(publish, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and gone in done.stderr, done.stderr


def test_a_broker_the_club_did_not_set_up_is_not_trusted(broker: Broker, tmp_path: Path) -> None:
    """Another set-up's broker (another CA) fails the TLS handshake, before any password
    is sent to it."""
    other = tmp_path / "other"
    assert relay_main(["secure-setup", str(other), "--boards", "b1", "--host", "127.0.0.1"]) == 0
    with socket.create_connection(("127.0.0.1", broker.port), timeout=10) as raw:
        context = tls_context(str(other / "ca.crt"))
        with pytest.raises(ssl.SSLCertVerificationError):
            context.wrap_socket(raw, server_hostname="127.0.0.1")
    with socket.create_connection(("127.0.0.1", broker.port), timeout=10) as raw:
        context = tls_context(str(broker.folder / "ca.crt"))
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as checked:
            assert checked.version() is not None  # the club's own: trusted
