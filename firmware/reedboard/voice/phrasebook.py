"""What a language must say: one `Phrasebook` per language, every sentence a template.

Templates are `str.format` strings; the fields each one receives are named in its
`when` note, which `catalogue.py` turns into the list of sentences in docs/voice.md. The
sentence builder capitalises the first letter and adds the final full stop, so templates
carry neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields

from reedboard.rules.pieces import Color, PieceType


def _said(when: str) -> dict[str, str]:
    return {"when": when}


@dataclass(frozen=True, slots=True)
class Phrasebook:
    code: str  # "fr": the `[voice] language` value and `--say LANG`
    name: str  # the language's own name
    espeak_voice: str  # espeak-ng's voice for it
    # ----- words -----
    pieces: Mapping[PieceType, str] = field(metadata=_said("a piece's name"))
    the_pieces: Mapping[PieceType, str] = field(metadata=_said("a piece with its article"))
    plurals: Mapping[PieceType, str] = field(metadata=_said("several pieces of a kind"))
    coloured: Mapping[str, str] = field(metadata=_said("a piece and its colour, by FEN letter"))
    sides: Mapping[Color, str] = field(metadata=_said("a side, in a sentence"))
    side_titles: Mapping[Color, str] = field(metadata=_said("a side, heading a list"))
    to_move: Mapping[Color, str] = field(metadata=_said("whose move it is"))
    and_word: str = field(metadata=_said("joins the last two items of a list"))
    # ----- moves -----
    quiet: str = field(metadata=_said("a move: {piece} {origin} {target}"))
    capture: str = field(metadata=_said("a capture: {piece} {origin} {victim} {target}"))
    en_passant: str = field(metadata=_said("an en passant capture: {piece} {origin} {target}"))
    castle_kingside: str = field(metadata=_said("castling on the king's side"))
    castle_queenside: str = field(metadata=_said("castling on the queen's side"))
    promotion: str = field(metadata=_said("a promotion: {move} {promoted}"))
    check: str = field(metadata=_said("a move that gives check: {move}"))
    checkmate: str = field(metadata=_said("a move that mates: {move}"))
    to_play: str = field(metadata=_said("a move lit for the player to carry out: {move}"))
    taken_back: str = field(metadata=_said("a move put back and undone: {move}"))
    # ----- the game -----
    new_game: str = field(metadata=_said("a new game: {to_move}"))
    winner: str = field(metadata=_said("a result, won: {side}"))
    drawn: str = field(metadata=_said("a result, drawn"))
    ended: str = field(metadata=_said("the game is over: {result} {reason}"))
    reasons: Mapping[str, str] = field(metadata=_said("why the game ended"))
    promotion_choice: str = field(metadata=_said("the piece the next promotion makes: {promoted}"))
    offer_made: str = field(metadata=_said("the kings set to tell a result: {result}"))
    offer_cancelled: str = field(metadata=_said("the kings taken back from telling a result"))
    setup: str = field(metadata=_said("a Chess960 position to set up: {number} {rank}"))
    # ----- what is wrong, and how to put it right -----
    touched_own: str = field(
        metadata=_said("strict mode, a touch that binds: {the_piece} {square}")
    )
    touched_theirs: str = field(
        metadata=_said(
            "strict mode, an opponent's piece touched that must be taken: {the_piece} {square}"
        )
    )
    illegal: str = field(metadata=_said("the board matches no legal state: {steps}"))
    put_back: str = field(metadata=_said("a step: {the_piece} {square}"))
    put_back_from: str = field(
        metadata=_said("a step, the piece seen elsewhere: {the_piece} {square} {origin}")
    )
    more_steps: str = field(
        metadata=_said("after the first steps, how many more there are: {count}")
    )
    take_off: str = field(metadata=_said("a step: a piece to take away from {square}"))
    restored: str = field(metadata=_said("the board matches the game again"))
    violations: Mapping[str, str] = field(
        metadata=_said(
            "a breach of the touch-move rules, by FIDE article: {article} {the_piece} {square}"
        )
    )
    violation: str = field(metadata=_said("a breach of another article: {article}"))
    sensor_faulty: str = field(metadata=_said("a square's switch found faulty in play: {square}"))
    sensor_recovered: str = field(metadata=_said("that switch reads sanely again: {square}"))
    start_fault: str = field(metadata=_said("the start-up self-test found faults: {squares}"))
    broadcast_down: str = field(
        metadata=_said("the board's broker out of reach or refusing it: the game is kept")
    )
    broadcast_back: str = field(metadata=_said("the board's broker taking the game again"))
    # ----- on request -----
    last_move: str = field(metadata=_said("the last move, asked for: {move}"))
    no_move: str = field(metadata=_said("the last move, asked for before any"))
    side_pieces: str = field(metadata=_said("one side's pieces: {side} {pieces}"))
    kind_on: str = field(metadata=_said("pieces of one kind: {piece} {squares}"))
    square_holds: str = field(metadata=_said("what is on a square: {square} {piece}"))
    square_empty: str = field(metadata=_said("an empty square: {square}"))
    clocks: str = field(metadata=_said("the clocks, asked for: {white} {black}, each a time"))
    time_added: str = field(
        metadata=_said("the arbiter gave a player more time: {time} {side}, then the clocks")
    )
    not_timed: str = field(metadata=_said("the clocks, asked for in a game without them"))
    minute: str = field(metadata=_said("a time's word for one minute"))
    minutes: str = field(metadata=_said("a time's word for several minutes"))
    second: str = field(metadata=_said("a time's word for one second, under a minute"))
    seconds: str = field(metadata=_said("a time's word for several seconds, under a minute"))
    # Whether a count of zero takes the singular ("0 seconde") or the plural ("0 seconds").
    zero_is_singular: bool = False


def template_fields() -> list[tuple[str, str]]:
    """Each sentence or word table of a phrasebook, with when it is said."""
    return [(f.name, f.metadata["when"]) for f in fields(Phrasebook) if "when" in f.metadata]
