"""A spectator opening the page is given every board as it is now, from each board's
fragment kept until that board changes: three hundred spectators opening the page at a
round's start each had every board's summary checked again (its pairing, the arbiter's
decisions, its acknowledged mode), 14 ms of the relay's CPU apiece at a thousand boards
(`bench/relay_reads.py --joins 300`)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from reedboard_relay.corrections import Decisions
from reedboard_relay.event_stream import Listener
from reedboard_relay.public_bodies import Rechecks
from reedboard_relay.web import RelayWeb

from tests.relay.test_game_pairings import ROUND_1, Relay, hello, moves, rewrite, state

BOARDS = 100


def first_message(relay: Relay) -> dict[str, dict[str, Any]]:
    listener = Listener()
    data = relay.web.events.join(listener)
    relay.web.events.listeners.discard(listener)
    assert data.startswith(b"data: ") and data.endswith(b"\n\n")
    return {entry["id"]: entry for entry in json.loads(data[len(b"data: ") :])}


def test_a_listener_joining_is_given_every_board_as_it_is_now(tmp_path: Path) -> None:
    asyncio.run(joining(tmp_path))


async def joining(tmp_path: Path) -> None:
    """On the loop, as the relay runs: the boards' changes are told on it."""
    pairings = tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    relay = Relay(tmp_path / "relay.sqlite", pairings)
    asked: list[str] = []

    def decisions(board: str) -> Decisions:
        asked.append(board)
        return relay.arbiter.of(board)

    relay.web = RelayWeb(relay.service, relay.games, decisions)
    relay.web.loop = asyncio.get_running_loop()
    relay.web.bodies.rechecks = Rechecks(fresh_s=3600.0)
    try:
        b1 = moves(3, ["e2e4", "e7e5", "g1f3"])
        relay.heard("b1", hello(1, "s1"), state(2), *b1[:2])
        for n in range(2, BOARDS + 1):
            relay.heard(f"b{n}", hello(1, f"s{n}"), state(2), *moves(3, ["d2d4"]))
        first = first_message(relay)
        assert (first["b1"]["ply"], first["b2"]["ply"]) == (2, 1)
        assert first["b1"]["moves"] == "1. e4 e5" and first["b1"]["white"] == "Ann"

        relay.heard("b1", b1[2])
        asked.clear()
        later = first_message(relay)
        assert later["b1"]["ply"] == 3 and later["b1"]["moves"] == "1. e4 e5 2. Nf3"
        assert later["b2"] == first["b2"]
        # The board that changed was looked at again, and of the others only those the
        # rechecks' turn came to (one a read here: they go round once an hour).
        assert "b1" in asked and len(set(asked)) <= 3
        asked.clear()
        assert first_message(relay) == later
        assert len(set(asked)) <= 2
    finally:
        relay.close()
