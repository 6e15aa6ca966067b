"""The board's game as a client of its events knows it: built from `new_game`, `move`,
`takeback` and `game_over` as they come, or from a `state` reply whole (at start, after
a power cut, or whenever the events were not followed). Pure: messages in, no I/O.

A move whose ply is not the next one, or that does not play from the position known,
means the events were not all heard: the game is then unknown (`game` None) until the
next `state` or `new_game`, and `needs_state` says to ask for one."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.errors import ReedboardError
from reedboard.events import GameOver, MoveMade, NewGame, TakenBack
from reedboard.link.acks import StateClock
from reedboard.link.board_messages import BoardHello, EffectMessage, StateMessage
from reedboard.rules.game import Game
from reedboard.rules.position import Position


@dataclass
class FollowedGame:
    game: Game | None = None  # None: not known yet
    result: tuple[str, str] | None = None  # (result, reason) once over
    clock: tuple[int, int] | None = None  # both players' time left after the last move
    time_control: str | None = None  # a timed game's control, as the board writes it
    changes: int = 0  # how often the game changed: what was decided before is stale

    @property
    def needs_state(self) -> bool:
        return self.game is None

    @property
    def over(self) -> bool:
        return self.result is not None

    def hear(self, message: object) -> bool:
        """Take in one message from the board; whether the game changed."""
        if isinstance(message, StateMessage):
            return self._state(message)
        if isinstance(message, BoardHello):
            self._forget()  # the board (re)started: its state follows on asking
            return True
        if not isinstance(message, EffectMessage):
            return False
        event = message.effect
        if isinstance(event, NewGame):
            chess960 = bool(event.chess960)
            self.game = Game(Position.from_fen(event.fen, chess960=chess960))
            self.result, self.clock, self.time_control = None, None, event.time_control
        elif isinstance(event, MoveMade):
            self._move(event)
        elif isinstance(event, TakenBack):
            if self.game is not None and len(self.game):
                self.game.pop()
            self.result = None
        elif isinstance(event, GameOver):
            self.result = (event.result, event.reason)
        else:
            return False
        self.changes += 1
        return True

    def _move(self, event: MoveMade) -> None:
        game = self.game
        if game is None or event.ply != len(game) + 1:
            self._forget()
            return
        try:
            game.push(game.position.parse_uci(event.uci))
        except (ReedboardError, ValueError):
            self._forget()
            return
        self.clock = event.clock

    def _state(self, state: StateMessage) -> bool:
        try:
            game = Game(Position.from_fen(state.start_fen, chess960=state.chess960))
            for uci in state.moves:
                game.push(game.position.parse_uci(uci))
        except (ReedboardError, ValueError):
            self._forget()
            return True
        self.game = game
        self.result = None if state.result is None else (state.result, state.reason or "")
        self.clock = _both(state.clock)
        self.time_control = None if state.clock is None else state.clock.time_control
        self.changes += 1
        return True

    def _forget(self) -> None:
        self.game, self.result, self.clock = None, None, None
        self.changes += 1


def _both(clock: StateClock | None) -> tuple[int, int] | None:
    return None if clock is None else (clock.white_ms, clock.black_ms)
