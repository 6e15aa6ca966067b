"""The board's opponent, chosen and changed while it runs: the port the page calls
(`choose`, `current`, `hint`) and the one the board's events go through (`hear`, `due`).

The choice is saved in the board's data directory (beside its journal), so that after a
power cut the board comes back with its opponent, and the engine's game goes on where
the journal left it. A choice that cannot be read changes nothing and says why.

Lichess (`lichess_side`) plays through the board's in-process clients, with the token
kept in the same directory (`reedboard.lichess.token_store`): chosen before a token is
entered, it waits for one."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from reedboard.lichess.settings import BadSetting
from reedboard.link.clients import Clients
from reedboard.link.messages import Command
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.engine_side import EngineOpponent
from reedboard.opponents.lichess_spec import (
    LichessPlan,
    LichessSettings,
    is_lichess,
    read_lichess,
)
from reedboard.opponents.spec import PERSON, BadOpponent, read_spec
from reedboard.opponents.thinker import EngineThread, Thinker

if TYPE_CHECKING:
    # Lichess's client (aiohttp, ssl, asyncio) is loaded when Lichess is played, never at
    # a board's start (tests/commands/test_start_imports.py).
    from reedboard.opponents.lichess_side import LichessSide

SAVED = "opponent"  # the file, in the board's data directory

logger = logging.getLogger(__name__)

MakeThinker = Callable[[EngineSettings], Thinker]


class Opponents:
    def __init__(
        self,
        engine: EngineSettings = EngineSettings(),  # noqa: B008 - frozen
        *,
        data_dir: str | None = None,
        make_thinker: MakeThinker = EngineThread,
        clients: Clients | None = None,
        lichess: LichessSettings = LichessSettings(),  # noqa: B008 - frozen
    ) -> None:
        self.engine = engine  # the `[engine]` section's settings
        self.clients = clients  # the board's in-process clients, which Lichess plays through
        self.lichess_settings = lichess
        self.lichess_plan: LichessPlan | None = None  # Lichess chosen (maybe without a token)
        self.lichess: LichessSide | None = None  # Lichess played
        self.data_dir = data_dir
        self.make_thinker = make_thinker
        self.playing: EngineOpponent | None = None  # None: a person
        self._helper: EngineOpponent | None = None  # hints at a two-player board
        self._spec = PERSON
        self._lock = threading.Lock()  # the page calls from its own thread

    def saved(self) -> str | None:
        """The choice saved before the board last stopped, if any."""
        if self.data_dir is None:
            return None
        try:
            with open(os.path.join(self.data_dir, SAVED), encoding="utf-8") as file:
                return file.read().strip() or None
        except OSError:
            return None

    def choose(self, spec: str) -> str | None:
        """Play against `spec` from now on: None, or why not in one line."""
        if is_lichess(spec):
            return self._choose_lichess(spec)
        try:
            settings = read_spec(spec, self.engine)
        except BadOpponent as error:
            return str(error)
        with self._lock:
            self._drop()
            if settings is not None:
                self.playing = EngineOpponent(settings, self.make_thinker(settings))
                self._spec = settings.spec()
            else:
                self._spec = PERSON
        self._save()
        logger.info("the opponent: %s", self.current())
        return None

    def current(self) -> str:
        with self._lock:
            if self.lichess is not None:
                return self.lichess.status()
            if self.lichess_plan is not None:
                return "Lichess: enter your Lichess API token on the page"
            if self.playing is None:
                return "a person at the board"
            return self.playing.status()

    def hint(self) -> str | None:
        """The engine's best move for the side to move, lit once found: None once asked,
        else why not, in words."""
        with self._lock:
            if self.lichess_plan is not None:
                # Lichess forbids help from an engine in a game played there.
                return "no hint in a game on Lichess: no engine may help there"
            if self.playing is not None:
                if self.playing.error is not None:
                    return self.playing.status()
                self.playing.hint()
                return None
            if self._helper is None:
                # It asks the board's state first, as any opponent does.
                self._helper = EngineOpponent(
                    self.engine, self.make_thinker(self.engine), plays=False
                )
            if self._helper.error is not None:
                return self._helper.status()
            self._helper.hint()
            return None

    # ----- the board's side -----

    def hear(self, message: object) -> None:
        with self._lock:
            for opponent in self._all():
                opponent.hear(message)

    def due(self, now_ms: int) -> list[Command]:
        with self._lock:
            return [command for opponent in self._all() for command in opponent.due(now_ms)]

    def close(self) -> None:
        with self._lock:
            self._drop()
            if self._helper is not None:
                self._helper.close()
                self._helper = None

    def _all(self) -> list[EngineOpponent]:
        return [o for o in (self.playing, self._helper) if o is not None]

    def _drop(self) -> None:
        if self.playing is not None:
            self.playing.close()
            self.playing = None
        if self.lichess is not None:
            self.lichess.close()
            self.lichess = None
        self.lichess_plan = None

    # ----- Lichess -----

    def _choose_lichess(self, spec: str) -> str | None:
        try:
            plan = read_lichess(spec, self.lichess_settings.clock)
        except BadOpponent as error:
            return str(error)
        if self.clients is None:
            return "Lichess is played through the board's page: turn it on ([web])"
        with self._lock:
            self._drop()
            self.lichess_plan = plan
            self._spec = plan.spec()
            self._start_lichess()
        self._save()
        logger.info("the opponent: Lichess, %s", plan.words())
        return None

    def _start_lichess(self) -> None:
        """Lichess played, once both the plan and a kept token are there (lock held)."""
        from reedboard.lichess import token_store
        from reedboard.opponents.lichess_side import LichessSide

        token = token_store.read_kept(self.data_dir)
        if self.lichess_plan is None or self.clients is None or token is None:
            return
        data_dir = self.data_dir
        self.lichess = LichessSide(
            self.lichess_plan, self.clients, self.lichess_settings.server, token,
            forget_token=lambda: token_store.forget(data_dir),
        )  # fmt: skip
        self.lichess.start()

    def lichess_token(self, token: str) -> str:
        """Check `token` with Lichess and keep it: the account's name. BadSetting or
        LichessError (a refused token, not kept) in one line, which never holds it."""
        if self.data_dir is None:
            raise BadSetting("the board keeps no state (no journal): it cannot keep a token")
        from reedboard.lichess import token_store

        account = token_store.account_of(self.lichess_settings.server, token)
        token_store.keep(self.data_dir, token)
        logger.info("a Lichess token for %s is kept", account)
        with self._lock:
            if self.lichess is not None:
                self.lichess.close()
                self.lichess = None
            self._start_lichess()
        return account

    def lichess_command(self, line: str) -> str | None:
        """A word for the game on Lichess (resign, draw, takeback, no, ...): None once
        handed over, else why not."""
        with self._lock:
            if self.lichess is None:
                return "no Lichess game on this board"
            return self.lichess.command(line)

    def _save(self) -> None:
        if self.data_dir is None:
            return
        path = os.path.join(self.data_dir, SAVED)
        try:
            with open(path + ".new", "w", encoding="utf-8") as file:
                file.write(self._spec + "\n")
            os.replace(path + ".new", path)
        except OSError as error:
            logger.warning("cannot save the opponent in %s: %s", path, error.strerror or error)
