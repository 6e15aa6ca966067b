"""Pairing a phone with the board: who may control it from the page.

The Wi-Fi of a home or a club is shared, so watching the page is open but controlling the
board needs a paired device. The page asks the board for a code (`start`); the board shows
it on its LEDs and says it if its voice is on; the player types it on the page once
(`try_code`), which gives the device a token the page keeps in an HttpOnly cookie.

The code is four digits from 1 to 8, one per file from a to d: the lit square of file a
is on the first digit's rank, and so on (code 3714 lights a3, b7, c1 and d4). The player
reads the ranks of the four lit squares from the a-file to the d-file.

Guessing is bounded: a code lives CODE_LIFE_S and dies after TRIES_PER_CODE wrong tries,
at most TRIES_PER_MINUTE tries are heard a minute and at most STARTS_PER_MINUTE codes
shown, so the 4096 codes cannot be run through. Tokens are 32 random bytes; the board
keeps only their SHA-256, at most MAX_DEVICES of them (the oldest forgotten first), in a
file of mode 0600 in its data folder (`TokenStore`), or in memory for a board without one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
from collections import deque
from collections.abc import Callable

from reedboard.errors import ReedboardError

CODE_FILES = "abcd"
CODE_LIFE_S = 120.0
TRIES_PER_CODE = 5
TRIES_PER_MINUTE = 10
STARTS_PER_MINUTE = 6
MAX_DEVICES = 32
TOKENS_FILE = "page-devices.json"


class PairingRefused(ReedboardError):
    """A pairing request the board will not take, with why in words."""


def code_squares(code: str) -> tuple[str, ...]:
    """The squares lit for `code`: one per file from a to d, on the digit's rank."""
    return tuple(f"{file}{digit}" for file, digit in zip(CODE_FILES, code, strict=True))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class TokenStore:
    """The paired devices' token digests, in `folder`'s TOKENS_FILE (mode 0600) or, with
    no folder, in memory for this run only."""

    def __init__(self, folder: str | None) -> None:
        self.path = None if folder is None else os.path.join(folder, TOKENS_FILE)
        self._digests: list[str] = self._read()

    def _read(self) -> list[str]:
        if self.path is None or not os.path.exists(self.path):
            return []
        try:
            with open(self.path, encoding="utf-8") as file:
                kept = json.load(file)
        except (OSError, ValueError) as error:
            raise ReedboardError(f"cannot read the paired devices {self.path}: {error}") from None
        if not isinstance(kept, list) or not all(isinstance(d, str) for d in kept):
            raise ReedboardError(f"{self.path}: not a list of paired devices")
        return kept[-MAX_DEVICES:]

    def add(self, token: str) -> None:
        self._digests = [*self._digests, _digest(token)][-MAX_DEVICES:]
        if self.path is None:
            return
        part = self.path + ".new"
        # Created 0600 from the start: a token's digest is not for other users to read.
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(self._digests, file)
        os.replace(part, self.path)

    def knows(self, token: str | None) -> bool:
        if not token:
            return False
        digest = _digest(token)
        return any(hmac.compare_digest(digest, kept) for kept in self._digests)


class Pairing:
    """The code on show and the limits on guessing it. Called from the page's thread;
    `now` gives seconds, `shown` puts a code on the board (None: clears it)."""

    def __init__(
        self,
        store: TokenStore,
        shown: Callable[[str | None], None],
        now: Callable[[], float],
    ) -> None:
        self.store = store
        self.shown = shown
        self.now = now
        self._lock = threading.Lock()
        self._code: str | None = None
        self._code_until = 0.0
        self._wrong = 0
        self._starts: deque[float] = deque()
        self._tries: deque[float] = deque()

    def start(self) -> None:
        """Show a new code on the board, for CODE_LIFE_S."""
        with self._lock:
            now = self.now()
            if not _within(self._starts, now, STARTS_PER_MINUTE):
                raise PairingRefused("too many pairing codes asked for: wait a minute")
            rng = secrets.SystemRandom()
            code = "".join(str(rng.randint(1, 8)) for _ in CODE_FILES)
            self._code, self._code_until, self._wrong = code, now + CODE_LIFE_S, 0
        self.shown(code)

    def try_code(self, typed: str) -> str:
        """The new device's token for the code on show, or PairingRefused."""
        with self._lock:
            had = self._code is not None
            token, refused = self._check(typed)
            cleared = had and self._code is None  # paired, or the code died: off the board
        if cleared:
            self.shown(None)
        if refused is not None:
            raise PairingRefused(refused)
        return token

    def _check(self, typed: str) -> tuple[str, str | None]:
        """A new token, or why not (the lock held)."""
        now = self.now()
        if not _within(self._tries, now, TRIES_PER_MINUTE):
            return "", "too many tries: wait a minute"
        code = self._code
        if code is None or now > self._code_until:
            self._code = None
            return "", "no pairing code is on the board: ask for one first"
        if not hmac.compare_digest(typed.strip().encode(), code.encode()):
            self._wrong += 1
            if self._wrong < TRIES_PER_CODE:
                return "", "wrong code"
            self._code = None
            return "", "wrong code, and too many tries: ask for a new one"
        self._code = None
        token = secrets.token_urlsafe(32)
        self.store.add(token)
        return token, None

    def knows(self, token: str | None) -> bool:
        with self._lock:
            return self.store.knows(token)


def _within(times: deque[float], now: float, per_minute: int) -> bool:
    """Note one more event at `now` if fewer than `per_minute` happened in the last
    minute; False (not noted) otherwise."""
    while times and times[0] <= now - 60.0:
        times.popleft()
    if len(times) >= per_minute:
        return False
    times.append(now)
    return True
