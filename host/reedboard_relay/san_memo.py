"""Each board's moves in SAN, worked out once a move. The page's summary and the PGN
write a board's whole game again at each of its moves; SAN asks for the legal moves of
every position (about 65 µs a move here), so a thousand boards of sixty plies written
from scratch at every move would take the relay's whole core. Kept per board: the game's
start and moves as last seen, and their SAN; a game that grew is extended, any other
(a takeback, a new game, an arbiter's corrected copy) is worked out again."""

from __future__ import annotations

from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.san import san


class SanMemo:
    def __init__(self) -> None:
        self._known: dict[str, tuple[str, tuple[Move, ...], list[str]]] = {}

    def of(self, board: str, game: Game) -> list[str]:
        """`game`'s moves in SAN (the list is the memo's: read it, do not change it)."""
        start = game.start.fen()
        moves = game.moves
        known = self._known.get(board)
        if known is None or known[0] != start or moves[: len(known[1])] != known[1]:
            known = (start, (), [])
        _start, had, sans = known
        if len(had) == len(moves):
            return sans
        positions = game.positions
        sans = sans + [san(positions[ply], moves[ply]) for ply in range(len(had), len(moves))]
        self._known[board] = (start, moves, sans)
        return sans

    def forget(self, board: str) -> None:
        self._known.pop(board, None)
