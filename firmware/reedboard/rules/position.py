"""A chess position: the placement of the pieces and the state that goes with it.

`Position` is an immutable value. `play(move)` returns the next position, so a game is a
list of positions and nothing ever needs undoing. The placement is kept as bitboards per
piece type and per colour; castling rights are the squares of the rooks that may still
castle, which covers standard chess and Chess960 alike.

Legal moves are generated as int codes (see `moves.py`) and turned into `Move` values at
the public edge; `perft` stays on the codes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from reedboard.errors import IllegalMoveError
from reedboard.rules.attacks import (
    BETWEEN,
    BISHOP_EMPTY,
    DIAG_ATTACKS,
    DIAG_MASKS,
    FILE_ATTACKS,
    FILE_MASKS,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    RANK_ATTACKS,
    RANK_MASKS,
    ROOK_EMPTY,
)
from reedboard.rules.moves import (
    CODE_MOVE,
    FLAG_CASTLE,
    FLAG_DOUBLE_PUSH,
    FLAG_EN_PASSANT,
    PIECE_SHIFT,
    Move,
    code_key,
    move_of_code,
)
from reedboard.rules.pieces import (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    Color,
    Piece,
    PieceType,
)
from reedboard.rules.squares import (
    BB_DARK_SQUARES,
    BB_LIGHT_SQUARES,
    BB_RANKS,
    Bitboard,
    Square,
    squares_of,
)

_RANK_3 = BB_RANKS[2]
_RANK_6 = BB_RANKS[5]
_BACK_RANKS = BB_RANKS[0] | BB_RANKS[7]
_NOT_FILE_A = ~0x0101010101010101 & ((1 << 64) - 1)
_NOT_FILE_H = ~0x8080808080808080 & ((1 << 64) - 1)
_PAWN = PAWN << PIECE_SHIFT
_KNIGHT = KNIGHT << PIECE_SHIFT
_BISHOP = BISHOP << PIECE_SHIFT
_ROOK = ROOK << PIECE_SHIFT
_QUEEN = QUEEN << PIECE_SHIFT
_KING = KING << PIECE_SHIFT
_PROMOTIONS = (QUEEN << 12, ROOK << 12, BISHOP << 12, KNIGHT << 12)


class Position:
    """A position. Build one with `Position.from_fen`, `Position.standard()` or
    `Position.chess960(n)`; never mutate one.

    `pieces[t]` is the bitboard of piece type t (index 0 unused); `colors[c]` the bitboard
    of colour c (index 0 black, 1 white).
    """

    __slots__ = (
        "_bb",
        "_co",
        "_fen",
        "_legal",
        "castling",
        "chess960",
        "ep_square",
        "fullmove_number",
        "halfmove_clock",
        "turn",
    )

    _bb: list[Bitboard]
    _co: list[Bitboard]
    _legal: list[int] | None  # the legal codes, once asked for (the position never changes)
    _fen: str | None  # its FEN (X-FEN castling), once asked for: a PGN is written from one
    # start again and again, a relay's a thousand games at every move
    turn: Color
    castling: Bitboard
    ep_square: Square | None
    halfmove_clock: int
    fullmove_number: int
    chess960: bool

    def __init__(
        self,
        pieces: list[Bitboard],
        colors: list[Bitboard],
        turn: Color,
        castling: Bitboard,
        ep_square: Square | None,
        halfmove_clock: int = 0,
        fullmove_number: int = 1,
        chess960: bool = False,
    ) -> None:
        """Low-level constructor: no validation. Use `from_fen` for checked input."""
        self._bb = list(pieces)
        self._co = list(colors)
        self._legal = None
        self._fen = None
        self.turn = turn
        self.castling = castling
        self.ep_square = ep_square
        self.halfmove_clock = halfmove_clock
        self.fullmove_number = fullmove_number
        self.chess960 = chess960

    # ----- construction (delegated to the notation modules) -----

    @classmethod
    def from_fen(cls, fen: str, chess960: bool = False) -> Position:
        """Read a FEN (or a four-field EPD); X-FEN and Shredder-FEN castling fields too.

        Castling rights that only Chess960 allows make the position a Chess960 one.
        """
        from reedboard.rules.fen import parse_fen

        return parse_fen(fen, chess960=chess960)

    @classmethod
    def standard(cls) -> Position:
        from reedboard.rules.fen import STARTING_FEN, parse_fen

        return parse_fen(STARTING_FEN)

    @classmethod
    def chess960_start(cls, number: int) -> Position:
        from reedboard.rules.chess960 import chess960_fen
        from reedboard.rules.fen import parse_fen

        return parse_fen(chess960_fen(number), chess960=True)

    def fen(self, shredder: bool = False) -> str:
        """The FEN; castling as KQkq where that is unambiguous (X-FEN), or as rook files
        with `shredder=True`. The en passant square is written only when a legal en passant
        capture exists."""
        from reedboard.rules.fen import write_fen

        if shredder:
            return write_fen(self, shredder=True)
        if self._fen is None:
            self._fen = write_fen(self)
        return self._fen

    def board_fen(self) -> str:
        from reedboard.rules.fen import write_board_fen

        return write_board_fen(self)

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r}{', chess960=True' if self.chess960 else ''})"

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            row = []
            for file in range(8):
                piece = self.piece_at(rank * 8 + file)
                row.append(piece.symbol() if piece else ".")
            rows.append(" ".join(row))
        return "\n".join(rows)

    # ----- queries on the placement -----

    @property
    def occupied(self) -> Bitboard:
        """Every occupied square: all that the board's sensors can see."""
        return self._co[0] | self._co[1]

    def occupied_by(self, color: Color) -> Bitboard:
        return self._co[color]

    def pieces_of(self, piece_type: PieceType, color: Color) -> Bitboard:
        return self._bb[piece_type] & self._co[color]

    def piece_type_at(self, sq: Square) -> PieceType | None:
        bit = 1 << sq
        if not (self._co[0] | self._co[1]) & bit:
            return None
        for piece_type in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING):
            if self._bb[piece_type] & bit:
                return piece_type
        return None  # unreachable in a consistent position

    def piece_at(self, sq: Square) -> Piece | None:
        piece_type = self.piece_type_at(sq)
        if piece_type is None:
            return None
        return Piece(piece_type, bool(self._co[1] & (1 << sq)))

    def piece_map(self) -> dict[Square, Piece]:
        result: dict[Square, Piece] = {}
        for sq in squares_of(self.occupied):
            piece = self.piece_at(sq)
            assert piece is not None
            result[sq] = piece
        return result

    def king(self, color: Color) -> Square | None:
        bb = self._bb[KING] & self._co[color]
        return bb.bit_length() - 1 if bb else None

    def attackers(self, color: Color, sq: Square, occupied: Bitboard | None = None) -> Bitboard:
        """The pieces of `color` that attack `sq` (with the given occupancy, by default the
        board's)."""
        bb = self._bb
        occ = self.occupied if occupied is None else occupied
        rooks_queens = bb[ROOK] | bb[QUEEN]
        bishops_queens = bb[BISHOP] | bb[QUEEN]
        attackers = (
            (KNIGHT_ATTACKS[sq] & bb[KNIGHT])
            | (KING_ATTACKS[sq] & bb[KING])
            | (PAWN_ATTACKS[not color][sq] & bb[PAWN])
            | (
                (RANK_ATTACKS[sq][RANK_MASKS[sq] & occ] | FILE_ATTACKS[sq][FILE_MASKS[sq] & occ])
                & rooks_queens
            )
            | (DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occ] & bishops_queens)
        )
        return attackers & self._co[color]

    def is_attacked_by(self, color: Color, sq: Square) -> bool:
        return bool(self.attackers(color, sq))

    def checkers(self) -> Bitboard:
        king = self.king(self.turn)
        return 0 if king is None else self.attackers(not self.turn, king)

    def is_check(self) -> bool:
        return bool(self.checkers())

    # ----- legal moves -----

    def legal_moves(self) -> list[Move]:
        return list(map(move_of_code, self.legal_codes()))

    def legal_moves_from(self, sq: Square) -> list[Move]:
        return [move_of_code(c) for c in self.legal_codes() if c & 63 == sq]

    def is_legal(self, move: Move) -> bool:
        return self.code_for(move) is not None

    def has_legal_move(self) -> bool:
        return bool(self.legal_codes())

    def is_castling(self, move: Move) -> bool:
        """A legal or pseudo-legal king-takes-own-rook move, or the standard king step of
        two files from its start square where that means castling."""
        code = self.code_for(move)
        return code is not None and bool(code & FLAG_CASTLE)

    def is_en_passant(self, move: Move) -> bool:
        code = self.code_for(move)
        return code is not None and bool(code & FLAG_EN_PASSANT)

    def is_capture(self, move: Move) -> bool:
        code = self.code_for(move)
        if code is None:
            return False
        if code & FLAG_CASTLE:
            return False
        return bool(code & FLAG_EN_PASSANT or self._co[not self.turn] & (1 << move.to_square))

    def castling_squares(self, move: Move) -> tuple[Square, Square, Square, Square]:
        """For a castling move: (king from, king to, rook from, rook to)."""
        king_from, rook_from = move.from_square, move.to_square
        back = king_from & 56
        if rook_from > king_from:
            return king_from, back + 6, rook_from, back + 5
        return king_from, back + 2, rook_from, back + 3

    def normalize(self, move: Move) -> Move:
        """Castling written the standard way (`e1g1`) becomes king-takes-rook (`e1h1`)."""
        if self.chess960 or move.promotion is not None:
            return move
        king = self.king(self.turn)
        if move.from_square != king or abs(move.to_square - move.from_square) != 2:
            return move
        if move.from_square not in (4, 60):
            return move
        rook = move.from_square + (3 if move.to_square > move.from_square else -4)
        if self.castling & self._co[self.turn] & (1 << rook):
            return Move(move.from_square, rook)
        return move

    def code_for(self, move: Move) -> int | None:
        """The internal code of a legal move, or None when the move is not legal."""
        move = self.normalize(move)
        key = code_key(move)
        for code in self.legal_codes():
            if code & CODE_MOVE == key:
                return code
        return None

    def play(self, move: Move) -> Position:
        """The position after a legal move; `IllegalMoveError` otherwise."""
        code = self.code_for(move)
        if code is None:
            raise IllegalMoveError(f"{move.uci()} is not legal in {self.fen()}")
        return self.play_code(code)

    def legal_codes(self) -> list[int]:
        """Every legal move as an int code; the list is the position's own, not to be
        changed. Generated once: the move reader, SAN and the game ask the same position
        for its moves many times (a replayed ply some thirteen times)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_legal_codes()
        return legal

    def _generate_legal_codes(self) -> list[int]:
        # Bits are walked by hand here and in the helpers below (`low = bb & -bb`), not
        # through `squares_of`: perft runs this for every position it searches, and walking
        # a few bitboards through the generator takes about 1.6 times as long.
        bb = self._bb
        turn = self.turn
        us = self._co[turn]
        them = self._co[not turn]
        occ = us | them
        king_bb = bb[KING] & us
        if not king_bb:
            return []
        k = king_bb.bit_length() - 1
        queens = bb[QUEEN]
        their_rq = (bb[ROOK] | queens) & them
        their_bq = (bb[BISHOP] | queens) & them
        their_knights = bb[KNIGHT] & them
        their_pawns = bb[PAWN] & them
        their_king = bb[KING] & them
        pawn_attacks_us = PAWN_ATTACKS[turn]

        # Enemy sliders on the king's lines, were the board empty: they may check or pin.
        snipers = (ROOK_EMPTY[k] & their_rq) | (BISHOP_EMPTY[k] & their_bq)
        checkers = (KNIGHT_ATTACKS[k] & their_knights) | (pawn_attacks_us[k] & their_pawns)
        if snipers:
            checkers |= (
                (RANK_ATTACKS[k][RANK_MASKS[k] & occ] | FILE_ATTACKS[k][FILE_MASKS[k] & occ])
                & their_rq
            ) | (DIAG_ATTACKS[k][DIAG_MASKS[k] & occ] & their_bq)

        moves: list[int] = []
        append = moves.append

        # King steps: the target must not be attacked once the king has left its square
        # (a slider checking along a line still attacks the square behind the king).
        occ_no_king = occ ^ king_bb
        targets = KING_ATTACKS[k] & ~us
        king_code = k | _KING
        while targets:
            low = targets & -targets
            t = low.bit_length() - 1
            targets ^= low
            if KNIGHT_ATTACKS[t] & their_knights or KING_ATTACKS[t] & their_king:
                continue
            if pawn_attacks_us[t] & their_pawns:
                continue
            if (
                RANK_ATTACKS[t][RANK_MASKS[t] & occ_no_king]
                | FILE_ATTACKS[t][FILE_MASKS[t] & occ_no_king]
            ) & their_rq:
                continue
            if DIAG_ATTACKS[t][DIAG_MASKS[t] & occ_no_king] & their_bq:
                continue
            append(king_code | t << 6)

        if checkers:
            if checkers & (checkers - 1):
                return moves  # double check: only the king can move
            checker = checkers.bit_length() - 1
            target_mask = BETWEEN[k][checker] | checkers
        else:
            target_mask = ~us

        pinned = _pinned(k, snipers, occ, us) if snipers else 0
        line_k = LINE[k]
        _piece_codes(append, bb, us, occ, target_mask, pinned, line_k)
        _pawn_codes(append, bb[PAWN] & us, turn, them, occ, target_mask, pinned, line_k)

        ep = self.ep_square
        if ep is not None:
            capturers = PAWN_ATTACKS[not turn][ep] & bb[PAWN] & us
            if capturers:
                self._en_passant(moves, capturers, ep, k, occ, their_rq, their_bq, checkers)

        if self.castling & us and not checkers:
            self._castling(moves, k, king_bb, us, occ)
        return moves

    def _en_passant(
        self,
        moves: list[int],
        capturers: Bitboard,
        ep: Square,
        k: Square,
        occ: Bitboard,
        their_rq: Bitboard,
        their_bq: Bitboard,
        checkers: Bitboard,
    ) -> None:
        # Rare enough to check by playing it out: the capture empties two squares on one
        # rank at once, which no pin test sees.
        captured = ep - 8 if self.turn else ep + 8
        captured_bb = 1 << captured
        if not self._bb[PAWN] & self._co[not self.turn] & captured_bb:
            return
        if occ & (1 << ep):
            return
        other_checkers = checkers & ~captured_bb
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            f = low.bit_length() - 1
            after = (occ ^ low ^ captured_bb) | (1 << ep)
            if other_checkers & ~(their_rq | their_bq):
                continue  # a knight or pawn check that this capture does not answer
            if (
                RANK_ATTACKS[k][RANK_MASKS[k] & after] | FILE_ATTACKS[k][FILE_MASKS[k] & after]
            ) & their_rq:
                continue
            if DIAG_ATTACKS[k][DIAG_MASKS[k] & after] & their_bq:
                continue
            moves.append(f | ep << 6 | _PAWN | FLAG_EN_PASSANT)

    def _castling(
        self, moves: list[int], k: Square, king_bb: Bitboard, us: Bitboard, occ: Bitboard
    ) -> None:
        back = k & 56
        if k != (k & 7) + (0 if self.turn else 56):
            return  # the king has left its back rank: no castling rights can apply
        rooks = self.castling & us & self._bb[ROOK] & BB_RANKS[back >> 3]
        them = not self.turn
        while rooks:
            low = rooks & -rooks
            rooks ^= low
            r = low.bit_length() - 1
            if r > k:
                king_to, rook_to = back + 6, back + 5
            else:
                king_to, rook_to = back + 2, back + 3
            # Every square the king or the rook crosses or lands on must be empty but for
            # these two pieces (FIDE Chess960 rules; standard castling is the special case).
            path = BETWEEN[k][king_to] | BETWEEN[r][rook_to] | (1 << king_to) | (1 << rook_to)
            rest = occ ^ king_bb ^ low
            if path & rest:
                continue
            # The king may not pass through or land on an attacked square.
            king_path = BETWEEN[k][king_to] | (1 << king_to)
            safe = True
            while king_path:
                sq_low = king_path & -king_path
                king_path ^= sq_low
                if self.attackers(them, sq_low.bit_length() - 1, rest):
                    safe = False
                    break
            if safe:
                moves.append(k | r << 6 | _KING | FLAG_CASTLE)

    def play_code(self, code: int) -> Position:
        """The position after a move given as a legal code (no check of legality)."""
        new = Position.__new__(Position)
        new._legal = None
        new._fen = None
        bb = self._bb.copy()
        co = self._co.copy()
        turn = self.turn
        f = code & 63
        t = (code >> 6) & 63
        f_bb = 1 << f
        t_bb = 1 << t
        piece_type = (code >> PIECE_SHIFT) & 7
        castling = self.castling
        halfmove = self.halfmove_clock + 1
        ep_square = None
        if code & FLAG_CASTLE:
            back = f & 56
            if t > f:
                king_to, rook_to = back + 6, back + 5
            else:
                king_to, rook_to = back + 2, back + 3
            # King and rook may land on each other's squares (or stay): clear, then set.
            bb[KING] = (bb[KING] & ~f_bb) | (1 << king_to)
            bb[ROOK] = (bb[ROOK] & ~t_bb) | (1 << rook_to)
            co[turn] = (co[turn] & ~(f_bb | t_bb)) | (1 << king_to) | (1 << rook_to)
            castling &= ~BB_RANKS[back >> 3]
        else:
            them = not turn
            if co[them] & t_bb:
                for captured_type in (PAWN, KNIGHT, BISHOP, ROOK, QUEEN):
                    if bb[captured_type] & t_bb:
                        bb[captured_type] ^= t_bb
                        break
                co[them] ^= t_bb
                castling &= ~t_bb
                halfmove = 0
            bb[piece_type] ^= f_bb
            promotion = (code >> 12) & 7
            bb[promotion or piece_type] |= t_bb
            co[turn] ^= f_bb | t_bb
            if piece_type == PAWN:
                halfmove = 0
                if code & FLAG_DOUBLE_PUSH:
                    ep_square = (f + t) >> 1
                elif code & FLAG_EN_PASSANT:
                    captured = t - 8 if turn else t + 8
                    bb[PAWN] ^= 1 << captured
                    co[them] ^= 1 << captured
            elif piece_type == KING:
                # Only the mover's own rights: the other king may share this rank.
                castling &= ~BB_RANKS[0 if turn else 7]
            castling &= ~f_bb
        new._bb = bb
        new._co = co
        new.turn = not turn
        new.castling = castling
        new.ep_square = ep_square
        new.halfmove_clock = halfmove
        new.fullmove_number = self.fullmove_number + (0 if turn else 1)
        new.chess960 = self.chess960
        return new

    def gives_check(self, code: int) -> bool:
        """Whether the legal move `code` checks the opponent's king, worked out on the
        bitboards without making the move: SAN asks it of every legal move, and only the
        checking ones need the position after (for mate)."""
        if code & (FLAG_CASTLE | FLAG_EN_PASSANT):
            return self.play_code(code).is_check()  # rare: two pieces move or leave
        bb = self._bb
        turn = self.turn
        their_king = bb[KING] & self._co[not turn]
        if not their_king:
            return False
        k = their_king.bit_length() - 1
        f = code & 63
        t = (code >> 6) & 63
        f_bb = 1 << f
        occ = (self._co[0] | self._co[1]) & ~f_bb | 1 << t
        # Direct: the piece on its new square (a promoted pawn as what it becomes).
        piece_type = (code >> 12) & 7 or (code >> PIECE_SHIFT) & 7
        direct = 0
        if piece_type == PAWN:
            direct = PAWN_ATTACKS[turn][t]
        elif piece_type == KNIGHT:
            direct = KNIGHT_ATTACKS[t]
        elif piece_type != KING:
            if piece_type != ROOK:
                direct = DIAG_ATTACKS[t][DIAG_MASKS[t] & occ]
            if piece_type != BISHOP:
                direct |= (
                    RANK_ATTACKS[t][RANK_MASKS[t] & occ] | FILE_ATTACKS[t][FILE_MASKS[t] & occ]
                )
        if direct & their_king:
            return True
        # Discovered: another of our sliders sees the king through the square left. (The
        # mover is off `us`, and `t` held no piece of ours.)
        us = self._co[turn] & ~f_bb
        queens = bb[QUEEN]
        return bool(
            (RANK_ATTACKS[k][RANK_MASKS[k] & occ] | FILE_ATTACKS[k][FILE_MASKS[k] & occ])
            & (bb[ROOK] | queens)
            & us
            or DIAG_ATTACKS[k][DIAG_MASKS[k] & occ] & (bb[BISHOP] | queens) & us
        )

    # ----- game-level facts of one position -----

    def has_legal_en_passant(self) -> bool:
        if self.ep_square is None:
            return False
        return any(code & FLAG_EN_PASSANT for code in self.legal_codes())

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.legal_codes()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.legal_codes()

    def is_insufficient_material(self) -> bool:
        """No sequence of legal moves can end in checkmate (FIDE 5.2.2, 6.9) for either
        side: only kings and one knight, or only kings and bishops all on one colour of
        squares. (Positions that are dead for deeper reasons, like locked pawns, are not
        detected.)"""
        bb = self._bb
        if bb[PAWN] or bb[ROOK] or bb[QUEEN]:
            return False
        knights, bishops = bb[KNIGHT], bb[BISHOP]
        if knights:
            return not bishops and not knights & (knights - 1)
        return not bishops & BB_DARK_SQUARES or not bishops & BB_LIGHT_SQUARES

    def repetition_key(self) -> Hashable:
        """What makes two positions the same for repetition (FIDE 9.2.3): the same pieces on
        the same squares, the same side to move, the same castling rights, and the same en
        passant possibility (which counts only when a legal en passant capture exists)."""
        ep = self.ep_square if self.has_legal_en_passant() else None
        return (tuple(self._bb), self._co[1], self.turn, self.castling, ep)

    def uci(self, move: Move) -> str:
        """UCI text for a move in this position: castling as `e1g1` in standard chess and
        as king takes rook (`e1h1`) in Chess960."""
        if not self.chess960 and self._is_king_takes_rook(move):
            return Move(move.from_square, self.castling_squares(move)[1]).uci()
        return move.uci()

    def _is_king_takes_rook(self, move: Move) -> bool:
        us = self._co[self.turn]
        return bool(
            self._bb[KING] & us & (1 << move.from_square)
            and self._bb[ROOK] & us & (1 << move.to_square)
        )

    def parse_uci(self, text: str) -> Move:
        """A legal move from UCI text (both castling notations accepted)."""
        move = self.normalize(Move.from_uci(text))
        if not self.is_legal(move):
            raise IllegalMoveError(f"{text} is not legal in {self.fen()}")
        return move


def _pinned(k: Square, snipers: Bitboard, occ: Bitboard, us: Bitboard) -> Bitboard:
    """Own pieces pinned to the king on `k`: each alone between it and one of `snipers`,
    the enemy sliders on its lines."""
    pinned = 0
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        blockers = BETWEEN[k][low.bit_length() - 1] & occ
        if blockers and not blockers & (blockers - 1) and blockers & us:
            pinned |= blockers
    return pinned


def _piece_codes(
    append: Callable[[int], None],
    bb: list[Bitboard],
    us: Bitboard,
    occ: Bitboard,
    target_mask: Bitboard,
    pinned: Bitboard,
    line_k: tuple[Bitboard, ...],
) -> None:
    """The codes of the knights', bishops', rooks' and queens' moves to `target_mask`; a
    pinned piece stays on its line through the king (`line_k`)."""
    queens = bb[QUEEN]
    # Knights (a pinned knight can never move).
    pieces = bb[KNIGHT] & us & ~pinned
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        f = low.bit_length() - 1
        targets = KNIGHT_ATTACKS[f] & target_mask
        code = f | _KNIGHT
        while targets:
            t_low = targets & -targets
            targets ^= t_low
            append(code | (t_low.bit_length() - 1) << 6)

    # Bishops and queens along diagonals, rooks and queens along ranks and files.
    pieces = (bb[BISHOP] | queens) & us
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        f = low.bit_length() - 1
        targets = DIAG_ATTACKS[f][DIAG_MASKS[f] & occ] & target_mask
        if low & pinned:
            targets &= line_k[f]
        code = f | (_QUEEN if queens & low else _BISHOP)
        while targets:
            t_low = targets & -targets
            targets ^= t_low
            append(code | (t_low.bit_length() - 1) << 6)
    pieces = (bb[ROOK] | queens) & us
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        f = low.bit_length() - 1
        targets = (
            RANK_ATTACKS[f][RANK_MASKS[f] & occ] | FILE_ATTACKS[f][FILE_MASKS[f] & occ]
        ) & target_mask
        if low & pinned:
            targets &= line_k[f]
        code = f | (_QUEEN if queens & low else _ROOK)
        while targets:
            t_low = targets & -targets
            targets ^= t_low
            append(code | (t_low.bit_length() - 1) << 6)


def _pawn_codes(
    append: Callable[[int], None],
    pawns: Bitboard,
    turn: Color,
    them: Bitboard,
    occ: Bitboard,
    target_mask: Bitboard,
    pinned: Bitboard,
    line_k: tuple[Bitboard, ...],
) -> None:
    """The codes of the pawns' moves to `target_mask`, en passant aside."""
    # Set-wise: pushes, double pushes and captures, shifted as a whole.
    empty = ~occ
    if turn:
        single = (pawns << 8) & empty
        double = ((single & _RANK_3) << 8) & empty
        left = ((pawns & _NOT_FILE_A) << 7) & them
        right = ((pawns & _NOT_FILE_H) << 9) & them
        steps = (-8, -16, -7, -9)
    else:
        single = (pawns >> 8) & empty
        double = ((single & _RANK_6) >> 8) & empty
        left = ((pawns & _NOT_FILE_A) >> 9) & them
        right = ((pawns & _NOT_FILE_H) >> 7) & them
        steps = (8, 16, 9, 7)
    for targets, step, flag in (
        (single & target_mask, steps[0], 0),
        (double & target_mask, steps[1], FLAG_DOUBLE_PUSH),
        (left & target_mask, steps[2], 0),
        (right & target_mask, steps[3], 0),
    ):
        if not targets:
            continue
        # The promotions apart, and the pin test only where a pawn is pinned: the plain
        # pawn moves are most of a position's and need neither test.
        promotions = targets & _BACK_RANKS
        targets ^= promotions
        code = _PAWN | flag
        if pinned:
            targets = _unpinned_pawn_targets(targets, step, pinned, line_k)
            promotions = _unpinned_pawn_targets(promotions, step, pinned, line_k)
        while targets:
            t_low = targets & -targets
            targets ^= t_low
            t = t_low.bit_length() - 1
            append(code | (t + step) | t << 6)
        while promotions:
            t_low = promotions & -promotions
            promotions ^= t_low
            t = t_low.bit_length() - 1
            promotion_code = code | (t + step) | t << 6
            for promotion in _PROMOTIONS:
                append(promotion_code | promotion)


def _unpinned_pawn_targets(
    targets: Bitboard, step: int, pinned: Bitboard, line_k: tuple[Bitboard, ...]
) -> Bitboard:
    """`targets` without those a pinned pawn would reach off its line through the king."""
    kept = targets
    while targets:
        t_low = targets & -targets
        targets ^= t_low
        f = t_low.bit_length() - 1 + step
        if pinned >> f & 1 and not line_k[f] & t_low:
            kept ^= t_low
    return kept


def perft(position: Position, depth: int) -> int:
    """The number of leaf nodes of the legal move tree of the given depth."""
    if depth < 1:
        return 1
    codes = position.legal_codes()
    if depth == 1:
        return len(codes)
    play = position.play_code
    return sum(perft(play(code), depth - 1) for code in codes)


def perft_counts(position: Position, depth: int) -> list[int]:
    """The perft of every depth from 0 to `depth`, counted in one walk of the tree: the
    nodes of each level as they are generated, so checking a position at several depths
    costs what its deepest count costs."""
    counts = [1] + [0] * depth

    def walk(node: Position, level: int) -> None:
        codes = node.legal_codes()
        counts[level + 1] += len(codes)
        if level + 1 < depth:
            play = node.play_code
            for code in codes:
                walk(play(code), level + 1)

    if depth >= 1:
        walk(position, 0)
    return counts
