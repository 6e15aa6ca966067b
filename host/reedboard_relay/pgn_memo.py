"""Each board's PGN, grown by the moves since it was last written. The relay wrote every
changed board's game whole again at each of its moves (a sixth of its CPU with a
thousand boards): the tags, every move's token, clock and comment, the line wrapping.

Kept per board: the movetext of every ply but the last, wrapped as far as it goes (the
finished lines, and the line still open), with what it was written from: the start, the
moves, the comments and clocks of those plies. The next text appends the new plies to
it, then writes the last ply (its clock may come later, a result's reason is said in
its comment), the result, and the tags (kept while the pairing, day, time control and
result stay). A game that did not just grow (a takeback, another start, a comment or
clock of a written ply changed: an arbiter's corrected copy) is written from its start.

The text is the one `board_pgn` writes whole, byte for byte: the same tokens as the
rules' PGN writer and the comments as `pgn_text` puts them (tests/relay/test_pgn_memo.py
holds the two equal over many games)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.pgn import comment_token, wrap_on
from reedboard.rules.position import Position
from reedboard_host.mirror import MirroredGame
from reedboard_host.pgn_file import clocked_comment, reason_comment

from reedboard_relay.pairings import Pairing
from reedboard_relay.pgn import board_pgn


@dataclass
class _Written:
    """A board's movetext as far as `ply`, and what it was written from."""

    start: Position
    fen: str
    ply: int = -1  # the plies written (0: only the comment before the first move)
    moves: tuple[Move, ...] = ()
    comments: dict[int, str] = field(default_factory=dict)  # of plies 0..ply only
    clocks: dict[int, tuple[int, int]] = field(default_factory=dict)  # likewise
    done: str = ""  # the finished lines, joined
    line: str = ""  # the line still open
    head_key: tuple[object, ...] | None = None
    head: str = ""


class PgnMemo:
    def __init__(self) -> None:
        self._written: dict[str, _Written] = {}

    def of(
        self,
        board: str,
        game: MirroredGame | None,
        pairing: Pairing,
        date: datetime.date | None = None,
        sans: Sequence[str] | None = None,
    ) -> str:
        """`board_pgn(board, game, pairing, date, sans)`, grown from the last one."""
        if game is None or sans is None or not len(game.game):
            return board_pgn(board, game, pairing, date, sans)  # nothing to grow
        date = date or datetime.date.today()
        written = self._kept(board, game)
        moves = game.game.moves
        positions = game.game.positions
        _grow(written, game, moves, positions, sans, len(moves) - 1)
        done, line = written.done, written.line
        last = len(moves)
        comment = clocked_comment(game, last)
        if game.reason:
            reason = reason_comment(game.reason, game.result)
            comment = f"{comment}; {reason}" if comment else reason
        tokens = _ply_tokens(game, positions, sans, last, comment)
        tokens.append(game.result or "*")
        done, line = wrap_on(done, line, tokens)
        movetext = f"{done}\n{line}" if done else line
        return f"{_head(written, board, game, pairing, date)}\n\n{movetext}\n"

    def forget(self, board: str) -> None:
        self._written.pop(board, None)

    def _kept(self, board: str, game: MirroredGame) -> _Written:
        """The board's written movetext where `game` grew from it, else a new one."""
        start = game.game.start
        written = self._written.get(board)
        if written is not None and written.start is not start and written.fen != start.fen():
            written = None
        if written is not None and not _grew_from(written, game):
            written = _Written(start, written.fen, head_key=written.head_key, head=written.head)
        if written is None:
            written = _Written(start, start.fen())
        written.start = start
        self._written[board] = written
        return written


def _grew_from(written: _Written, game: MirroredGame) -> bool:
    """Whether `game` is the written game with moves added, its written plies' comments
    and clocks as they were (new ones only on the plies after them)."""
    ply = written.ply
    moves = game.game.moves
    if ply < 0:
        return True  # nothing written yet
    if len(moves) <= ply or moves[:ply] != written.moves:
        return False
    return _same_notes(written, game, ply, len(moves))


def _same_notes(written: _Written, game: MirroredGame, ply: int, last: int) -> bool:
    """The comments and clocks of plies 0..`ply` unchanged; any new one on a ply after
    `ply` (up to `last`), where it is written later."""
    for kept, now in ((written.comments, game.comments), (written.clocks, game.clocks)):
        if not kept.items() <= now.items():
            return False
        later = sum(1 for p in range(ply + 1, last + 1) if p in now)
        if len(now) - len(kept) != later:
            return False
    return True


def _grow(
    written: _Written,
    game: MirroredGame,
    moves: tuple[Move, ...],
    positions: Sequence[Position],
    sans: Sequence[str],
    upto: int,
) -> None:
    """Appends plies up to `upto` (the written ones as they are) to the movetext."""
    tokens: list[str] = []
    for ply in range(written.ply + 1, upto + 1):
        said = clocked_comment(game, ply)
        if ply:
            tokens += _ply_tokens(game, positions, sans, ply, said)
        elif said:  # the comment before the first move
            tokens.append(comment_token(said))
        _note(written, game, ply)
    if tokens:
        written.done, written.line = wrap_on(written.done, written.line, tokens)
    if upto > written.ply:
        written.ply, written.moves = upto, moves[:upto]


def _note(written: _Written, game: MirroredGame, ply: int) -> None:
    if ply in game.comments:
        written.comments[ply] = game.comments[ply]
    if ply in game.clocks:
        written.clocks[ply] = game.clocks[ply]


def _ply_tokens(
    game: MirroredGame, positions: Sequence[Position], sans: Sequence[str], ply: int, said: str
) -> list[str]:
    """The move number where one is written, the move, its comment."""
    before = positions[ply - 1]
    tokens = []
    if before.turn:
        tokens.append(f"{before.fullmove_number}.")
    elif ply == 1 or clocked_comment(game, ply - 1):
        tokens.append(f"{before.fullmove_number}...")
    tokens.append(sans[ply - 1])
    if said:
        tokens.append(comment_token(said))
    return tokens


def _head(
    written: _Written, board: str, game: MirroredGame, pairing: Pairing, date: datetime.date
) -> str:
    """The tags, written again only when what they say changed."""
    key = (board, pairing, date, game.time_control, game.result, game.reason, written.fen)
    if written.head_key != key:
        bare = replace(game, game=Game(game.game.start), comments={}, clocks={})
        text = board_pgn(board, bare, pairing, date)
        written.head_key, written.head = key, text[: text.index("\n\n")]
    return written.head
