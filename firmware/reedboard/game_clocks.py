"""The clocks of the board's timed game, held by `BoardGame`: presses of the clock's
buttons, a move stopping its player's time when it was complete on the board (not when
the arbiter decided it), a takeback giving the time back, and the flag falling.

Pure, like the game that holds them: time comes in as arguments, and so does the arbiter
they read (the game replaces it at times), through its public account of when moves were
complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.time_control import TimeControl
from reedboard.errors import InvalidInputError
from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    MoveMade,
    NewGame,
    TakenBack,
    TimeAdded,
)
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.game import Game
from reedboard.rules.pieces import Color
from reedboard.rules.squares import Square

# A player with less time than this sees it on their back rank.
LOW_TIME_MS = 10_000


class ClockSettings(Protocol):
    """What the clocks read of the game's settings."""

    @property
    def time_control(self) -> TimeControl | None: ...

    @property
    def clock_buttons(self) -> bool: ...


class GameClocks:
    """A timed game's clocks (`timer`, None when untimed) and what they note of the board
    to stop each move's time where it was complete."""

    def __init__(self, settings: ClockSettings, game: Game) -> None:
        """The clocks of `game`, started at t=0 when `settings` time it (a resumed game's
        are set by the caller)."""
        self.timer: GameTimer | None = None
        # Clock presses (White's?, when) waiting for the sensors to settle what the hands
        # did before them: whether the move was complete then.
        self._presses: list[tuple[bool, int]] = []
        # When each move shown complete was first complete, by (ply, from-to squares):
        # the time its player's clock stops at, whenever the arbiter decides it.
        self._complete_seen: dict[tuple[int, Square, Square], int] = {}
        self._changed_at: dict[Square, int] = {}  # each square's latest decided change
        self._told: list[ClockPressed] = []  # presses that stopped a time, not yet told
        self._held: list[Effect] = []  # effects after a waiting press's time
        if settings.time_control is not None and not game.is_game_over():
            self.timer = _new_timer(settings, settings.time_control, 0, game.position.turn)

    # ----- what the game tells the clocks -----

    def square_changed(self, square: Square, t_ms: int) -> None:
        """The debouncer decided that `square` changed at `t_ms`."""
        self._changed_at[square] = t_ms

    def press(self, white: bool, now_ms: int) -> None:
        """A player pressed their side of the clock at `now_ms`: it counts once the sensors
        have settled what the hands did before (see `take_presses`)."""
        self._presses.append((white, now_ms))

    @property
    def presses_waiting(self) -> bool:
        return bool(self._presses)

    @property
    def earliest_press(self) -> int | None:
        """When the earliest press still waiting was made (None: none waits)."""
        return min((t_ms for _white, t_ms in self._presses), default=None)

    def take_presses(self, arbiter: MoveReader) -> None:
        """The presses waiting, now that the sensors are settled: a player's time stops if
        their move is complete (decided, or complete on the board and waiting to be)."""
        presses, self._presses = self._presses, []
        for white, t_ms in presses:
            self._take_press(white, t_ms, arbiter.pending_completed_ms)

    def _take_told(self) -> list[ClockPressed]:
        """The presses that stopped a player's time since the last call, to be told in
        the order of their times among the game's other effects."""
        told, self._told = self._told, []
        return told

    @property
    def held(self) -> list[Effect]:
        """The effects held back behind a press still waiting (see `in_order`)."""
        return self._held

    def in_order(self, effects: list[Effect], *, release: bool = False) -> list[Effect]:
        """What goes out now of the effects held and `effects`, in the order of their
        times: a press that stopped a time goes before the effects decided after it (its
        sensors settled later), and while a press still waits, the effects after its time
        wait with it (all go out with `release`: a host command's reply follows them)."""
        ready = [*self._held, *effects]
        for pressed in self._take_told():
            at = next((i for i, e in enumerate(ready) if e.t_ms > pressed.t_ms), len(ready))
            ready.insert(at, pressed)
        waiting = None if release else self.earliest_press
        cut = len(ready)
        if waiting is not None:
            cut = next((i for i, e in enumerate(ready) if e.t_ms > waiting), len(ready))
        self._held = ready[cut:]
        return ready[:cut]

    def _take_press(self, white: bool, t_ms: int, completed_ms: int | None) -> None:
        timer = self.timer
        if timer is not None and timer.press(white, t_ms, completed_ms=completed_ms):
            self._told.append(ClockPressed(t_ms, *timer.left(t_ms)))

    def _note_completions(self, arbiter: MoveReader) -> None:
        """Note when each move the board shows complete, not yet decided, was complete:
        the sensor change that completed it, which the move's player's time stops at.
        Noted for the move's ply: a move decided later (after the opponent's own began,
        say) still stops its player's time there. The one place the clocks write down
        what the arbiter shows, at its steps: the arbiter changes only in them, so the
        questions between them (`flag_due`) only read it."""
        ply = len(arbiter.game) + 1
        for move, first in arbiter.completions():
            self._complete_seen.setdefault((ply, move.from_square, move.to_square), first)

    def watch(self, arbiter: MoveReader) -> None:
        """A fresh arbiter: what it shows complete is noted before it decides anything."""
        self._note_completions(arbiter)

    def stamped(
        self, effects: Sequence[Effect], arbiter: MoveReader, settings: ClockSettings
    ) -> list[Effect]:
        """What a step of the arbiter decided (`effects`), as the clocks follow it: each
        move with both players' times after it, a takeback giving the time back, a new
        game starting the clocks anew, the end of the game stopping them. Every step
        passes through here, so what the board shows complete after it is noted before
        the arbiter decides again."""
        stamped = list(effects)
        if settings.time_control is None:
            if any(isinstance(effect, NewGame) for effect in effects):
                # An untimed game after a timed one: nothing of the old clocks is left
                # to show, and no flag of theirs can fall in it.
                self.timer = None
                self._complete_seen = {}
            return stamped
        self._note_completions(arbiter)  # a move complete by the end of the step
        last = max((i for i, e in enumerate(effects) if isinstance(e, MoveMade)), default=-1)
        for index, effect in enumerate(effects):
            if isinstance(effect, NewGame):
                turn = arbiter.game.start.turn
                self.timer = _new_timer(settings, settings.time_control, effect.t_ms, turn)
                self._complete_seen = {}
            elif self.timer is None:
                continue
            elif isinstance(effect, MoveMade):
                stamped[index] = self._move_made(effect, arbiter, index == last)
            elif isinstance(effect, TakenBack):
                self.timer.taken_back(effect.t_ms)
                self._complete_seen = {}
            elif isinstance(effect, GameOver):
                self.timer.halt(effect.t_ms)
        self._note_completions(arbiter)  # what stands complete now, for the next decision
        return stamped

    def _move_made(self, move: MoveMade, arbiter: MoveReader, last: bool) -> MoveMade:
        """`move`, decided, with both players' times after it: its player's time stops
        where the move was complete. With buttons, a press of its player made after that
        and still waiting for the sensors is taken first, for it came before the
        decision."""
        timer = self.timer
        assert timer is not None
        white_moved = _mover(arbiter.game, move.ply)
        completed = self._completed_ms(move, arbiter, last)
        done = move.t_ms if completed is None else min(completed, move.t_ms)
        for press in [p for p in self._presses if p[0] == white_moved and done <= p[1] < move.t_ms]:
            self._presses.remove(press)
            self._take_press(white_moved, press[1], done)
        clock = timer.move_made(white_moved, done)
        self._complete_seen = {
            key: t for key, t in self._complete_seen.items() if key[0] > move.ply
        }
        return replace(move, clock=clock)

    def add(self, white: bool, ms: int, now_ms: int) -> TimeAdded:
        """The arbiter gives `ms` more to a player at `now_ms` (White when `white`);
        `InvalidInputError` when there is no running game's clock to add it to."""
        timer = self.timer
        if timer is None:
            raise InvalidInputError("the game is not timed: there is no clock to add time to")
        if timer.over:
            raise InvalidInputError("the clocks are stopped: the game is over")
        timer.add(white, ms)
        return TimeAdded(now_ms, white, ms, *timer.left(now_ms))

    # ----- what the game asks of the clocks -----

    def low_time(self, now_ms: int) -> Color | None:
        """The player whose time runs and is under `LOW_TIME_MS` at `now_ms`, if any."""
        timer = self.timer
        if timer is None or timer.over:
            return None
        running = timer.clocks.running
        assert running is not None
        left = timer.clocks.left_ms(running, now_ms)
        return running if 0 < left < LOW_TIME_MS else None

    def low_time_from(self) -> int | None:
        """When the running player's time falls under `LOW_TIME_MS`, as the clocks stand
        now (None: no clock runs)."""
        timer = self.timer
        flag = None if timer is None or timer.over else timer.flag_ms()
        return None if flag is None else flag - LOW_TIME_MS + 1

    def flag_due(self, arbiter: MoveReader, settling: bool) -> int | None:
        """When the running player's flag falls, unless a move of theirs complete before
        then waits to be decided (without buttons it stopped their time), or the sensors
        are still settling what the hands did (`settling`). A question: it changes
        nothing, however often the board's loop asks it."""
        timer = self.timer
        if timer is None or timer.over:
            return None
        flag = timer.flag_ms()
        if flag is None or settling:
            return None
        pending = arbiter.pending_completed_ms
        if not timer.buttons and pending is not None and pending <= flag:
            return None
        return flag

    def flag_fell(self, t_ms: int) -> Color:
        """The running player's time ran out at `t_ms`: the clocks stop; returns whose."""
        timer = self.timer
        assert timer is not None and timer.clocks.running is not None
        loser = timer.clocks.running
        timer.halt(t_ms)
        return loser

    def _completed_ms(self, move: MoveMade, arbiter: MoveReader, last: bool) -> int | None:
        """When a move the arbiter decided was complete: as seen while it waited to be
        decided, or (the step's last move) as the arbiter says."""
        game = arbiter.game
        if 0 < move.ply <= len(game):
            made = game.moves[move.ply - 1]
            seen = self._complete_seen.get((move.ply, made.from_square, made.to_square))
            if seen is not None:
                return seen
            if not last:
                # Never shown complete on its own (the opponent's hand was already in
                # the air): the last change on the squares it landed on completed it.
                before = game.positions[move.ply - 1]
                landed = [made.to_square]
                if before.is_castling(made):
                    _kf, king_to, _rf, rook_to = before.castling_squares(made)
                    landed = [king_to, rook_to]
                times = [self._changed_at[sq] for sq in landed if sq in self._changed_at]
                if times:
                    return max(times)
        return arbiter.last_completed_ms if last else None


def _mover(game: Game, ply: int) -> Color:
    """Who made the game's move of `ply` (1-based): the side to move at the start on odd
    plies."""
    start = game.start.turn
    return start if ply % 2 == 1 else not start


def _new_timer(
    settings: ClockSettings, control: TimeControl, start_ms: int, turn: Color
) -> GameTimer:
    return GameTimer(control, start_ms, buttons=settings.clock_buttons, turn=turn)
