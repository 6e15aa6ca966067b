"""Games to play through the human model: uniformly random legal games, and engine-like
games from a greedy one-ply chooser that likes what makes a board's life hard (captures,
checks, promotions, castling, en passant)."""

from __future__ import annotations

import random

from reedboard.rules.game import Game
from reedboard.rules.moves import FLAG_CASTLE, FLAG_EN_PASSANT, move_of_code
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position

# Rough piece values, by piece type (index 0 unused), for the greedy chooser.
VALUES = (0, 1, 3, 3, 5, 9, 0)


def random_game(start: Position, rng: random.Random, max_plies: int = 120) -> Game:
    game = Game(start)
    while len(game) < max_plies and not game.is_game_over():
        game.push(rng.choice(game.position.legal_moves()))
    return game


def greedy_game(start: Position, rng: random.Random, max_plies: int = 120) -> Game:
    """Each move the best by a one-ply score with noise: material won, check, promotion,
    castling, en passant."""
    game = Game(start)
    while len(game) < max_plies and not game.is_game_over():
        position = game.position
        best, best_score = None, -1e9
        for code in position.legal_codes():
            move = move_of_code(code)
            score = rng.random() * 2.5
            captured = position.piece_type_at(move.to_square)
            if code & FLAG_CASTLE:
                score += 4
            elif captured:
                score += VALUES[captured]
            if code & FLAG_EN_PASSANT:
                score += 3
            if move.promotion:
                score += 6 if move.promotion == QUEEN else 5
            if position.play_code(code).is_check():
                score += 1.5
            if score > best_score:
                best, best_score = move, score
        assert best is not None
        game.push(best)
    return game
