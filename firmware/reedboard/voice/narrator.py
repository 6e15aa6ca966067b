"""Following the board's effects and saying each one worth saying.

The effects name squares and codes; to say "Fou c4 prend pion f7" the narrator needs the
position the move was played in, so it follows the game itself: every move, takeback and
new game brings its position. Touches are too frequent to say, except the one that binds
in strict mode. Pure: `hear(effect)` gives the sentence, or None for silence.
"""

from __future__ import annotations

from contextlib import suppress

from reedboard.errors import InvalidInputError
from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    TimeAdded,
    Touched,
    Violation,
)
from reedboard.rules.moves import Move
from reedboard.rules.pieces import piece_type_from_symbol
from reedboard.rules.position import Position
from reedboard.voice import sentences as words
from reedboard.voice.phrasebook import Phrasebook

STANDARD_CASTLING = set("KQkq-")
# What is wrong on the board now, and touches: the next sentence makes them stale, so a
# speaker may cut them (`reedboard.hal.speech`). Moves and results are heard in full.
FLEETING = frozenset({"touch", "illegal", "restored", "violation", "offer"})


class Narrator:
    def __init__(self, book: Phrasebook, position: Position, *, strict: bool = False) -> None:
        self.book = book
        self.position = position
        self.strict = strict  # whether a touch can bind (strict mode): then it is said
        self.last: tuple[Position, Move] | None = None  # the last move and where it was played
        self._bound = False  # a touch already bound this turn
        self._chess960_setup = False

    def hear(self, effect: Effect, *, chess960: bool = False) -> str | None:
        """The sentence for `effect`, or None when the board says nothing of it.
        `chess960`: a new game is Chess960, as the link's `effect` message says (a
        Chess960 start may look like any other)."""
        book = self.book
        match effect:
            case MoveMade():
                return self._moved(effect)
            case TakenBack():
                self._follow(effect.fen)
                self.last = None
                move = _parse(self.position, effect.uci)
                if move is None:
                    return None
                return words.taken_back_words(book, self.position, move)
            case NewGame():
                self._chess960_setup |= chess960
                self._follow(effect.fen, new=True)
                self.last = None
                return words.new_game_words(book, self.position.turn)
            case GameOver():
                if effect.reason == "checkmate":
                    # The mating move was just said with its "checkmate": the winner is
                    # what is left to say.
                    return words.sentence(words.result_phrase(book, effect.result))
                return words.game_over_words(book, effect.result, effect.reason)
            case Touched():
                return self._touched(effect)
            case Illegal():
                return words.illegal_words(
                    book, self.position, effect.missing, effect.extra, effect.pairs
                )
            case Restored():
                return words.sentence(book.restored)
            case Violation():
                return words.violation_words(book, self.position, effect.rule, effect.square)
            case PromotionChosen():
                promoted = book.pieces[piece_type_from_symbol(effect.piece)]
                return words.sentence(book.promotion_choice.format(promoted=promoted))
            case Offered():
                if effect.state == "made":
                    result = words.result_phrase(book, effect.offer)
                    return words.sentence(book.offer_made.format(result=result))
                if effect.state == "cancelled":
                    return words.sentence(book.offer_cancelled)
                return None  # confirmed: the game_over that follows says the result
            case SetupStarted():
                self._chess960_setup = True
                return words.setup_words(book, effect.number)
            case SensorFault():
                return words.sensor_words(book, effect.square, effect.fault)
            case ClockPressed():
                return None  # every move's press: the flag, when it falls, is said
            case TimeAdded():
                clocks = (effect.white_ms, effect.black_ms)
                return words.time_added_words(book, effect.white, effect.ms, clocks)
        return None

    def _moved(self, effect: MoveMade) -> str | None:
        before = self.position
        move = _parse(before, effect.uci)
        self._follow(effect.fen)
        if move is None:
            # Out of step with the game (it cannot happen while the narrator follows every
            # effect): say nothing rather than something false.
            self.last = None
            return None
        self.last = (before, move)
        return words.move_words(self.book, before, move)

    def _touched(self, effect: Touched) -> str | None:
        """Strict mode: the first touched piece that can be moved (or, the opponent's, be
        taken) binds (FIDE 4.3); it is said once, so that the player knows."""
        if not self.strict or self._bound:
            return None
        position = self.position
        piece = position.piece_at(effect.square)
        if piece is None:
            return None
        legal = position.legal_moves()
        if piece.color == position.turn:
            binds = any(m.from_square == effect.square for m in legal)
        else:
            binds = any(m.to_square == effect.square and position.is_capture(m) for m in legal)
        if not binds:
            return None
        self._bound = True
        return words.touched_words(self.book, position, effect.square)

    def _follow(self, fen: str, *, new: bool = False) -> None:
        """The game moved on to `fen` (a new game's, with `new`)."""
        chess960 = self.position.chess960
        if new:
            castling = fen.split()[2] if len(fen.split()) > 2 else "-"
            chess960 = self._chess960_setup or not set(castling) <= STANDARD_CASTLING
            self._chess960_setup = False
        # A FEN that cannot be read keeps the last position known: better a stale word
        # than none (the arbiter only ever sends FENs it wrote).
        with suppress(InvalidInputError):
            self.position = Position.from_fen(fen, chess960=chess960)
        self._bound = False

    def last_move(self) -> str:
        if self.last is None:
            return words.last_move_words(self.book, None, None)
        return words.last_move_words(self.book, *self.last)


def _parse(position: Position, uci: str) -> Move | None:
    try:
        return position.parse_uci(uci)
    except InvalidInputError:
        return None
