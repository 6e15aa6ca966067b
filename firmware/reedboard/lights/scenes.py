"""`scene_for(view)`: what the board shows in each state of a game.

The arbiter's `BoardView` is all a scene reads; the result is a `Frame`. One state
dominates at a time, in this order, because a player can act on one thing at a time:

1. game over: the result on the kings' squares, and the last move (a flag fallen: the
   loser's king pulses); before it, the kings set in the centre to tell a result,
   pulsing until it stands;
2. strict mode, a rule broken: its square, and where the board differs from the position;
3. a mismatch: squares a piece must come back to and squares a piece must leave;
4. play: the lifted pieces and where they may go, a pending move and what can still
   complete it, the touched piece that must move, the host's hint, the promotion square;
   with nothing in the hands, the last move (dim), the squares the host marks and a
   checked king. The host's marks step back while a piece is in the hand: then the
   board's guidance for that piece is what the player needs, and a marked square would
   read as one more place to put it. In a timed game, a player whose time runs low
   sees their own back rank lit, where they look, at those same idle moments.
"""

from __future__ import annotations

from reedboard.lights.frame import Frame
from reedboard.lights.palette import PALETTE, Palette
from reedboard.lights.placement import pieces_of_fen
from reedboard.lights.roles import Role
from reedboard.reader.setup import SetupProgress
from reedboard.reader.view import BoardView, Targets
from reedboard.rules.pieces import Color
from reedboard.rules.squares import BB_RANKS, Bitboard, Square, squares_of

Roles = dict[Square, Role]


def scene_for(
    view: BoardView, palette: Palette = PALETTE, *, low_time: Color | None = None
) -> Frame:
    """The frame the board shows for `view`; `low_time`: the player whose time runs low
    in a timed game, if any."""
    return Frame.from_roles(scene_roles(view, low_time), palette)


def scene_roles(view: BoardView, low_time: Color | None = None) -> Roles:
    """{square: role} for every lit square of `view`'s scene; a square whose switch was
    found faulty during play shows the fault over anything else."""
    roles = _scene_roles(view)
    if low_time is not None and view.result is None and _idle(view, roles):
        back_rank = BB_RANKS[0 if low_time else 7]
        for sq in squares_of(back_rank):
            roles.setdefault(sq, "low_time")
    _put(roles, view.faults, "fault")
    return roles


def _idle(view: BoardView, roles: Roles) -> bool:
    """Play with nothing in the hands: when the board shows what a player may look up for."""
    busy = view.lifted or view.pending is not None or view.setup is not None or view.arriving
    return (
        not busy
        and view.offer is None
        and not (view.missing or view.extra)
        and (view.violation is None)
    )


def _scene_roles(view: BoardView) -> Roles:
    if view.setup is not None:
        return setup_roles(view.setup)
    if view.result is not None:
        return _game_over(view)
    if view.offer is not None:
        roles: Roles = {}
        _put(roles, view.offer_squares, "offer")
        return roles
    if view.violation is not None:
        return _violation(view)
    if view.missing or view.extra:
        return _mismatch(view)
    return _play(view)


def setup_roles(progress: SetupProgress) -> Roles:
    """Squares to fill now, then squares to fill again, then squares to clear."""
    roles: Roles = {}
    _put(roles, progress.needed, "setup")
    _put(roles, progress.missing, "missing")
    _put(roles, progress.wrong, "extra")
    return roles


def _game_over(view: BoardView) -> Roles:
    roles: Roles = {}
    if view.last_move is not None:
        for sq in view.last_move:
            roles[sq] = "last_move"
    kings = {letter: sq for sq, letter in pieces_of_fen(view.fen).items() if letter in "Kk"}
    winner = {"1-0": "K", "0-1": "k"}.get(view.result or "")
    for letter, sq in kings.items():
        if winner is None or letter == winner:
            roles[sq] = "result"
        elif view.reason == "checkmate":
            roles[sq] = "check"
        elif view.reason == "time":
            roles[sq] = "flag"
    return roles


def _violation(view: BoardView) -> Roles:
    expected = 0
    for sq in pieces_of_fen(view.fen):
        expected |= 1 << sq
    roles: Roles = {}
    _put(roles, expected & ~view.sensors, "missing")
    _put(roles, view.sensors & ~expected, "extra")
    if view.must_move is not None:
        roles[view.must_move] = "must_move"
    assert view.violation is not None
    roles[view.violation] = "violation"
    return roles


def _mismatch(view: BoardView) -> Roles:
    """Unpaired squares all at once; paired ones one pair at a time, so that the player
    sees which piece goes where (the next pair lights when the first is put right)."""
    roles: Roles = {}
    paired_extra = 0
    paired_missing = 0
    for extra, missing in view.pairs:
        paired_extra |= 1 << extra
        paired_missing |= 1 << missing
    _put(roles, view.missing & ~paired_missing, "missing")
    _put(roles, view.extra & ~paired_extra, "extra")
    for extra, missing in view.pairs:
        if view.extra >> extra & 1 and view.missing >> missing & 1:
            roles[extra] = "extra"
            roles[missing] = "missing"
            break
    return roles


def _play(view: BoardView) -> Roles:
    roles: Roles = {}
    busy = view.lifted or view.pending is not None or view.arriving
    if not busy:
        if view.last_move is not None:
            for sq in view.last_move:
                roles[sq] = "last_move"
        _put(roles, view.marked, "marked")
        _put(roles, view.marked_blink, "marked_blink")
        if view.check is not None:
            roles[view.check] = "check"
    if view.promotion is not None:
        roles[view.promotion] = "promotion"
        # The on-board choice: touching one of these pieces takes its kind instead.
        _put(roles, view.promotion_choices & ~view.lifted, "promotion")
    if view.must_move is not None:
        roles[view.must_move] = "must_move"
    if view.hint is not None:
        for sq in view.hint:
            roles[sq] = "hint"
    if view.lifted:
        _lifted(view, roles)
    for sq in squares_of(view.candidates):
        roles[sq] = "pending"  # a push-capture the board cannot tell: each one it may be
    for sq in squares_of(view.arriving | view.arriving_from):
        roles[sq] = "pending"  # a piece set down first: it and the lifts that make a move
    if view.pending is not None:
        _put(roles, view.pending_next, "target")
        for sq in view.pending:
            roles[sq] = "pending"
    return roles


def _lifted(view: BoardView, roles: Roles) -> None:
    pieces = pieces_of_fen(view.fen) if _castling_in_hand(view) else None
    castling: Roles = {}
    own = 0
    for targets in view.targets:
        own |= 1 << targets.origin
        if pieces is not None and _castling_path(view, targets, pieces, castling):
            continue
        _put(roles, targets.quiet, "target")
        _put(roles, targets.captures, "capture")
        _put(roles, targets.en_passant, "en_passant")
        _put(roles, targets.castling, "castle")
        roles[targets.origin] = "origin"
        if view.hint is not None and view.hint[0] == targets.origin:
            roles[view.hint[1]] = "hint"  # the host's move stands out among the targets
    if castling:
        # The king stands on its castling square: only the rook's part is left to do,
        # and the targets of the pieces in the hands would only hide it.
        for sq in list(roles):
            if view.lifted >> sq & 1 or roles[sq] in ("target", "capture", "castle"):
                del roles[sq]
        roles.update(castling)
    rest = view.lifted & ~own
    if not rest:
        return
    # A lifted piece without targets: the opponent's (show what can take it) or one of
    # the side to move's that has no legal move (its square alone).
    pieces = pieces or pieces_of_fen(view.fen)
    for sq in squares_of(rest):
        letter = pieces.get(sq, "")
        opponent = letter.isupper() != view.turn_white
        roles[sq] = "capture" if opponent and view.capturers else "origin"
    for sq in squares_of(view.capturers):
        roles.setdefault(sq, "capturer")


def _castling_in_hand(view: BoardView) -> bool:
    """Whether a lifted king may have been set down on a castling square."""
    return any(targets.castling & view.sensors for targets in view.targets)


def _castling_path(
    view: BoardView, targets: Targets, pieces: dict[Square, str], out: Roles
) -> bool:
    """A king lifted and set down on an empty castling square: castling waits for its
    rook. Puts the king's squares (pending) and the rook's path into `out`."""
    king_from = targets.origin
    placed = [sq for sq in squares_of(targets.castling & view.sensors) if sq not in pieces]
    if not placed:
        return False
    king_to = placed[0]
    rook = "R" if view.turn_white else "r"
    back = king_from & ~7
    if king_to & 7 >= 4:  # the king's side (g-file): the outermost rook beyond the king
        rooks = [sq for sq in range(king_from + 1, back + 8) if pieces.get(sq) == rook]
        rook_from, rook_to = (rooks[-1], back + 5) if rooks else (None, back + 5)
    else:
        rooks = [sq for sq in range(back, king_from) if pieces.get(sq) == rook]
        rook_from, rook_to = (rooks[0], back + 3) if rooks else (None, back + 3)
    out[king_from] = "pending"
    out[king_to] = "pending"
    out[rook_to] = "target"
    if rook_from is not None:
        out[rook_from] = "origin" if view.lifted >> rook_from & 1 else "target"
    return True


def _put(roles: Roles, bb: Bitboard, role: Role) -> None:
    for sq in squares_of(bb):
        roles[sq] = role


__all__ = ["scene_for", "scene_roles", "setup_roles"]
