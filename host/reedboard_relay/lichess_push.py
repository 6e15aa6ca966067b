"""Pushing a round's PGN to a Lichess broadcast (`POST /api/broadcast/round/{id}/push`).

After every change the round's games are pushed, coalesced: changes that come while a
push is under way or during the pause between pushes make one push of the latest state.
A refusal with 429 (too many requests) pauses a full minute, as Lichess asks of API
clients; other errors (a network failure, a 5xx) back off 2 s, 4 s, ... up to a minute;
the latest state is pushed once Lichess takes it again, never lost. The calls are the
host's Lichess client's (`LichessApi.post_text`, on aiohttp, in the push thread's own
asyncio loop), so the token is sent in the Authorization header only, never printed, and
goes to no other server than the one given.

Lichess takes nothing of a push in which one game is invalid: each game is checked before
(`push_games`), Lichess's answer is read game by game, and a game it refused is left out
of the next pushes until it changes; each is said once in the log and on the console."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from reedboard.lichess.api import LichessApi, LichessError, RateLimited

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
        self._refused: dict[str, str] = {}  # board: the text Lichess refused (this thread's)
        self._dirty = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lichess-push", daemon=True)

    def start(self) -> None:
        self._dirty.set()  # the state the relay starts with
        self._thread.start()

    def changed(self) -> None:
        self._dirty.set()

    def stop(self) -> None:
        self._stopping.set()
        self._dirty.set()
        self._thread.join(5.0)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()  # the client's, for this thread alone
        try:
            self._pushing(loop)
        finally:
            loop.run_until_complete(self.api.close())
            loop.close()

    def _pushing(self, loop: asyncio.AbstractEventLoop) -> None:
        backoff = 0.0
        while not self._stopping.is_set():
            self._dirty.wait()
            if self._stopping.is_set():
                return
            self._dirty.clear()
            games = self._sound(self.games())
            if not games:
                continue  # no game yet: an empty push would tell Lichess nothing
            text = "\n".join(game.pgn for game in games)
            try:
                body = loop.run_until_complete(self._post(text))
                answer, refusal = read_answer(body, len(games)), None
            except LichessError as error:
                answer, refusal = None, error
            if answer is not None and answer.error is None:
                self.pushes += 1
                backoff = 0.0
                pause = self.settings.min_interval_s
                if self._answered(games, answer.refused or {}):
                    self._dirty.set()  # Lichess took none: again at once without those
                    pause = 0.0
            else:
                self._dirty.set()  # the latest state still has to go
                if isinstance(refusal, RateLimited):
                    pause = self.api.paused_for()
                else:
                    backoff = min(MAX_BACKOFF_S, max(2.0, backoff * 2))
                    pause = backoff
                if answer is not None:
                    logger.warning(
                        "Lichess refused the push to round %s (%s); again in %g s",
                        self.settings.round_id, answer.error, pause,
                    )  # fmt: skip
                else:
                    logger.warning(
                        "the push to Lichess round %s failed: %s; again in %g s",
                        self.settings.round_id, refusal, pause,
                    )  # fmt: skip
            self._stopping.wait(pause)

    def _sound(self, games: list[PushedGame]) -> list[PushedGame]:
        """The games to push: those the relay's check passes and Lichess did not refuse
        as they are now (a game that changed since is tried again)."""
        sound = []
        for game in games:
            if self._refused.get(game.board) == game.pgn:
                continue
            self._refused.pop(game.board, None)
            problem = problem_of(game.pgn)
            self._say(game.board, f"not pushed: {problem}" if problem else None)
            if problem is None:
                sound.append(game)
        return sound

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
        self._lock = threading.Lock()  # paho's thread and the console's both call in
        self._split: dict[str, list[str]] = {}

    def touched(self, board: str, boards: list[str]) -> list[str]:
        """The rounds to push after `board` changed, `boards` being every board in order."""
        split = rounds_for(boards, self.rounds)
        with self._lock:
            before, self._split = self._split, split
        return [r for r, ids in split.items() if board in ids or ids != before.get(r)]
