"""The person at a board, for host tests where a program on the PC plays against them or
alongside them, on the in-memory pair (`board_pair.py`) or on a board running behind a
pty (`tests/host/running_board.py`).

They do what the lights ask: set up a new game's position, put pieces back after a
mismatch or a takeback, follow a guided Chess960 setup. They carry out the move lit for
them (or, `wrong` times, another legal move instead) and play their own moves when it is
their turn: `script` first while it is legal, then as `choose` picks. `step` looks at the
board once and acts at most once; the test calls it each time the board may show
something new (the pair's `watch`, the running board's `play_along`).

The hands are the human model's (`human_script`): a move is the lifts, places and slips
a real player makes, so the board reads it as it would read a person's. Taking a move
back and agreeing a draw with the kings are gestures the test asks for by name."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from reedboard.app import App
from reedboard.hal.fake_board import FakeBoard
from reedboard.reader.view import BoardView
from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, parse_square, square_name, squares_of
from reedboard.sim.human import human_script

Chooser = Callable[[Position, list[Move], random.Random], Move]
HAND_MS = 300  # between two pieces the hands put on or take off while setting up
TAKEBACK_MS = 400  # from lifting a piece that moved to setting it down where it came from
# The board's effects that change its game: a state of the game is how many came so far.
GAME_CHANGES = ("move", "takeback", "new_game")


class PersonsBoard(Protocol):
    """What the person sees of a board (its lights, its pieces, its game) and does to it."""

    view: BoardView | None  # what the lights show now
    live: FakeBoard  # the pieces, and the hands' lines not yet carried out
    app: App

    def push(self, lines: Iterable[tuple[int, str, str]]) -> int: ...

    def moves(self) -> list[str]: ...

    def quiet_view(self) -> BoardView | None: ...

    def effect_kinds(self) -> list[str]: ...


Board = TypeVar("Board", bound=PersonsBoard)


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
class Person(Generic[Board]):
    board: Board  # the pair's, or the running one's: the test reads it as what it is
    rng: random.Random
    white: bool  # the side they play; the other side's moves are lit for them
    choose: Chooser = random_move
    script: list[str] = field(default_factory=list)  # their own moves first, while legal
    limit: int | None = None  # no own move once the board's game is this long
    wrong: int = 0  # how many lit moves they carry out otherwise (another legal move)
    # Whether the other side (a GUI) waits for their move in this position (a FEN): they
    # play only then, as a person who looks at the GUI would. None: whenever it is their turn.
    waits_for: Callable[[str], bool] | None = None
    # Whether they wait for a game begun on the board (its `new_game`: the host starts the
    # game they play) before their first move. False: the board's first game is theirs.
    await_new_game: bool = True
    plies: int = 0  # moves made on the board: their own and the lit ones
    mistakes: list[str] = field(default_factory=list)  # the lit moves they did otherwise
    fixes: int = 0  # times they put the board right as its lights asked
    guided: int = 0  # of those, steps of a guided (Chess960) setup
    # The state of the board's game they last moved in (its position, and how many changes
    # it had had): once for each, and a move taken back is a new state.
    _acted_on: tuple[str, int] | None = None
    _after_mistake = False  # a wrong move stands: wait to be told to take it back

    def step(self) -> None:
        """Look at the board and do what it asks, if anything."""
        view, live = self.board.view, self.board.live
        if view is None or live.pending or view.sensors != live.occupancy:
            return  # the hands are busy, or the board has not taken in their last change
        if view.pending is not None:
            return  # a move the board is about to decide: a mismatch shown may be over
        if view.setup is not None:
            if self._fix(view.setup.needed | view.setup.missing, view.setup.wrong):
                self.guided += 1
        elif view.missing or view.extra:
            self._fix(view.missing, view.extra)
            self._after_mistake = False
        elif view.sensors != Position.from_fen(view.fen).occupied:
            return  # a new position the pieces do not show yet: the lights will say what to do
        elif not (view.lifted or view.result or view.offer) and not self._after_mistake:
            self._move(view)

    # ----- gestures the test asks for -----

    def carry_out(self, uci: str) -> None:
        """Play `uci` on the quiet board, from its game's position."""
        self._quiet("carry out " + uci)
        position = self._game().position
        self._play(position, position.parse_uci(uci))

    def take_back(self) -> None:
        """The board's last move put back by hand: the piece lifted from where it went and
        set down where it came from (a quiet move: no piece to put back beside it)."""
        self._quiet("take a move back")
        game = self._game()
        assert len(game), "no move on the board to take back"
        last = game.moves[-1]
        to, back = square_name(last.to_square), square_name(last.from_square)
        self.board.push([(0, "lift", to), (TAKEBACK_MS, "place", back)])

    def agree_draw(self) -> None:
        """Both kings lifted and set in the centre, one on a light and one on a dark
        square, left there for the result to stand, then put back: a draw by agreement."""
        view = self.board.view
        assert view is not None
        position = Position.from_fen(view.fen)
        kings = [
            square_name(k) for k in (position.king(True), position.king(False)) if k is not None
        ]
        light = next(sq for sq in ("d5", "e4") if position.piece_at(parse_square(sq)) is None)
        dark = next(sq for sq in ("d4", "e5") if position.piece_at(parse_square(sq)) is None)
        self.board.push([(0, "lift", kings[0]), (100, "lift", kings[1]),
                         (600, "place", light), (700, "place", dark),
                         (4500, "lift", light), (4600, "lift", dark),
                         (5000, "place", kings[0]), (5100, "place", kings[1])])  # fmt: skip

    # ----- what they do by themselves -----

    def _move(self, view: BoardView) -> None:
        changes = [kind for kind in self.board.effect_kinds() if kind in GAME_CHANGES]
        key = (view.fen, len(changes))
        board_game = self.board.app.board_game
        started = "new_game" in changes or not self.await_new_game
        if key == self._acted_on or board_game is None or not started:
            return  # done already, or the host has not started its game yet
        if board_game.game.position.fen() != view.fen:
            return  # the lights have not caught up with the board's game yet
        position = Position.from_fen(view.fen, chess960=board_game.game.chess960)
        legal = [m for m in position.legal_moves() if m.promotion in (None, 0, QUEEN)]
        if view.hint is not None:
            move = next(m for m in legal if (m.from_square, m.to_square) == view.hint)
            if self.wrong and len(legal) > 1:
                self.wrong -= 1
                lit = position.uci(move)
                move = self.rng.choice([m for m in legal if m != move])
                self.mistakes.append(f"{position.uci(move)} instead of {lit}")
                self._after_mistake = True
        elif view.turn_white != self.white or self._at_limit():
            return  # the move to carry out is not lit yet, or they play no more
        elif self.waits_for is not None and not self.waits_for(view.fen):
            return  # the other side has not asked for a move here (yet)
        else:
            move = self._own(position, legal)
        self._play(position, move)
        self._acted_on = key

    def _own(self, position: Position, legal: list[Move]) -> Move:
        while self.script:
            try:
                return position.parse_uci(self.script.pop(0))
            except ValueError:
                continue
        return self.choose(position, legal, self.rng)

    def _at_limit(self) -> bool:
        return self.limit is not None and len(self.board.moves()) >= self.limit

    def _play(self, position: Position, move: Move) -> None:
        self.board.push(human_script(position, [move], seed=self.rng.randrange(1 << 30)).lines)
        self.plies += 1

    def _fix(self, to_fill: Bitboard, to_clear: Bitboard) -> bool:
        occupancy = self.board.live.occupancy
        places = [square_name(sq) for sq in squares_of(to_fill & ~occupancy)]
        lifts = [square_name(sq) for sq in squares_of(to_clear & occupancy)]
        if not places and not lifts:
            return False
        # Pieces go on before others come off: a board with pieces only added never looks
        # like the position after a move, which always empties a square.
        lines = [(i * HAND_MS, "place", sq) for i, sq in enumerate(places)]
        lines += [((len(places) + i) * HAND_MS, "lift", sq) for i, sq in enumerate(lifts)]
        self.board.push(lines)
        self._acted_on = None
        self.fixes += 1
        return True

    # ----- the board's game -----

    def _quiet(self, doing: str) -> None:
        assert self.board.quiet_view() is not None, f"to {doing}, wait for a quiet board"

    def _game(self) -> Game:
        board_game = self.board.app.board_game
        assert board_game is not None, "the board has no game yet"
        return board_game.game
