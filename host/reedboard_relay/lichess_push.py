"""Pushing a round's PGN to a Lichess broadcast (`POST /api/broadcast/round/{id}/push`).

After every change the round's games are pushed, coalesced: changes that come while a
push is under way or during the pause between pushes make one push of the latest state.
A refusal with 429 (too many requests) pauses a full minute, as Lichess asks of API
clients; other errors (a network failure, a 5xx) back off 2 s, 4 s, ... up to a minute;
the latest state is pushed once Lichess takes it again, never lost. Each round's pushes
are a task of the relay's one asyncio loop, beside the MQTT side and the web side, and
its calls the host's Lichess client's (`LichessApi.post_text`, on aiohttp): the token
is sent in the Authorization header only, never printed, and goes to no other server
than the one given.

Lichess takes nothing of a push in which one game is invalid: each game is checked before
(`push_games`), Lichess's answer is read game by game, and a game it refused is left out
of the next pushes until it changes; each is said once in the log and on the console."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from reedboard.lichess.api import LichessApi, LichessError, RateLimited

from reedboard_relay.mqtt_loop import start_on_a_loop
from reedboard_relay.push_games import PushedGame, problem_of, read_answer

MAX_GAMES = 100  # a Lichess broadcast round takes at most this many games (chapters)
PAUSE_AFTER_429_S = 60.0
MIN_INTERVAL_S = 2.0  # between two pushes of one round
MAX_BACKOFF_S = 60.0
PUSH_S = 20.0  # the longest one push may take

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PushSettings:
    round_id: str
    token: str
    url: str = "https://lichess.org"
    min_interval_s: float = MIN_INTERVAL_S
    pause_after_429_s: float = PAUSE_AFTER_429_S


class Refusals:
    """Each board's game that is not on Lichess, and why (refused by the relay's own
    check or by Lichess): the arbiter's console shows it by its board."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._why: dict[str, str] = {}

    def of(self, board: str) -> str | None:
        with self._lock:
            return self._why.get(board)

    def set(self, board: str, why: str | None) -> bool:
        """Whether this changes what is said of the board."""
        with self._lock:
            before = self._why.pop(board, None)
            if why is not None:
                self._why[board] = why
            return before != why


class LichessPush:
    """One round's pushes, a task of the relay's loop (the loop the web side and the
    MQTT side run on), or of a loop of its own in a thread for a push started from code
    without one. `changed` may be called from any thread."""

    def __init__(
        self,
        settings: PushSettings,
        games: Callable[[], list[PushedGame]],
        refusals: Refusals | None = None,
        told: Callable[[str], None] = lambda _board: None,
    ) -> None:
        self.settings = settings
        self.games = games
        self.refusals = refusals if refusals is not None else Refusals()
        self.told = told  # a board whose refusal came or went: the console shows it
        self.pushes = 0  # accepted pushes, for the curious
        self.api = LichessApi(settings.url, settings.token, rate_limit_s=settings.pause_after_429_s)
        self._refused: dict[str, str] = {}  # board: the text Lichess refused
        # Each board's game as last checked, and what was found: a round's hundred games
        # are read back with the rules once each change, not once each push.
        self._checked: dict[str, tuple[str, str | None]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._own_thread: threading.Thread | None = None
        self._dirty: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """On the running loop, or on a loop of its own without one."""
        self.loop, self._own_thread = start_on_a_loop("lichess-push", self._begin)

    def _begin(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._dirty = asyncio.Event()
        self._dirty.set()  # the state the relay starts with
        self._task = self.loop.create_task(self._pushing())

    def changed(self) -> None:
        loop, dirty = self.loop, self._dirty
        if loop is None or dirty is None:
            return
        if _running_loop() is loop:
            dirty.set()
        elif not loop.is_closed():
            loop.call_soon_threadsafe(dirty.set)

    async def close(self) -> None:
        """On the loop: no more pushes, the HTTP client closed."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.api.close()

    def stop(self) -> None:
        """From any thread but the loop's: `close`, and the push's own loop ended."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError, TimeoutError):
            asyncio.run_coroutine_threadsafe(self.close(), loop).result(5.0)
        if self._own_thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            self._own_thread.join(5.0)
            loop.close()

    async def _pushing(self) -> None:
        assert self._dirty is not None
        dirty = self._dirty
        backoff = 0.0
        while True:
            await dirty.wait()
            dirty.clear()
            games = self._sound(self.games())
            if not games:
                continue  # no game yet: an empty push would tell Lichess nothing
            text = "\n".join(game.pgn for game in games)
            try:
                body = await self._post(text)
                answer, refusal = read_answer(body, len(games)), None
            except LichessError as error:
                answer, refusal = None, error
            if answer is not None and answer.error is None:
                self.pushes += 1
                backoff = 0.0
                pause = self.settings.min_interval_s
                if self._answered(games, answer.refused or {}):
                    dirty.set()  # Lichess took none: again at once without those
                    pause = 0.0
            else:
                dirty.set()  # the latest state still has to go
                if isinstance(refusal, RateLimited):
                    pause = self.api.paused_for()
                else:
                    backoff = min(MAX_BACKOFF_S, max(2.0, backoff * 2))
                    pause = backoff
                self._failed(answer.error if answer is not None else None, refusal, pause)
            await asyncio.sleep(pause)

    def _failed(self, error: str | None, refusal: LichessError | None, pause: float) -> None:
        if error is not None:
            logger.warning(
                "Lichess refused the push to round %s (%s); again in %g s",
                self.settings.round_id, error, pause,
            )  # fmt: skip
        else:
            logger.warning(
                "the push to Lichess round %s failed: %s; again in %g s",
                self.settings.round_id, refusal, pause,
            )  # fmt: skip

    def _sound(self, games: list[PushedGame]) -> list[PushedGame]:
        """The games to push: those the relay's check passes and Lichess did not refuse
        as they are now (a game that changed since is tried again)."""
        sound = []
        for game in games:
            if self._refused.get(game.board) == game.pgn:
                continue
            self._refused.pop(game.board, None)
            problem = self._problem_of(game)
            self._say(game.board, f"not pushed: {problem}" if problem else None)
            if problem is None:
                sound.append(game)
        return sound

    def _problem_of(self, game: PushedGame) -> str | None:
        checked = self._checked.get(game.board)
        if checked is None or checked[0] != game.pgn:
            checked = (game.pgn, problem_of(game.pgn))
            self._checked[game.board] = checked
        return checked[1]

    def _answered(self, games: list[PushedGame], refused: dict[int, str]) -> bool:
        """Lichess's word on each game; True when it refused any (and so took none)."""
        for place, game in enumerate(games):
            why = refused.get(place)
            if why is not None:
                self._refused[game.board] = game.pgn
            self._say(game.board, f"refused by Lichess: {why}" if why else None)
        return bool(refused)

    def _say(self, board: str, why: str | None) -> None:
        if not self.refusals.set(board, why):
            return
        if why is None:
            logger.info("Lichess round %s: board %s's game is pushed again",
                        self.settings.round_id, board)  # fmt: skip
        else:
            logger.warning("Lichess round %s: board %s's game %s",
                           self.settings.round_id, board, why)  # fmt: skip
        self.told(board)

    async def _post(self, text: str) -> bytes:
        """Lichess's answer to one push (an HTTP 2xx); `LichessError` for any other."""
        path = f"/api/broadcast/round/{self.settings.round_id}/push"
        return await self.api.post_text(path, text, timeout=PUSH_S)


def rounds_for(boards: list[str], rounds: list[str]) -> dict[str, list[str]]:
    """The boards of each round, in order: a round takes at most 100 games, so the boards
    beyond are split over the next rounds given (boards beyond the last are not pushed)."""
    return {
        round_id: boards[index * MAX_GAMES : (index + 1) * MAX_GAMES]
        for index, round_id in enumerate(rounds)
    }


class RoundsOfBoards:
    """Which Lichess rounds a board's change concerns: the round that pushes the board,
    and any round whose boards moved (a new board, numbered among the others, shifts the
    ones after it). A round whose boards did not change is not pushed again."""

    def __init__(self, rounds: list[str]) -> None:
        self.rounds = rounds
        self._split: dict[str, list[str]] = {}  # on the relay's loop only

    def touched(self, board: str, boards: list[str]) -> list[str]:
        """The rounds to push after `board` changed, `boards` being every board in order."""
        split = rounds_for(boards, self.rounds)
        before, self._split = self._split, split
        return [r for r, ids in split.items() if board in ids or ids != before.get(r)]


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
