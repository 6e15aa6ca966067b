"""The round's tournament mode reaches every board, even one whose `settings` command was
lost: real parts (a Mosquitto, the relay and fake boards on threads of the test's
process, one behind a TCP proxy standing for its network). The board is away when the arbiter
switches the round, and the broker that held the command for it dies without saving it;
the board, back, is told again when the relay hears it, and the board that acknowledged
at once is told nothing more."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link import mqtt_topics
from reedboard.link.frame import decode_line

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, running_broker
from tests.relay.fake_board import quiet_board
from tests.relay.proxy import network_proxy
from tests.relay.test_arbiter_console import post, relay_urls, summary, until
from tests.relay.test_relay_end_to_end import BIN

# One move, then the board stays up (no --until-done), saying `alive` every second of
# its time: at ten times a person's pace, ten times a second.
OPENING = "@start standard\n1000 lift e2\n1400 place e4\n"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


class Watcher:
    """A client of the broker that notes every `settings` the relay sends each board and
    counts each board's `alive`s; it reconnects and subscribes again after the broker
    restarts."""

    def __init__(self, broker: Broker) -> None:
        self._lock = threading.Lock()
        self._told: dict[str, list[bool]] = {}
        self._alives: dict[str, int] = {}
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="settings-watcher")
        # Back soon after the broker restarts (paho's hints say whole seconds; it waits any).
        self.client.reconnect_delay_set(min_delay=0.1, max_delay=0.1)  # type: ignore[arg-type]
        self.client.on_connect = lambda c, *_: c.subscribe(
            [(f"{mqtt_topics.PREFIX}/+/request", 1), (f"{mqtt_topics.PREFIX}/+/stream", 0)]
        )
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()

    def _message(self, _c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        place = mqtt_topics.board_of(message.topic)
        wire = decode_line(bytes(message.payload))
        if place is None or wire is None:
            return
        board, kind = place
        with self._lock:
            if kind == "request" and wire.get("type") == "settings":
                self._told.setdefault(board, []).append(bool(wire.get("tournament")))
            elif kind == "stream" and wire.get("type") == "alive":
                self._alives[board] = self._alives.get(board, 0) + 1

    def told(self, board: str) -> list[bool]:
        with self._lock:
            return list(self._told.get(board, []))

    def alives(self, board: str) -> int:
        with self._lock:
            return self._alives.get(board, 0)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def console_row(console: str, board_id: str) -> dict[str, Any]:
    base, _, token = console.partition("/arbiter?token=")
    request = urllib.request.Request(
        base + "/arbiter/api/boards", headers={"X-Arbiter-Token": token}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        listed = json.loads(answer.read())
    rows: list[dict[str, Any]] = [b for b in listed["boards"] if b["id"] == board_id]
    return rows[0] if rows else {}


def confirmed(page: str, console: str, board_id: str) -> bool:
    row = console_row(console, board_id)
    return (
        row.get("tournament") is True
        and row.get("tournament_confirmed") is True
        and summary(page, board_id).get("tournament_confirmed") is True
    )


def fake_board(tmp_path: Path, board_id: str, url: str) -> list[str]:
    script = tmp_path / f"{board_id}.events"
    script.write_text(OPENING)
    return [
        str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed", "10",
        "--mqtt", url, "--board-id", board_id, *quiet_board(tmp_path),
    ]  # fmt: skip


def test_a_board_that_missed_the_switch_is_told_again_when_heard(
    broker: Broker, tmp_path: Path
) -> None:
    with ExitStack() as finally_:
        proxy = finally_.enter_context(network_proxy(broker.port))
        watcher = Watcher(broker)
        finally_.callback(watcher.stop)
        assert watcher.subscribed.wait(10)
        page, console, _relay = finally_.enter_context(
            relay_urls(broker, tmp_path / "relay.sqlite")
        )
        for board_id, url in (("b1", proxy.url), ("b2", broker.url)):
            command = fake_board(tmp_path, board_id, url)
            finally_.enter_context(board_of(command))
        until(
            lambda: all(summary(page, b).get("ply") == 1 for b in ("b1", "b2")),
            "both boards' 1.e4 at the relay",
        )

        proxy.cut()  # b1's network goes: the broker keeps its session, and its last will
        until(lambda: summary(page, "b1")["online"] is False, "b1 offline")
        assert post(console, "tournament", {"on": True}) == 200
        until(lambda: watcher.told("b1") == [True], "the broker has the command for b1")
        until(lambda: confirmed(page, console, "b2"), "b2 acknowledged tournament mode")

        # The broker dies with the command it held for b1, never saved: lost.
        watcher.subscribed.clear()
        broker.kill()
        broker.start()
        # The watcher must be listening again before b1 is back, or the command sent
        # to b1 anew could pass while it reconnects and go unseen.
        assert watcher.subscribed.wait(15)
        assert not confirmed(page, console, "b1")
        assert console_row(console, "b1")["tournament"] is None  # b1 never answered
        proxy.restore()  # b1 is back, with nothing waiting for it at the broker

        until(lambda: confirmed(page, console, "b1"), "b1 told again and acknowledged")
        assert watcher.told("b1")[-1] is True and len(watcher.told("b1")) >= 2
        # b2 acknowledged at once: its `alive`s since (dozens of them, and two
        # more from here) bring it no other command.
        heard = watcher.alives("b2")
        until(lambda: watcher.alives("b2") >= heard + 2, "b2 heard twice more")
        assert watcher.told("b2") == [True]
        assert confirmed(page, console, "b2")
