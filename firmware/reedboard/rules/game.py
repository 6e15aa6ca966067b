"""A game: the start position, the moves played, and the rules that look at the whole
history (repetition, the 50- and 75-move rules) and decide when the game ends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from reedboard.errors import IllegalMoveError
from reedboard.rules.moves import FLAG_EN_PASSANT, PIECE_SHIFT, Move, move_of_code
from reedboard.rules.outcome import (
    AGREEMENT,
    CHECKMATE,
    FIFTY_MOVES,
    FIVEFOLD_REPETITION,
    INSUFFICIENT_MATERIAL,
    RESIGNATION,
    SEVENTYFIVE_MOVES,
    STALEMATE,
    THREEFOLD_REPETITION,
    TIME,
    TIME_INSUFFICIENT_MATERIAL,
    Outcome,
)
from reedboard.rules.pieces import PAWN, Color
from reedboard.rules.position import Position
from reedboard.rules.san import parse_san, san


class Game:
    """Positions and moves from a start position. `push` and `pop` are the only changes."""

    def __init__(self, start: Position | None = None) -> None:
        self._positions: list[Position] = [start if start is not None else Position.standard()]
        self._moves: list[Move] = []
        self._codes: list[int] = []  # each move's internal code: a record replayed fast
        self._keys: Counter[Hashable] = Counter([self._positions[0].repetition_key()])
        self._key_stack: list[Hashable] = [self._positions[0].repetition_key()]
        self._declared: Outcome | None = None  # resignation, agreement or a claim
        # The automatic outcome of the current position, once asked: a running board asks
        # many times a second, and the answer needs the legal moves.
        self._automatic: tuple[Position, Outcome | None] | None = None

    @classmethod
    def from_fen(cls, fen: str, chess960: bool = False) -> Game:
        return cls(Position.from_fen(fen, chess960=chess960))

    @classmethod
    def replayed(cls, start: Position, codes: list[int]) -> Game:
        """The game of `codes` (as `codes` gave them) from `start`, played without
        generating legal moves: for a record this program checked when it was played and
        kept since (a relay's snapshot). About twenty times as fast as `push`; a code
        that was never legal makes a position that is wrong, never an exception, so a
        caller compares the end with what it kept."""
        game = cls(start)
        position = start
        for code in codes:
            position = position.play_code(code)
            key = position.repetition_key()
            game._positions.append(position)
            game._moves.append(move_of_code(code))
            game._codes.append(code)
            game._keys[key] += 1
            game._key_stack.append(key)
        return game

    @property
    def codes(self) -> tuple[int, ...]:
        """Each move's internal code, for `replayed`."""
        return tuple(self._codes)

    @property
    def start(self) -> Position:
        return self._positions[0]

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        return tuple(self._positions)

    @property
    def chess960(self) -> bool:
        return self.start.chess960

    def __len__(self) -> int:
        return len(self._moves)

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other._positions = list(self._positions)
        other._moves = list(self._moves)
        other._codes = list(self._codes)
        other._keys = Counter(self._keys)
        other._key_stack = list(self._key_stack)
        other._declared = self._declared
        other._automatic = self._automatic
        return other

    def push(self, move: Move) -> Move:
        """Play a legal move; returns it in its stored form (castling as king takes rook)."""
        if self.outcome() is not None:
            raise IllegalMoveError(f"the game is over ({self.outcome()}); no move can follow")
        position = self.position
        move = position.normalize(move)
        code = position.code_for(move)
        if code is None:
            raise IllegalMoveError(f"{move.uci()} is not legal in {position.fen()}")
        after = position.play_code(code)
        key = after.repetition_key()
        self._positions.append(after)
        self._moves.append(move)
        self._codes.append(code)
        self._keys[key] += 1
        self._key_stack.append(key)
        return move

    def push_san(self, text: str) -> Move:
        return self.push(parse_san(self.position, text))

    def push_uci(self, text: str) -> Move:
        return self.push(self.position.parse_uci(text))

    def pop(self) -> Move:
        if not self._moves:
            raise IndexError("no move to take back")
        self._declared = None
        key = self._key_stack.pop()
        self._keys[key] -= 1
        self._positions.pop()
        self._codes.pop()
        return self._moves.pop()

    @property
    def declared(self) -> Outcome | None:
        """The end a player or an arbiter declared (resignation, agreement, a claim), as
        opposed to one the position itself reached (mate, stalemate, an automatic draw)."""
        return self._declared

    def peek(self) -> Move | None:
        return self._moves[-1] if self._moves else None

    def san(self, move: Move) -> str:
        """SAN of a move in the current position."""
        return san(self.position, move)

    def uci(self, move: Move) -> str:
        return self.position.uci(move)

    def san_moves(self) -> list[str]:
        """The SAN of every move played."""
        return [san(p, m) for p, m in zip(self._positions, self._moves, strict=False)]

    def repetitions(self) -> int:
        """How often the current position has stood on the board in this game."""
        return self._keys[self._key_stack[-1]]

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetitions() >= count

    # ----- the end of the game -----

    def outcome(self) -> Outcome | None:
        """The automatic end of the game, if it has come: checkmate (FIDE 5.1.1), stalemate
        (5.2.1), a dead position through insufficient material (5.2.2), the 75-move rule
        (9.6.2, checkmate taking precedence) and fivefold repetition (9.6.1)."""
        if self._declared is not None:
            return self._declared
        position = self.position
        if self._automatic is not None and self._automatic[0] is position:
            return self._automatic[1]
        outcome = self._automatic_outcome(position)
        self._automatic = (position, outcome)
        return outcome

    def _automatic_outcome(self, position: Position) -> Outcome | None:
        has_moves = position.has_legal_move()
        if not has_moves and position.is_check():
            return Outcome(CHECKMATE, not position.turn)
        if position.is_insufficient_material():
            return Outcome(INSUFFICIENT_MATERIAL, None)
        if not has_moves:
            return Outcome(STALEMATE, None)
        if position.halfmove_clock >= 150:
            return Outcome(SEVENTYFIVE_MOVES, None)
        if self.repetitions() >= 5:
            return Outcome(FIVEFOLD_REPETITION, None)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def can_claim_fifty_moves(self) -> bool:
        """FIDE 9.3: the last 50 moves of each player had no pawn move and no capture, or
        the move the player is about to make completes them."""
        position = self.position
        if position.halfmove_clock >= 100 and position.has_legal_move():
            return True
        if position.halfmove_clock == 99:
            for code in position.legal_codes():
                if (code >> PIECE_SHIFT) & 7 == PAWN or code & FLAG_EN_PASSANT:
                    continue
                if position.occupied_by(not position.turn) & (1 << ((code >> 6) & 63)):
                    continue
                if position.play_code(code).has_legal_move():
                    return True
        return False

    def can_claim_threefold_repetition(self) -> bool:
        """FIDE 9.2: the position has stood three times, or the move about to be made
        makes it stand a third time."""
        if self.repetitions() >= 3:
            return True
        position = self.position
        for code in position.legal_codes():
            if self._keys[position.play_code(code).repetition_key()] >= 2:
                return True
        return False

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def resign(self, color: Color) -> Outcome:
        """`color` resigns (FIDE 5.1.2): the opponent wins."""
        self._end(Outcome(RESIGNATION, not color))
        return self.outcome_or_raise()

    def flag_fell(self, color: Color, opponent_can_mate: bool) -> Outcome:
        """`color`'s time ran out (FIDE 6.9): the opponent wins, or it is a draw when the
        opponent could not checkmate by any series of legal moves."""
        if opponent_can_mate:
            self._end(Outcome(TIME, not color))
        else:
            self._end(Outcome(TIME_INSUFFICIENT_MATERIAL, None))
        return self.outcome_or_raise()

    def agree_draw(self) -> Outcome:
        """Both players agree to a draw (FIDE 5.2.3)."""
        self._end(Outcome(AGREEMENT, None))
        return self.outcome_or_raise()

    def claim_draw(self, move: Move | None = None) -> Outcome:
        """The player to move claims a draw (FIDE 9.2, 9.3): by the position now, or by
        the position after `move`, which is then played. `IllegalMoveError` if the claim
        is not valid; the game is then unchanged."""
        if move is not None:
            self.push(move)
        claim = self.claimable_now()
        if claim is None:
            if move is not None:
                self.pop()
            raise IllegalMoveError(
                "no draw can be claimed: neither threefold repetition nor the 50-move rule applies"
            )
        self._end(claim)
        return claim

    def claimable_now(self) -> Outcome | None:
        """The draw the player to move may claim by the position as it stands."""
        if self.outcome() is not None:
            return None
        if self.repetitions() >= 3:
            return Outcome(THREEFOLD_REPETITION, None)
        if self.position.halfmove_clock >= 100:
            return Outcome(FIFTY_MOVES, None)
        return None

    def _end(self, outcome: Outcome) -> None:
        if self.outcome() is not None:
            raise IllegalMoveError(f"the game is already over ({self.outcome()})")
        self._declared = outcome

    def outcome_or_raise(self) -> Outcome:
        outcome = self.outcome()
        assert outcome is not None
        return outcome

    def claimable_draw(self) -> Outcome | None:
        """The draw a claim now would obtain, if any."""
        if self.can_claim_threefold_repetition():
            return Outcome(THREEFOLD_REPETITION, None)
        if self.can_claim_fifty_moves():
            return Outcome(FIFTY_MOVES, None)
        return None
