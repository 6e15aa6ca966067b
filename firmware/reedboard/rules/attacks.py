"""Precomputed attack tables.

Sliding attacks are looked up in dictionaries keyed by the occupancy of the relevant
squares (the lines through a square, without their edge squares, whose occupancy cannot
change the attack). Rooks use one table per rank and one per file; bishops one table for
both diagonals. The tables are built once at import, in a few milliseconds.
"""

from __future__ import annotations

from reedboard.rules.squares import Bitboard, Square

_KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_RANK_DIRS = ((1, 0), (-1, 0))
_FILE_DIRS = ((0, 1), (0, -1))
_DIAG_DIRS = ((1, 1), (-1, -1), (1, -1), (-1, 1))


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _step_attacks(sq: Square, steps: tuple[tuple[int, int], ...]) -> Bitboard:
    f0, r0 = sq & 7, sq >> 3
    bb = 0
    for df, dr in steps:
        if _on_board(f0 + df, r0 + dr):
            bb |= 1 << ((r0 + dr) * 8 + f0 + df)
    return bb


def _ray_attacks(sq: Square, occupied: Bitboard, dirs: tuple[tuple[int, int], ...]) -> Bitboard:
    """Attacks along the given directions, stopping at (and including) the first blocker."""
    bb = 0
    for df, dr in dirs:
        f, r = (sq & 7) + df, (sq >> 3) + dr
        while _on_board(f, r):
            bit = 1 << (r * 8 + f)
            bb |= bit
            if occupied & bit:
                break
            f, r = f + df, r + dr
    return bb


def _inner_mask(sq: Square, dirs: tuple[tuple[int, int], ...]) -> Bitboard:
    """The squares along the directions whose occupancy matters (each ray without its edge)."""
    bb = 0
    for df, dr in dirs:
        f, r = (sq & 7) + df, (sq >> 3) + dr
        while _on_board(f + df, r + dr):
            bb |= 1 << (r * 8 + f)
            f, r = f + df, r + dr
    return bb


def _ray(sq: Square, df: int, dr: int) -> list[Bitboard]:
    """The squares from `sq` in one direction to the edge, nearest first, one bit each."""
    bits = []
    f, r = (sq & 7) + df, (sq >> 3) + dr
    while _on_board(f, r):
        bits.append(1 << (r * 8 + f))
        f, r = f + df, r + dr
    return bits


def _subsets(bits: list[Bitboard]) -> list[Bitboard]:
    """Every union of some of `bits` (the empty one too)."""
    unions = [0]
    for bit in bits:
        unions += [union | bit for union in unions]
    return unions


def _ray_choices(ray: list[Bitboard]) -> list[tuple[Bitboard, Bitboard]]:
    """Each occupancy of a ray's inner squares (all but the edge one, which cannot stop it
    short) with the attack along the ray: up to and including its first blocker."""
    choices = [(0, sum(ray))]  # distinct bits: their sum is their union
    for k, blocker in enumerate(ray[:-1]):
        attack = sum(ray[: k + 1])
        choices += [(blocker | rest, attack) for rest in _subsets(ray[k + 1 : -1])]
    return choices


def _table(
    dirs: tuple[tuple[int, int], ...],
) -> tuple[tuple[Bitboard, ...], tuple[dict[Bitboard, Bitboard], ...]]:
    """Per square, the mask of the squares whose occupancy matters and the attack for
    each occupancy of it. The directions are independent, so each square's table is the
    product of its rays' choices: a union per entry instead of a walk along every ray,
    which keeps the board's start (these tables are built at import) short on a Pi."""
    masks = []
    tables = []
    for sq in range(64):
        table = {0: 0}
        for df, dr in dirs:
            choices = _ray_choices(_ray(sq, df, dr))
            table = {occ | more: att | gain for occ, att in table.items() for more, gain in choices}
        masks.append(_inner_mask(sq, dirs))
        tables.append(table)
    return tuple(masks), tuple(tables)


KNIGHT_ATTACKS: tuple[Bitboard, ...] = tuple(_step_attacks(s, _KNIGHT_STEPS) for s in range(64))
KING_ATTACKS: tuple[Bitboard, ...] = tuple(_step_attacks(s, _KING_STEPS) for s in range(64))
# PAWN_ATTACKS[color][sq]: the squares a pawn of that colour on sq attacks (index 1 = white).
PAWN_ATTACKS: tuple[tuple[Bitboard, ...], tuple[Bitboard, ...]] = (
    tuple(_step_attacks(s, ((-1, -1), (1, -1))) for s in range(64)),
    tuple(_step_attacks(s, ((-1, 1), (1, 1))) for s in range(64)),
)

RANK_MASKS, RANK_ATTACKS = _table(_RANK_DIRS)
FILE_MASKS, FILE_ATTACKS = _table(_FILE_DIRS)
DIAG_MASKS, DIAG_ATTACKS = _table(_DIAG_DIRS)

ROOK_EMPTY: tuple[Bitboard, ...] = tuple(
    _ray_attacks(s, 0, _RANK_DIRS + _FILE_DIRS) for s in range(64)
)
BISHOP_EMPTY: tuple[Bitboard, ...] = tuple(_ray_attacks(s, 0, _DIAG_DIRS) for s in range(64))


def rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard:
    return RANK_ATTACKS[sq][RANK_MASKS[sq] & occupied] | FILE_ATTACKS[sq][FILE_MASKS[sq] & occupied]


def bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard:
    return DIAG_ATTACKS[sq][DIAG_MASKS[sq] & occupied]


def queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard:
    return rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)


def _between_and_line() -> tuple[list[list[Bitboard]], list[list[Bitboard]]]:
    between = [[0] * 64 for _ in range(64)]
    line = [[0] * 64 for _ in range(64)]
    for a in range(64):
        for df, dr in _RANK_DIRS + _FILE_DIRS + _DIAG_DIRS:
            ray = _ray(a, df, dr)
            full = sum(ray) | sum(_ray(a, -df, -dr)) | (1 << a)
            gap = 0
            for bit in ray:
                b = bit.bit_length() - 1
                between[a][b] = gap
                line[a][b] = full
                gap |= bit
    return between, line


_BETWEEN, _LINE = _between_and_line()
# BETWEEN[a][b]: the squares strictly between a and b on a rank, file or diagonal, else 0.
BETWEEN: tuple[tuple[Bitboard, ...], ...] = tuple(tuple(row) for row in _BETWEEN)
# LINE[a][b]: the whole line through a and b (edge to edge), or 0 if they are not aligned.
LINE: tuple[tuple[Bitboard, ...], ...] = tuple(tuple(row) for row in _LINE)
