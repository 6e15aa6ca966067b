"""`reedboard-relay secure-setup DIR --boards ID,ID,... [--host NAME] [--port N]`

Writes everything a closed broker needs into DIR: `mosquitto.conf` (TLS on NAME:N,
no anonymous client, a password file, an access list, client ids taken from user
names), `ca.crt` and the server's certificate and key, `relay.password`, and for each
board `board-ID.toml` (its whole `[mqtt]` section) and `board-ID.password`. Keys and
passwords are readable by their owner only. Run Mosquitto with `mosquitto -c
DIR/mosquitto.conf`, the relay with `reedboard-relay --mqtt mqtts://NAME:N --username
relay --password-file DIR/relay.password --ca-file DIR/ca.crt`, and copy a board's
TOML, password and `ca.crt` to the board (`reedboard run --config board-ID.toml`)."""

from __future__ import annotations

import argparse
import getpass
import os
import secrets
import sys
from pathlib import Path

from reedboard.errors import ReedboardError
from reedboard.link.mqtt_topics import check_board_id

from reedboard_relay import broker_files
from reedboard_relay.certificates import make_certificates

SECRET = 0o600
PUBLIC = 0o644


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="reedboard-relay secure-setup",
        description="A closed Mosquitto set-up (TLS, users, access list) for a relay and its boards.",
    )
    p.add_argument("folder", metavar="DIR", help="where to write the files (made if missing)")
    p.add_argument("--boards", required=True, metavar="ID,ID,...", help="the boards' ids")
    p.add_argument("--host", default="localhost", metavar="NAME",
                   help="the broker's name or address, as boards reach it (default localhost)")  # fmt: skip
    p.add_argument("--port", type=int, default=8883, metavar="N",
                   help="the broker's TLS port (default 8883)")  # fmt: skip
    p.add_argument("--venues", default="", metavar="NAME,NAME,...",
                   help="venues whose brokers bridge their boards to this one: each gets "
                        "its user, allowed its own venue's topics only, and bridge-NAME.conf "
                        "for its broker")  # fmt: skip
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        boards = _boards(args.boards)
        venues = _boards(args.venues, "--venues") if args.venues else []
        if not 1 <= args.port <= 65535:
            raise ValueError(f"--port {args.port}: a port is a number from 1 to 65535")
        folder = Path(args.folder)
        folder.mkdir(parents=True, exist_ok=True)
        write_setup(folder, boards, args.host, args.port, venues)
    except (ReedboardError, ValueError, OSError) as error:
        print(f"reedboard-relay secure-setup: {error}", file=sys.stderr)
        return 2
    print(f"mosquitto -c {folder / 'mosquitto.conf'}")
    print(
        f"reedboard-relay --mqtt mqtts://{args.host}:{args.port} --username relay "
        f"--password-file {folder / 'relay.password'} --ca-file {folder / 'ca.crt'}"
    )
    for board in boards:
        print(f"reedboard run --config {folder / f'board-{board}.toml'}")
    for venue in venues:
        print(f"venue {venue}: add {folder / f'bridge-{venue}.conf'} to its broker's configuration")
    return 0


def write_setup(
    folder: Path, boards: list[str], host: str, port: int, venues: list[str] | None = None
) -> None:
    pem = make_certificates(host)
    _write(folder / "ca.crt", pem.ca_cert, PUBLIC)
    _write(folder / "server.crt", pem.server_cert, PUBLIC)
    _write(folder / "server.key", pem.server_key, SECRET)
    users = {broker_files.RELAY_USER: "relay.password"}
    users.update({broker_files.board_user(b): f"board-{b}.password" for b in boards})
    users.update({broker_files.venue_user(v): "" for v in venues or []})
    lines = []
    for user, name in users.items():
        password = secrets.token_urlsafe(24)
        if name:
            _write(folder / name, f"{password}\n".encode(), SECRET)
        else:  # a venue's: in its bridge's lines, which its broker reads
            venue = user.removeprefix("venue-")
            bridge = broker_files.bridge_config(venue, host, port, password, folder / "ca.crt")
            _write(folder / f"bridge-{venue}.conf", bridge.encode(), SECRET)
        lines.append(broker_files.password_line(user, password))
    _write(folder / "passwords", ("\n".join(lines) + "\n").encode(), SECRET)
    _write(folder / "acl", broker_files.access_list(boards, venues).encode(), PUBLIC)
    config = broker_files.broker_config(folder, host, port, getpass.getuser())
    _write(folder / "mosquitto.conf", config.encode(), PUBLIC)
    for board in boards:
        toml = broker_files.board_config(board, host, port)
        _write(folder / f"board-{board}.toml", toml.encode(), PUBLIC)


def _boards(text: str, option: str = "--boards") -> list[str]:
    """Board ids (or venue names: the same rule) separated by commas, each once."""
    names = [check_board_id(part.strip()) for part in text.split(",")]
    if len(set(names)) != len(names):
        what = "a board id" if option == "--boards" else "a venue"
        raise ValueError(f"{option} {text!r}: {what} is named twice")
    return names


def _write(path: Path, data: bytes, mode: int) -> None:
    """Written with its mode from the start: a secret is never readable by others, not
    even for an instant."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    os.chmod(path, mode)  # a file that was there keeps its old mode through os.open
