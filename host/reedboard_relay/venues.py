"""Venues: one relay over the boards of several venues, each venue's board ids its own.

A venue's boards publish on its own broker as any board does (`reedboard/boards/ID/...`);
the venue's Mosquitto bridges them to the central broker under the venue's name
(`reedboard/VENUE/boards/ID/...`, Mosquitto's topic prefixes) and tells the central
broker whether the bridge is up (`reedboard/VENUE/bridge`: `1`, and `0` as its will, so
a venue cut off is known the moment the central broker loses the bridge). The relay
names such a board `VENUE:ID`: board 1 of two venues are two boards, never one whose
game alternates. A board that publishes on the central broker itself keeps its bare id.

Pure: topics in, names out."""

from __future__ import annotations

from reedboard.link import mqtt_topics

ROOT = "reedboard"
SEPARATOR = ":"  # never in a board id or a venue name (mqtt_topics.BOARD_ID)
BRIDGE = "bridge"
MARKS = "relay-marks"  # a relay's marks to itself, read back behind its backlog
UP = b"1"


def board_topic(topic: str) -> tuple[str, str] | None:
    """(the relay's name of the board, the topic's last word) for a board's topic, at
    the central broker or bridged from a venue; else None."""
    bare = mqtt_topics.board_of(topic)
    if bare is not None:
        return bare
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or f"{ROOT}/{parts[2]}" != mqtt_topics.PREFIX:
        return None
    venue, board, kind = parts[1], parts[3], parts[4]
    if not mqtt_topics.BOARD_ID.fullmatch(venue) or not mqtt_topics.BOARD_ID.fullmatch(board):
        return None
    return f"{venue}{SEPARATOR}{board}", kind


def bridge_of(topic: str) -> str | None:
    """The venue whose bridge `topic` tells of, or None."""
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == ROOT and parts[2] == BRIDGE:
        return parts[1] if mqtt_topics.BOARD_ID.fullmatch(parts[1]) else None
    return None


def bare_id(name: str) -> str:
    """The board's own id, as it says it in its frames."""
    return name.rpartition(SEPARATOR)[2]


def venue_of(name: str) -> str | None:
    """The venue of a board the relay names `name`; None for a board of the central broker."""
    venue, separator, _board = name.partition(SEPARATOR)
    return venue if separator else None


def request_topic(name: str) -> str:
    """Where a command for the board goes: its venue's bridge carries it home."""
    venue, separator, board = name.partition(SEPARATOR)
    if not separator:
        return mqtt_topics.request(name)
    return f"{ROOT}/{venue}/{mqtt_topics.request(board).removeprefix(ROOT + '/')}"


def subscriptions(venues: tuple[str, ...]) -> list[tuple[str, int]]:
    """What the relay reads: the central broker's own boards and every venue's, or only
    the venues named (`--venue`)."""
    kinds = ("stream", "status")
    if not venues:
        own = [(f"{mqtt_topics.PREFIX}/+/{kind}", 1) for kind in kinds]
        bridged = [(f"{ROOT}/+/boards/+/{kind}", 1) for kind in kinds]
        return [*own, *bridged, (f"{ROOT}/+/{BRIDGE}", 1)]
    return [
        topic
        for venue in venues
        for topic in [
            *((f"{ROOT}/{venue}/boards/+/{kind}", 1) for kind in kinds),
            (f"{ROOT}/{venue}/{BRIDGE}", 1),
        ]
    ]


def mark_topic(token: str) -> str:
    """Where a relay sends its marks to itself (service.py), `token` its own."""
    return f"{ROOT}/{MARKS}/{token}"
