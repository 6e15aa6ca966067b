"""One CPP conversation with the central that controls the board: its commands turned
into the board's, the board's events into CPP. Pure: text in, text and commands out.

The central rules the round: `begin` makes the board's game the central's position (the
same game when the position is one of it, taken back to it if need be; otherwise a new
game from it), and the LEDs then guide the players to set the pieces; the board answers
`sync` when the sensors agree, `unsync` with what it senses until they do. A move the
board commits goes to the central (`move`), which accepts it (`ok`), refuses it (`nok`:
the board takes it back and the LEDs show how to undo it) or names the promotion piece
(`promote`). The central's own moves are lit for the player to carry out, and the board
checks that the move made is that one. What a presence board cannot know about a square
it says with `?` (cpp.presence_fen).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from reedboard.ble.cpp import (
    DRAW_REASONS,
    SUPPORTED_FEATURES,
    SUPPORTED_VARIANTS,
    CentralSays,
    CppError,
    complete_fen,
    parse_central,
    position_text,
    presence_fen,
    same_position,
)
from reedboard.ble.cpp_options import (
    BoardOptions,
    option_command,
    option_lines,
    options_after,
    reset_commands,
)
from reedboard.errors import InvalidInputError
from reedboard.events import (
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    SensorFault,
    TakenBack,
    Violation,
)
from reedboard.link.board_messages import EffectMessage, ErrorReply, Outgoing, Reply
from reedboard.link.messages import (
    ChoosePromotion,
    Command,
    Draw,
    Mark,
    ShowMove,
    StartGame,
    TakeBack,
    promotion_piece,
)
from reedboard.rules.game import Game
from reedboard.rules.squares import SQUARE_NAMES, Bitboard

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Question:
    """What the board asked the central and waits for `ok`/`nok` on: its `move` or
    `undo` of `uci` (at `ply`), or its `draw_offer`."""

    kind: str
    uci: str = ""
    ply: int = 0


class CppSession:
    def __init__(self, options: BoardOptions) -> None:
        self.defaults = options
        self.options = options
        self._texts: list[str] = []
        self._commands: list[Command] = []
        self.game: Game | None = None
        self.sensors: Bitboard | None = None
        self.reset()

    def reset(self) -> None:
        """A new central: every feature off, standard chess, no round."""
        self.features: set[str] = set()
        self.variant = "standard"
        self.side = "?"
        self.begun = False
        self._begin: str | None = None  # a `begin` the board answers once it has done it
        self._questions: deque[Question] = deque()
        self._expected: str | None = None  # the central's move, for the player to make
        self._unsynced = False
        self._streaming = False  # `get_state` asked: a state for each change until begin
        self._own_takebacks = 0  # takebacks the session asked for: their effects are its own
        self._undoing = False  # the central's undo, for the player to carry out (`moved`)
        self._draw_asked = False  # the central offered a draw; the players answer it
        self._marks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        self._setible = False  # `unsync_setible` said: the central may ask `set_state`
        self.clocks: tuple[int, int] | None = None  # the central's `time`: white's, black's ms
        self.score: str | None = None  # the central's `score` of a match: "1.5 2.5"

    # ----- the transport's side -----

    def take_texts(self) -> list[str]:
        texts, self._texts = self._texts, []
        return texts

    def take_commands(self) -> list[Command]:
        commands, self._commands = self._commands, []
        return commands

    def _say(self, text: str) -> None:
        self._texts.append(text)

    def _ask(self, *commands: Command) -> None:
        self._commands += commands

    # ----- the central -----

    def central(self, data: bytes) -> None:
        """One write of the central's."""
        try:
            said = parse_central(data)
            self._central(said)
        except CppError as error:
            self._say(f"err {error}")

    def _central(self, said: CentralSays) -> None:
        name, argument = said.name, said.argument
        needs = _FEATURE_OF.get(name)
        if needs is not None and needs not in self.features:
            raise CppError(f"{name} needs feature {needs}, which was not asked for")
        handlers: dict[str, Callable[[str], None]] = {
            "feature": self._feature,
            "variant": lambda a: self._yes_no(a in SUPPORTED_VARIANTS),
            "set_variant": self._set_variant,
            "begin": self._begin_round,
            "move": self._central_move,
            "ok": lambda a: self._answered("ok", a),
            "nok": lambda a: self._answered("nok", a),
            "promote": lambda a: self._answered("promote", a),
            "end": self._end,
            "err": lambda a: logger.warning("the app could not do something: %s", a),
            "msg": lambda a: logger.info("the app says: %s", a),
            "undo": self._central_undo,
            "last_move": lambda a: self._mark(steady=(a[:2], a[2:4])),
            "check": lambda a: self._mark(blink=(a,)),
            "side": self._set_side,
            "draw_offer": self._central_draw_offer,
            "get_state": self._get_state,
            "set_state": self._set_state,
            "time": self._time,
            "score": self._score,
            "options_begin": self._options,
            "options_reset": lambda _a: self._ask(*reset_commands(self.defaults)),
            "set_option": lambda a: self._ask(option_command(*a.split(" ", 1))),
        }
        handlers[name](argument)  # every command parse_central reads has its handler

    def _feature(self, feature: str) -> None:
        if feature in SUPPORTED_FEATURES:
            self.features.add(feature)
        self._yes_no(feature in SUPPORTED_FEATURES)

    def _set_variant(self, variant: str) -> None:
        if variant in SUPPORTED_VARIANTS:
            self.variant = variant
        self._yes_no(variant in SUPPORTED_VARIANTS)

    def _set_side(self, side: str) -> None:
        self.side = side

    def _central_draw_offer(self, _argument: str) -> None:
        self._round()
        self._draw_asked = True  # the players answer: the draw gesture, or a move

    def _get_state(self, _argument: str) -> None:
        self._streaming = not self.begun
        self._state()

    def _set_state(self, _argument: str) -> None:
        # The board cannot move its pieces: it already took the central's position and
        # lights what must change (the squares to clear, to fill, a piece to move back);
        # the `sync` the spec answers with comes once the player has set them so.
        self._round()
        if not self._setible:
            raise CppError("set_state: the board offered no state to set (no unsync_setible)")
        self._setible = False

    def _time(self, argument: str) -> None:
        self._round()
        white, black = argument.split(" ")
        self.clocks = (int(white), int(black))

    def _score(self, argument: str) -> None:
        self.score = argument  # after a round: no round needed

    def _options(self, _argument: str) -> None:
        for line in option_lines(self.options):
            self._say(line)
        self._say("options_end")

    def _yes_no(self, yes: bool) -> None:
        self._say("ok" if yes else "nok")

    def _begin_round(self, fen: str) -> None:
        game = self.game
        chess960 = self.variant == "chess_960"
        self.begun, self._streaming, self._unsynced, self._setible = True, False, False, False
        self._questions.clear()
        self._expected, self._draw_asked, self._marks = None, False, ((), ())
        self._begin = fen
        plies = [] if game is None else [
            ply for ply, p in enumerate(game.positions) if same_position(fen, p)
        ]  # fmt: skip
        if game is not None and plies and game.chess960 == chess960:
            # The same game, where the central stands: moves the board made since (the
            # central never accepted them) are taken back, and the LEDs show how.
            ply = plies[-1]
            if ply < len(game):
                self._own_takebacks += len(game) - ply
                self._ask(TakeBack(to_ply=ply))
            self._ask(ShowMove(None))
            return
        self._ask(_start(fen, chess960=chess960))

    def _central_move(self, uci: str) -> None:
        game = self._round()
        try:
            game.position.parse_uci(uci)
        except InvalidInputError as error:
            raise CppError(f"move {uci}: {error}") from None
        self._expected = uci
        if len(uci) == 5:
            self._ask(ChoosePromotion(promotion_piece(uci[4])))
        self._ask(ShowMove(uci))

    def _central_undo(self, uci: str) -> None:
        game = self._round()
        last = game.peek()
        if last is None or game.positions[-2].uci(last) != uci:
            raise CppError(f"undo {uci}: the board's last move is not {uci}")
        self._own_takebacks += 1
        self._ask(TakeBack())
        # Carried out by the player as the central's move is: with `moved`, that is said
        # once the pieces stand, and the board is not out of sync meanwhile.
        self._undoing = "moved" in self.features

    def _answered(self, answer: str, uci: str) -> None:
        if not self._questions:
            raise CppError(f"{answer}: the board asked nothing")
        question = self._questions.popleft()
        if question.kind == "draw_offer":
            if answer == "ok":
                self._ask(Draw(agreed=True))
            return
        if answer == "ok" or (answer == "promote" and uci == question.uci):
            return
        self._questions.clear()  # whatever the board asked after it goes with it
        if question.kind == "undo":
            if answer == "nok":  # the move stands: the player sets it again
                self._expected = question.uci
                self._ask(ShowMove(question.uci))
            return
        game = self._round()
        self._own_takebacks += len(game) - question.ply + 1
        self._ask(TakeBack(to_ply=question.ply - 1))
        if answer == "promote":
            # The piece the central chose: the player makes the move again with it.
            if uci[:4] != question.uci[:4] or len(uci) != 5:
                raise CppError(f"promote {uci} is not the promotion {question.uci[:4]}")
            self._expected = uci
            self._ask(ChoosePromotion(promotion_piece(uci[4])), ShowMove(uci))

    def _end(self, reason: str) -> None:
        game = self.game
        draw = reason == "draw" or reason in DRAW_REASONS
        if draw and game is not None and game.outcome() is None:
            self._ask(Draw(agreed=True))
        if self._expected is not None:
            self._ask(ShowMove(None))
        self.begun, self._expected = False, None
        self._questions.clear()

    def _round(self) -> Game:
        if not self.begun or self.game is None:
            raise CppError("no round: begin one first")
        return self.game

    def _mark(self, steady: tuple[str, ...] = (), blink: tuple[str, ...] = ()) -> None:
        self._round()
        old_steady, old_blink = self._marks
        self._marks = (steady or old_steady, blink or old_blink)
        self._ask(Mark(*self._marks))

    # ----- the board -----

    def hear(self, message: Outgoing) -> None:
        if not isinstance(message, EffectMessage):
            return
        effect = message.effect
        if isinstance(effect, MoveMade):
            self._board_moved(effect)
        elif isinstance(effect, TakenBack):
            self._board_took_back(effect)
        elif isinstance(effect, Illegal) and self.begun and not self._unsynced:
            if not self._undoing:
                self._unsynced = True
                self._say(f"unsync {self._presence()}")
        elif isinstance(effect, Offered):
            self._offered(effect)
        elif isinstance(effect, GameOver):
            if effect.reason == "resignation" and self.begun and "resign" in self.features:
                self._say("resign")
        elif isinstance(effect, Violation | SensorFault) and "msg" in self.features:
            self._say(f"msg {_words(effect)}")
        elif isinstance(effect, NewGame):
            self._marks = ((), ())

    def _board_moved(self, move: MoveMade) -> None:
        self._marks = ((), ())
        if self._draw_asked:
            self._draw_asked = False
            self._say("nok")  # the players played on: the central's draw offer refused
        if not self.begun:
            return
        if self._expected is not None:
            if move.uci == self._expected:
                self._expected = None
                if "moved" in self.features:
                    self._say("moved")
                return
            # Not the central's move: taken back, and the central's lit again.
            self._own_takebacks += 1
            self._ask(TakeBack(), ShowMove(self._expected))
            return
        self._questions.append(Question("move", move.uci, move.ply))
        self._say(f"move {move.uci}")

    def _board_took_back(self, taken: TakenBack) -> None:
        self._marks = ((), ())
        if self._own_takebacks:
            self._own_takebacks -= 1
            return
        if not self.begun:
            return
        if "undo" in self.features:
            game = self.game
            self._questions.append(Question("undo", taken.uci, len(game) if game else 0))
            self._say(f"undo {taken.uci}")
            return
        # The central cannot hear of a takeback: the move is lit to be made again.
        self._expected = taken.uci
        self._ask(ShowMove(taken.uci))

    def _offered(self, offered: Offered) -> None:
        if offered.offer != "1/2-1/2" or offered.state != "made" or not self.begun:
            return
        if self._draw_asked:
            self._draw_asked = False
            self._say("ok")
        elif "draw_offer" in self.features:
            self._questions.append(Question("draw_offer"))
            self._say("draw_offer")

    def replied(self, command: Command, reply: Reply) -> None:
        """The board's answer to a command of the session's."""
        self.options = options_after(self.options, reply)
        if not isinstance(reply, ErrorReply):
            return
        if isinstance(command, TakeBack) and self._own_takebacks:
            self._own_takebacks = 0
            if self._begin is not None and self.game is not None:
                # A game the board will not take back (a resignation ended it): a new one.
                self._ask(_start(self._begin, chess960=self.variant == "chess_960"))
                return
        self._say(f"err {reply.message or reply.code}")

    def observe(self, game: Game, sensors: Bitboard) -> None:
        """Once a turn, after the board carried out the session's commands."""
        changed = sensors != self.sensors
        self.game, self.sensors = game, sensors
        in_place = sensors == game.position.occupied
        if self._begin is not None and not self._commands and not self._own_takebacks:
            fen, self._begin = self._begin, None
            if in_place and same_position(fen, game.position):
                self._say(f"sync {fen}")
            else:
                self._unsynced = True
                self._setible = "set_state" in self.features
                unsync = "unsync_setible" if self._setible else "unsync"
                self._say(f"{unsync} {self._presence()}")
            return
        if self._undoing and in_place and not self._own_takebacks:
            self._undoing = False
            self._say("moved")
            return
        if self._unsynced and in_place and self._begin is None:
            self._unsynced = self._setible = False
            self._say(f"sync {position_text(game.position)}")
            return
        if changed and (self._unsynced or self._streaming or "state_stream" in self.features):
            self._state()

    def _state(self) -> None:
        if self.game is not None:
            self._say(f"state {self._presence()}")

    def _presence(self) -> str:
        assert self.game is not None and self.sensors is not None
        return presence_fen(self.game.position, self.sensors)


# Commands that a feature brings: refused until the central asked for it.
_FEATURE_OF = {
    "msg": "msg",
    "undo": "undo",
    "last_move": "last_move",
    "check": "check",
    "side": "side",
    "draw_offer": "draw_offer",
    "get_state": "get_state",
    "set_state": "set_state",
    "options_begin": "option",
    "options_reset": "option",
    "set_option": "option",
    "score": "score",
    "time": "time",
}


def _start(fen: str, *, chess960: bool) -> StartGame:
    """A new game from a central's position."""
    whole = complete_fen(fen, chess960=chess960)
    return StartGame("chess960", fen=whole) if chess960 else StartGame("standard", fen=whole)


def _words(effect: Violation | SensorFault) -> str:
    if isinstance(effect, Violation):
        return effect.message
    return f"the switch under {SQUARE_NAMES[effect.square]} is {effect.fault}"
