"""One start position, one castling field: what `reedboard chess960 N` prints, the board's
`setup` effect and its answer to the host's new game all write a position whose castling
KQkq names unambiguously as KQkq (X-FEN); file letters only where a rook needs them."""

from __future__ import annotations

import random

import pytest
from reedboard.board_game import BoardGame
from reedboard.cli import main
from reedboard.events import SetupStarted
from reedboard.link.acks import GameStarted
from reedboard.link.board_messages import Ack
from reedboard.link.messages import StartGame
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.game import Game
from reedboard.rules.position import Position


@pytest.mark.parametrize("number", [0, 518, 959, *random.Random(12).sample(range(960), 5)])
def test_every_output_of_a_start_position_writes_the_same_castling(
    number: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chess960", str(number)]) == 0
    printed = capsys.readouterr().out.strip()
    board = BoardGame(Game(), Position.standard().occupied, rng=random.Random(1))
    answer = board.command(StartGame("chess960", number), 100)
    setup = [e for e in answer.effects if isinstance(e, SetupStarted)]
    assert setup, answer.effects
    assert isinstance(answer.reply, Ack) and isinstance(answer.reply.done, GameStarted)
    fens = {printed, answer.reply.done.fen, setup[0].fen}
    assert len(fens) == 1, fens
    assert printed.split()[2] == "KQkq"


def test_the_standard_position_is_the_standard_fen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chess960", "518"]) == 0
    assert capsys.readouterr().out.strip() == STARTING_FEN
