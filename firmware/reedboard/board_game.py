"""The board's game logic between the sensors, the host and the journal: the debouncer and
the arbiter, driven by sensor changes (one square's, or a whole scan's) and the passing of
time, plus what the host may ask (a new game, the mode, a promotion piece, a takeback, time
added to a clock, a move to show, a draw, a resignation). It owns all timing: the board's
loop, `reedboard replay` and the simulator all drive it the same way. Pure: time comes in
as arguments and the answers go out as values; `app.py` does the I/O.

Some host commands need more than the arbiter offers; they are built here from its public
parts. A resumed game is a fresh `Arbiter` with the sensors as they are, and a takeback the
arbiter's own (`MoveReader.take_back`), so a board that no longer matches is reported as a
mismatch and the lights guide the players back. A resignation or a draw by agreement or
claim is recorded here, and later moves are not reported until a new game starts.

It is the board's game, not a "session": the link keeps that word for one run of the
firmware, the `session` that `hello` names (docs/protocol.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias, assert_never

from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.mating_material import can_checkmate
from reedboard.chess_clock.time_control import TimeControl, parse_time_control
from reedboard.errors import InvalidInputError
from reedboard.events import Effect, GameOver, TakenBack
from reedboard.game_clocks import GameClocks
from reedboard.game_report import (
    UNADDRESSED,
    Addressed,
    moves_page,
    state_clock,
    state_message,
)
from reedboard.hal.sensor_line import ArbiterAddition, PromotionChoice
from reedboard.link.acks import (
    Done,
    GameEnded,
    GameStarted,
    Marked,
    ModeSet,
    MoveNamed,
    Outcome,
    PromotionSet,
    SettingsNow,
    TimeGiven,
)
from reedboard.link.board_messages import (
    Ack,
    ErrorReply,
    MovesPage,
    Reply,
    StateClock,
    StateMessage,
)
from reedboard.link.messages import (
    AddTime,
    ChangeSettings,
    ChoosePromotion,
    Draw,
    Mark,
    Resign,
    SetMode,
    ShowMove,
    StartGame,
    TakeBack,
    promotion_piece,
)
from reedboard.reader.faults import follow_stuck_switch, sensor_faults
from reedboard.reader.mode import Mode
from reedboard.reader.move_reader import (
    DEFAULT_CASTLE_WAIT_MS,
    DEFAULT_KNOCK_WAIT_MS,
    DEFAULT_SETTLE_MS,
    MoveReader,
)
from reedboard.rules.chess960 import random_chess960_number
from reedboard.rules.game import Game
from reedboard.rules.pieces import Color, piece_type_from_symbol
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, bitboard_of, parse_square, squares_of
from reedboard.sensing.debounce import DEFAULT_HOLD_MS, Debouncer, SquareChange

# The host commands about the game; the app answers the others (hello, state, led_test...).
GameCommand: TypeAlias = (
    StartGame
    | SetMode
    | ChoosePromotion
    | TakeBack
    | AddTime
    | ShowMove
    | Mark
    | Draw
    | Resign
    | ChangeSettings
)


@dataclass(frozen=True, slots=True)
class Settings:
    mode: Mode = "casual"
    settle_ms: int = DEFAULT_SETTLE_MS
    castle_wait_ms: int = DEFAULT_CASTLE_WAIT_MS
    knock_wait_ms: int = DEFAULT_KNOCK_WAIT_MS
    hold_ms: int = DEFAULT_HOLD_MS
    # A timed game's control (None: untimed), and whether clock buttons stop the time.
    time_control: TimeControl | None = None
    clock_buttons: bool = False
    tournament: bool = False  # fair play: the lights and the voice give no assistance


@dataclass(frozen=True, slots=True)
class Answer:
    """What a host command gives: the reply and any effects it caused (a new game...)."""

    reply: Reply
    effects: tuple[Effect, ...] = ()


def players_command(action: PromotionChoice | ArbiterAddition) -> ChoosePromotion | AddTime:
    """The host command a scripted board's promotion choice or arbiter's addition stands
    for: how a script's `choose` and `add` lines and a simulated hand reach the game."""
    if isinstance(action, PromotionChoice):
        return ChoosePromotion(promotion_piece(action.piece))
    return AddTime("white" if action.white else "black", action.ms)


class BoardGame:
    def __init__(
        self,
        game: Game,
        occupancy: Bitboard,
        settings: Settings | None = None,
        *,
        rng: random.Random | None = None,
        configured: Settings | None = None,
    ) -> None:
        """`occupancy` is the first scan: a resumed game whose position the board does not
        show comes out as a mismatch at the first tick, and the lights show what to fix.
        `configured`: the board's own settings, when `settings` are a resumed game's (its
        mode and time control); the host's `new` without a clock goes back to them."""
        self.settings = settings or Settings()
        self.rng = rng or random.Random()
        self.debouncer = Debouncer(occupancy, hold_ms=self.settings.hold_ms)
        self.clocks = GameClocks(self.settings, game)
        self.arbiter = self._arbiter(game, occupancy)
        # Called after each step of the arbiter with its effects so far and the time.
        self.on_step: Callable[[list[Effect], int], None] | None = None
        self._reached: int | None = None  # the latest time the game was driven to
        self._due: int | None = None  # `next_deadline`'s answer, while `_due_known`: each
        self._due_known = False  # change to the game (arbiter, debouncer, clocks) forgets it
        # The board's configured control, not a resumed game's: a power cut must not
        # change what a later `new` without a clock plays.
        self._own_control = (configured or self.settings).time_control

    def _arbiter(self, game: Game, occupancy: Bitboard) -> MoveReader:
        """A fresh arbiter, watched by the clocks from its start."""
        s = self.settings
        arbiter = MoveReader(
            game,
            mode=s.mode,
            settle_ms=s.settle_ms,
            castle_wait_ms=s.castle_wait_ms,
            knock_wait_ms=s.knock_wait_ms,
            occupancy=occupancy,
            rng=self.rng,
        )
        self.clocks.watch(arbiter)
        return arbiter

    def _decided(self, effects: Sequence[Effect]) -> list[Effect]:
        """What a step of the arbiter decided, as it goes out: each move with its clock.
        Every step passes through here (the clocks note there what the board shows
        complete, for the next step), and every feed of the debouncer after it."""
        self._due_known = False
        return self.clocks.stamped(effects, self.arbiter, self.settings)

    @property
    def game(self) -> Game:
        return self.arbiter.game

    @property
    def timer(self) -> GameTimer | None:
        """A timed game's clocks (None: untimed); a resumed game's are set from outside."""
        return self.clocks.timer

    @timer.setter
    def timer(self, timer: GameTimer | None) -> None:
        self.clocks.timer = timer
        self._due_known = False

    # ----- the sensors and time: the one way they reach the game -----
    #
    # Whoever drives the game (the board's scan loop, a replayed script, the simulator)
    # feeds it through these, so a script replays exactly as the board lived it: every
    # decision is taken at the time it falls due, and a sensor change at its own time.

    def sense(self, square: Square, occupied: bool, now_ms: int) -> list[Effect]:
        """One square's raw sensor changed at `now_ms` (times never decrease)."""
        effects = self._advance(now_ms)
        self._feed(self.debouncer.feed_change(square, occupied, now_ms), now_ms, effects)
        return self.clocks.in_order(effects)

    def scan(self, occupancy: Bitboard, now_ms: int) -> list[Effect]:
        """One full scan taken at `now_ms`: each square that reads otherwise than in the
        scan before changed at `now_ms`."""
        effects = self._advance(now_ms)
        changed = occupancy ^ self.debouncer.raw
        for square in squares_of(changed):
            occupied = bool(occupancy >> square & 1)
            self._feed(self.debouncer.feed_change(square, occupied, now_ms), now_ms, effects)
        return self.clocks.in_order(effects)

    def advance(self, now_ms: int) -> list[Effect]:
        """Let time run to `now_ms`, deciding everything that falls due on the way, each
        at its own time."""
        return self.clocks.in_order(self._advance(now_ms))

    def _advance(self, now_ms: int) -> list[Effect]:
        effects: list[Effect] = []
        while True:
            if self.clocks.presses_waiting and not self.debouncer.busy:
                self.clocks.take_presses(self.arbiter)
                self._due_known = False
            due = self.next_deadline()
            if due is None or due > now_ms:
                self._reached = now_ms if self._reached is None else max(self._reached, now_ms)
                return effects
            flag = self._flag_due()
            if flag is not None and flag <= due:
                self._flag(flag, effects)
                self._reached = max(self._reached or 0, flag)
                continue
            if self._reached is not None and due < self._reached:
                # Overdue (a fresh arbiter, on a board set out at once, counts from its
                # own start): decided now, for time never runs backwards for the debouncer.
                due = self._reached
            self._reached = due
            self._feed(self.debouncer.tick(due), due, effects)
            if not self.debouncer.busy:
                # Only when something falls due: a tick weighs the whole position (is the
                # game over? can a draw be claimed?), too much for every scan.
                before = len(effects)
                step = self.arbiter.tick(due)
                step += follow_stuck_switch(self.debouncer, self.arbiter, due)
                effects += self._decided(step)
                self._stepped(effects, due)
                then = self.arbiter.next_deadline()
                if len(effects) == before and then is not None and then <= due:
                    return effects  # nothing more falls due at this time

    def _feed(self, changes: list[SquareChange], now_ms: int, effects: list[Effect]) -> None:
        """The debouncer's decided changes to the arbiter, after any switch it found faulty."""
        effects += self._decided(sensor_faults(self.debouncer, self.arbiter))
        for change in changes:
            self.clocks.square_changed(change.square, change.t_ms)
            effects += self._decided(self.arbiter.feed(change, now_ms))
            self._stepped(effects, now_ms)

    def _stepped(self, effects: list[Effect], now_ms: int) -> None:
        if self.on_step is not None:
            self.on_step([*self.clocks.held, *effects], now_ms)

    def commit_shown(self, now_ms: int) -> list[Effect]:
        """A move the board already shows, committed at once (a resumed game whose
        position stands a move further, say)."""
        return self.clocks.in_order(self._decided(self.arbiter.commit_shown(now_ms)))

    # ----- the clocks -----

    def press(self, white: bool, now_ms: int) -> list[Effect]:
        """A player pressed their side of the clock at `now_ms`: their time stops if their
        move is complete (decided, or complete on the board and waiting to be). What fell
        due before the press is decided first (a move whose piece rested before it)."""
        effects = self._advance(now_ms)
        self.clocks.press(white, now_ms)
        self._due_known = False
        return self.clocks.in_order(effects + self._advance(now_ms))

    def low_time(self, now_ms: int) -> Color | None:
        """The player whose time runs low at `now_ms`, if any (see GameClocks.low_time)."""
        return self.clocks.low_time(now_ms)

    @property
    def reached(self) -> int | None:
        """The latest time the game was driven to (None: not yet driven)."""
        return self._reached

    def low_time_from(self) -> int | None:
        """When the running player's time will run low (GameClocks.low_time_from)."""
        return self.clocks.low_time_from()

    def _flag_due(self) -> int | None:
        return self.clocks.flag_due(self.arbiter, self.debouncer.busy)

    def _flag(self, t_ms: int, effects: list[Effect]) -> None:
        """The running player's time ran out at `t_ms`: lost, or drawn when the opponent
        could not checkmate (FIDE 6.9). The game ends there; a fresh arbiter follows the
        board as after any ended game."""
        self._due_known = False
        loser = self.clocks.flag_fell(t_ms)
        if self.game.is_game_over():
            return
        outcome = self.game.flag_fell(loser, can_checkmate(self.game.position, not loser))
        self.arbiter = self._arbiter(self.game, self.debouncer.occupancy)
        effects.append(GameOver(t_ms, outcome.result, outcome.reason))
        self._stepped(effects, t_ms)

    def next_deadline(self) -> int | None:
        """When something may be decided even if no sensor changes. Kept until the game
        changes: the board's loop asks it a few times a turn, an idle board's every turn."""
        if not self._due_known:
            self._due, self._due_known = self._deadline(), True
        return self._due

    def _deadline(self) -> int | None:
        due = self.debouncer.next_deadline()
        if not self.debouncer.busy:  # then only a faulty square's recovery may be due
            arbiter_due = self.arbiter.next_deadline()
            if arbiter_due is not None and (due is None or arbiter_due < due):
                due = arbiter_due
        flag = self._flag_due()
        if flag is not None and (due is None or flag < due):
            due = flag
        return due

    def take_board_as_start(self, occupancy: Bitboard) -> None:
        """The pieces were set out for the game all at once, faster than hands could (the
        simulator does): `occupancy`, the board as it now stands, counts as settled at
        once, and the arbiter starts afresh from it rather than follow a whole board
        rearranged (or tell the players to undo it before the sensors have seen it)."""
        self.debouncer = Debouncer(occupancy, hold_ms=self.settings.hold_ms)
        self.arbiter = self._arbiter(self.game, occupancy)
        self._due_known = False

    # ----- the host -----

    def carry_out(self, command: GameCommand, now_ms: int) -> Answer:
        """A host command at `now_ms`, after what fell due before it: its effects are
        those decided on the way, then the command's own."""
        due = self.advance(now_ms)
        answer = self.command(command, now_ms)
        return replace(answer, effects=(*due, *answer.effects)) if due else answer

    def command(self, command: GameCommand, now_ms: int) -> Answer:
        """Carry out a host command about the game (the rest are the app's). Its effects
        go out with those held for a clock press still waiting for the sensors: the
        reply, made here once, follows what it did."""
        try:
            outcome, effects = self._dispatch(command, now_ms)
        except InvalidInputError as error:
            self._due_known = False  # refused, maybe after changing something on the way
            return Answer(ErrorReply("refused", str(error), id=command.id))
        released = self.clocks.in_order(self._decided(effects), release=True)
        return Answer(Ack(outcome, command.id), tuple(released))

    def settle(self, now_ms: int) -> list[Effect]:
        """What falls due by `now_ms` and what the clocks held: all a report made now tells."""
        due = self.advance(now_ms)
        return [*due, *self.clocks.in_order(self._decided(()), release=True)]

    def _dispatch(self, command: GameCommand, now: int) -> tuple[Outcome, Sequence[Effect]]:
        match command:
            case StartGame():
                return self._new_game(command, now)
            case SetMode(mode=mode):
                self.settings = replace(self.settings, mode=mode)
                self.arbiter.configure(mode=mode)
                return ModeSet(mode), ()
            case ChoosePromotion(piece=piece):
                effects = self.arbiter.choose_promotion(piece_type_from_symbol(piece), now)
                return PromotionSet(piece), effects
            case TakeBack(to_ply=to_ply):
                return self._take_back(now) if to_ply is None else self._take_back_to(to_ply, now)
            case AddTime(color=color, ms=ms):
                return self._add_time(color == "white", ms, now)
            case ShowMove(uci=uci):
                self.arbiter.show_move(None if uci is None else self.game.position.parse_uci(uci))
                return MoveNamed(uci), ()
            case Mark(squares=squares, blink=blink):
                steady, blinking = (
                    bitboard_of([parse_square(n) for n in k]) for k in (squares, blink)
                )
                self.arbiter.mark(steady, blinking)
                return Marked(squares, blink), ()
            case Draw(agreed=agreed):
                self._refuse_if_over()
                # A claim that is not valid raises IllegalMoveError, an InvalidInputError
                # that `command` answers with an error.
                if agreed:
                    return self._ended(self.arbiter.agree_draw(now))
                return self._ended(self.arbiter.claim_draw(now))
            case Resign(color=color):
                self._refuse_if_over()
                white = self.game.position.turn if color is None else color == "white"
                return self._ended(self.arbiter.resign(white, now))
            case ChangeSettings():
                return self._change_settings(command), ()
            case _:
                assert_never(command)

    def _new_game(self, command: StartGame, now: int) -> tuple[Outcome, Sequence[Effect]]:
        # The host's clock for this game and those set up after it; none said, the board's.
        control = self._own_control if command.clock is None else parse_time_control(command.clock)
        self.settings = replace(self.settings, time_control=control)
        if command.fen is not None:
            game = Game(Position.from_fen(command.fen, chess960=command.variant == "chess960"))
        elif command.variant == "chess960":
            # A Chess960 start: the board guides the players piece type by piece type, and
            # the game starts when the position stands (at once if it already does).
            number = random_chess960_number(self.rng) if command.number is None else command.number
            effects = self.arbiter.start_setup(number, now)
            return GameStarted(Position.chess960_start(number).fen()), effects
        else:
            game = Game()
        if game.is_game_over():
            raise InvalidInputError("the game would be over before it starts")
        effects = self.arbiter.start_game(game, now)
        return GameStarted(game.start.fen()), effects

    def _take_back(self, now: int) -> tuple[Outcome, Sequence[Effect]]:
        # Mate or stalemate can be taken back (the host is the arbiter of a casual game);
        # a resignation, an agreement or a claim ends the game for good: the arbiter
        # refuses with an InvalidInputError, which `command` answers with an error.
        effects = self.arbiter.take_back(now)
        taken = effects[0]
        assert isinstance(taken, TakenBack)
        return MoveNamed(taken.uci), effects

    def _take_back_to(self, ply: int, now: int) -> tuple[Outcome, Sequence[Effect]]:
        """Every move after `ply` taken back at once (an arbiter reinstating the position
        before an irregularity, FIDE 7.5.1), each told as a takeback, and the lights then
        guide the players to the position at `ply`. Already there: nothing to do, so the
        command may be sent again safely."""
        game = self.game
        if ply > len(game):
            raise InvalidInputError(f"the game has {len(game)} plies, not {ply}")
        if ply == len(game):
            return MoveNamed(None), ()
        effects = self.arbiter.take_back_to(ply, now)
        earliest = [e for e in effects if isinstance(e, TakenBack)][-1]  # the irregular move
        return MoveNamed(earliest.uci), effects

    def _add_time(self, white: bool, ms: int, now: int) -> tuple[Outcome, Sequence[Effect]]:
        """An arbiter's decision: `ms` more on a player's clock; the ack carries the
        clocks after it."""
        self._refuse_if_over()
        added = self.clocks.add(white, ms, now)
        clock = self.clock_now(now)  # a timed game's, or `add` has refused
        return (Done() if clock is None else TimeGiven(clock)), (added,)

    def _ended(self, effects: list[Effect]) -> tuple[Outcome, Sequence[Effect]]:
        over = effects[-1]
        assert isinstance(over, GameOver)
        return GameEnded(over.result, over.reason), effects

    def _change_settings(self, command: ChangeSettings) -> SettingsNow:
        named = ("settle_ms", "castle_wait_ms", "knock_wait_ms", "tournament")
        given = {k: v for k in named if (v := getattr(command, k)) is not None}
        s = self.settings = replace(self.settings, **given)
        self.arbiter.configure(
            settle_ms=s.settle_ms, castle_wait_ms=s.castle_wait_ms, knock_wait_ms=s.knock_wait_ms
        )
        return SettingsNow(s.mode, s.settle_ms, s.castle_wait_ms, s.knock_wait_ms, s.tournament)

    def _refuse_if_over(self) -> None:
        if self.game.is_game_over():
            raise InvalidInputError("the game is already over")

    # ----- the whole state: what the link reports (game_report.py) -----

    def moves_page(
        self, start: int, now_ms: int | None = None, to: Addressed = UNADDRESSED
    ) -> MovesPage:
        """A few of the game's moves from ply `start` (0-based), a timed game's clocks at
        `now_ms` (see `clock_now`); a reply as `to` says."""
        return moves_page(self.game, start, self.clock_now(now_ms), to)

    def state(self, now_ms: int | None = None, to: Addressed = UNADDRESSED) -> StateMessage:
        """The whole state; a timed game's clocks as they stand at `now_ms` (absent: the
        latest time the game was driven to); a reply as `to` says."""
        return state_message(
            self.game,
            self.arbiter.view(),
            mode=self.settings.mode,
            occupancy=self.debouncer.occupancy,
            clock=self.clock_now(now_ms),
            to=to,
        )

    def clock_now(self, now_ms: int | None = None) -> StateClock | None:
        """A timed game's clocks at `now_ms` (absent: the latest time the game was driven
        to); None when the game is not timed."""
        timer = self.timer
        if timer is None:
            return None
        return state_clock(timer, max(now_ms or 0, self._reached or 0, timer.clocks.since_ms))
