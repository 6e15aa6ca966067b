"""Each board's moves in SAN, worked out once a move. The page's summary and the PGN
write a board's whole game again at each of its moves; SAN asks for the legal moves of
every position (about 65 µs a move here), so a thousand boards of sixty plies written
from scratch at every move would take the relay's whole core. Kept per board: the game's
start and moves as last seen, and their SAN; a game that grew is extended, any other
(a takeback, a new game, an arbiter's corrected copy) is worked out again."""

from __future__ import annotations

from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.position import Position
from reedboard.rules.san import san


class SanMemo:
    def __init__(self) -> None:
        # Each board's game as last seen: its start (the position itself, and its FEN),
        # its moves, their SAN. The same start object (a position is never changed) is
        # the same start without writing its FEN, which cost more than all the rest here.
        self._known: dict[str, tuple[Position, str, tuple[Move, ...], list[str]]] = {}

    def of(self, board: str, game: Game) -> list[str]:
        """`game`'s moves in SAN (the list is the memo's: read it, do not change it)."""
        start, moves = game.start, game.moves
        known = self._known.get(board)
        if known is not None and known[0] is not start and known[1] != start.fen():
            known = None
        if known is None or moves[: len(known[2])] != known[2]:
            known = (start, known[1] if known is not None else start.fen(), (), [])
        _start, fen, had, sans = known
        if len(had) == len(moves):
            return sans
        positions = game.positions
        sans = sans + [san(positions[ply], moves[ply]) for ply in range(len(had), len(moves))]
        self._known[board] = (start, fen, moves, sans)
        return sans

    def forget(self, board: str) -> None:
        self._known.pop(board, None)
