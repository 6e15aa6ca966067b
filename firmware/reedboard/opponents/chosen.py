"""The board's opponent, chosen and changed while it runs: the port the page calls
(`choose`, `current`, `hint`) and the one the board's events go through (`hear`, `due`).

The choice is saved in the board's data directory (beside its journal), so that after a
power cut the board comes back with its opponent, and the engine's game goes on where
the journal left it. A choice that cannot be read changes nothing and says why."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable

from reedboard.link.messages import Command
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.engine_side import EngineOpponent
from reedboard.opponents.spec import PERSON, BadOpponent, read_spec
from reedboard.opponents.thinker import EngineThread, Thinker

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
    ) -> None:
        self.engine = engine  # the `[engine]` section's settings
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
            if self.playing is None:
                return "a person at the board"
            return self.playing.status()

    def hint(self) -> str | None:
        """The engine's best move for the side to move, lit once found: None once asked,
        else why not, in words."""
        with self._lock:
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
