"""The board's game as an in-process client hears it, read as the Lichess synchroniser
reads a copy of it (`reedboard.lichess.board_view`): a `FollowedGame` with the journal's
number of the game beside it. Pure: messages in, no I/O."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.events import NewGame
from reedboard.link.board_messages import EffectMessage, StateMessage
from reedboard.opponents.followed import FollowedGame
from reedboard.rules.game import Game


@dataclass(frozen=True)
class SeenGame:
    game: Game
    id: int
    result: str | None
    reason: str | None


class BoardSeen:
    def __init__(self) -> None:
        self.followed = FollowedGame()
        self.game_id = 0

    def hear(self, message: object) -> None:
        if isinstance(message, StateMessage):
            self.game_id = message.game or 0
        elif isinstance(message, EffectMessage) and isinstance(message.effect, NewGame):
            self.game_id = message.game
        self.followed.hear(message)

    @property
    def needs_state(self) -> bool:
        return self.followed.needs_state

    @property
    def current(self) -> SeenGame | None:
        followed = self.followed
        if followed.game is None:
            return None
        result, reason = followed.result or (None, None)
        return SeenGame(followed.game, self.game_id, result, reason)
