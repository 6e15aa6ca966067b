"""The host's copy of the board's games, kept from the board's messages. Pure.

The board is the truth: a `state` message replaces whatever the host believed about the
game it names, and a move that does not follow on from the host's copy (another game,
a ply skipped) makes the mirror ask for the state (`needs_state`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.errors import InvalidInputError
from reedboard.events import (
    ClockPressed,
    GameOver,
    MoveMade,
    NewGame,
    TakenBack,
    Violation,
)
from reedboard.link.board_messages import BoardHello, BoardMessage, EffectMessage, StateMessage
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES


@dataclass
class MirroredGame:
    game: Game
    id: int = 0
    result: str | None = None
    reason: str | None = None
    comments: dict[int, str] = field(default_factory=dict)
    # A timed game: its time control as `@clock` writes it, and both clocks (White's,
    # Black's ms) after each ply the board told of.
    time_control: str | None = None
    clocks: dict[int, tuple[int, int]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not len(self.game) and self.result is None


class GameMirror:
    def __init__(self, *, keep_games: bool = False) -> None:
        """`keep_games`: a game's record is never rewritten by a `state` (the relay's
        copy, where a state may come from someone else than the board): one that does
        not follow on from the game, or adds moves after its result, starts a new game,
        and the old one stays as it was. Moves are taken back only by the takebacks the
        stream tells of."""
        self.keep_games = keep_games
        self.current: MirroredGame | None = None
        self.finished: list[MirroredGame] = []
        self.needs_state = True
        # The sequence number the last `state` stood at: it holds everything before it,
        # so an older message that arrives later (it filled a gap) changes nothing.
        self.stands_at = 0

    def apply(self, message: BoardMessage) -> bool:
        """Take in one board message; True when the games changed (a move, a new game, a
        result, a comment): the moment to write them out."""
        if isinstance(message, BoardHello):
            # A board (re)started or a new connection: its numbering starts afresh, and
            # whatever it did meanwhile is only in its state.
            self.stands_at = 0
            self.needs_state = True
            return False
        try:
            match message:
                case StateMessage():
                    return self._state(message)
                case EffectMessage() if message.seq > self.stands_at:
                    return self._effect(message)
                case EffectMessage(effect=MoveMade(clock=clock, ply=ply)) if clock is not None:
                    return self._late_clock(message.game, ply, clock)
        except InvalidInputError:
            self.needs_state = True  # a message that does not fit: start again from the board
        return False

    def _state(self, m: StateMessage) -> bool:
        self.needs_state = False
        self.stands_at = m.seq
        start = Position.from_fen(m.start_fen, chess960=m.chess960)
        current = self.current
        game_id = m.game or 0
        same = (
            current is not None
            and current.id == game_id
            and current.game.start.fen() == start.fen()
        )
        moves = list(m.moves)
        if same and current is not None and not self._replaces(current, moves):
            mine = _ucis(current.game)
            if mine == moves[: len(mine)]:
                for uci in moves[len(mine) :]:
                    current.game.push_uci(uci)
                changed = self._clock(current, m) or len(moves) > len(mine)
                return self._result(current, m.result, m.reason) or changed
            # The same game with moves taken back (an arbiter's correction, takebacks
            # whose effects were missed), and maybe others played since: one game whose
            # record is rewritten from where the two part, not a new game. A board
            # without a journal numbers every game 0: there, a record that shares no
            # move with the host's is taken for a new game.
            if game_id or _shared(mine, moves):
                self._rewrite(current, _shared(mine, moves), moves)
                self._clock(current, m)
                current.result = current.reason = None
                self._result(current, m.result, m.reason)
                return True
        self._finish_current()
        game = Game(start)
        for uci in moves:
            game.push_uci(uci)
        self.current = MirroredGame(game, game_id)
        self._clock(self.current, m)
        self._result(self.current, m.result, m.reason)
        return True

    def _replaces(self, current: MirroredGame, moves: list[str]) -> bool:
        """Whether a state of the current game stands for another game (`keep_games`):
        it takes moves back, or plays on after the result."""
        if not self.keep_games:
            return False
        mine = _ucis(current.game)
        return mine != moves[: len(mine)] or (len(moves) > len(mine) and current.result is not None)

    @staticmethod
    def _rewrite(current: MirroredGame, kept: int, moves: list[str]) -> None:
        """The game's record cut after ply `kept` and played on with `moves`' rest."""
        while len(current.game) > kept:
            current.game.pop()
        for ply in [p for p in (*current.comments, *current.clocks) if p > kept]:
            current.comments.pop(ply, None)
            current.clocks.pop(ply, None)
        for uci in moves[kept:]:
            current.game.push_uci(uci)

    @staticmethod
    def _clock(current: MirroredGame, m: StateMessage) -> bool:
        """A timed game's control and clocks from a state (a board that sends them): the
        last move's clocks when no effect told of them yet, so a host that joined late
        has them at once."""
        if m.clock is None:
            return False
        changed = current.time_control != m.clock.time_control
        current.time_control = m.clock.time_control
        ply = len(current.game)
        if ply and ply not in current.clocks:
            current.clocks[ply] = (m.clock.white_ms, m.clock.black_ms)
            changed = True
        return changed

    def _effect(self, m: EffectMessage) -> bool:
        event = m.effect
        if isinstance(event, NewGame):
            self._finish_current()
            start = Position.from_fen(event.fen, chess960=bool(event.chess960))
            self.current = MirroredGame(Game(start), m.game, time_control=event.time_control)
            return True
        current = self.current
        if current is None or current.id != m.game:
            self.needs_state = True
            return False
        match event:
            case MoveMade(ply=ply, uci=uci):
                if ply <= len(current.game):
                    # Already known (the state came first, maybe without the clocks).
                    if event.clock is None or current.clocks.get(ply) == event.clock:
                        return False
                    current.clocks[ply] = event.clock
                    return True
                if ply != len(current.game) + 1:
                    self.needs_state = True
                    return False
                current.game.push_uci(uci)
                if event.clock is not None:
                    current.clocks[ply] = event.clock
                return True
            case ClockPressed(white_ms=white, black_ms=black) if len(current.game):
                # A press: the time its player is left with, increment included. (Time
                # the arbiter added is not the clock after that move: its comment says it.)
                current.clocks[len(current.game)] = (white, black)
                return True
            case TakenBack():
                if len(current.game):
                    current.game.pop()
                    current.comments.pop(len(current.game) + 1, None)
                    current.clocks.pop(len(current.game) + 1, None)
                    current.result = current.reason = None  # a mate taken back: play goes on
                    return True
                return False
            case GameOver(result=result, reason=reason):
                return self._result(current, result, reason)
            case Violation(rule=rule, square=square, message=text):
                ply = len(current.game)
                note = f"touch-move violation (FIDE {rule}) at {SQUARE_NAMES[square]}: {text}"
                current.comments[ply] = (
                    f"{current.comments[ply]}; {note}" if ply in current.comments else note
                )
                return True
        return False

    def _late_clock(self, game_id: int | None, ply: int, clock: tuple[int, int]) -> bool:
        """A move's clocks, from an effect older than the state that told of the move
        (a state carries at most the last move's)."""
        current = self.current
        if current is None or (game_id is not None and current.id != game_id):
            return False
        if ply > len(current.game) or current.clocks.get(ply) == clock:
            return False
        current.clocks[ply] = clock
        return True

    @staticmethod
    def _result(current: MirroredGame, result: str | None, reason: str | None) -> bool:
        if result is None or (current.result, current.reason) == (result, reason):
            return False
        current.result, current.reason = str(result), str(reason)
        return True

    def _finish_current(self) -> None:
        if self.current is not None and not self.current.empty:
            self.finished.append(self.current)
        self.current = None


def _ucis(game: Game) -> list[str]:
    return [before.uci(move) for before, move in zip(game.positions, game.moves, strict=False)]


def _shared(mine: list[str], moves: list[str]) -> int:
    """How many first moves two records of a game have in common."""
    kept = 0
    while kept < min(len(mine), len(moves)) and mine[kept] == moves[kept]:
        kept += 1
    return kept
