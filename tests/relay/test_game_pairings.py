"""A game keeps its players: the pairings file's while it is played, the one in force when
it ended once it is over, across a relay's restart; the next round's names go to the
board's next game, and the arbiter's players still stand over both."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import Boards
from reedboard_relay.game_on_board import game_on
from reedboard_relay.game_pairings import GamePairings, game_pairing
from reedboard_relay.pairings import Pairing, Pairings
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore
from reedboard_relay.web import RelayWeb

from tests.relay.board_frames import read

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ROUND_1 = "board,round,board_number,white,black\nb1,1,1,Ann,Bob\nb2,1,2,Cy,Dee\n"
ROUND_2 = "board,round,board_number,white,black\nb1,2,1,Eve,Fay\nb2,2,2,Gus,Hal\n"


def test_a_game_follows_the_file_until_it_is_over_then_keeps_its_pairing() -> None:
    one, two = Pairing("1", white="Ann"), Pairing("2", white="Eve")
    assert game_pairing(None, one, over=False) == (one, False)  # played: the file's
    assert game_pairing(None, two, over=False) == (two, False)  # the file corrected
    assert game_pairing(None, one, over=True) == (one, True)  # over: kept from now on
    assert game_pairing(one, two, over=True) == (one, False)  # the next round: not this
    assert game_pairing(one, two, over=False) == (one, False)  # a mate taken back
    # A board the file does not name: nothing kept, the first pairing that names it is.
    assert game_pairing(None, Pairing(), over=True) == (Pairing(), False)


def hello(seq: int, session: str) -> dict[str, Any]:
    return {"type": "hello", "seq": seq, "protocol": 1, "firmware": "x",
            "session": session, "variant": "standard", "mode": "casual", "game": 0}  # fmt: skip


def state(seq: int) -> dict[str, Any]:
    return {"type": "state", "seq": seq, "id": 1, "game": 0, "variant": "standard",
            "chess960": False, "start_fen": START, "fen": START, "moves": [], "san": [],
            "result": None, "reason": None}  # fmt: skip


def moves(first_seq: int, ucis: list[str]) -> list[dict[str, Any]]:
    effect = {"type": "effect", "event": "move", "t_ms": 0, "game": 0, "san": "", "fen": ""}
    return [effect | {"seq": first_seq + n, "uci": uci, "ply": n + 1} for n, uci in enumerate(ucis)]


def game_over(seq: int, result: str, reason: str) -> dict[str, Any]:
    return {"type": "effect", "seq": seq, "event": "game_over", "t_ms": 0, "game": 0,
            "result": result, "reason": reason}  # fmt: skip


def new_game(seq: int) -> dict[str, Any]:
    return {"type": "effect", "seq": seq, "event": "new_game", "t_ms": 0, "game": 0, "fen": START}


FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
MATED = game_over(7, "0-1", "checkmate")  # after the four moves


def rewrite(path: Path, text: str, stamp: int) -> None:
    path.write_text(text)
    os.utime(path, (stamp, stamp))  # a different time, however fast the test wrote it


class Relay:
    """The relay's parts over one SQLite file, as `reedboard-relay` puts them together
    (its MQTT side made but not started: the boards' frames are handed in here)."""

    def __init__(self, db: Path, pairings: Path) -> None:
        self.store = RelayStore(str(db))
        self.boards = Boards(self.store)
        self.service = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), self.boards)
        self.arbiter = ArbiterStore(self.store.db)
        self.games = GamePairings(Pairings(str(pairings), check_every_s=0), self.store.db)
        self.web = RelayWeb(self.service, self.games, self.arbiter.of)

    def heard(self, board: str, *frames: dict[str, Any]) -> None:
        for frame in frames:
            with self.service.lock:
                changed, _ = self.boards.heard(board, read(frame), 0)
            if changed:
                self.web.changed(board)

    def players(self) -> dict[str, tuple[str, str]]:
        return {s["id"]: (s["white"], s["black"]) for s in self.web.summaries()}

    def close(self) -> None:
        self.store.close()


@pytest.fixture
def paths(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    pairings = tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    yield tmp_path / "relay.sqlite", pairings


def test_a_finished_game_keeps_its_round_across_a_restart(paths: tuple[Path, Path]) -> None:
    db, pairings = paths
    relay = Relay(db, pairings)
    try:
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, FOOLS_MATE), MATED)
        relay.heard("b2", hello(1, "s2"), state(2), *moves(3, ["e2e4"]))
        assert relay.players() == {"b1": ("Ann", "Bob"), "b2": ("Cy", "Dee")}
        # A name misspelt, fixed while b2 plays on; b1's game is over: it keeps Bob.
        rewrite(pairings, ROUND_1.replace("Bob", "Rob").replace("Dee", "Di"), 2)
        assert relay.players() == {"b1": ("Ann", "Bob"), "b2": ("Cy", "Di")}
        # b2's game ends, then the next round is paired before either board is set up.
        relay.heard("b2", game_over(4, "1-0", "resignation"))
        rewrite(pairings, ROUND_2, 3)
        assert relay.players() == {"b1": ("Ann", "Bob"), "b2": ("Cy", "Di")}
        one = relay.web.pgn("b1") or ""
        assert '[Round "1"]' in one and '[White "Ann"]' in one and one.rstrip().endswith("0-1")
        every = relay.web.pgn() or ""
        assert every.count('[Round "1"]') == 2 and '"Eve"' not in every
    finally:
        relay.close()

    again = Relay(db, pairings)
    try:
        assert again.players() == {"b1": ("Ann", "Bob"), "b2": ("Cy", "Di")}
        again.heard("b1", new_game(8))  # b1 set up again: its new game is round 2's
        assert again.players() == {"b1": ("Eve", "Fay"), "b2": ("Cy", "Di")}
        assert '[Round "2"]' in (again.web.pgn("b1") or "")
        # The arbiter's players stand over a kept pairing too.
        again.arbiter.set_players(
            "b2", game_on(again.boards.boards["b2"].mirror), {"black": "Dee Smith"}
        )
        summaries = {s["id"]: s for s in again.web.summaries()}
        assert (summaries["b2"]["white"], summaries["b2"]["black"]) == ("Cy", "Dee Smith")
        assert json.loads(json.dumps(summaries))["b1"]["white"] == "Eve"
    finally:
        again.close()


def test_a_game_the_file_did_not_name_takes_the_first_pairing_that_does(
    paths: tuple[Path, Path],
) -> None:
    db, pairings = paths
    relay = Relay(db, pairings)
    try:
        relay.heard("b3", hello(1, "s3"), state(2), *moves(3, FOOLS_MATE), MATED)
        assert relay.players()["b3"] == ("?", "?")
        rewrite(pairings, ROUND_1 + "b3,1,3,Ida,Jo\n", 2)
        assert relay.players()["b3"] == ("Ida", "Jo")
        rewrite(pairings, ROUND_2 + "b3,2,3,Kai,Lu\n", 3)
        assert relay.players()["b3"] == ("Ida", "Jo")
    finally:
        relay.close()


def test_the_arbiters_result_ends_a_game_for_its_pairing_too(paths: tuple[Path, Path]) -> None:
    db, pairings = paths
    relay = Relay(db, pairings)
    try:
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, ["e2e4", "e7e5"]))
        relay.arbiter.set_result("b1", (0, 0), "1/2-1/2", "agreed")
        relay.web.changed("b1")  # as the console tells the relay
        rewrite(pairings, ROUND_2, 2)
        assert relay.players()["b1"] == ("Ann", "Bob")
    finally:
        relay.close()
