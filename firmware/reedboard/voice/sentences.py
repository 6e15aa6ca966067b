"""The words for what happens on the board, built from a position and a phrasebook.

Pure: a position and a phrasebook in, a sentence out. Each function gives one sentence
(or, for the whole position, a few), capitalised and ended with a full stop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reedboard.rules.moves import Move
from reedboard.rules.pieces import (
    BISHOP,
    BLACK,
    COLORS,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    Color,
)
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Bitboard, Square, squares_of
from reedboard.voice.phrasebook import Phrasebook

SQUARE_AT_START = re.compile(r"[a-h][1-8]\b")
SPOKEN_STEPS = 3  # an illegal board's steps said at once; more is too long to follow
# The order a player reads a side's pieces in: the king first, the pawns last.
READING_ORDER = (KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN)


def sentence(words: str) -> str:
    """ "cavalier g1 f3" -> "Cavalier g1 f3."; a square's name keeps its small letter
    ("e4 : vide."), as players write it."""
    words = words.strip()
    if not words:
        return words
    if not SQUARE_AT_START.match(words):
        words = words[0].upper() + words[1:]
    return words if words[-1] in ".!?" else words + "."


def listed(book: Phrasebook, items: Sequence[str]) -> str:
    """ "a1, b1 et c1"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {book.and_word} {items[-1]}"


def move_phrase(book: Phrasebook, before: Position, move: Move) -> str:
    """A legal move of `before` in words (no capital, no full stop): the piece, both
    squares, what it takes, castling, en passant, the promotion, check and mate."""
    if before.is_castling(move):
        # Stored as the king taking its own rook: the rook's side says which castling.
        kingside = move.to_square > move.from_square
        words = book.castle_kingside if kingside else book.castle_queenside
    else:
        piece_type = before.piece_type_at(move.from_square) or PAWN
        fields = {
            "piece": book.pieces[piece_type],
            "origin": SQUARE_NAMES[move.from_square],
            "target": SQUARE_NAMES[move.to_square],
        }
        if before.is_en_passant(move):
            words = book.en_passant.format(**fields)
        elif before.is_capture(move):
            victim = before.piece_type_at(move.to_square) or PAWN
            words = book.capture.format(victim=book.pieces[victim], **fields)
        else:
            words = book.quiet.format(**fields)
        if move.promotion is not None:
            words = book.promotion.format(move=words, promoted=book.pieces[move.promotion])
    after = before.play(move)
    if after.is_check():
        template = book.checkmate if not after.has_legal_move() else book.check
        words = template.format(move=words)
    return words


def move_words(book: Phrasebook, before: Position, move: Move) -> str:
    return sentence(move_phrase(book, before, move))


def to_play_words(book: Phrasebook, before: Position, move: Move) -> str:
    """A move lit for the player to carry out (an engine's, Lichess's, a GUI's)."""
    return sentence(book.to_play.format(move=move_phrase(book, before, move)))


def taken_back_words(book: Phrasebook, before: Position, move: Move) -> str:
    return sentence(book.taken_back.format(move=move_phrase(book, before, move)))


def last_move_words(book: Phrasebook, before: Position | None, move: Move | None) -> str:
    if before is None or move is None:
        return sentence(book.no_move)
    return sentence(book.last_move.format(move=move_phrase(book, before, move)))


def result_phrase(book: Phrasebook, result: str) -> str:
    if result == "1-0":
        return book.winner.format(side=book.sides[WHITE])
    if result == "0-1":
        return book.winner.format(side=book.sides[BLACK])
    return book.drawn


def game_over_words(book: Phrasebook, result: str, reason: str) -> str:
    said = book.reasons.get(reason, reason.replace("_", " "))
    return sentence(book.ended.format(result=result_phrase(book, result), reason=said))


def new_game_words(book: Phrasebook, turn: Color) -> str:
    return sentence(book.new_game.format(to_move=book.to_move[turn]))


def broadcast_words(book: Phrasebook, back: bool) -> str:
    """The board's broker lost (the game kept on the board) or taken again."""
    return sentence(book.broadcast_back if back else book.broadcast_down)


def setup_words(book: Phrasebook, number: int) -> str:
    """A Chess960 position to set up: its number and its back rank from a to h, the same
    for both sides (black's mirrors white's)."""
    start = Position.chess960_start(number)
    rank = [book.pieces[start.piece_type_at(square) or PAWN] for square in range(8)]
    return sentence(book.setup.format(number=number, rank=", ".join(rank)))


def _the_piece(book: Phrasebook, position: Position, square: Square) -> str:
    piece_type = position.piece_type_at(square)
    return book.the_pieces[piece_type] if piece_type is not None else book.the_pieces[PAWN]


def touched_words(book: Phrasebook, position: Position, square: Square) -> str:
    """Strict mode: the touched piece on `square` now binds (FIDE 4.3): to be moved when
    it is the mover's, to be taken when it is the opponent's."""
    piece = position.piece_at(square)
    template = (
        book.touched_own if piece is None or piece.color == position.turn else book.touched_theirs
    )
    return sentence(
        template.format(the_piece=_the_piece(book, position, square), square=SQUARE_NAMES[square])
    )


def illegal_words(
    book: Phrasebook,
    position: Position,
    missing: Bitboard,
    extra: Bitboard,
    pairs: Sequence[tuple[Square, Square]],
) -> str:
    """What to put right, as the lights show it: the first pair (a piece seen on the extra
    square that belongs on the missing one) whose squares both still stand wrong, and
    every square that no pair explains. The next pair is said when the board, with the
    first put right, is reported again."""
    paired_missing = paired_extra = 0
    for stray, home in pairs:
        paired_extra |= 1 << stray
        paired_missing |= 1 << home
    steps: list[str] = []
    for stray, home in pairs:
        if extra >> stray & 1 and missing >> home & 1:
            steps.append(
                book.put_back_from.format(
                    the_piece=_the_piece(book, position, home),
                    square=SQUARE_NAMES[home],
                    origin=SQUARE_NAMES[stray],
                )
            )
            break
    for home in squares_of(missing & ~paired_missing):
        steps.append(
            book.put_back.format(
                the_piece=_the_piece(book, position, home), square=SQUARE_NAMES[home]
            )
        )
    for stray in squares_of(extra & ~paired_extra):
        steps.append(book.take_off.format(square=SQUARE_NAMES[stray]))
    if len(steps) > SPOKEN_STEPS:
        # A board cleared or being set up: the first few steps, and how many follow (the
        # board says the rest as the pieces come, each change bringing a new mismatch).
        more = book.more_steps.format(count=len(steps) - SPOKEN_STEPS)
        steps = [*steps[:SPOKEN_STEPS], more]
    return sentence(book.illegal.format(steps=", ".join(steps)))


def violation_words(book: Phrasebook, position: Position, rule: str, square: Square) -> str:
    """A touch-move or castling breach (strict mode), naming the FIDE article."""
    template = book.violations.get(rule, book.violation)
    return sentence(
        template.format(
            article=rule,
            the_piece=_the_piece(book, position, square),
            square=SQUARE_NAMES[square],
        )
    )


def sensor_words(book: Phrasebook, square: Square, fault: str) -> str:
    template = book.sensor_recovered if fault == "recovered" else book.sensor_faulty
    return sentence(template.format(square=SQUARE_NAMES[square]))


def start_fault_words(book: Phrasebook, squares: Bitboard) -> str:
    """The start-up self-test found switches that do not read as the game stands: the
    first few squares, and how many more."""
    names = [SQUARE_NAMES[sq] for sq in squares_of(squares)]
    if len(names) > SPOKEN_STEPS:
        more = book.more_steps.format(count=len(names) - SPOKEN_STEPS)
        said = ", ".join([*names[:SPOKEN_STEPS], more])
    else:
        said = listed(book, names)
    return sentence(book.start_fault.format(squares=said))


def square_words(book: Phrasebook, position: Position, square: Square) -> str:
    """ "E4 : cavalier blanc."."""
    piece = position.piece_at(square)
    name = SQUARE_NAMES[square]
    if piece is None:
        return sentence(book.square_empty.format(square=name))
    return sentence(book.square_holds.format(square=name, piece=book.coloured[piece.symbol()]))


def position_words(book: Phrasebook, position: Position) -> str:
    """The whole position, side by side and piece by piece, then whose move it is: what a
    player who cannot see the board checks it against."""
    said: list[str] = []
    for color in COLORS:
        kinds = []
        for piece_type in READING_ORDER:
            names = [SQUARE_NAMES[sq] for sq in squares_of(position.pieces_of(piece_type, color))]
            if not names:
                continue
            word = book.pieces[piece_type] if len(names) == 1 else book.plurals[piece_type]
            kinds.append(book.kind_on.format(piece=word, squares=listed(book, names)))
        said.append(
            sentence(book.side_pieces.format(side=book.side_titles[color], pieces=", ".join(kinds)))
        )
    said.append(sentence(book.to_move[position.turn]))
    return " ".join(said)


def clock_words(book: Phrasebook, clocks: tuple[int, int] | None) -> str:
    """ "Blancs 4 minutes 59, noirs 1 minute 1.": both players' time left (White's,
    Black's ms), in whole seconds as a clock shows them; None: the game is not timed."""
    if clocks is None:
        return sentence(book.not_timed)
    white, black = (_time_words(book, ms) for ms in clocks)
    return sentence(book.clocks.format(white=white, black=black))


def time_added_words(book: Phrasebook, white: bool, ms: int, clocks: tuple[int, int]) -> str:
    """ "2 minutes added to white's clock. White 7 minutes, black 5 minutes.": the
    arbiter's decision, then both players' time as it now stands."""
    time = _time_words(book, ms)
    said = sentence(book.time_added.format(time=time, side=book.sides[white]))
    return f"{said} {clock_words(book, clocks)}"


def _time_words(book: Phrasebook, ms: int) -> str:
    minutes, seconds = divmod(max(0, ms) // 1000, 60)
    if not minutes:
        return f"{seconds} {book.second if _singular(book, seconds) else book.seconds}"
    said = f"{minutes} {book.minute if _singular(book, minutes) else book.minutes}"
    return f"{said} {seconds}" if seconds else said


def _singular(book: Phrasebook, count: int) -> bool:
    return count == 1 or (count == 0 and book.zero_is_singular)
