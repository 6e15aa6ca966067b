"""The person at a running board, for tests where a program on the PC plays against them:
they do what the lights ask (set up a new game's position, put pieces back after a
mismatch or a takeback, follow a guided Chess960 setup), carry out the move lit for them
and play their own moves with the human model."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from reedboard.arbiter.view import BoardView
from reedboard.rules.moves import Move
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, square_name, squares_of
from reedboard.sim.human import human_script

from tests.host.running_board import RunningBoard
from tests.support.board_pair import BoardPair

Chooser = Callable[[Position, list[Move], random.Random], Move]
HAND_MS = 300  # between two pieces the hands put on or take off while setting up


def random_move(_position: Position, legal: list[Move], rng: random.Random) -> Move:
    return rng.choice(legal)


def castle_first(position: Position, legal: list[Move], rng: random.Random) -> Move:
    """Castles whenever the rules allow; until then prefers to clear the back rank."""
    castling = [m for m in legal if position.is_castling(m)]
    if castling:
        return rng.choice(castling)
    back_rank = 0 if position.turn else 7
    developing = [m for m in legal if m.from_square // 8 == back_rank]
    return rng.choice(developing or legal)


@dataclass
class Person:
    # A board running in a thread (`play` waits on it), or the pair in memory (which calls
    # `step` after each of its own steps: `pair.watch(person.step)`).
    board: RunningBoard | BoardPair
    rng: random.Random
    white: bool  # the side they play; the other side's moves are lit for them
    choose: Chooser = random_move
    wrong: int = 0  # how many lit moves they carry out otherwise (another legal move)
    # Whether the other side (a GUI) waits for their move in this position (a FEN): they
    # play only then, as a person who looks at the GUI would. None: whenever it is their turn.
    waits_for: Callable[[str], bool] | None = None
    plies: int = 0  # moves made on the board: their own and the lit ones
    mistakes: list[str] = field(default_factory=list)  # the lit moves they did otherwise
    fixes: int = 0  # times they put the board right as its lights asked
    guided: int = 0  # of those, steps of a guided (Chess960) setup
    _acted_on: str | None = None  # the position of their last move, not to move twice
    _after_mistake = False  # a wrong move stands: wait to be told to take it back

    def play(self, busy: Callable[[], bool], timeout_s: float) -> None:
        """Act on what the board shows for as long as `busy` (the other side plays)."""
        board = self.board
        assert isinstance(board, RunningBoard), "on the pair, the pair calls `step`"
        deadline = time.monotonic() + timeout_s
        while busy() and time.monotonic() < deadline:
            with board.changed:
                board.changed.wait(0.2)  # until the board shows something new
            self.step()

    def step(self) -> None:
        view = self.board.view
        live = self.board.live
        if view is None or live.pending or view.sensors != live.occupancy:
            return  # the hands are busy, or the board has not taken in their last change
        if view.pending is not None:
            return  # a move the board is about to decide: a mismatch shown may be over
        if view.setup is not None:
            if self._push_fix(view.setup.needed | view.setup.missing, view.setup.wrong):
                self.guided += 1
        elif view.missing or view.extra:
            self._push_fix(view.missing, view.extra)
            self._after_mistake = False
        elif not (view.lifted or view.pending or view.result) and not self._after_mistake:
            self._move(view)

    def _move(self, view: BoardView) -> None:
        if view.fen == self._acted_on:
            return
        position = Position.from_fen(view.fen, chess960=self._chess960())
        legal = [m for m in position.legal_moves() if m.promotion in (None, 0, QUEEN)]
        if view.hint is None:
            if view.turn_white != self.white:
                return  # the move to carry out is not lit yet
            if self.waits_for is not None and not self.waits_for(view.fen):
                return  # the other side has not asked for a move here (yet)
            move = self.choose(position, legal, self.rng)
        else:
            move = next(m for m in legal if (m.from_square, m.to_square) == view.hint)
            if self.wrong and len(legal) > 1:
                self.wrong -= 1
                lit = position.uci(move)
                move = self.rng.choice([m for m in legal if m != move])
                self.mistakes.append(f"{position.uci(move)} instead of {lit}")
                self._after_mistake = True
        script = human_script(position, [move], seed=self.rng.randrange(1 << 30))
        self.board.push(script.lines)
        self._acted_on = view.fen
        self.plies += 1

    def _chess960(self) -> bool:
        board_game = self.board.app.board_game
        return board_game is not None and board_game.game.chess960

    def _push_fix(self, to_fill: Bitboard, to_clear: Bitboard) -> bool:
        occupancy = self.board.live.occupancy
        places = list(squares_of(to_fill & ~occupancy))
        lifts = list(squares_of(to_clear & occupancy))
        if not places and not lifts:
            return False
        # Pieces go on before others come off: a board with pieces only added never looks
        # like the position after a move, which always empties a square.
        self.board.push(_lines("place", places, 0) + _lines("lift", lifts, len(places)))
        self._acted_on = None
        self.fixes += 1
        return True


def _lines(action: str, squares: Iterable[int], after: int) -> list[tuple[int, str, str]]:
    return [((after + i) * HAND_MS, action, square_name(sq)) for i, sq in enumerate(squares)]


def wait_for(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Wait (polling) until `condition` holds; fail naming `what` after `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
