"""Whole games for tests: seeded random legal games, and the sensor lines and event
scripts of clean hands carrying them out (each move's lifts and places a few hundred ms
apart)."""

from __future__ import annotations

import random

from reedboard.app_ports import GameSetup
from reedboard.board_game import Settings
from reedboard.hal.sensor_line import Action, SensorLine
from reedboard.replay.script import Script
from reedboard.rules.game import Game
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES


def script_setup(script: Script) -> GameSetup:
    """The game an event script sets up: its start, mode, time control and buttons."""
    return GameSetup(
        start=Game(script.start),
        settings=Settings(
            mode="strict" if script.mode == "strict" else "casual",
            time_control=script.clock,
            clock_buttons=script.clock_buttons,
        ),
    )


def random_game(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    game = Game()
    moves: list[str] = []
    while len(moves) < plies and not game.is_game_over():
        choices = [m for m in game.position.legal_moves() if m.promotion in (None, 0, QUEEN)]
        move = rng.choice(choices)
        moves.append(game.position.uci(move))
        game.push(move)
    return moves


def move_lines(
    position: Position, uci: str, t: int, gap: int = 300, pause: int = 1200
) -> tuple[list[SensorLine], int]:
    """Timed lines for one move by a clean hand; returns them and the next free time."""
    move = position.parse_uci(uci)
    names = SQUARE_NAMES
    steps: list[tuple[Action, int]] = []
    if position.is_castling(move):
        kf, kt, rf, rt = position.castling_squares(move)
        steps = [("lift", kf), ("place", kt), ("lift", rf), ("place", rt)]
    else:
        f, to = move.from_square, move.to_square
        if position.is_en_passant(move):
            victim = to - 8 if position.turn else to + 8
            steps = [("lift", victim), ("lift", f), ("place", to)]
        elif position.is_capture(move):
            steps = [("lift", to), ("lift", f), ("place", to)]
        else:
            steps = [("lift", f), ("place", to)]
    lines = []
    for action, sq in steps:
        lines.append(SensorLine(t, action, names[sq]))
        t += gap
    return lines, t + pause


def game_script(
    moves: list[str],
    start: Position | None = None,
    t0: int = 1000,
    gap: int = 300,
    pause: int = 1200,
) -> str:
    position = start or Position.standard()
    header = f"@start fen {position.fen()}" if start is not None else "@start standard"
    lines = [header]
    t = t0
    for uci in moves:
        more, t = move_lines(position, uci, t, gap, pause)
        lines += [line.text() for line in more]
        position = position.play(position.parse_uci(uci))
    return "\n".join(lines) + "\n"
