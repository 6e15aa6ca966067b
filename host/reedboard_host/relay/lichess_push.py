"""Pushing a round's PGN to a Lichess broadcast (`POST /api/broadcast/round/{id}/push`).

After every change the round's whole PGN is pushed, coalesced: changes that come while a
push is under way or during the pause between pushes make one push of the latest state.
A refusal with 429 (too many requests) pauses a full minute, as Lichess asks of API
clients; other errors (a network failure, a 5xx) back off 2 s, 4 s, ... up to a minute;
the latest state is pushed once Lichess takes it again, never lost. The token is sent in
the Authorization header only, never printed."""

from __future__ import annotations

import logging
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

MAX_GAMES = 100  # a Lichess broadcast round takes at most this many games (chapters)
PAUSE_AFTER_429_S = 60.0
MIN_INTERVAL_S = 2.0  # between two pushes of one round
MAX_BACKOFF_S = 60.0

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PushSettings:
    round_id: str
    token: str
    url: str = "https://lichess.org"
    min_interval_s: float = MIN_INTERVAL_S
    pause_after_429_s: float = PAUSE_AFTER_429_S


class LichessPush:
    def __init__(self, settings: PushSettings, pgn: Callable[[], str]) -> None:
        self.settings = settings
        self.pgn = pgn
        self.pushes = 0  # accepted pushes, for the curious
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
        backoff = 0.0
        while not self._stopping.is_set():
            self._dirty.wait()
            if self._stopping.is_set():
                return
            self._dirty.clear()
            text = self.pgn()
            status = self._post(text)
            if status == 200:
                self.pushes += 1
                backoff = 0.0
                pause = self.settings.min_interval_s
            else:
                self._dirty.set()  # the latest state still has to go
                if status == 429:
                    pause = self.settings.pause_after_429_s
                else:
                    backoff = min(MAX_BACKOFF_S, max(2.0, backoff * 2))
                    pause = backoff
                logger.warning("Lichess refused the push (%s); again in %g s", status, pause)
            self._stopping.wait(pause)

    def _post(self, text: str) -> int:
        """The HTTP status of one push; 0 when no answer came."""
        url = f"{self.settings.url.rstrip('/')}/api/broadcast/round/{self.settings.round_id}/push"
        request = urllib.request.Request(
            url,
            data=text.encode("utf-8"),
            method="POST",
            headers={
                "Authorization": f"Bearer {self.settings.token}",
                "Content-Type": "text/plain; charset=utf-8",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                answer.read()
                status: int = answer.status
                return status
        except urllib.error.HTTPError as error:
            return error.code
        except (urllib.error.URLError, OSError):
            return 0


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


def read_token(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        token = handle.read().strip()
    if not token:
        raise ValueError(f"the token file {path} is empty")
    return token
