"""Touch-move (FIDE Laws 4.3, 4.4, 4.5): what the pieces a player touched oblige them to do.

The Laws number the cases 4.3.1-4.3.3 and 4.4.1-4.4.3; the board names them 4.3a-4.3c and
4.4a-4.4c, in the same order.

The record keeps every piece lifted during a turn, in order, the player's own and the
opponent's. The board cannot see a hand, so every lift counts as a deliberate touch by the
player to move, but for an opponent's piece set back on its square: its owner may have
adjusted it, so it binds nobody (a violation is called only when the touch cannot have
been the owner's). Pieces lifted at the same moment (seen in the same scan, so with the same
time) were touched together, and their order is never read from the order the debouncer
lists them in: an own and an opponent's piece together, the own piece counts as touched
first (4.3c); two own pieces together, either may be moved; king and rook together, the
king counts as first, so castling on that side is due (4.4a).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.rules.moves import FLAG_CASTLE, FLAG_EN_PASSANT, Move, move_of_code
from reedboard.rules.pieces import KING, ROOK
from reedboard.rules.position import Position
from reedboard.rules.squares import Square


@dataclass(frozen=True, slots=True)
class Touch:
    square: Square
    piece: str  # FEN letter
    own: bool  # a piece of the player to move
    t_ms: int = 0


@dataclass(frozen=True, slots=True)
class Breach:
    """A move that touch-move forbids: the article and the square of the piece concerned."""

    rule: str
    square: Square
    message: str


@dataclass
class TouchRecord:
    """The touches of the player to move since their turn began."""

    touches: list[Touch] = field(default_factory=list)
    _cached: tuple[Position, dict[Move, Square | None], set[Move]] | None = None

    def touch(self, square: Square, piece: str, position: Position, t_ms: int = 0) -> None:
        if any(t.square == square for t in self.touches):
            return  # a piece counts once: its first touch is what binds
        own = piece.isupper() == position.turn
        touch = Touch(square, piece, own, t_ms)
        # Same moment, own and opponent's piece: the own piece counts as first (4.3c).
        index = len(self.touches)
        while (
            own
            and index
            and not self.touches[index - 1].own
            and self.touches[index - 1].t_ms == t_ms
        ):
            index -= 1
        self.touches.insert(index, touch)

    def set_back(self, square: Square) -> None:
        """A piece set down on `square`: an opponent's piece touched there and set back
        may have been its owner's hand (adjusting a piece, on either turn): the sensors
        cannot say whose hand it was, so it binds nobody (the touch is still reported).
        Set down by the capturer, it was taken: it binds nothing either."""
        self.touches = [t for t in self.touches if t.own or t.square != square]

    def _facts(self, position: Position) -> tuple[dict[Move, Square | None], set[Move]]:
        """The legal moves with the square of the piece each one takes, and the castlings:
        once per position, as every candidate move of the turn asks."""
        if self._cached is not None and self._cached[0] is position:
            return self._cached[1], self._cached[2]
        them = position.occupied_by(not position.turn)
        victims: dict[Move, Square | None] = {}
        castlings: set[Move] = set()
        for code in position.legal_codes():
            move = move_of_code(code)
            victim: Square | None = None
            if code & FLAG_CASTLE:
                castlings.add(move)
            elif code & FLAG_EN_PASSANT:
                victim = move.to_square - 8 if position.turn else move.to_square + 8
            elif them >> move.to_square & 1:
                victim = move.to_square
            victims[move] = victim
        self._cached = (position, victims, castlings)
        return victims, castlings

    def obliged_square(self, position: Position) -> Square | None:
        """The own piece that must move, for the lights (strict mode)."""
        movable = {m.from_square for m in position.legal_moves()}
        for touch in self.touches:
            if touch.own and touch.square in movable:
                return touch.square
        return None

    def breach(self, position: Position, move: Move, until_ms: int | None = None) -> Breach | None:
        """Whether playing `move` breaks an obligation of these touches. With `until_ms`,
        only touches up to then count: the move was made when its piece was released, and
        what the hands touched after that is the opponent's turn."""
        touches = self.touches
        if until_ms is not None:
            touches = [t for t in touches if t.t_ms <= until_ms]
        victims, castlings = self._facts(position)
        facts = _Facts(position, move, victims, castlings)
        own = [t for t in touches if t.own]
        for rule in (_king_and_rook(facts, own), _capture_with_first(facts, touches)):
            if rule is not None:
                return rule.breach
        return _first_binding(facts, touches)


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the rules ask about the position and the move played."""

    position: Position
    move: Move
    victims: dict[Move, Square | None]  # the legal moves, with the square each takes
    castlings: set[Move]

    @property
    def legal(self) -> list[Move]:
        return list(self.victims)


@dataclass(frozen=True, slots=True)
class _Decided:
    """A rule settled the move: `breach`, or allowed (None)."""

    breach: Breach | None


def _king_and_rook(facts: _Facts, own: list[Touch]) -> _Decided | None:
    """4.4: the king and a rook. A rook touched at the same moment as the king counts as
    touched with it (4.4a), never before it."""
    position = facts.position
    king = next((t for t in own if position.piece_type_at(t.square) == KING), None)
    if king is None:
        return None
    rooks = [t for t in own if position.piece_type_at(t.square) == ROOK]
    rook_first = _rook_first(facts, [t for t in rooks if t.t_ms < king.t_ms])
    if rook_first is not None:
        return rook_first
    after = [t for t in rooks if t.t_ms >= king.t_ms]
    if not after or own[0].t_ms != king.t_ms:
        return None
    return _king_then_rook(facts, king, after)


def _rook_first(facts: _Facts, rooks_before: list[Touch]) -> _Decided | None:
    """4.4b: a rook touched before the king may not castle on this move."""
    move = facts.move
    for rook in rooks_before:
        if move in facts.castlings and move.to_square == rook.square:
            return _Decided(
                Breach(
                    "4.4b",
                    rook.square,
                    "rook touched before the king: no castling with it on this move",
                )
            )
    return None


def _king_then_rook(facts: _Facts, king: Touch, after: list[Touch]) -> _Decided | None:
    """4.4a and 4.4c: the king touched first, then (or with it) a rook."""
    move = facts.move
    castles = [
        Move(king.square, rook.square)
        for rook in after
        if rook.t_ms == after[0].t_ms and Move(king.square, rook.square) in facts.victims
    ]
    if castles:
        if move not in castles:
            return _Decided(
                Breach("4.4a", king.square, "king and then rook touched: castle on that side")
            )
        return _Decided(None)
    if not any(m.from_square == king.square for m in facts.legal):
        return None
    if move.from_square != king.square:
        return _Decided(
            Breach("4.4c", king.square, "castling with that rook is illegal: move the king")
        )
    return _Decided(None)


def _capture_with_first(facts: _Facts, touches: list[Touch]) -> _Decided | None:
    """4.3c: own and opponent's pieces touched: the first own piece touched that can move
    must capture a touched opponent's piece if it legally can (the first of them it can
    take); another own piece taking it does not fulfil the obligation."""
    movable = {m.from_square for m in facts.legal}
    first_own = next((t for t in touches if t.own and t.square in movable), None)
    if first_own is None:
        return None
    for target in (t for t in touches if not t.own):
        captures = [
            m
            for m, victim in facts.victims.items()
            if m.from_square == first_own.square and victim == target.square
        ]
        if captures:
            if facts.move in captures:
                return _Decided(None)
            return _Decided(
                Breach(
                    "4.3c",
                    first_own.square,
                    "own and opponent's piece touched: capture it with this piece",
                )
            )
    return None


def _first_binding(facts: _Facts, touches: list[Touch]) -> Breach | None:
    """Otherwise (4.3c, and 4.3a/4.3b alone): the first touched piece that can be moved
    or captured binds; it is named by the article that makes it bind. Pieces touched at
    the same moment are one step: any of them may be the one moved (or, with no own
    piece among them that can move, taken)."""
    movable = {m.from_square for m in facts.legal}
    capturable = {victim for victim in facts.victims.values() if victim is not None}
    for group in _same_moment(touches):
        mine = [t.square for t in group if t.own and t.square in movable]
        if mine:
            if facts.move.from_square not in mine:
                return Breach("4.3a", mine[0], "a touched piece must be moved")
            return None
        prey = [t.square for t in group if not t.own and t.square in capturable]
        if prey:
            if facts.victims.get(facts.move) not in prey:
                return Breach("4.3b", prey[0], "a touched opponent's piece must be captured")
            return None
    return None  # 4.5: nothing touched can move or be taken: any legal move


def _same_moment(touches: list[Touch]) -> list[list[Touch]]:
    """The touches in runs of equal time, in the order they came."""
    groups: list[list[Touch]] = []
    for touch in touches:
        if groups and groups[-1][-1].t_ms == touch.t_ms:
            groups[-1].append(touch)
        else:
            groups.append([touch])
    return groups
