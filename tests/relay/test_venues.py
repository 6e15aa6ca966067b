"""Venues with real parts: three real Mosquittos (two venues' brokers bridged to a
central one, as docs/relay.md's "Past one venue" sets them up), the relay on the central
broker and fake boards on threads of the test's process. Board b1 of each venue is its own board at the
relay, with its own game; a venue cut off (its broker gone) shows its boards offline as
soon as the central broker loses the bridge, not for the whole outage; a relay given
`--venue` reads that venue alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, broker_on_a_free_port, running_broker
from tests.relay.fake_board import quiet_board
from tests.relay.test_arbiter_console import relay_urls, until
from tests.relay.test_relay_end_to_end import BIN, get, sans_of

# Each venue's board b1 plays its own opening, then stays on (a board at its table).
HALL1 = "@start standard\n1000 lift e2\n1400 place e4\n3000 lift e7\n3400 place e5\n"
HALL2 = "@start standard\n1000 lift d2\n1400 place d4\n"
STAYS = "900000 lift a2\n"  # long after the test: the board is still at its table


@contextmanager
def venue_broker(folder: Path, central: Broker, venue: str) -> Iterator[Broker]:
    """A venue's Mosquitto, its boards' topics bridged to `central` under the venue's
    name, and the bridge's state told there (`0` as the bridge's will)."""
    folder.mkdir()

    def make(port: int) -> Broker:
        config = folder / "mosquitto.conf"
        config.write_text(
            f"listener {port} 127.0.0.1\nallow_anonymous true\n"
            f"persistence true\npersistence_location {folder}/\n"
            f"connection {venue}\naddress 127.0.0.1:{central.port}\n"
            f"topic boards/# both 1 reedboard/ reedboard/{venue}/\n"
            f"notifications true\nnotification_topic reedboard/{venue}/bridge\n"
            "restart_timeout 1\n"
        )
        broker = Broker(folder, port, config)
        broker.url = f"mqtt://127.0.0.1:{port}"  # an open listener, as the boards see it
        return broker

    with broker_on_a_free_port(make) as broker:
        yield broker


def board(broker: Broker, tmp_path: Path, venue: str, text: str) -> list[str]:
    script = tmp_path / f"{venue}.events"
    script.write_text(text + STAYS)
    return [
        str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed", "10",
        "--mqtt", broker.url, "--board-id", "b1", *quiet_board(tmp_path),
    ]  # fmt: skip


def boards(page: str) -> dict[str, Any]:
    return {b["id"]: b for b in json.loads(get(page + "api/boards"))}


def shown(page: str, name: str, plies: int) -> bool:
    board = boards(page).get(name)
    return board is not None and board["ply"] == plies and board["online"]


@pytest.fixture
def central(tmp_path: Path) -> Iterator[Broker]:
    folder = tmp_path / "central"
    folder.mkdir()
    with running_broker(folder) as broker:
        yield broker


def test_each_venue_has_its_own_b1_and_a_cut_venue_goes_offline(
    central: Broker, tmp_path: Path
) -> None:
    with (
        venue_broker(tmp_path / "hall1", central, "hall1") as hall1,
        venue_broker(tmp_path / "hall2", central, "hall2") as hall2,
        relay_urls(central, tmp_path / "relay.sqlite") as (page, _console, _relay),
        relay_urls(central, tmp_path / "hall1.sqlite", "--venue", "hall1") as (
            page1, _console1, _relay1),
        board_of(board(hall1, tmp_path, "hall1", HALL1)),
        board_of(board(hall2, tmp_path, "hall2", HALL2)),
    ):  # fmt: skip
        until(
            lambda: shown(page, "hall1:b1", 2),
            "hall1's b1 at the relay",
            lambda: get(page + "api/boards"),
        )
        until(
            lambda: shown(page, "hall2:b1", 1),
            "hall2's b1 at the relay",
            lambda: get(page + "api/boards"),
        )
        assert sans_of(get(page + "boards/hall1:b1.pgn")) == ["e4", "e5"]
        assert sans_of(get(page + "boards/hall2:b1.pgn")) == ["d4"]
        assert "b1" not in boards(page)  # no bare b1: each venue's is its own
        until(lambda: shown(page1, "hall1:b1", 2), "hall1's b1 at hall1's relay")
        assert set(boards(page1)) == {"hall1:b1"}  # --venue hall1: hall1's boards alone

        hall2.kill()  # the venue is cut off: its board's own will never reaches us
        until(lambda: not boards(page)["hall2:b1"]["online"], "hall2's b1 offline")
        assert boards(page)["hall1:b1"]["online"]
        assert sans_of(get(page + "boards/hall2:b1.pgn")) == ["d4"]  # its game stays

        hall2.start()  # back: the bridge says so, and the board is online again
        until(lambda: shown(page, "hall2:b1", 1), "hall2's b1 online again")
