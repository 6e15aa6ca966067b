"""The timing of one game: the clocks, and what moves them.

- Without clock buttons a player's time stops when their move is complete on the board,
  at the time of the sensor change that completed it (the caller says when that was),
  not at the later moment the board decided.
- With buttons the press stops it (FIDE 6.2), and a press before the player's move is
  complete does nothing. A move complete but not yet decided counts as complete. The
  move tells the times as a press at its completion would have left them, the increment
  included.
- A takeback gives both players their time back as it stood when the move was complete
  (the increment it earned is taken back too), and the mover's time runs again; from that
  completion when the next move was complete before the takeback (the board amended its
  reading of the hands, which had never let go of the move).
- Time added by the arbiter stays: a later takeback gives it back with the rest.
- The flag: when the running player's time runs out, `flag_ms` says when.

Pure and mutable: one value per game, driven with times as arguments.
"""

from __future__ import annotations

from dataclasses import replace

from reedboard.chess_clock.clocks import Clocks
from reedboard.chess_clock.time_control import TimeControl
from reedboard.rules.pieces import WHITE, Color


class GameTimer:
    def __init__(
        self, control: TimeControl, start_ms: int, *, buttons: bool = False, turn: Color = WHITE
    ) -> None:
        self.control = control
        self.buttons = buttons
        self.clocks = Clocks.start(control, start_ms, turn)
        # The clocks as they stood when each move of the game was complete, its mover's
        # time running: what a takeback gives back.
        self.history: list[Clocks] = []
        # Buttons: the players whose move is complete and who have not pressed yet.
        self._owed: set[Color] = set()
        # Buttons: a press that stopped a move not yet decided (its clocks as they stood
        # when the move was complete), until the move is decided.
        self._pressed_ahead: Clocks | None = None
        # The last takeback, until the next move: when the move taken back was complete,
        # and when it was taken back.
        self._taken_back_ms: tuple[int, int] | None = None

    @classmethod
    def resumed(cls, clocks: Clocks, now_ms: int, *, buttons: bool = False) -> GameTimer:
        """A game's timing picked up again at `now_ms` from clocks kept earlier (after a
        power cut): the times as kept, the running player's from `now_ms`."""
        timer = cls(clocks.control, now_ms, buttons=buttons)
        timer.clocks = clocks if clocks.running is None else replace(clocks, since_ms=now_ms)
        return timer

    @property
    def over(self) -> bool:
        return self.clocks.running is None

    def left(self, now_ms: int) -> tuple[int, int]:
        """(White's, Black's) time left at `now_ms`."""
        return self.clocks.left_ms(WHITE, now_ms), self.clocks.left_ms(not WHITE, now_ms)

    def flag_ms(self) -> int | None:
        return self.clocks.flag_ms()

    def move_made(self, mover: Color, completed_ms: int) -> tuple[int, int]:
        """`mover`'s move was decided; it was complete on the board at `completed_ms`.
        Both players' time left just after it: (White's, Black's)."""
        self._amended(mover, completed_ms)
        at = max(completed_ms, self.clocks.since_ms)
        if self.over:
            return self.left(at)
        if self._pressed_ahead is not None and self._pressed_ahead.running is mover:
            self.history.append(self._pressed_ahead)
            self._pressed_ahead = None
            return self.left(at)
        running = self.clocks.running
        if running is mover:
            self.history.append(self.clocks.at(at))
        else:
            # The mover's time was not running (they moved before the opponent pressed):
            # the clocks as they are, for a takeback to give back.
            self.history.append(replace(self.clocks.at(at), running=mover, since_ms=at))
        if self.buttons:
            self._owed.add(mover)
            if running is mover:
                # Their time stops at the press; the move tells the times as they stood
                # when it was complete, the increment included, as a press then would.
                stopped = self.clocks.stop(at)
                return stopped.left_ms(WHITE, at), stopped.left_ms(not WHITE, at)
        elif running is mover:
            self.clocks = self.clocks.stop(at)
        return self.left(at)

    def _amended(self, mover: Color, completed_ms: int) -> None:
        """A move complete before the takeback just decided: the board read the hands
        again (a knocked neighbour's capture made, then taken back for the move the hand
        was making), and the mover never let go of the move, so their time ran from when
        the move taken back was complete, not only from the takeback."""
        taken_back, self._taken_back_ms = self._taken_back_ms, None
        if taken_back is None or self.clocks.running is not mover:
            return
        complete_ms, undone_ms = taken_back
        if complete_ms <= completed_ms < undone_ms and self.clocks.since_ms == undone_ms:
            self.clocks = replace(self.clocks, since_ms=complete_ms)

    def press(self, color: Color, now_ms: int, *, completed_ms: int | None = None) -> bool:
        """`color` pressed their side at `now_ms`; `completed_ms`: when their move was
        complete if it is complete on the board but not decided yet. Whether the press
        stopped their time (False: not their time, or their move is not complete)."""
        if not self.buttons or self.over or self.clocks.running is not color:
            return False
        if color in self._owed:
            self._owed.discard(color)
        elif completed_ms is not None and completed_ms <= now_ms:
            self._pressed_ahead = self.clocks.at(max(completed_ms, self.clocks.since_ms))
        else:
            return False
        self.clocks = self.clocks.stop(now_ms)
        return True

    def taken_back(self, now_ms: int) -> None:
        """The last move was taken back at `now_ms`: the times as they stood when it was
        complete, and its mover's time runs from `now_ms`."""
        if not self.history:
            return
        before = self.history.pop()
        assert before.running is not None
        self._owed.discard(before.running)
        self._pressed_ahead = None
        self.clocks = replace(before, since_ms=now_ms)
        self._taken_back_ms = (before.since_ms, now_ms)

    def add(self, color: Color, ms: int) -> None:
        """`ms` more for `color`, for good: the times a takeback gives back hold it too,
        so taking back a move after the arbiter's decision does not undo the decision."""
        self.clocks = self.clocks.added(color, ms)
        self.history = [before.added(color, ms) for before in self.history]
        if self._pressed_ahead is not None:
            self._pressed_ahead = self._pressed_ahead.added(color, ms)

    def halt(self, now_ms: int) -> None:
        """The game is over at `now_ms`: both clocks stop."""
        self.clocks = self.clocks.halt(now_ms)
