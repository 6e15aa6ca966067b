"""Where a board's messages go on the broker (docs/relay.md).

- `reedboard/boards/ID/stream`: every frame the board sends (QoS 1), as on its serial
  link: sequence-numbered messages, `alive`, and the answers to requests;
- `reedboard/boards/ID/request`: frames for the board (QoS 1): `resend`, `state`,
  `moves`, `hello`, as a serial host sends them;
- `reedboard/boards/ID/status`: `online`, retained; `offline` is the board's last will.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from reedboard.errors import ConfigError

PREFIX = "reedboard/boards"
BOARD_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def stream(board: str) -> str:
    return f"{PREFIX}/{board}/stream"


def request(board: str) -> str:
    return f"{PREFIX}/{board}/request"


def status(board: str) -> str:
    return f"{PREFIX}/{board}/status"


def board_of(topic: str) -> tuple[str, str] | None:
    """(board id, the topic's last word) for one of the boards' topics, else None."""
    parts = topic.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != PREFIX or not BOARD_ID.fullmatch(parts[2]):
        return None
    return parts[2], parts[3]


def check_board_id(board: str) -> str:
    if not BOARD_ID.fullmatch(board):
        raise ConfigError(
            f"board id {board!r}: use 1 to 64 letters, digits, '.', '_' or '-' "
            "(it is a part of the broker's topics)"
        )
    return board


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    tls: bool


def parse_url(url: str) -> BrokerAddress:
    """`mqtt://HOST[:PORT]` (1883 by default) or `mqtts://HOST[:PORT]` (8883)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise ConfigError(f"MQTT URL {url!r}: {error}") from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise ConfigError(f"MQTT URL {url!r}: write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
    tls = parts.scheme == "mqtts"
    return BrokerAddress(parts.hostname, port or (8883 if tls else 1883), tls)
