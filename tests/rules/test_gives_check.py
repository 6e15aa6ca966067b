"""`Position.gives_check` works out on the bitboards whether a move checks; it must say
what making the move and asking the position after says, for every kind of move."""

from __future__ import annotations

from collections import Counter

from reedboard.rules.moves import FLAG_CASTLE, FLAG_EN_PASSANT
from reedboard.rules.position import Position

from tests.rules.test_perft import DATA as PERFT_DATA
from tests.rules.test_perft import DATA_ERROR, SMALL_SUITES, read_suite

# En passant checks, which the data lack: the capturing pawn's own, and a rook's through
# the two squares the capture empties.
EXTRA = [
    Position.from_fen("8/2k5/8/3pP3/8/8/8/4K3 w - d6 0 1"),
    Position.from_fen("8/8/8/k2pP2R/8/8/8/4K3 w - d6 0 1"),
]


def _positions() -> list[Position]:
    """The hand-picked hard positions of the perft data (pins, discovered checks, en
    passant, promotions, castling in both variants) and every position one ply on."""
    assert DATA_ERROR is None, DATA_ERROR
    roots = [
        Position.from_fen(case.epd, chess960=True)
        for suite in SMALL_SUITES
        for case in read_suite(PERFT_DATA / f"{suite}.perft")
    ]
    return EXTRA + roots + [root.play_code(code) for root in roots for code in root.legal_codes()]


def test_gives_check_agrees_with_the_position_after_every_move() -> None:
    kinds: Counter[str] = Counter()
    for position in _positions():
        for code in position.legal_codes():
            after = position.play_code(code)
            checks = after.is_check()
            assert position.gives_check(code) == checks, (position.fen(), code)
            if checks:
                discovered = not after.checkers() & (1 << ((code >> 6) & 63))
                kind = "promotion" if (code >> 12) & 7 else "other"
                kind = f"{kind}, discovered" if discovered else kind
                kind = "en passant" if code & FLAG_EN_PASSANT else kind
                kinds["castling" if code & FLAG_CASTLE else kind] += 1
    # The positions hold checks of every kind, so each path above was taken.
    wanted = {"other", "other, discovered", "promotion", "castling", "en passant"}
    assert wanted <= kinds.keys(), kinds
