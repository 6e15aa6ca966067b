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

RELAY_USER = "relay"
# Mosquitto 2's own password format ($7$: PBKDF2 with SHA-512), as mosquitto_passwd writes it.
ITERATIONS = 101
SALT_BYTES = 12


def board_user(board: str) -> str:
    return f"board-{board}"


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """`user:$7$ITERATIONS$SALT$HASH`, the line Mosquitto's password file holds."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    b64 = base64.b64encode
    return f"{user}:$7${ITERATIONS}${b64(salt).decode()}${b64(digest).decode()}"


def access_list(boards: list[str]) -> str:
    prefix = mqtt_topics.PREFIX
    lines = [
        "# Who may read and write which topic (Mosquitto's acl_file).",
        f"user {RELAY_USER}",
        f"topic read {prefix}/+/stream",
        f"topic read {prefix}/+/status",
        f"topic write {prefix}/+/request",
    ]
    for board in boards:
        lines += [
            "",
            f"user {board_user(board)}",
            f"topic write {mqtt_topics.stream(board)}",
            f"topic write {mqtt_topics.status(board)}",
            f"topic read {mqtt_topics.request(board)}",
        ]
    return "\n".join(lines) + "\n"


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
