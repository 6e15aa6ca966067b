"""The relay demo runs as docs/relay-demo/README.md says, from what the repository ships:
Mosquitto on the shipped `club.conf` (its port moved to a free one of 127.0.0.1), the relay
on the shipped `round1.csv`, a fake board playing a shipped whole game and one playing a
seeded random game; the broadcast shows both games whole, with the pairings' players."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard.sim.whole_games import random_game_script

from tests.children import child, stop
from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, broker_on_a_free_port
from tests.relay.fake_board import quiet_board
from tests.relay.test_relay_end_to_end import boards_moves, get, relay_games

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "docs" / "relay-demo"
BIN = Path(sys.executable).parent
SPEED = "50"  # ten times the README's --speed 5: the same games, in board time


def club_broker(folder: Path, port: int) -> Broker:
    """A broker on the shipped club.conf, listening on `port` of 127.0.0.1 only."""
    broker = Broker(folder, port)
    shipped = (DEMO / "club.conf").read_text(encoding="utf-8")
    assert "\nlistener 1883\n" in shipped
    broker.config.write_text(shipped.replace("\nlistener 1883\n", f"\nlistener {port} 127.0.0.1\n"))
    return broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with broker_on_a_free_port(lambda port: club_broker(tmp_path, port)) as running:
        yield running


def test_the_club_conf_holds_what_relay_md_asks_for() -> None:
    lines = (DEMO / "club.conf").read_text(encoding="utf-8").splitlines()
    assert "max_queued_messages 100000" in lines and "allow_anonymous true" in lines


def board(broker: Broker, board_id: str, *game: str) -> list[str]:
    return [
        str(BIN / "reedboard"), "run", "--fake", *game, "--speed", SPEED, "--until-done",
        "--mqtt", broker.url, "--board-id", board_id, *quiet_board(broker.folder),
    ]  # fmt: skip


def test_the_demo_broadcasts_whole_games_with_their_players(broker: Broker, tmp_path: Path) -> None:
    relay = [
        str(BIN / "reedboard-relay"), "--mqtt", broker.url, "--db", str(tmp_path / "r.sqlite"),
        "--pairings", str(DEMO / "round1.csv"),
    ]  # fmt: skip
    with child(relay, stdout=subprocess.PIPE, text=True) as server:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
        opera = ("--script", str(DEMO / "opera-game.events"))
        rolled = ("--random-game", "7", "--plies", "20")
        outputs = {}
        # The boards on threads of the test's process: `reedboard run`'s own code, its
        # command line as the README's (the command itself is tested elsewhere).
        with (
            board_of(board(broker, "b1", *opera)) as b1,
            board_of(board(broker, "b4", *rolled)) as b4,
        ):
            for name, played in (("b1", b1), ("b4", b4)):
                assert played.wait(120) == 0
                outputs[name] = boards_moves(played.output())
        assert len(outputs["b1"]) == 33 and outputs["b1"][-1] == "Rd8#"
        assert len(outputs["b4"]) == len(random_game_script(7, max_plies=20).ucis) == 20
        assert relay_games(url, outputs) == outputs
        opera_pgn = get(url + "boards/b1.pgn")
        assert '[White "Morphy, Paul"]' in opera_pgn and '[Result "1-0"]' in opera_pgn
        assert '[White "Random, Rita"]' in get(url + "boards/b4.pgn")
        assert stop(server) == 0
