"""The human model: any game turned into the raw sensor changes of a real board.

`human_script(start, moves, seed)` plays the moves with simulated hands and returns the
timed lines of an event script (the format is in docs/reference.md), the time of each move's decisive
change (the last sensor change that completes it, from which the board's latency is
measured), and the behaviours each move showed. All chance comes from one
`random.Random(seed)`, so a seed names a script for good.

Among the slips: a player thinking with the king in the hand for longer than 3 s, and the
mover's withdrawing hand knocking one of its own pieces right after the move.

Strict mode gets only orders that the Laws allow: no rook-first castling, no touching a
piece other than the one that moves, Chess960 castling with the king lifted first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from reedboard.hal.sensor_line import SensorLine
from reedboard.reader.mode import Mode
from reedboard.replay.script import format_script
from reedboard.rules.chess960 import chess960_fen, chess960_number
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.moves import Move
from reedboard.rules.pieces import KING, KNIGHT, PIECE_SYMBOLS, QUEEN
from reedboard.rules.position import Position
from reedboard.rules.squares import Square, squares_of
from reedboard.sim.castling import play_castling
from reedboard.sim.geometry import distance
from reedboard.sim.gestures import Complaints, play_ordinary
from reedboard.sim.settings import DEFAULT_SETTINGS, HumanSettings
from reedboard.sim.timeline import Timeline


@dataclass(frozen=True)
class HumanScript:
    start: Position
    start_label: str  # as in `@start`: "standard", "chess960 N" or "fen <FEN>"
    mode: Mode
    lines: tuple[SensorLine, ...]
    ucis: tuple[str, ...]  # the moves as the board prints them
    decisive_ms: tuple[int, ...]  # per move: its last completing sensor change
    tags: tuple[frozenset[str], ...]  # per move: the behaviours it showed
    complaints: int  # times the hands deliberately left the board wrong past settle_ms
    starts: tuple[int, ...] = ()  # per move: the index of its first line

    @property
    def raw_events(self) -> int:
        return sum(1 for line in self.lines if line[1] != "choose")

    @property
    def end_ms(self) -> int:
        return self.lines[-1][0] if self.lines else 0

    def text(self, comment: str = "") -> str:
        """The script as `reedboard replay` reads it, the expected moves in a comment."""
        head = f"# {comment}\n" if comment else ""
        head += f"# Expected moves: {' '.join(self.ucis)}\n"
        return head + format_script(list(self.lines), self.start_label, self.mode)


def start_label(position: Position) -> str:
    """How a script's `@start` line names `position`."""
    if not position.chess960 and position.fen() == STARTING_FEN:
        return "standard"
    if position.chess960:
        rank = [position.piece_type_at(sq) for sq in range(8)]
        if all(t is not None for t in rank):
            try:
                number = chess960_number([t for t in rank if t is not None])
            except ValueError:
                number = -1
            if number >= 0 and position.fen(shredder=True) == chess960_fen(number):
                return f"chess960 {number}"
    return f"fen {position.fen(shredder=position.chess960)}"


def human_script(
    start: Position,
    moves: Sequence[Move],
    seed: int,
    *,
    mode: Mode = "casual",
    settings: HumanSettings = DEFAULT_SETTINGS,
    label: str | None = None,
) -> HumanScript:
    rng = random.Random(seed)
    strict = mode == "strict"
    if strict:
        settings = replace(settings, castle_rook_first=0.0, touch_other=0.0)
    tl = Timeline(start.occupied, rng, settings)
    complaints = Complaints()
    position = start
    ucis: list[str] = []
    decisive: list[int] = []
    tags: list[frozenset[str]] = []
    starts: list[int] = []
    for index, move in enumerate(moves):
        tl.tags = set()
        starts.append(len(tl.lines))
        if index and tl.chance(settings.fast_reply):
            # Counted from the decisive change, not from the end of its bounce.
            reply = decisive[-1] + tl.rng.randint(*settings.fast_reply_ms)
            tl.t = max(tl.t + 10, reply)
            tl.tags.add("fast_reply")
        else:
            tl.wait_log(settings.think_ms)
        if move.promotion and move.promotion != QUEEN:
            # The host picks the piece as the player reaches for the pawn: after the
            # opponent's move, before this move's first lift.
            tl.choose(PIECE_SYMBOLS[move.promotion])
            tl.tags.add("underpromotion_choice")
        castling = position.is_castling(move)
        mover = move.from_square  # the king, for castling (stored as king takes rook)
        _touch_first(tl, position, mover, strict)
        if castling:
            decisive.append(play_castling(tl, position, move, strict))
        else:
            decisive.append(play_ordinary(tl, position, move, complaints))
        if tl.chance(settings.withdraw_knock):
            _withdraw_knock(tl, position, move, decisive[-1])
        ucis.append(position.uci(move))
        tags.append(frozenset(tl.tags))
        position = position.play(move)
    return HumanScript(
        start=start,
        start_label=label or start_label(start),
        mode=mode,
        lines=tuple(tl.lines),
        ucis=tuple(ucis),
        decisive_ms=tuple(decisive),
        tags=tuple(tags),
        complaints=complaints.count,
        starts=tuple(starts),
    )


def _touch_first(tl: Timeline, position: Position, mover: Square, strict: bool) -> None:
    """A hesitation: the piece that will move is lifted and put back first. In casual
    mode, sometimes another own piece is touched instead."""
    s = tl.settings
    if position.piece_type_at(mover) == KING and tl.chance(s.king_think):
        # Thinking with the king in the hand: no gesture of one king ends a game.
        tl.lift(mover)
        tl.wait(s.king_think_ms)
        tl.place(mover)
        tl.wait((300, 1_000))
        tl.lift(mover)
        tl.wait((150, 600))
        tl.place(mover)
        tl.wait((300, 1_000))
        tl.tags.add("king_think")
        return
    if tl.chance(s.hesitation):
        touched = mover
        tl.tags.add("hesitation")
    elif not strict and tl.chance(s.touch_other):
        # Another piece that could move, so that holding it looks like a move begun.
        others = sorted(
            {m.from_square for m in position.legal_moves()} - {mover} - _king_squares(position)
        )
        if not others:
            return
        touched = tl.rng.choice(others)
        tl.tags.add("touch_other")
    else:
        return
    tl.lift(touched)
    tl.wait((150, 900))
    tl.place(touched)
    tl.wait((300, 1_500))


def _withdraw_knock(tl: Timeline, position: Position, move: Move, decisive: int) -> None:
    """The mover's hand, withdrawing, knocks one of the mover's own pieces near where the
    move landed. Only after moves the board commits at once: a move that may still grow
    would take the knock for part of it."""
    castling = position.is_castling(move)
    if move.promotion or not (
        castling or position.is_capture(move) or position.piece_type_at(move.from_square) == KNIGHT
    ):
        return
    if castling:
        _kf, king_to, _rf, rook_to = position.castling_squares(move)
        landed = {king_to, rook_to}
    else:
        landed = {move.to_square}
    own = position.play(move).occupied_by(position.turn)
    near = [
        sq
        for sq in squares_of(own)
        if sq not in landed and not tl.is_empty(sq) and min(distance(sq, to) for to in landed) <= 2
    ]
    if not near:
        return
    knocked = tl.rng.choice(near)
    tl.t = max(tl.t, decisive + tl.rng.randint(*tl.settings.withdraw_knock_ms))
    tl.lift(knocked)
    tl.wait((40, 150))
    tl.place(knocked)
    tl.tags.add("withdraw_knock")


def _king_squares(position: Position) -> set[Square]:
    king = position.king(position.turn)
    return set() if king is None else {king}


__all__ = ["KING", "HumanScript", "HumanSettings", "Mode", "human_script", "start_label"]
