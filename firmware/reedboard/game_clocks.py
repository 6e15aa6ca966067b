"""The clocks of the board's timed game, as part of `BoardGame`: presses of the clock's
buttons, a move stopping its player's time when it was complete on the board (not when
the arbiter decided it), a takeback giving the time back, and the flag falling.

Pure, like the game it is part of: time comes in as arguments. `BoardGame` holds the
state these read and brings the arbiter they step.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from reedboard.arbiter.arbiter import Arbiter
from reedboard.arbiter.effects import ClockPressed, Effect, GameOver, MoveMade, NewGame, TakenBack
from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.mating_material import can_checkmate
from reedboard.chess_clock.time_control import TimeControl
from reedboard.rules.game import Game
from reedboard.rules.moves import move_of_code
from reedboard.rules.pieces import Color
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import Debouncer

# A player with less time than this sees it on their back rank.
LOW_TIME_MS = 10_000


class ClockSettings(Protocol):
    """What the clocks read of the game's settings."""

    @property
    def time_control(self) -> TimeControl | None: ...

    @property
    def clock_buttons(self) -> bool: ...


class GameClocks:
    """The clock side of `BoardGame`, which sets these attributes up."""

    settings: ClockSettings
    arbiter: Arbiter
    debouncer: Debouncer
    timer: GameTimer | None
    # Clock presses (White's?, when) waiting for the sensors to settle what the hands
    # did before them: whether the move was complete then.
    _presses: list[tuple[bool, int]]
    # When each move shown complete was first complete, by (ply, from-to squares):
    # the time its player's clock stops at, whenever the arbiter decides it.
    _complete_seen: dict[tuple[int, Square, Square], int]
    _changed_at: dict[Square, int]  # each square's latest decided change

    @property
    def game(self) -> Game:
        return self.arbiter.game

    def advance(self, now_ms: int) -> list[Effect]:
        raise NotImplementedError

    def _arbiter(self, game: Game, occupancy: Bitboard) -> Arbiter:
        raise NotImplementedError

    def _stepped(self, effects: list[Effect], now_ms: int) -> None:
        raise NotImplementedError

    def _new_timer(self, control: TimeControl, start_ms: int, turn: Color) -> GameTimer:
        return GameTimer(control, start_ms, buttons=self.settings.clock_buttons, turn=turn)

    def press(self, white: bool, now_ms: int) -> list[Effect]:
        """A player pressed their side of the clock at `now_ms`: their time stops if their
        move is complete (decided, or complete on the board and waiting to be)."""
        self._presses.append((white, now_ms))
        return self.advance(now_ms)

    def _pressed(self, effects: list[Effect]) -> None:
        presses, self._presses = self._presses, []
        timer = self.timer
        if timer is None:
            return
        for white, t_ms in presses:
            pending = self._completion_pending()
            if timer.press(white, t_ms, completed_ms=pending):
                effects.append(ClockPressed(t_ms, *timer.left(t_ms)))

    def low_time(self, now_ms: int) -> Color | None:
        """The player whose time runs and is under `LOW_TIME_MS` at `now_ms`, if any."""
        timer = self.timer
        if timer is None or timer.over:
            return None
        running = timer.clocks.running
        assert running is not None
        left = timer.clocks.left_ms(running, now_ms)
        return running if 0 < left < LOW_TIME_MS else None

    def _completion_pending(self) -> int | None:
        """When the move the board shows complete, not yet decided, was complete: the
        sensor change that completed it, which the move's player's time stops at. Noted
        for the move's ply: a move decided later (after the opponent's own began, say)
        still stops its player's time there."""
        arbiter = self.arbiter
        ply = len(arbiter.game) + 1
        for code, first in arbiter._first_complete.items():
            move = move_of_code(code)
            self._complete_seen.setdefault((ply, move.from_square, move.to_square), first)
        complete = arbiter._complete
        return None if complete is None else arbiter._first_complete.get(complete.code)

    def _completed_ms(self, move: MoveMade, last: bool) -> int | None:
        """When a move the arbiter decided was complete: as seen while it waited to be
        decided, or (the step's last move) as the arbiter says."""
        game = self.game
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
        moved = self.arbiter._moved
        return moved[0] if last and moved is not None else None

    def _time(self, effects: list[Effect], start: int) -> None:
        """The clocks follow what a step of the game decided (`effects[start:]`): a move
        stops its player's time and carries both times, a takeback gives the time back,
        a new game starts the clocks anew, the end of the game stops them."""
        if self.settings.time_control is None:
            return
        self._completion_pending()  # a move complete by the end of the step
        moves = [i for i in range(start, len(effects)) if isinstance(effects[i], MoveMade)]
        for index in range(start, len(effects)):
            effect = effects[index]
            timer = self.timer
            if isinstance(effect, NewGame):
                turn = effect.fen.split()[1] == "w"
                self.timer = self._new_timer(self.settings.time_control, effect.t_ms, turn)
                self._complete_seen = {}
            elif timer is None:
                continue
            elif isinstance(effect, MoveMade):
                white_moved = effect.fen.split()[1] == "b"
                completed = self._completed_ms(effect, index == moves[-1])
                done = effect.t_ms if completed is None else min(completed, effect.t_ms)
                effects[index] = replace(effect, clock=timer.move_made(white_moved, done))
                self._complete_seen = {
                    key: t for key, t in self._complete_seen.items() if key[0] > effect.ply
                }
            elif isinstance(effect, TakenBack):
                timer.taken_back(effect.t_ms)
                self._complete_seen = {}
            elif isinstance(effect, GameOver):
                timer.halt(effect.t_ms)

    def _flag_due(self) -> int | None:
        """When the running player's flag falls, unless a move of theirs complete before
        then waits to be decided (without buttons it stopped their time), or the sensors
        are still settling what the hands did."""
        timer = self.timer
        if timer is None or timer.over:
            return None
        flag = timer.flag_ms()
        if flag is None or self.debouncer.busy:
            return None
        pending = self._completion_pending()
        if not timer.buttons and pending is not None and pending <= flag:
            return None
        return flag

    def _flag(self, t_ms: int, effects: list[Effect]) -> None:
        """The running player's time ran out at `t_ms`: lost, or drawn when the opponent
        could not checkmate (FIDE 6.9). The game ends there; a fresh arbiter follows the
        board as after any ended game."""
        timer = self.timer
        assert timer is not None and timer.clocks.running is not None
        loser = timer.clocks.running
        timer.halt(t_ms)
        if self.game.is_game_over():
            return
        outcome = self.game.flag_fell(loser, can_checkmate(self.game.position, not loser))
        self.arbiter = self._arbiter(self.game, self.debouncer.occupancy)
        effects.append(GameOver(t_ms, outcome.result, outcome.reason))
        self._stepped(effects, t_ms)
