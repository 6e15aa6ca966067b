"""The arbiter's players belong to one game, with real parts: a real Mosquitto, the relay
and a fake board (without a journal, so every game it plays is numbered 0) on threads of
the test's process, and a stand-in for Lichess. White's name is fixed while the first
game is played (between two of its moves: the test writes the board's lines as the game
goes); that game ends and keeps the fix on the page, in the PGN and on Lichess; the next
round is paired and the board's next game shows the pairing's names. A relay started on
an older file shows the players it kept on the game each board has then."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.relay.board_scripts import Script
from tests.relay.board_thread import FedLines, board_of, board_thread
from tests.relay.broadcast_standin import BroadcastStandIn
from tests.relay.broker import Broker, running_broker
from tests.relay.fake_board import quiet_board
from tests.relay.test_arbiter_console import (
    QUICK,
    SPEED,
    WAIT_S,
    post,
    relay_urls,
    scripted_board,
    summary,
    until,
)
from tests.relay.test_game_pairings import ROUND_1, ROUND_2, rewrite
from tests.relay.test_relay_end_to_end import get

OPENING = "@start standard\n1000 lift e2\n1400 place e4\n"  # 1.e4 and no more


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def first_moves() -> str:
    """Fool's mate's first two moves, 1.f3 e5: the arbiter fixes the players then."""
    script = Script()
    for uci in ("f2f3", "e7e5"):
        script.move(uci)
    return script.text()


# Then 2.g4 Qh4#, each line timed after the one before it (however late it is written).
MATE = "+900 lift g2\n+400 place g4\n+900 lift d8\n+400 place h4\n"


def test_a_fix_stays_with_its_game_and_the_next_game_takes_the_pairing(
    broker: Broker, tmp_path: Path
) -> None:
    pairings, token = tmp_path / "round.csv", tmp_path / "lichess.token"
    rewrite(pairings, ROUND_1, 1)  # b1: Ann - Bob
    token.write_text("lip_test\n")
    lichess = ["--lichess-round", "r1", "--token-file", str(token), "--lichess-url"]
    with (
        BroadcastStandIn() as standin,
        relay_urls(
            broker, tmp_path / "relay.sqlite", "--pairings", str(pairings), *lichess, standin.url
        ) as (page, console, _relay),
    ):
        live = FedLines()
        live.feed(first_moves())
        command = ["--fake", "--script", "-", "--speed", SPEED, "--until-done",
                   "--mqtt", broker.url, "--board-id", "b1", *quiet_board(tmp_path)]  # fmt: skip
        with board_thread(command, live) as board:
            until(lambda: summary(page, "b1").get("ply") == 2, "1.f3 e5 at the relay")
            fix = {"board": "b1", "white": "Ann Smith", "white_elo": "2101"}
            assert post(console, "players", fix) == 200
            assert summary(page, "b1")["white"] == "Ann Smith"  # at once
            live.feed(MATE)  # the game goes on, and ends, after the fix
            live.end()
            assert board.wait(WAIT_S) == 0
        until(lambda: summary(page, "b1").get("result") == "0-1", "the mate at the relay")
        # The next round is paired while the board still holds its finished game.
        rewrite(pairings, ROUND_2, 2)  # b1: Eve - Fay
        for text in (get(page + "boards/b1.pgn"), get(page + "games.pgn")):
            assert '[White "Ann Smith"]' in text and '[WhiteElo "2101"]' in text
            assert '[Black "Bob"]' in text and '[Result "0-1"]' in text
        standin.wait_for(lambda s: bool(s.pushes) and "Ann Smith" in s.pushes[-1][3])
        # The pieces set up again: the board's next game (a board without a journal,
        # started afresh, numbers it 0 again), one move in it.
        with board_of(scripted_board(broker, tmp_path, "b1", OPENING)):
            until(lambda: summary(page, "b1").get("ply") == 1, "the next game at the relay")
        until(lambda: summary(page, "b1").get("white") == "Eve", "the next round's names")
        assert summary(page, "b1")["black"] == "Fay"
        for text in (get(page + "boards/b1.pgn"), get(page + "games.pgn")):
            assert '[White "Eve"]' in text and '[Black "Fay"]' in text
            assert "Ann Smith" not in text and "2101" not in text
        standin.wait_for(lambda s: '[White "Eve"]' in s.pushes[-1][3])
        assert "Ann Smith" not in standin.pushes[-1][3]


def test_a_relay_started_on_an_older_file_shows_its_players_on_the_boards_game(
    broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "relay.sqlite"
    with (
        relay_urls(broker, db) as (page, _console, _relay),
        board_of(scripted_board(broker, tmp_path, "b1", QUICK)),
    ):
        until(lambda: summary(page, "b1").get("ply") == 3, "b1's three plies")
    # The file as an older relay left it: the players kept per board, not per game.
    with sqlite3.connect(db) as older:
        older.execute("DROP TABLE arbiter_game_players")
        older.execute(
            "CREATE TABLE arbiter_players (board TEXT NOT NULL, field TEXT NOT NULL, "
            "value TEXT NOT NULL, PRIMARY KEY (board, field))"
        )
        older.execute("INSERT INTO arbiter_players VALUES ('b1', 'white', 'Kept, Fix')")
    older.close()
    with relay_urls(broker, db) as (page, _console, _relay):
        assert summary(page, "b1")["white"] == "Kept, Fix"
        assert '[White "Kept, Fix"]' in get(page + "boards/b1.pgn")
        with board_of(scripted_board(broker, tmp_path, "b1", OPENING)):
            until(lambda: summary(page, "b1").get("ply") == 1, "the board's next game")
        assert summary(page, "b1")["white"] == "?"  # no pairing names anyone
