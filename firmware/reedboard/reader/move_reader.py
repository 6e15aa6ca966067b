"""The reader: from the order in which pieces are lifted and placed to moves, touches and
mismatches. A pure state machine: `feed` a debounced change, `tick` the time, read effects.

How it decides (docs/hands.md, "How the board reads a game"):
- Since the last committed position, every lift and place is kept (an episode), and the
  hypotheses about which piece stands where (`Hands`).
- When a hypothesis is exactly the placement after a legal move (`MoveTable`), that move
  is complete. It is committed once its piece has rested RELAND_MS when it cannot be
  anything else (a knight move, a capture, castling, a promotion, a slide that cannot go
  further); otherwise it waits until the board has been still for `settle_ms`; either
  way, at once when something happens that no longer fits this player's move (the
  opponent starts moving).
- A board that differs from the position only on squares that one legal move may still
  change is a move in progress (a lifted piece, a king on its castling square waiting
  for the rook). Anything else that stays still for `settle_ms` is a mismatch: the
  effect names the squares to put right.

This module is the facade: the state of one board, its inputs (`feed`, `tick`, the host's
commands, `configure`) and the commit of a move. The ideas live beside it, each a module
of functions over that state, which they see as a `protocol.Reader` and never import the
facade (the package's imports point one way): `inference` (an episode read change by
change), `split` (a move complete earlier and what followed it), `two_hands`
(overlapping blitz hands), `knock` (a knocked piece told from a move), `put_back` (a
doubted capturer put back or the reply arriving where it stood), `fork` (the other
reading followed alongside), `verdicts` (mismatches, touch-move breaches), `deadlines`
(time passing), `takeback`, `promotion`, `endings` (games started and ended by hand),
`stuck` (a stuck switch), `likely` (the likeliest of several moves), and the values:
`episode` (everything since the last committed position), `waiting` (what a reading
waits for, and every transition between those states), `view` (the lights' view as a
function), `marks`, `waits`, `hands`, `table`, `overlap`, `touch_move`, `gestures`,
`setup`.
"""

from __future__ import annotations

import random

from reedboard.errors import IllegalMoveError, InvalidInputError
from reedboard.events import (
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SetupStarted,
    Violation,
)
from reedboard.reader import (
    deadlines,
    endings,
    fork,
    inference,
    knock,
    promotion,
    push,
    split,
    stuck,
    takeback,
    verdicts,
)
from reedboard.reader.episode import Episode
from reedboard.reader.gestures import GestureTracker
from reedboard.reader.hands import EMPTY, Hands, hands_for
from reedboard.reader.marks import HostMarks
from reedboard.reader.mode import MODES, Mode
from reedboard.reader.protocol import Following
from reedboard.reader.setup import GestureWatch, SetupGuide
from reedboard.reader.table import MoveShape, MoveTable, placement_of, shown_move
from reedboard.reader.touch_move import TouchRecord
from reedboard.reader.verdicts import pair_squares
from reedboard.reader.view import BoardView, Shown, board_view
from reedboard.reader.waiting import KnockedCapture, Sweep, Waiting, enter
from reedboard.reader.waits import (
    ARRIVE_MS,
    DEFAULT_CASTLE_WAIT_MS,
    DEFAULT_KNOCK_WAIT_MS,
    DEFAULT_SETTLE_MS,
    KNOCK_MS,
    STUCK_MS,
)
from reedboard.rules.game import Game
from reedboard.rules.moves import Move, move_of_code
from reedboard.rules.pieces import PIECE_SYMBOLS, PROMOTION_TYPES, PieceType
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import SquareChange


class MoveReader:
    """Move inference for one board. All times are milliseconds, given by the caller."""

    def __init__(
        self,
        game: Game | None = None,
        *,
        mode: Mode = "casual",
        settle_ms: int = DEFAULT_SETTLE_MS,
        castle_wait_ms: int = DEFAULT_CASTLE_WAIT_MS,
        knock_wait_ms: int = DEFAULT_KNOCK_WAIT_MS,
        occupancy: Bitboard | None = None,
        rng: random.Random | None = None,
    ) -> None:
        """`rng` draws the Chess960 position the board's own gesture asks for; the caller
        owns it (a fixed seed by default, so a replay is the same every time)."""
        self.game = game if game is not None else Game()
        self.mode: Mode = "casual"
        self.settle_ms = DEFAULT_SETTLE_MS
        self.castle_wait_ms = DEFAULT_CASTLE_WAIT_MS
        self.knock_wait_ms = DEFAULT_KNOCK_WAIT_MS
        self.configure(
            mode=mode,
            settle_ms=settle_ms,
            castle_wait_ms=castle_wait_ms,
            knock_wait_ms=knock_wait_ms,
        )
        self.sensors: Bitboard = self.game.position.occupied if occupancy is None else occupancy
        self.last_change_ms = 0
        # The host's promotion choices (see promotion.choice_for): the first was in force
        # when the episode began.
        self._choices: list[promotion.Choice] = []
        self.mismatch: Illegal | None = None
        self.violation: Violation | None = None
        self.touches = TouchRecord()
        self.exchange_square: Square | None = None  # a promotion square, until the opponent moves
        self.choice_lift: tuple[Square, PieceType] | None = None
        # When the last move was complete, and the squares where its pieces landed.
        self.moved: tuple[int, tuple[Square, ...]] | None = None
        self.result_sensors: Bitboard | None = None  # the board as the kings told a result
        self.marks = HostMarks()
        # Squares whose switch the debouncer left out as faulty, for the lights.
        self.sensor_faults: Bitboard = 0
        self.gestures = GestureTracker()
        self.rng = rng if rng is not None else random.Random(0)
        self.setup: SetupGuide | None = None
        self.setup_number: int | None = None
        self.chess960_watch = GestureWatch()
        # The board as the other reading of a doubted capture would have it, while a later
        # placement may still show that reading right (see fork.fork).
        self.following: Following | None = None
        # While it is followed: what the board made of the changes since, held back from
        # the host.
        self.held: list[Effect] = []
        self.chess960_watch.update(self.sensors, 0)  # a start already standing counts
        self.new_episode()

    def configure(
        self,
        *,
        mode: Mode | None = None,
        settle_ms: int | None = None,
        castle_wait_ms: int | None = None,
        knock_wait_ms: int | None = None,
    ) -> None:
        """Change how the board reads the hands (what is not given stays). The longer
        waits are never shorter than `settle_ms`. A bad value raises InvalidInputError
        and changes nothing."""
        if mode is not None and mode not in MODES:
            raise InvalidInputError(f"mode is casual or strict, not {mode!r}")
        if settle_ms is not None and settle_ms < 1:
            raise InvalidInputError(f"settle_ms must be at least 1, not {settle_ms}")
        self.mode = self.mode if mode is None else mode
        self.settle_ms = self.settle_ms if settle_ms is None else settle_ms
        castle = self.castle_wait_ms if castle_wait_ms is None else castle_wait_ms
        knock = self.knock_wait_ms if knock_wait_ms is None else knock_wait_ms
        self.castle_wait_ms = max(castle, self.settle_ms)
        self.knock_wait_ms = max(knock, self.settle_ms)

    # ----- the episode: everything since the last committed position -----

    def new_episode(self) -> None:
        """Read on from the position as it stands: the episode so far is over."""
        self._table: MoveTable | None = None
        self.episode = Episode.start(hands_for(self.position, self.sensors), self.settle_ms)
        self._choices = self._choices[-1:]  # no pawn has landed yet: the latest is in force
        # What a reading still waits for: the next change, or a lift by a deadline (see
        # waiting.py, where every state and how one leads to another are written out).
        self.waiting: Waiting | None = None

    @property
    def promotion_choice(self) -> PieceType | None:
        """The host's latest choice, for the next promotion (None: a queen)."""
        return self._choices[-1][1] if self._choices else None

    @property
    def table(self) -> MoveTable:
        if self._table is None:
            self._table = MoveTable(self.game.position, legal=not self.game.is_game_over())
        return self._table

    @property
    def position(self) -> Position:
        return self.game.position

    # ----- inputs -----

    def feed(self, change: SquareChange, now_ms: int | None = None) -> list[Effect]:
        """A debounced sensor change; `now_ms` is when the board learnt of it (by default
        the change's own time)."""
        now = change.t_ms if now_ms is None else max(now_ms, change.t_ms)
        bit = 1 << change.square
        if bool(self.sensors & bit) == change.occupied:
            return []  # nothing new: the sensors already read so
        effects: list[Effect] = []
        self.sensors ^= bit
        self.last_change_ms = change.t_ms
        self.chess960_watch.update(self.sensors, change.t_ms)
        if self.setup is not None:
            endings.follow_setup(self, now, effects, by_hand=True)
            return effects  # no moves while the pieces are being set up
        inference.apply(self, change, now, effects, report=True)
        fork.follow_alternative(self, change, now, effects)
        return fork.hold(self, effects, now)

    def read(self, change: SquareChange, now: int, effects: list[Effect], report: bool) -> None:
        """`change` read into the episode, deciding what the reader waited for: for the
        parts that read changes again (a move split off, a capture amended)."""
        inference.apply(self, change, now, effects, report)

    def follow(self, change: SquareChange, now: int, effects: list[Effect], report: bool) -> None:
        """`change` read into the episode, the readings it decides already settled."""
        inference.follow(self, change, now, effects, report)

    def tick(self, now_ms: int) -> list[Effect]:
        """Time has passed: decide what has waited long enough."""
        effects = deadlines.tick(self, now_ms)
        fork.follow_alternative(self, None, now_ms, effects)
        return fork.hold(self, effects, now_ms)

    def next_deadline(self) -> int | None:
        """The time at which `tick` may decide something, if any."""
        return deadlines.next_deadline(self)

    def stuck_switch(self, now_ms: int) -> tuple[Square, bool] | None:
        """A switch the game shows stuck, and the state it should read (see stuck.py)."""
        return stuck.stuck_switch(self, now_ms)

    def commit_shown(self, now_ms: int) -> list[Effect]:
        """At start-up: the sensors show the position plus one legal move (the power went
        while the move waited to settle), so that move was made: commit it, once the
        hands have settled. Not when the sensors only show squares emptied: a capture's
        sensors are also its capturer in the hand (a knight lifted when the power went
        is no Nxf5); and a move that could still grow (a queen resting on a square of
        its slide) waits `settle_ms` for the hands, as any such move does."""
        if self.setup is not None or self.episode.events:
            return []
        shape = shown_move(self.table, self.sensors)
        if shape is None or not self.sensors & ~self.table.occupancy:
            return []
        changed = self.sensors ^ self.table.occupancy
        if self.table.growth(shape, changed, rook_first=self.mode == "casual") is not None:
            # The piece stands where the move put it, as if the board had seen it set
            # down: the hand may slide it on (the queen on g4 goes on to h5).
            start = placement_of(self.position)
            cells = list(start)
            cells[shape.to_square], cells[shape.from_square] = cells[shape.from_square], EMPTY
            self.episode = Episode.start(Hands("".join(cells), start=start), self.settle_ms)
            self.episode.complete = shape
            self.episode.wait_ms = self.settle_ms
            self.episode.first_complete[shape.code] = now_ms
            self.last_change_ms = now_ms
            return []
        effects: list[Effect] = []
        self.commit(shape, now_ms, effects)
        return effects

    def start_setup(self, number: int, now_ms: int) -> list[Effect]:
        """Guide the players to set up Chess960 position `number`; the game starts when
        it stands (at once if it already does)."""
        start = Position.chess960_start(number)
        if self.sensors == self.position.occupied and placement_of(self.position) == placement_of(
            start
        ):
            # The pieces already stand so (standard chess is position 518).
            started = SetupStarted(now_ms, number, start.fen())
            return [started, *self.start_game(Game(start), now_ms)]
        self.setup = SetupGuide(start, clear_first=True)
        self.setup_number = number
        effects: list[Effect] = [SetupStarted(now_ms, number, start.fen())]
        endings.follow_setup(self, now_ms, effects)
        return effects

    def choose_promotion(self, piece_type: PieceType, now_ms: int) -> list[Effect]:
        """The host picks the piece for the next promotion (queen by default)."""
        if piece_type not in PROMOTION_TYPES:
            raise InvalidInputError("a pawn promotes to a queen, rook, bishop or knight")
        promotion.note_choice(self._choices, piece_type, now_ms)
        return [PromotionChosen(now_ms, PIECE_SYMBOLS[piece_type])]

    def start_game(self, game: Game, now_ms: int) -> list[Effect]:
        """The host starts a new game (standard, Chess960 or from a FEN). At the very
        position the board's game stands in, no move made, the hands' work goes on into
        it: a move they have completed, still settling, or have under way is the new
        game's first (a host may start the game a player has just begun). Only the
        touches, a violation of them and the host's marks are forgotten: the game they
        were made in is over."""
        going_on = (
            self.setup is None
            and not len(self.game)
            and not self.game.is_game_over()
            and game.position.fen() == self.position.fen()
        )
        self.game = game
        self.setup = None
        self.setup_number = None
        if going_on:
            self._table = None
            self.touches = TouchRecord()
            self.violation = None
            self.marks = HostMarks()  # the host's marks and hint were for the game before
        else:
            self.forget_position()
        effects: list[Effect] = [NewGame(now_ms, game.position.fen())]
        return effects

    def take_back(self, now_ms: int) -> list[Effect]:
        """The host takes the last move back (see takeback.take_back_for_host);
        `InvalidInputError` when there is none or the game was declared over."""
        return takeback.take_back_for_host(self, now_ms)

    def take_back_to(self, ply: int, now_ms: int) -> list[Effect]:
        """The host takes back every move after `ply` (takeback.take_back_to_for_host)."""
        return takeback.take_back_to_for_host(self, ply, now_ms)

    def forget_position(self) -> None:
        """Read on from the game's position as a board starting afresh there: nothing
        shown, held or touched about the position before stays."""
        self.mismatch = None
        self.violation = None
        self.touches = TouchRecord()
        self.moved = None
        self.result_sensors = None
        self._choices = []
        self.exchange_square = None
        self.choice_lift = None
        self.marks = HostMarks()
        self.gestures.reset()
        self.following = None
        self.held = []
        self.new_episode()

    def resign(self, white: bool, now_ms: int) -> list[Effect]:
        """The host (or the board's gesture) says a player resigns."""
        return endings.end(self, lambda: self.game.resign(white), now_ms)

    def agree_draw(self, now_ms: int) -> list[Effect]:
        return endings.end(self, self.game.agree_draw, now_ms)

    def claim_draw(self, now_ms: int, move: Move | None = None) -> list[Effect]:
        """A draw claim (threefold repetition, 50 moves), optionally with the move about to
        be played; `IllegalMoveError` when the claim is not valid."""
        if move is not None:
            move = self.position.normalize(move)
            if not self.position.is_legal(move):
                raise IllegalMoveError(f"{move.uci()} is not legal here")
            uci, san = self.position.uci(move), self.game.san(move)
            self.game.claim_draw(move)
            effects: list[Effect] = [
                MoveMade(now_ms, uci, san, self.position.fen(), len(self.game))
            ]
            self.new_episode()
            return effects + endings.end(self, None, now_ms)
        return endings.end(self, self.game.claim_draw, now_ms)

    def show_move(self, move: Move | None) -> None:
        """The host asks the player to carry out `move` (an engine's reply); None clears."""
        self.marks = self.marks.hinting(move)

    def mark(self, steady: Bitboard, blinking: Bitboard = 0) -> None:
        """The host lights these squares (0, 0 clears), until the position changes."""
        self.marks = self.marks.marking(steady, blinking)

    @property
    def hint(self) -> Move | None:
        return self.marks.hint

    @property
    def marked(self) -> tuple[Bitboard, Bitboard]:
        return (self.marks.steady, self.marks.blinking)

    # ----- when moves were complete on the board: a player's time stops there -----

    def completions(self) -> list[tuple[Move, int]]:
        """The moves the board has shown complete since the last committed position, each
        with when it first was, whenever the board decides it."""
        return [(move_of_code(code), first) for code, first in self.episode.first_complete.items()]

    @property
    def pending_completed_ms(self) -> int | None:
        """When the move the board shows complete, not yet decided, was first complete
        (or the move complete earlier, the opponent's hand already in the air: see
        waiting.Sweep)."""
        complete = self.episode.complete
        if complete is None and isinstance(self.waiting, Sweep):
            complete = split.complete_at(self, self.episode.pending_index)
        return None if complete is None else self.episode.first_complete.get(complete.code)

    @property
    def last_completed_ms(self) -> int | None:
        """When the last committed move was complete on the board (None once the position
        was started afresh or taken back)."""
        return None if self.moved is None else self.moved[0]

    def view(self) -> BoardView:
        """What the board is now, for the lights."""
        arriving, arriving_from = verdicts.arriving(self)
        shown = Shown(
            pending=self.episode.complete,
            candidates=push.candidates(self) if self.mismatch is None else 0,
            arriving=arriving,
            arriving_from=arriving_from,
            mismatch=self.mismatch,
            must_move=self.touches.obliged_square(self.position) if self.mode == "strict" else None,
            violation=self.violation.square if self.violation else None,
            marks=self.marks,
            promotion=self.exchange_square,
            promotion_choices=promotion.promotion_choices(self),
            setup=self.setup.step(self.sensors) if self.setup is not None else None,
            offer=self.gestures.offer,
            offer_squares=sum(1 << sq for sq in self.gestures.squares or ()),
            faults=self.sensor_faults,
        )
        return board_view(self.game, self.table, self.sensors, shown)

    # ----- the core -----

    def commit(self, shape: MoveShape, now: int, effects: list[Effect]) -> None:
        knocked = knock.knocked_victim(self, shape)
        move = shape.move
        position = self.position
        if shape.is_castling:  # (the shape knows it: no search of the legal moves again)
            _kf, king_to, _rf, rook_to = position.castling_squares(move)
            landed: tuple[Square, ...] = (king_to, rook_to)
        else:
            landed = (move.to_square,)
        completed_ms = self.episode.first_complete.get(shape.code, self.last_change_ms)
        self.moved = (completed_ms, landed)
        if shape.is_promotion:
            piece, self._choices = promotion.choice_for(self._choices, completed_ms)
            move = Move(move.from_square, move.to_square, piece)
        self.restore(now, effects)
        # A king seen off its square while the move was still open was part of the move:
        # no resignation or draw gesture goes on across it.
        if self.gestures.offer is not None:
            effects.append(Offered(now, self.gestures.offer, "cancelled"))
        self.gestures.reset()
        san = self.game.san(move)
        uci = self.position.uci(move)
        self.game.push(move)
        effects.append(MoveMade(now, uci, san, self.position.fen(), len(self.game)))
        touched, self.touches = self.touches, TouchRecord()
        self.marks = HostMarks()  # what the host asked was about the position before
        self.exchange_square = move.to_square if shape.is_promotion else None
        self.new_episode()
        if knocked:
            self.waiting = enter(self.waiting, KnockedCapture(move.from_square, touched))
        outcome = self.game.outcome()
        if outcome is not None:
            effects.append(GameOver(now, outcome.result, outcome.reason))

    def restore(self, now: int, effects: list[Effect]) -> None:
        if self.mismatch is not None or self.violation is not None:
            effects.append(Restored(now))
            self.mismatch = None
            self.violation = None

    def show_mismatch(self, now_ms: int) -> list[Effect]:
        """Report at once, without waiting for the board to settle, where it differs from
        the position (nothing when it does not)."""
        effects: list[Effect] = []
        if self.sensors != self.table.occupancy:
            verdicts.report_mismatch(self, now_ms, effects)
        return effects


__all__ = [
    "ARRIVE_MS",
    "DEFAULT_CASTLE_WAIT_MS",
    "DEFAULT_KNOCK_WAIT_MS",
    "DEFAULT_SETTLE_MS",
    "KNOCK_MS",
    "STUCK_MS",
    "MoveReader",
    "hands_for",
    "pair_squares",
    "shown_move",
]
