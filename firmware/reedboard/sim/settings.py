"""How often the simulated player does each thing, and how long things take.

Every behaviour of the human model has one probability here. The defaults are meant to
look like a club player on a wooden board: mostly clean moves, with the odd slip that a
real board must survive. Probabilities are per move unless said otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reedboard.reader.move_reader import DEFAULT_SETTLE_MS


@dataclass(frozen=True)
class HumanSettings:
    # The arbiter's settle time: a mistake is left on the board longer than this, so that
    # the board has complained before the player puts it right.
    settle_ms: int = DEFAULT_SETTLE_MS

    # Time between moves: log-uniform, most replies quick, a few long thinks.
    think_ms: tuple[int, int] = (300, 5_000)
    # The opponent's hand arrives within 200 ms of the placement (blitz, premoves).
    fast_reply: float = 0.12
    fast_reply_ms: tuple[int, int] = (30, 200)

    # Captures: the victim is taken off first (else the own piece is lifted first).
    capture_victim_first: float = 0.35
    # Own piece first, then the victim snatched and the capturer dropped in one motion:
    # the victim's square is empty for only 30-60 ms.
    capture_fast_swap: float = 0.15
    fast_swap_ms: tuple[int, int] = (30, 60)

    # En passant: the capturing pawn is put down before the passed pawn is removed, or
    # the passed pawn is removed first (else: capturing pawn lifted, victim, place).
    ep_capturer_placed_first: float = 0.35
    ep_victim_first: float = 0.3

    # Castling. Standard chess: king first (two squares, then the rook over it) unless
    # one of these; Chess960: FIDE's recommended way unless one of these.
    castle_both_lifted: float = 0.2
    castle_rook_first: float = 0.12  # casual mode only
    castle960_king_first: float = 0.25  # where both pieces move and the squares allow it
    castle960_natural: float = 0.5  # king-only or rook-only castling done with one piece

    # A sliding move (bishop, rook, queen, pawn double step, the king's two squares in
    # castling) drags the piece over the squares between; each one is sensed with
    # `waypoint_sensed` for 20-150 ms.
    slide: float = 0.5
    waypoint_sensed: float = 0.85
    waypoint_ms: tuple[int, int] = (20, 150)

    # Switch bounce: per real sensor change, one or two extra pairs within 1-5 ms.
    bounce: float = 0.25
    bounce_ms: tuple[int, int] = (1, 5)
    # A magnet passing a neighbouring empty square flicks its switch for 1-5 ms.
    flicker: float = 0.05

    # The piece that then moves is lifted and put back first.
    hesitation: float = 0.06
    # Casual mode only: another own piece is touched and put back, then a different one
    # moves (strict mode must refuse this).
    touch_other: float = 0.03

    # While the moving piece is in the hand, a neighbouring piece is knocked: lifted and
    # put back a few hundred ms later, or (`push_aside` of knocks) pushed onto an empty
    # neighbouring square and put back once the board has complained.
    knock: float = 0.03
    push_aside: float = 0.35

    # The piece is put on a square it cannot reach, left there until the board complains,
    # then moved to its destination (or, `illegal_back_first` of the time, first back to
    # its own square).
    illegal_placement: float = 0.02
    illegal_back_first: float = 0.4
    complain_margin_ms: tuple[int, int] = (150, 900)

    # Promotion: the pawn is put on the last rank, then exchanged for the new piece
    # 0.5-3 s later (else the new piece is put down directly).
    promotion_exchange: float = 0.85
    exchange_ms: tuple[int, int] = (500, 3_000)

    # A piece seen arriving before it is seen leaving: a step to a neighbouring square
    # whose switch closes 1-40 ms before the origin's opens (the magnet over both), or a
    # queen set down on the last rank 0.2-1.2 s before the pawn is cleared away.
    arrive_first: float = 0.03
    arrive_first_ms: tuple[int, int] = (1, 40)
    promotion_piece_first: float = 0.15
    piece_first_ms: tuple[int, int] = (200, 1_200)

    # A player thinking with the king in the hand: held 3.2-6 s (longer than any old
    # board gesture), put back, lifted and put back again, then moved. Per king move.
    king_think: float = 0.05
    king_think_ms: tuple[int, int] = (3_200, 6_000)
    # The hand withdrawing after a move that the board commits at once (a knight move, a
    # capture, castling) knocks one of its own pieces near where it landed: lifted
    # 60-250 ms after the move and put back 40-150 ms later.
    withdraw_knock: float = 0.04
    withdraw_knock_ms: tuple[int, int] = (60, 250)

    def without_noise(self) -> HumanSettings:
        """Clean hands: no bounce, flicker, hesitation, knocks, or illegal placements."""
        return replace(
            self,
            bounce=0.0,
            flicker=0.0,
            hesitation=0.0,
            touch_other=0.0,
            knock=0.0,
            king_think=0.0,
            withdraw_knock=0.0,
            illegal_placement=0.0,
        )


DEFAULT_SETTINGS = HumanSettings()
