"""`reedboard-host publish`: a board that has only a serial line (on USB to a laptop),
published to an MQTT broker for a relay, as a board with its own network publishes itself.

The bridge passes frames both ways as they came, checked; a `hello` is written anew
naming the board as the broker knows it (the relay refuses a frame that names another
board than its topic's, and a board on a serial line knows only the name it was given, if
any). The board's numbered stream goes to the board's stream topic, and the relay's
requests (`resend`, `state`, `hello`) go down the line, so the relay talks to the board as
a host on the line would. The copies the board sends of each short frame (for a noisy
line) are published once."""

from __future__ import annotations

import logging
from collections.abc import Callable

from reedboard.errors import LinkError
from reedboard.link.board_messages import named_frame
from reedboard.link.frame import FrameDecoder
from reedboard.link.mqtt_client import BoardBroker, BrokerSettings, check_settings
from reedboard.link.mqtt_topics import parse_url
from reedboard.link.reopening import Reopening

from reedboard_host.transport import REAL_TIME, BoardPort, HostClock, PortOpener, open_port

REOPEN_S = 1.0
# Frames the broker never had when the bridge stops are still the board's (its history
# answers a `resend`, its journal the whole `state`).
KEPT_BY_BOARD = "the board keeps them: the relay asks it for them once it is published again"

logger = logging.getLogger(__name__)


def publish(
    port_url: str,
    settings: BrokerSettings,
    stop: Callable[[], bool],
    *,
    opener: PortOpener = open_port,
    clock: HostClock = REAL_TIME,
) -> int:
    """Bridge the board at `port_url` (opened by `opener`, the host's transport seam) and
    the broker until `stop()` says so."""
    address = parse_url(settings.url)
    check_settings(settings)  # a file that cannot be read is the one line, before the start's
    logger.info(
        "publishing the board on %s to the MQTT broker at %s:%d as board %s; Ctrl-C stops",
        port_url, address.host, address.port, settings.board_id,
    )  # fmt: skip
    broker = BoardBroker(settings)
    kept: Reopening[BoardPort] = Reopening(
        lambda: opener(port_url), lambda port: port.close(), every_s=REOPEN_S,
        now_s=clock.monotonic, logger=logger, back_line=f"the board on {port_url} is back",
    )  # fmt: skip
    decoder = FrameDecoder()
    previous: bytes | None = None  # the frame published last: its copies are not
    try:
        while not stop():
            port = kept.get()
            if port is None:
                clock.sleep(kept.wait_s())  # waiting for a port to come back
                continue
            try:
                data = port.read(0.05)
                fresh: list[bytes] = []
                for came, wire in decoder.feed_frames(data):
                    frame = named_frame(came, wire, settings.board_id)  # a hello, anew
                    if frame != previous:
                        fresh.append(frame)
                        previous = frame
                broker.publish_frames(fresh)
                requests = broker.take_requests()
                if requests:
                    previous = None  # the answer may repeat what went out last
                    port.write(b"".join(request + b"\n" for request in requests))
            except LinkError as error:
                kept.lost(error)
    finally:
        kept.close()
        broker.close(kept=KEPT_BY_BOARD)
    return 0
