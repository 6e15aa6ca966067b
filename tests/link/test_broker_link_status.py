"""The board's MQTT client says how its link is (`BoardBroker.status`, `watch`) against a
real Mosquitto: lost and back with the frames it holds meanwhile counted, a certificate
it does not trust, and many failed attempts that are one change and one sentence."""

from __future__ import annotations

import threading
from pathlib import Path

from reedboard.link.broker_status import BrokerStatus, Spoken
from reedboard.link.mqtt_client import BoardBroker, BrokerSettings
from reedboard_relay.broker_files import board_user

from tests.link.board_logs import WAIT_S, Heard, frames
from tests.relay.broker import Broker
from tests.relay.secure_broker import secure_broker

RETRY_MS = 100


class Watched:
    """What a watcher of the link was told, in order."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Spoken | None]] = []
        self._changed = threading.Condition()

    def __call__(self, status: BrokerStatus, spoken: Spoken | None) -> None:
        with self._changed:
            self.told.append((status.link, spoken))
            self._changed.notify_all()

    def wait_for(self, link: str, spoken: Spoken | None = None) -> None:
        with self._changed:
            came = self._changed.wait_for(lambda: (link, spoken) in self.told, WAIT_S)
        assert came, f"never told {(link, spoken)} in {self.told}"

    def since(self, link: str) -> list[tuple[str, Spoken | None]]:
        """What was told from the first time `link` was."""
        with self._changed:
            links = [told[0] for told in self.told]
            return self.told[links.index(link) :]


def test_a_broker_lost_then_back_is_one_change_each_and_said_once(
    broker: Broker, heard: Heard
) -> None:
    settings = BrokerSettings(broker.url, "b1", retry_ms=RETRY_MS)
    board = BoardBroker(settings, clock_ms=lambda: 1234)
    watched = Watched()
    try:
        board.watch(watched)
        watched.wait_for("connected")
        board.publish_frames(frames(1, 5))
        broker.kill()
        watched.wait_for("lost", "down")
        assert board.status() == BrokerStatus("lost", 1234, "network", unsent=board.status().unsent)
        board.publish_frames(frames(6, 25))  # the game goes on: kept for the broker
        assert board.status().unsent >= 20
        # Attempt after attempt fails (one each 100 ms): no watcher is told of them.
        failed = f"cannot reach the MQTT broker at 127.0.0.1:{broker.port}"
        heard.wait_count(failed, 6)
        broker.start()
        watched.wait_for("connected", "back")
        assert watched.since("lost") == [("lost", None), ("lost", "down"), ("connected", "back")]
        assert board.close() == 0  # the broker took all 25 frames
        assert board.status().unsent == 0
    finally:
        board.close(0)


def test_an_untrusted_certificate_is_told_as_tls_naming_nothing(
    tmp_path: Path, heard: Heard
) -> None:
    with secure_broker(tmp_path) as secured:
        # The board's own user and password, but not the club's CA: the broker's
        # certificate, made by that CA, is not trusted.
        password = str(secured.folder / "board-b1.password")
        settings = BrokerSettings(secured.url, "b1", board_user("b1"), password, retry_ms=RETRY_MS)
        board = BoardBroker(settings)
        watched = Watched()
        try:
            board.watch(watched)
            watched.wait_for("unreachable", "down")
            status = board.status()
            assert (status.link, status.reason) == ("unreachable", "tls")
            # The log line says the TLS error's own words (which may name the host): the
            # status does not carry them.
            heard.wait_for("TLS:")
            assert "127.0.0.1" not in repr(status)
        finally:
            board.close(0)
