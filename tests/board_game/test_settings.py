"""The host's `settings` command: the board reads the hands with the new waits at once,
and its `ack` gives all the settings."""

from __future__ import annotations

import random

import pytest
from reedboard.board_game import BoardGame
from reedboard.events import Effect, MoveMade
from reedboard.link.acks import SettingsNow
from reedboard.link.board_messages import Ack
from reedboard.link.messages import ChangeSettings
from reedboard.reader.move_reader import DEFAULT_KNOCK_WAIT_MS, DEFAULT_SETTLE_MS
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square

# 1.e4 d5 2.Nf3 e6 played, then exd5 swapped in one motion: d5 empty for only 40 ms while
# the e4 pawn is in the hand, so the victim may only have been knocked.
OPENING = ("e2e4", "d7d5", "g1f3", "e7e6")
SWAP = ((0, "e4", False), (200, "d5", False), (240, "d5", True))


def board_after_opening() -> BoardGame:
    game = Game()
    for uci in OPENING:
        game.push_uci(uci)
    return BoardGame(game, game.position.occupied, rng=random.Random(1))


def capture_made_at(board: BoardGame, start_ms: int) -> int:
    effects: list[Effect] = []
    for after, name, occupied in SWAP:
        effects += board.sense(parse_square(name), occupied, start_ms + after)
    effects += board.advance(start_ms + 20_000)
    made = [e for e in effects if isinstance(e, MoveMade)]
    assert [e.uci for e in made] == ["e4d5"]
    return made[0].t_ms - (start_ms + SWAP[-1][0])


@pytest.mark.parametrize("knock_wait_ms", [800, 4_000])
def test_a_new_knock_wait_decides_when_a_swapped_capture_is_made(knock_wait_ms: int) -> None:
    assert capture_made_at(board_after_opening(), 1_000) == DEFAULT_KNOCK_WAIT_MS
    board = board_after_opening()
    answer = board.command(ChangeSettings(knock_wait_ms=knock_wait_ms), 500)
    assert answer.reply == Ack(
        SettingsNow(
            "casual", DEFAULT_SETTLE_MS, board.settings.castle_wait_ms, knock_wait_ms, False
        )
    )
    assert capture_made_at(board, 1_000) == knock_wait_ms


def test_the_knock_wait_is_never_shorter_than_the_settle_time() -> None:
    board = board_after_opening()
    board.command(ChangeSettings(settle_ms=900, knock_wait_ms=400), 500)
    assert capture_made_at(board, 1_000) == 900
