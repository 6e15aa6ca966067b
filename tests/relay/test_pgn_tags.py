"""No name can add or split a game in the relay's PGN: a line break in a player's name
(a quoted CSV field, the console's form) used to start a line of its own in
`/games.pgn`, read as tags of an invented game. The PGN writer keeps every tag on one
line; the pairings file and the console refuse such a name, naming it."""

from __future__ import annotations

from pathlib import Path

import pytest
from reedboard.rules import read_pgn
from reedboard_relay.arbiter_console import ArbiterDesk, Refused
from reedboard_relay.pairing import Pairing
from reedboard_relay.pairings_csv import PairingsError, csv_pairings
from reedboard_relay.pgn import board_pgn

from tests.relay.test_game_pairings import ROUND_1, Relay, hello, moves, rewrite, state

EVIL = 'Ann"]\n\n[Event "Invented"]\n[White "Zed'


def test_a_name_with_line_breaks_stays_one_tag_of_one_game(tmp_path: Path) -> None:
    rewrite(tmp_path / "round.csv", ROUND_1, 1)
    relay = Relay(tmp_path / "relay.sqlite", tmp_path / "round.csv")
    try:
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, ["e2e4", "e7e5"]))
        board = relay.boards.boards["b1"]
        game = board.mirror.current
        pairing = Pairing("1", "1", white=EVIL, black="Bob\r\nX", event="Open\n2026")
        text = board_pgn("b1", game, pairing)
    finally:
        relay.close()
    tags = [line for line in text.splitlines() if line.startswith("[")]
    assert len(tags) == 8 and text.count("\n\n") == 1  # the roster and Board, one game
    parsed = read_pgn(text)  # strict: every line a tag, every move legal
    assert parsed.headers["White"] == 'Ann"] [Event "Invented"] [White "Zed'
    assert parsed.headers["Black"] == "Bob X"
    assert parsed.headers["Event"] == "Open 2026"
    assert len(parsed.game) == 2


def test_a_quoted_csv_name_with_a_line_break_is_refused_naming_it() -> None:
    text = 'board,white,black\nb1,"Ann\nSmith",Bob\n'
    with pytest.raises(PairingsError) as refused:
        csv_pairings(text)
    assert "column white: 'Ann\\nSmith' holds a line break" in str(refused.value)


def test_the_console_refuses_a_name_on_two_lines(tmp_path: Path) -> None:
    rewrite(tmp_path / "round.csv", ROUND_1, 1)
    relay = Relay(tmp_path / "relay.sqlite", tmp_path / "round.csv")
    try:
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, ["e2e4"]))
        desk = ArbiterDesk(relay.service, relay.arbiter, relay.games, lambda board: None)
        with pytest.raises(Refused, match="white must be one line"):
            desk.set_players("b1", {"white": 'Ann\n[Event "x"]'})
        assert relay.players()["b1"] == ("Ann", "Bob")
    finally:
        relay.close()


def test_a_chess960_game_carries_its_tags_from_before_its_first_move(tmp_path: Path) -> None:
    fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1"
    rewrite(tmp_path / "round.csv", ROUND_1, 1)
    relay = Relay(tmp_path / "relay.sqlite", tmp_path / "round.csv")
    try:
        start = state(2) | {"variant": "chess960", "chess960": True, "start_fen": fen, "fen": fen}
        relay.heard("b1", hello(1, "s1"), start)
        before = relay.web.pgn("b1") or ""
        relay.heard("b1", *moves(3, ["e2e4"]))
        after = relay.web.pgn("b1") or ""
    finally:
        relay.close()
    for text in (before, after):
        assert '[Variant "Chess960"]' in text and '[SetUp "1"]' in text
        assert f'[FEN "{fen}"]' in text
        assert read_pgn(text).game.chess960
