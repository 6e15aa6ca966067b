"""The engine as the board's opponent: a client of the board's events that sends the
commands a host would. Its moves are lit (`show`) for the person to carry out, and the
voice speaks a lit move; the board then checks the move made: another move than the one
lit is taken back and the right one lit again, so the lights insist until it is made. A
move made for the engine while it still thinks is taken back too: its move comes first.

Events in (`hear`), commands out (`due`, given the board's time): the engine itself is a
`Thinker` behind a port, asked without waiting and answering on a later turn, so this
decides and never blocks. A game that leaves the position the engine thinks about
(taken back, begun anew) has that search stopped: the engine is free at once for the
next question, and the move it answers is not played. At start, and whenever it missed
events, it asks the board's state: a game resumed from the journal after a power cut goes
on where it stood.

An engine that cannot start or stops is told once (the log, and `status` for the page):
from then on nothing is asked of it and the board is a two-player board."""

from __future__ import annotations

import logging
import random

from reedboard.events import MoveMade, NewGame
from reedboard.link.board_messages import EffectMessage, StateMessage
from reedboard.link.messages import (
    AskState,
    ChoosePromotion,
    Command,
    ShowMove,
    TakeBack,
    promotion_piece,
)
from reedboard.opponents.engine_play import MULTI_PV, EngineSettings, go_limits, pick, varied
from reedboard.opponents.followed import FollowedGame
from reedboard.opponents.thinker import Answer, Question, Thinker

HINT_MS = 500

logger = logging.getLogger(__name__)

Key = tuple[str, int, str]  # (what for, ply, position): an answer stands only there


class EngineOpponent:
    def __init__(
        self,
        settings: EngineSettings,
        thinker: Thinker,
        rng: random.Random | None = None,
        *,
        plays: bool = True,
    ) -> None:
        self.settings = settings
        self.plays = plays  # False: the engine only gives hints (two people at the board)
        self.thinker = thinker
        self.rng = rng or random.Random(settings.seed)
        self.followed = FollowedGame()
        self.engine_white = settings.side == "white"
        self.error: str | None = None  # the engine is gone: a two-player board
        self.asked: Key | None = None  # the engine's move asked for here
        self._awaiting: Key | None = None  # asked, and not answered yet
        self._dropped: list[Key] = []  # stopped searches whose answers are not wanted
        self.shown: tuple[int, str] | None = None  # (ply, uci) lit for the engine's side
        self.hint_asked: Key | None = None
        self._hint_wanted = False
        self._out: list[Command] = [AskState()]  # the game as it stands, first
        self._state_asked = True

    # ----- the board's events -----

    def hear(self, message: object) -> None:
        event = message.effect if isinstance(message, EffectMessage) else None
        if isinstance(event, MoveMade):
            self._moved(event)
        elif isinstance(event, NewGame):
            self.shown, self.asked = None, None
        self.followed.hear(message)
        if isinstance(message, StateMessage):
            self._state_asked = False
        if self.followed.needs_state and not self._state_asked:
            self._out.append(AskState())
            self._state_asked = True
        self._stop_if_left()

    def _stop_if_left(self) -> None:
        """Stop the engine's search once the game has left its position: a move made for
        the engine meanwhile is not that (it is taken back, and the search goes on)."""
        game, awaiting = self.followed.game, self._awaiting
        if game is None or awaiting is None:
            return
        _what, ply, fen = awaiting
        if ply <= len(game) and game.positions[ply].fen() == fen:
            return
        logger.info("the game left the position the engine thinks about: stopped")
        self.thinker.stop()
        self._dropped.append(awaiting)  # its answer comes first, and is not played
        self._awaiting = self.asked = None

    def _moved(self, event: MoveMade) -> None:
        """Judge a move made on the board against the engine's."""
        game = self.followed.game
        if game is None or self.error is not None or event.ply != len(game) + 1:
            return
        if not self.plays:
            return
        engine_moved = game.position.turn == self.engine_white
        if not engine_moved:
            return
        shown = self.shown
        if shown is None or shown[0] != len(game):
            logger.info("%s made before the engine's move: taken back", event.uci)
            self._out.append(TakeBack())
            if shown is not None:
                self.shown = None
        elif event.uci != shown[1]:
            logger.info("%s is not the engine's move %s: taken back", event.uci, shown[1])
            self._out += [TakeBack(), *_lit(shown[1])]
        else:
            self.shown = None

    # ----- the commands -----

    def due(self, now_ms: int) -> list[Command]:
        """What to send the board now."""
        for answer in self.thinker.answers():
            self._answered(answer)
        if self._hint_wanted:
            self._ask_hint()
        self._maybe_ask()
        out, self._out = self._out, []
        return out

    def hint(self) -> None:
        """Light the best move of the side the person plays, once found (asked on the
        next turn: the game may not be known yet)."""
        self._hint_wanted = True

    def _ask_hint(self) -> None:
        game = self.followed.game
        if game is None:
            return  # asked once the board's state is in
        self._hint_wanted = False
        if self.error is not None or self.followed.over:
            return
        if self.plays and game.position.turn == self.engine_white:
            return  # the engine's turn: its own move is what gets lit
        key = self._key("hint")
        self.hint_asked = key
        self.thinker.ask(Question(key, game.start.fen(), self._moves(), f"movetime {HINT_MS}",
                                  HINT_MS))  # fmt: skip

    def status(self) -> str:
        if self.error is not None:
            return f"the engine stopped ({self.error}): a two-player board"
        return self.settings.describe()

    def close(self) -> None:
        self.thinker.close()

    def _key(self, what: str) -> Key | None:
        game = self.followed.game
        return None if game is None else (what, len(game), game.position.fen())

    def _moves(self) -> tuple[str, ...]:
        game = self.followed.game
        assert game is not None
        return tuple(b.uci(m) for b, m in zip(game.positions, game.moves, strict=False))

    def _maybe_ask(self) -> None:
        game = self.followed.game
        if game is None or self.error is not None or self.followed.over or not self.plays:
            return
        if game.is_game_over() or game.position.turn != self.engine_white:
            return
        key = self._key("move")
        if self.asked == key or (self.shown is not None and self.shown[0] == len(game)):
            return
        limits, longest = go_limits(self.settings, self.followed.clock, self.followed.time_control)
        multi_pv = MULTI_PV if varied(self.settings, len(game)) else 1
        self.asked = self._awaiting = key
        self.thinker.ask(Question(key, game.start.fen(), self._moves(), limits, longest, multi_pv))

    def _answered(self, answer: Answer) -> None:
        if answer.error is not None:
            if self.error is None:
                self.error = answer.error
                if self.shown is not None:
                    self._out.append(ShowMove(None))
                self.shown = None
            return
        thought = answer.thought
        if thought is None or answer.key is None:
            return
        if answer.key in self._dropped:
            self._dropped.remove(answer.key)
            return
        if answer.key == self._awaiting:
            self._awaiting = None
        game = self.followed.game
        key: Key = answer.key  # type: ignore[assignment]
        if game is None or key != self._key(key[0]):
            if key == self.asked:
                self.asked = None  # asked again should the game come back there
            return  # the game moved on while the engine thought
        if key == self.hint_asked:
            self.hint_asked = None
            self._out.append(ShowMove(thought.best))
            return
        move = pick(thought, self.settings, len(game), self.rng)
        self.shown = (len(game), move)
        logger.info("the engine plays %s: carry it out on the board", move)
        self._out += _lit(move)


def _lit(uci: str) -> list[Command]:
    """Light `uci`. Sensors cannot tell a knight from a queen: the board promotes to a
    queen unless told the piece first, for this one promotion."""
    if uci[4:] not in ("", "q"):
        return [ChoosePromotion(promotion_piece(uci[4:])), ShowMove(uci)]
    return [ShowMove(uci)]
