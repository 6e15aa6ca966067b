"""Both players' clocks as one frozen value: what each has left, whose is running and
since when, and how many moves each has made (for the periods of a classical control).
Every change is a new value, so a game's clocks can be kept per move and given back."""

from __future__ import annotations

from dataclasses import dataclass, replace

from reedboard.chess_clock.time_control import TimeControl
from reedboard.rules.pieces import WHITE, Color


@dataclass(frozen=True, slots=True)
class Clocks:
    control: TimeControl
    white_ms: int  # what White has left at `since_ms` (all of it, when White's is stopped)
    black_ms: int
    running: Color | None  # whose time runs; None: both stopped (not started, or over)
    since_ms: int  # when the running clock last started
    white_moves: int = 0  # moves each player has completed
    black_moves: int = 0

    @classmethod
    def start(cls, control: TimeControl, t_ms: int, turn: Color = WHITE) -> Clocks:
        """A new game at `t_ms`: both players have the first period's time, and the side
        to move's runs."""
        first = control.start_ms
        return cls(control, first, first, turn, t_ms)

    def left_ms(self, color: Color, now_ms: int) -> int:
        """What `color` has left at `now_ms` (never below 0)."""
        held = self.white_ms if color else self.black_ms
        if self.running is color:
            held -= max(0, now_ms - self.since_ms)
        return max(0, held)

    def flag_ms(self) -> int | None:
        """When the running player's time runs out, if it runs."""
        if self.running is None:
            return None
        return self.since_ms + (self.white_ms if self.running else self.black_ms)

    def at(self, now_ms: int) -> Clocks:
        """The same clocks read at `now_ms`: the running player's time charged so far."""
        if self.running is None:
            return self
        return self._charged(self.running, now_ms)

    def stop(self, now_ms: int) -> Clocks:
        """The running player's move is complete at `now_ms` (or their clock pressed):
        their time stops, the increment and any next period's time are added (FIDE 6.3),
        and the opponent's time runs."""
        if self.running is None:
            return self
        mover = self.running
        charged = self._charged(mover, now_ms)
        made = (charged.white_moves if mover else charged.black_moves) + 1
        gained = self.control.increment_ms + self.control.bonus_after(made)
        if mover:
            return replace(
                charged,
                white_ms=charged.white_ms + gained,
                white_moves=made,
                running=not mover,
            )
        return replace(
            charged, black_ms=charged.black_ms + gained, black_moves=made, running=not mover
        )

    def halt(self, now_ms: int) -> Clocks:
        """Both clocks stopped at `now_ms` (the game is over)."""
        return replace(self.at(now_ms), running=None)

    def resume(self, color: Color, now_ms: int) -> Clocks:
        """`color`'s time runs from `now_ms`, the times as they are (a takeback, a resumed
        game)."""
        return replace(self.at(now_ms), running=color, since_ms=now_ms)

    def added(self, color: Color, ms: int) -> Clocks:
        """`ms` more for `color`, their time running or not (an arbiter's decision: FIDE
        7.5.5's two minutes to the opponent of an illegal move, a disturbance, a faulty
        clock)."""
        if color:
            return replace(self, white_ms=self.white_ms + ms)
        return replace(self, black_ms=self.black_ms + ms)

    def _charged(self, color: Color, now_ms: int) -> Clocks:
        left = self.left_ms(color, now_ms)
        if color:
            return replace(self, white_ms=left, since_ms=now_ms)
        return replace(self, black_ms=left, since_ms=now_ms)
