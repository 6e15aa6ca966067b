"""A board's PGN grown move by move is the one written whole, byte for byte: over many
random games with clocks, comments, takebacks, results and their reasons, corrected
earlier plies, new games, Chess960 starts, pairings and days that change."""

from __future__ import annotations

import datetime
import random
from dataclasses import replace

import pytest
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard_host.mirror import MirroredGame
from reedboard_relay.pairings import Pairing
from reedboard_relay.pgn import board_pgn
from reedboard_relay.pgn_memo import PgnMemo
from reedboard_relay.san_memo import SanMemo

PAIRINGS = (
    Pairing("1", "1", white="Ann", black="Bob", event="Open"),
    Pairing("2", "3", white='Cy "the}', black="Dee\nX", white_elo="2100"),
)
REASONS = (None, "checkmate", "resignation", "time", "agreement", "adjudication")
DAYS = (datetime.date(2026, 11, 30), datetime.date(2026, 12, 1))


class Scene:
    """One board's game changed at random, as the mirror and the arbiter change it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pairing = PAIRINGS[0]
        self.day = DAYS[0]
        self.game = self._new_game()

    def _new_game(self) -> MirroredGame:
        rng = self.rng
        start = Position.chess960_start(rng.randrange(960)) if rng.random() < 0.2 else None
        game = MirroredGame(Game(start), time_control=rng.choice([None, "90+30"]))
        if rng.random() < 0.2:
            game.comments[0] = "before {the} first move"
        return game

    def step(self) -> str:
        """One change; its name."""
        rng, game = self.rng, self.game
        roll = rng.random()
        moves = game.game.position.legal_moves()
        if game.result is None and moves and roll < 0.6:
            game.game.push(rng.choice(moves))
            ply = len(game.game)
            if rng.random() < 0.8:
                game.clocks[ply] = (rng.randrange(10**7), rng.randrange(10**7))
            if rng.random() < 0.1:
                game.comments[ply] = rng.choice(["a note", "", "}{ odd\nnote"])
            return "move"
        if roll < 0.7 and len(game.game):
            ply = len(game.game)
            game.game.pop()
            game.clocks.pop(ply, None)
            game.comments.pop(ply, None)
            game.result = game.reason = None
            return "takeback"
        if roll < 0.75:
            game.result = rng.choice(["1-0", "0-1", "1/2-1/2"])
            game.reason = rng.choice(REASONS)
            return "result"
        if roll < 0.8 and len(game.game):
            # The last ply's clock told later, or an earlier ply's corrected.
            ply = rng.randrange(1, len(game.game) + 1)
            game.clocks[ply] = (rng.randrange(10**7), rng.randrange(10**7))
            return "clock"
        if roll < 0.85 and len(game.game):
            # An arbiter's corrected copy: a new object, an earlier ply's comment added.
            self.game = replace(
                game, game=game.game.copy(), comments=dict(game.comments), clocks=dict(game.clocks)
            )
            self.game.comments[rng.randrange(0, len(game.game) + 1)] = "corrected"
            return "correction"
        if roll < 0.9:
            self.pairing = rng.choice(PAIRINGS)
            self.day = rng.choice(DAYS)
            return "tags"
        if roll < 0.93:
            self.game = self._new_game()
            return "new game"
        return "nothing"


@pytest.mark.parametrize("seed", range(12))
def test_the_grown_pgn_is_the_whole_one_at_every_change(seed: int) -> None:
    rng = random.Random(seed)
    scenes = {f"b{n}": Scene(rng) for n in range(4)}
    memo, sans = PgnMemo(), SanMemo()
    seen: set[str] = set()
    for _ in range(400):
        board = rng.choice(list(scenes))
        scene = scenes[board]
        seen.add(scene.step())
        game = scene.game
        known = sans.of(board, game.game)
        whole = board_pgn(board, game, scene.pairing, scene.day, known)
        assert memo.of(board, game, scene.pairing, scene.day, known) == whole
    assert {"move", "takeback", "result", "clock", "correction", "tags"} <= seen


def test_a_long_game_wraps_as_the_whole_one_does() -> None:
    """Move by move to 200 plies, clocks on each: the lines wrap where the writer's do."""
    rng = random.Random(7)
    game = MirroredGame(Game(), time_control="90+30")
    memo, sans = PgnMemo(), SanMemo()
    pairing = PAIRINGS[1]
    while len(game.game) < 200 and (moves := game.game.position.legal_moves()):
        game.game.push(rng.choice(moves))
        game.clocks[len(game.game)] = (rng.randrange(10**8), rng.randrange(10**8))
        known = sans.of("b1", game.game)
        text = memo.of("b1", game, pairing, DAYS[0], known)
        assert text == board_pgn("b1", game, pairing, DAYS[0], known)
    assert text.count("\n") > 20


def test_a_board_without_a_game_or_moves_is_written_whole() -> None:
    memo = PgnMemo()
    assert memo.of("b1", None, PAIRINGS[0]) == ""
    game = MirroredGame(Game(), result="1-0", reason="adjudication")
    game.comments[0] = "before"
    assert memo.of("b1", game, PAIRINGS[0], DAYS[0], []) == board_pgn(
        "b1", game, PAIRINGS[0], DAYS[0], []
    )
