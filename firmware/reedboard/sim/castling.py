"""How hands castle: every order the Laws (and casual players) use, in standard chess and
Chess960, where the king or the rook may not move at all, or may take each other's
squares (a transposition)."""

from __future__ import annotations

from reedboard.rules.moves import Move
from reedboard.rules.position import Position
from reedboard.rules.squares import Square
from reedboard.sim.geometry import path
from reedboard.sim.timeline import Timeline


def play_castling(tl: Timeline, position: Position, move: Move, strict: bool) -> int:
    """Lines for a castling move; returns the time of its decisive (last) change."""
    kf, kt, rf, rt = position.castling_squares(move)
    s = tl.settings
    king_moves, rook_moves = kf != kt, rf != rt
    if not position.chess960:
        if not strict and tl.chance(s.castle_rook_first):
            return _piece_by_piece(tl, (rf, rt), (kf, kt), "castle_rook_first")
        if tl.chance(s.castle_both_lifted):
            return _both_lifted(tl, kf, kt, rf, rt, king_first=strict)
        return _piece_by_piece(tl, (kf, kt), (rf, rt), "castle_king_first")

    tl.tags.add("castle960")
    if kt == rf or rt == kf:
        tl.tags.add("castle960_transposition")
    if not rook_moves:
        tl.tags.add("castle960_king_only")
        if tl.chance(s.castle960_natural):
            return _carry(tl, kf, kt, slide=True)  # the king walks over on its own
        # FIDE's way: the king goes off the board and comes down on its square.
        tl.tags.add("castle960_fide")
        return _carry(tl, kf, kt, slide=False)
    if not king_moves:
        tl.tags.add("castle960_rook_only")
        if not strict and tl.chance(s.castle960_natural):
            return _carry(tl, rf, rt, slide=True)
        return _fide(tl, kf, kt, rf, rt)
    if kt != rf and tl.chance(s.castle960_king_first):
        return _piece_by_piece(tl, (kf, kt), (rf, rt), "castle_king_first")
    if not strict and rt != kf and tl.chance(s.castle_rook_first):
        return _piece_by_piece(tl, (rf, rt), (kf, kt), "castle_rook_first")
    if tl.chance(s.castle_both_lifted):
        # A rook that goes onto the king's square, lifted before the king, is also the
        # rook's own move with the king knocked: the grammar reads that as the rook's
        # move, so a player castling so lifts the king first.
        return _both_lifted(tl, kf, kt, rf, rt, king_first=strict or rt == kf)
    return _fide(tl, kf, kt, rf, rt)


def _carry(tl: Timeline, origin: Square, target: Square, slide: bool) -> int:
    tl.lift(origin)
    tl.wait((100, 500))
    if slide and tl.chance(tl.settings.slide):
        for sq in path(origin, target):
            if tl.is_empty(sq) and tl.chance(tl.settings.waypoint_sensed):
                tl.waypoint(sq)
                tl.wait((0, 30))
    else:
        tl.wait((0, 300))
    return tl.place(target)


def _piece_by_piece(
    tl: Timeline, first: tuple[Square, Square], second: tuple[Square, Square], tag: str
) -> int:
    """One piece all the way, then the other (king first: the rook goes over the king)."""
    tl.tags.add(tag)
    _carry(tl, *first, slide=True)
    tl.wait((150, 900))
    return _carry(tl, *second, slide=True)


def _both_lifted(
    tl: Timeline, kf: Square, kt: Square, rf: Square, rt: Square, king_first: bool
) -> int:
    """King and rook in the hands together, put down in either order."""
    tl.tags.add("castle_both_lifted")
    lifts = [kf, rf] if king_first or tl.rng.random() < 0.5 else [rf, kf]
    tl.lift(lifts[0])
    tl.wait((40, 300))
    tl.lift(lifts[1])
    tl.wait((150, 700))
    places = [kt, rt] if tl.rng.random() < 0.5 else [rt, kt]
    tl.place(places[0])
    tl.wait((60, 500))
    return tl.place(places[1])


def _fide(tl: Timeline, kf: Square, kt: Square, rf: Square, rt: Square) -> int:
    """FIDE's recommended Chess960 way: king off the board, rook over, king down."""
    tl.tags.add("castle960_fide")
    tl.lift(kf)
    tl.wait((200, 800))
    if rf != rt:
        _carry(tl, rf, rt, slide=True)
        tl.wait((100, 600))
    return tl.place(kt)
