"""A broker that cannot be reached, that refuses the connection, or that keeps closing it
because another client took the same id: the board (`reedboard run`), the bridge
(`reedboard-host publish`) and the relay each say it once, in one line, and keep trying;
they say once when the broker is reached after that. Real programs, real Mosquitto."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard.link.mqtt_client import BACK_WAIT_S, KEPT_BY_JOURNAL, NO_JOURNAL
from reedboard.link.mqtt_retry import RETRY_MS_RANGE
from reedboard.sim.human import start_label
from reedboard_relay.store import RelayStore

from tests.children import child
from tests.link.ptybridge import PtyBridge
from tests.relay.board_thread import FedLines, board_thread
from tests.relay.broker import Broker, PortTaken, free_port, running_broker
from tests.relay.caught_up import caught_up
from tests.relay.fake_board import RELAY_RETRY, quiet_board
from tests.relay.held_script import split_at
from tests.relay.proxy import network_proxy
from tests.relay.relay_thread import relay_thread
from tests.relay.test_relay_end_to_end import games_of, get
from tests.relay.test_relay_faults import journal_game
from tests.support.said_lines import SaidLines

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SCRIPT = ROOT / "docs" / "examples" / "italian-opening.events"
TOLD = "trying again every few seconds"  # the one warning; the retries after are debug lines
# The programs try again this often, the shortest they take (their default: every 4 s):
# the many retries that show a trouble is said once come in a fraction of a second.
RETRY_MS = RETRY_MS_RANGE[0]
RETRY = ["--mqtt-retry-ms", str(RETRY_MS)]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def debug_env() -> dict[str, str]:
    return {**os.environ, "REEDBOARD_LOG": "debug"}


def test_a_scripted_board_says_its_broker_is_unreachable_and_fails(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    config = tmp_path / "board.toml"
    # The shortest retry: the many tries that show the trouble is said once come within
    # the game (the board no longer waits for a broker it never reached once it is over).
    config.write_text(f"[mqtt]\nretry_ms = {RETRY_MS}\n")
    done = subprocess.run(
        [str(BIN / "reedboard"), "run", "--fake", "--script", str(SCRIPT), "--speed", "50",
         "--until-done", "--mqtt", f"mqtt://127.0.0.1:{port}", "--board-id", "b1",
         "--config", str(config)],
        capture_output=True, text=True, timeout=240, env=debug_env(),
    )  # fmt: skip
    said = done.stderr.splitlines()
    unreachable = [line for line in said if "cannot reach the MQTT broker" in line]
    assert unreachable[0] == (
        f"reedboard: cannot reach the MQTT broker at 127.0.0.1:{port} (Connection refused); {TOLD}"
    ), said
    # Said once, tried again and again: at the default (every 4 s) a game this short
    # would be a try or two, not 20.
    assert len([line for line in said if TOLD in line]) == 1, said
    assert len(unreachable) > 20, said
    # Told once why the game is not at the broker (the board did not wait for a broker it
    # never reached), and that the relay will not have it: a fake board keeps no journal.
    undelivered = [line for line in said if "never reached the MQTT broker" in line]
    assert len(undelivered) == 1, said
    assert undelivered[0].endswith(
        f"frames of this board never reached the MQTT broker at 127.0.0.1:{port} "
        f"(it was never reached); {NO_JOURNAL}"
    ), said
    assert done.returncode == 1  # the game was not delivered: not a success


def test_a_board_whose_broker_went_away_stops_and_its_journal_delivers_later(
    broker: Broker, tmp_path: Path
) -> None:
    """The board's network goes mid-game and does not come back: the board plays on, and
    once its game is over it stops within the short while it waits for a lost broker
    (`BACK_WAIT_S`), not the 10 s it gives a live one, saying once what the broker never
    had and that its journal keeps it. Started again on that journal against the broker,
    it gives the relay the whole game."""
    journal = tmp_path / "b1.sqlite"
    played = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]
    script = split_at(SCRIPT.read_text(), 8)  # four moves, then the rest
    with (
        network_proxy(broker.port) as proxy,
        relay_thread(
            ["--mqtt", broker.url, "--db", str(tmp_path / "relay.sqlite"), *RELAY_RETRY]
        ) as relay,  # fmt: skip
    ):
        url = relay.line()

        def relay_has() -> list[str]:
            return games_of(get(url + "games.pgn")).get("b1", [])

        command = [str(BIN / "reedboard"), "run", "--fake", "--script", "-", "--speed", "50",
                   "--until-done", "--journal", str(journal), "--mqtt", proxy.url,
                   "--board-id", "b1", *quiet_board(tmp_path)]  # fmt: skip
        with child(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, text=True, env=debug_env()) as board:  # fmt: skip
            assert board.stdin is not None and board.stderr is not None
            said = SaidLines(board.stderr)
            board.stdin.write(script.headers + script.parts[0])
            board.stdin.flush()
            assert caught_up(relay_has, played[:4]) == played[:4]
            proxy.cut()  # and never restored
            said.wait_for(f"the connection to the MQTT broker at 127.0.0.1:{proxy.port} ended")
            board.stdin.write(script.parts[1])
            board.stdin.close()  # the board ends once it has played the rest
            assert board.wait(60) == 1  # its game did not reach the broker: not a success
        left = [line for line in said.wait_end() if "never reached the MQTT broker" in line]
        assert len(left) == 1, said.lines
        assert left[0].endswith(
            f"frames of this board never reached the MQTT broker at 127.0.0.1:{proxy.port} "
            f"(the connection to it was lost and not back within {BACK_WAIT_S:g} s); "
            f"{KEPT_BY_JOURNAL}"
        ), left
        saved = journal_game(journal)
        assert saved.san_moves() == played  # the board played its whole game
        assert relay_has() == played[:4]  # of which the relay has what came before the cut
        # Started again on its journal, with its network back: its pieces stand as the
        # journal's game left them, and it stays on until the relay has the game.
        again = FedLines()
        again.feed(f"@start {start_label(saved.position)}\n\n")
        command = ["--fake", "--script", "-", "--speed", "50", "--journal", str(journal),
                   "--mqtt", broker.url, "--board-id", "b1", *quiet_board(tmp_path)]  # fmt: skip
        with board_thread(command, again):
            assert caught_up(relay_has, played) == played


def test_the_relay_says_once_it_cannot_reach_the_broker_then_once_it_does(
    tmp_path: Path,
) -> None:
    port = free_port()
    command = [str(BIN / "reedboard-relay"), "--mqtt", f"mqtt://127.0.0.1:{port}",
               "--db", str(tmp_path / "relay.sqlite"), *RETRY]  # fmt: skip
    with child(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
               env=debug_env()) as relay:  # fmt: skip
        assert relay.stderr is not None
        said = SaidLines(relay.stderr)
        unreachable = f"cannot reach the MQTT broker at 127.0.0.1:{port} (Connection refused)"
        # Tried again and again, as often as told: at the default 30 tries take 2 minutes.
        said.wait_for(unreachable, count=30)
        assert len(said.with_part(TOLD)) == 1, said.lines
        late = Broker(tmp_path, port)
        try:
            late.start()
        except PortTaken:
            pytest.skip("another test took the port")
        try:
            said.wait_for(f"connected to the MQTT broker at 127.0.0.1:{port}")
        finally:
            late.kill()


@pytest.fixture
def guarded_broker(tmp_path: Path) -> Iterator[Broker]:
    """A Mosquitto that lets in only the user `arbiter` with the password `right`."""
    folder = tmp_path / "guarded"
    folder.mkdir()
    passwords = folder / "passwords"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwords), "arbiter", "right"],
                   check=True, capture_output=True, timeout=30)  # fmt: skip
    passwords.chmod(0o600)
    guarded = Broker(folder, free_port())
    guarded.config.write_text(
        f"listener {guarded.port} 127.0.0.1\nallow_anonymous false\npassword_file {passwords}\n"
        # Started as root, Mosquitto would read the file as its own user, which cannot
        # enter the test's folder; started as another user, it stays that user anyway.
        "user root\n"
    )
    try:
        guarded.start()
    except PortTaken:
        pytest.skip("another test took the port")
    try:
        yield guarded
    finally:
        guarded.kill()


def test_a_refused_password_is_said_once(guarded_broker: Broker, tmp_path: Path) -> None:
    wrong = tmp_path / "password"
    wrong.write_text("wrong\n")
    command = [str(BIN / "reedboard-relay"), "--mqtt", guarded_broker.url,
               "--db", str(tmp_path / "relay.sqlite"), "--username", "arbiter",
               "--password-file", str(wrong), *RETRY]  # fmt: skip
    with child(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
               env=debug_env()) as relay:  # fmt: skip
        assert relay.stderr is not None
        said = SaidLines(relay.stderr)
        refused = f"the MQTT broker at 127.0.0.1:{guarded_broker.port} refused the connection"
        said.wait_for(refused, count=6)
        told = said.with_part(TOLD)
        assert told == [f"reedboard-relay: {refused} (Not authorized); {TOLD}"], said.lines


def test_the_bridge_says_what_it_does_and_that_the_broker_is_unreachable() -> None:
    port = free_port()
    bridge = PtyBridge()
    try:
        command = [str(BIN / "reedboard-host"), "publish", "--port", bridge.host_path,
                   "--mqtt", f"mqtt://127.0.0.1:{port}", "--board-id", "usb1", *RETRY]  # fmt: skip
        with child(command, stderr=subprocess.PIPE, text=True, env=debug_env()) as publisher:
            assert publisher.stderr is not None
            said = SaidLines(publisher.stderr)
            # As often as told: 30 tries at the default would take 2 minutes.
            said.wait_for(f"cannot reach the MQTT broker at 127.0.0.1:{port}", count=30)
            assert len(said.with_part(TOLD)) == 1, said.lines
            started = said.lines[0]
            assert started.startswith("reedboard-host: publish: publishing the board on ")
            assert bridge.host_path in started and f"127.0.0.1:{port}" in started
            assert "usb1" in started and "Ctrl-C" in started
    finally:
        bridge.close()


def test_two_relays_with_one_client_id_are_told_of_it(broker: Broker, tmp_path: Path) -> None:
    def relay(name: str) -> list[str]:
        return [str(BIN / "reedboard-relay"), "--mqtt", broker.url, "--client-id", "same",
                "--db", str(tmp_path / f"{name}.sqlite"), *RETRY]  # fmt: skip

    pipes = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "text": True}
    with child(relay("one"), **pipes) as one, child(relay("two"), **pipes) as two:
        assert one.stderr is not None and two.stderr is not None
        said_one, said_two = SaidLines(one.stderr), SaidLines(two.stderr)
        # Each knocks the other off in turn: the first to be closed three times says it.
        line = "another client with the same client id (same) may be connected"
        said_one.wait_for(line, 120)
        said_two.wait_for(line, 120)
        assert len(said_one.with_part(line)) == 1


def test_relays_on_their_own_stores_have_their_own_client_ids(tmp_path: Path) -> None:
    first, second = RelayStore(str(tmp_path / "a.sqlite")), RelayStore(str(tmp_path / "b.sqlite"))
    try:
        ids = first.client_id(), second.client_id()
        assert ids[0] != ids[1] and all(i.startswith("reedboard-relay-") for i in ids)
    finally:
        first.close()
        second.close()
    again = RelayStore(str(tmp_path / "a.sqlite"))
    try:
        assert again.client_id() == ids[0]  # kept: the broker's session for it is found again
    finally:
        again.close()


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[Broker]:
    """A Mosquitto that speaks TLS only, with a certificate signed by itself."""
    folder = tmp_path / "tls"
    folder.mkdir()
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"],
                   check=True, capture_output=True, timeout=60)  # fmt: skip
    tls = Broker(folder, free_port())
    tls.config.write_text(
        f"listener {tls.port} 127.0.0.1\nallow_anonymous true\n"
        f"certfile {cert}\nkeyfile {key}\nuser root\n"  # root: as in `guarded_broker`
    )
    try:
        tls.start()
    except PortTaken:
        pytest.skip("another test took the port")
    try:
        yield tls
    finally:
        tls.kill()


def test_a_certificate_not_trusted_is_said_once(tls_broker: Broker, tmp_path: Path) -> None:
    command = [str(BIN / "reedboard-relay"), "--mqtt", f"mqtts://127.0.0.1:{tls_broker.port}",
               "--db", str(tmp_path / "relay.sqlite"), *RETRY]  # fmt: skip
    with child(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
               env=debug_env()) as relay:  # fmt: skip
        assert relay.stderr is not None
        said = SaidLines(relay.stderr)
        where = f"cannot reach the MQTT broker at 127.0.0.1:{tls_broker.port}"
        said.wait_for(where, count=6)
        assert said.with_part(TOLD) == [
            f"reedboard-relay: {where} (TLS: self-signed certificate); {TOLD}"
        ], said.lines
