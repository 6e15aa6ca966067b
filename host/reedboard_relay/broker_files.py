"""The texts of a closed Mosquitto set-up: its configuration, its password file and its
access list, for one relay and a list of boards. Pure but for the random salts.

Each board has its own user (`board-ID`) that may write only its own stream and status
and read only its own requests; only the relay's user writes requests. The broker takes
every client's id from its user name (`use_username_as_clientid`), so no one can connect
under a board's or the relay's id and push it off the broker."""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path

from reedboard.link import mqtt_topics

from reedboard_relay.venues import BRIDGE, MARKS, ROOT

RELAY_USER = "relay"
# Mosquitto 2's own password format ($7$: PBKDF2 with SHA-512), as mosquitto_passwd writes it.
ITERATIONS = 101
SALT_BYTES = 12


def board_user(board: str) -> str:
    return f"board-{board}"


def venue_user(venue: str) -> str:
    """The user of a venue's bridge (venues.py): its broker's link to the central one."""
    return f"venue-{venue}"


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """`user:$7$ITERATIONS$SALT$HASH`, the line Mosquitto's password file holds."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    b64 = base64.b64encode
    return f"{user}:$7${ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def access_list(boards: list[str], venues: list[str] | None = None) -> str:
    """Who may read and write what: the relay every board's topics (and every venue's,
    when there are venues), each board its own, and each venue's bridge only its own
    venue's boards (`reedboard/VENUE/boards/...`) and its own bridge state: a venue's
    credentials cannot write another venue's games nor the central broker's boards, nor
    command any board."""
    prefix = mqtt_topics.PREFIX
    lines = [
        "# Who may read and write which topic (Mosquitto's acl_file).",
        f"user {RELAY_USER}",
        f"topic read {prefix}/+/stream",
        f"topic read {prefix}/+/status",
        f"topic write {prefix}/+/request",
        f"topic readwrite {ROOT}/{MARKS}/#",  # its marks to itself (service.py)
    ]
    if venues:
        lines += [
            f"topic read {ROOT}/+/boards/+/stream",
            f"topic read {ROOT}/+/boards/+/status",
            f"topic read {ROOT}/+/{BRIDGE}",
            f"topic write {ROOT}/+/boards/+/request",
        ]
    for board in boards:
        lines += [
            "",
            f"user {board_user(board)}",
            f"topic write {mqtt_topics.stream(board)}",
            f"topic write {mqtt_topics.status(board)}",
            f"topic read {mqtt_topics.request(board)}",
        ]
    for venue in venues or []:
        lines += [
            "",
            f"user {venue_user(venue)}",
            f"topic write {ROOT}/{venue}/boards/+/stream",
            f"topic write {ROOT}/{venue}/boards/+/status",
            f"topic write {ROOT}/{venue}/{BRIDGE}",
            f"topic read {ROOT}/{venue}/boards/+/request",
        ]
    return "\n".join(lines) + "\n"


def bridge_config(venue: str, host: str, port: int, password: str, ca_file: Path) -> str:
    """The lines a venue's own Mosquitto adds to its configuration to bridge its boards
    to the central broker as venue `venue` (docs/relay.md, Past one venue): its boards'
    streams and status out, their requests in, its state on `reedboard/VENUE/bridge` (and
    `0` as its will). It holds the venue's password: readable by its owner only."""
    return "\n".join(
        [
            f"# Venue {venue}'s bridge to the club's central broker: add to the venue's",
            "# mosquitto.conf; ca.crt is the club's CA (copy it with this file).",
            f"connection {venue}",
            f"address {host}:{port}",
            f"topic boards/+/stream out 1 {ROOT}/ {ROOT}/{venue}/",
            f"topic boards/+/status out 1 {ROOT}/ {ROOT}/{venue}/",
            f"topic boards/+/request in 1 {ROOT}/ {ROOT}/{venue}/",
            "notifications true",
            f"notification_topic {ROOT}/{venue}/{BRIDGE}",
            f"remote_clientid {venue_user(venue)}",
            f"remote_username {venue_user(venue)}",
            f"remote_password {password}",
            f"bridge_cafile {ca_file.resolve()}",
            "bridge_tls_version tlsv1.2",
            "cleansession false",
            "",
        ]
    )


def broker_config(folder: Path, host: str, port: int, owner: str) -> str:
    """A configuration `mosquitto -c` runs as is; the paths are absolute, since Mosquitto
    reads them from wherever it is started. Started as root, Mosquitto becomes `owner`,
    the user who owns the files: its key and password file are readable by it alone."""
    where = folder.resolve()
    return "\n".join(
        [
            "# A closed broker for reedboard: TLS only, every client with its own user.",
            f"user {owner}",
            "per_listener_settings false",
            f"listener {port} {host}",
            f"cafile {where / 'ca.crt'}",
            f"certfile {where / 'server.crt'}",
            f"keyfile {where / 'server.key'}",
            "tls_version tlsv1.2",
            "allow_anonymous false",
            f"password_file {where / 'passwords'}",
            f"acl_file {where / 'acl'}",
            "use_username_as_clientid true",
            "persistence true",
            f"persistence_location {where}/",
            # A relay behind a whole room of boards falls further behind than the
            # 1,000 messages Mosquitto holds for a client by default.
            "max_queued_messages 100000",
            # A frame is at most 64 KiB (docs/protocol.md): nothing larger is anyone's.
            "max_packet_size 131072",
            "",
        ]
    )


def board_config(board: str, host: str, port: int) -> str:
    """The `[mqtt]` section of a board's TOML file; its files are named relative to it."""
    return "\n".join(
        [
            "# This board's broker; the files named here lie next to this file.",
            "[mqtt]",
            f'url = "mqtts://{host}:{port}"',
            f'board_id = "{board}"',
            f'username = "{board_user(board)}"',
            f'password_file = "{board_user(board)}.password"',
            'ca_file = "ca.crt"',
            "",
        ]
    )
