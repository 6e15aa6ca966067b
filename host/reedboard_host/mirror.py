"""The host's copy of the board's games, kept from the board's messages. Pure.

The board is the truth: a `state` message replaces whatever the host believed about the
game it names, and a move that does not follow on from the host's copy (another game,
a ply skipped) makes the mirror ask for the state (`needs_state`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reedboard.errors import InvalidInputError
from reedboard.rules.game import Game
from reedboard.rules.position import Position


@dataclass
class MirroredGame:
    game: Game
    id: int = 0
    result: str | None = None
    reason: str | None = None
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not len(self.game) and self.result is None


class GameMirror:
    def __init__(self) -> None:
        self.current: MirroredGame | None = None
        self.finished: list[MirroredGame] = []
        self.needs_state = True
        # The sequence number the last `state` stood at: it holds everything before it,
        # so an older message that arrives later (it filled a gap) changes nothing.
        self.stands_at = 0

    def apply(self, message: dict[str, Any]) -> bool:
        """Take in one board message; True when the games changed (a move, a new game, a
        result, a comment): the moment to write them out."""
        if message.get("type") == "hello":
            # A board (re)started or a new connection: its numbering starts afresh, and
            # whatever it did meanwhile is only in its state.
            self.stands_at = 0
            self.needs_state = True
            return False
        seq = message.get("seq")
        if isinstance(seq, int) and seq <= self.stands_at and message.get("type") != "state":
            return False
        try:
            if message["type"] == "state":
                return self._state(message)
            if message["type"] == "effect":
                return self._effect(message)
        except (InvalidInputError, KeyError, TypeError):
            self.needs_state = True  # a message that does not fit: start again from the board
        return False

    def _state(self, m: dict[str, Any]) -> bool:
        self.needs_state = False
        seq = m.get("seq")
        self.stands_at = seq if isinstance(seq, int) else 0
        start = Position.from_fen(m["start_fen"], chess960=bool(m["chess960"]))
        current = self.current
        same = (
            current is not None
            and current.id == m.get("game", 0)
            and current.game.start.fen() == start.fen()
        )
        moves: list[str] = list(m["moves"])
        if same and current is not None:
            mine = _ucis(current.game)
            if mine == moves[: len(mine)]:
                for uci in moves[len(mine) :]:
                    current.game.push_uci(uci)
                changed = len(moves) > len(mine)
                return self._result(current, m.get("result"), m.get("reason")) or changed
        self._finish_current()
        game = Game(start)
        for uci in moves:
            game.push_uci(uci)
        self.current = MirroredGame(game, int(m.get("game", 0)))
        self._result(self.current, m.get("result"), m.get("reason"))
        return True

    def _effect(self, m: dict[str, Any]) -> bool:
        event = m["event"]
        if event == "new_game":
            self._finish_current()
            start = Position.from_fen(m["fen"], chess960=bool(m.get("chess960")))
            self.current = MirroredGame(Game(start), int(m.get("game", 0)))
            return True
        current = self.current
        if current is None or current.id != m.get("game", current.id):
            self.needs_state = True
            return False
        if event == "move":
            ply = int(m["ply"])
            if ply <= len(current.game):
                return False  # already known (the state came first)
            if ply != len(current.game) + 1:
                self.needs_state = True
                return False
            current.game.push_uci(m["uci"])
            return True
        if event == "takeback":
            if len(current.game):
                current.game.pop()
                current.comments.pop(len(current.game) + 1, None)
                current.result = current.reason = None  # a mate taken back: play goes on
                return True
            return False
        if event == "game_over":
            return self._result(current, m["result"], m["reason"])
        if event == "violation":
            ply = len(current.game)
            note = (
                f"touch-move violation (FIDE {m['rule']}) at {m['square']}: {m.get('message', '')}"
            )
            current.comments[ply] = (
                f"{current.comments[ply]}; {note}" if ply in current.comments else note
            )
            return True
        return False

    @staticmethod
    def _result(current: MirroredGame, result: Any, reason: Any) -> bool:
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
