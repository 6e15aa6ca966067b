"""The synchroniser's actions carried out: the one loop that both the host's bridge and
the board's own Lichess player drive `LichessSync` by. Only how the board is asked, how
its game is fetched and where words go differ between them: those come as callables."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, assert_never

from reedboard.errors import BoardRequestError, LinkError
from reedboard.lichess.actions import (
    Action,
    AskBoard,
    FollowGame,
    PausedFor,
    PostLater,
    PostNow,
    Steps,
    SyncBoard,
    Tell,
)
from reedboard.lichess.api import LichessApi, LichessError
from reedboard.lichess.streams import LichessStreams
from reedboard.link.messages import WireCommand

if TYPE_CHECKING:
    from reedboard.lichess.sync import LichessSync


@dataclass(frozen=True)
class BoardEnd:
    """The board as one side reaches it: `ask` a command (its reply, or a
    BoardRequestError/LinkError), `fetch` its game into the synchroniser's copy, `tell`
    a person some words."""

    ask: Callable[[WireCommand], Awaitable[Any]]
    fetch: Callable[[], Awaitable[object]]
    tell: Callable[[str], None]


async def carry_out(
    steps: Steps, sync: LichessSync, api: LichessApi, streams: LichessStreams, board: BoardEnd
) -> None:
    """Each action of `steps` carried out and its answer sent back in, or the error met
    thrown in, until the decision is made."""
    answer: Any = None
    error: BaseException | None = None
    while True:
        sync.game_followed = streams.game_followed  # a 404 may have left it
        try:
            action = steps.send(answer) if error is None else steps.throw(error)
        except StopIteration:
            return
        answer, error = None, None
        try:
            answer = await _do(action, api, streams, board)
        except (BoardRequestError, LinkError, LichessError) as met:
            error = met


async def _do(action: Action, api: LichessApi, streams: LichessStreams, board: BoardEnd) -> Any:
    match action:
        case AskBoard(command):
            return await board.ask(command)
        case SyncBoard():
            await board.fetch()
        case PostNow(path):
            return await api.post(path)
        case PostLater(path, form):
            streams.post_later(path, form)
        case FollowGame(game_id):
            streams.follow_game(game_id)
        case PausedFor():
            return api.paused_for()
        case Tell(text):
            board.tell(text)
        case _:
            assert_never(action)
    return None


__all__ = ["BoardEnd", "carry_out"]
