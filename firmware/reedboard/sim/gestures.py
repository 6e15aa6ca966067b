"""How hands carry out one ordinary move (quiet, capture, en passant, promotion), with
the slips a real player makes on the way: slides, knocks, wrong squares."""

from __future__ import annotations

from reedboard.rules.moves import Move
from reedboard.rules.pieces import BISHOP, PAWN, QUEEN, ROOK
from reedboard.rules.position import Position
from reedboard.rules.squares import Square
from reedboard.sim.geometry import distance, ep_victim, footprints, neighbours, path
from reedboard.sim.timeline import Timeline

SLIDERS = (BISHOP, ROOK, QUEEN)


class Complaints:
    """How many times the model deliberately leaves the board wrong past settle_ms."""

    def __init__(self) -> None:
        self.count = 0


def play_ordinary(tl: Timeline, position: Position, move: Move, complaints: Complaints) -> int:
    """Lines for a move that is not castling; returns the time of its decisive change."""
    f, t = move.from_square, move.to_square
    victim = _victim(position, move)
    order = _capture_order(tl, position.is_en_passant(move), victim)
    tl.tags.add(order)

    if victim is None:
        arrival = _arrival_first(tl, move)
        if arrival is not None:
            tl.place(t)
            tl.wait(arrival)
            return tl.lift(f)

    if victim is not None and order in ("capture_victim_first", "ep_victim_first"):
        tl.lift(victim)
        tl.wait((250, 1_500))  # the victim goes to the side of the board
    tl.lift(f)
    tl.wait((100, 500))
    involved = {f, t, *path(f, t)} | ({victim} if victim is not None else set())
    _carry(tl, position, move, involved, complaints)
    _clear_victim(tl, order, victim)
    if order != "capture_fast_swap" and tl.chance(tl.settings.flicker):
        _flicker_near(tl, t, involved)
    decisive = tl.place(t)
    if victim is not None and order == "ep_capturer_placed_first":
        tl.wait((150, 900))
        decisive = tl.lift(victim)
    _finish_promotion(tl, move)
    return decisive


def _victim(position: Position, move: Move) -> Square | None:
    """The square of the piece `move` captures, if any."""
    if position.is_en_passant(move):
        return ep_victim(position, move.to_square)
    if position.is_capture(move):
        return move.to_square
    return None


def _capture_order(tl: Timeline, en_passant: bool, victim: Square | None) -> str:
    """In which order the hands handle the mover and the captured piece."""
    s = tl.settings
    if en_passant:
        roll = tl.rng.random()
        if roll < s.ep_capturer_placed_first:
            return "ep_capturer_placed_first"
        if roll < s.ep_capturer_placed_first + s.ep_victim_first:
            return "ep_victim_first"
        return "ep_own_first"
    if victim is None:
        return "quiet"
    if tl.chance(s.capture_victim_first):
        return "capture_victim_first"
    if tl.chance(s.capture_fast_swap):
        return "capture_fast_swap"
    return "capture_own_first"


def _carry(
    tl: Timeline, position: Position, move: Move, involved: set[Square], complaints: Complaints
) -> None:
    """The piece in the hand on its way: a knocked neighbour, a wrong square, a slide."""
    s = tl.settings
    f, t = move.from_square, move.to_square
    if tl.chance(s.knock):
        # Lifting and replacing a piece the mover could take is the capture gesture
        # itself, so a knock never touches one.
        targets = {m.to_square for m in position.legal_moves_from(f)}
        _knock(tl, involved | targets, complaints)
    detoured = tl.chance(s.illegal_placement) and _illegal_detour(
        tl, position, f, involved, complaints
    )
    piece_type = position.piece_type_at(f)
    slides = piece_type in SLIDERS or (piece_type == PAWN and abs(t - f) == 16)
    if slides and not detoured and tl.chance(s.slide):
        _slide(tl, path(f, t), involved)


def _clear_victim(tl: Timeline, order: str, victim: Square | None) -> None:
    """Take the captured piece off now if the order says so, else pause before placing."""
    s = tl.settings
    if victim is not None and order in ("capture_own_first", "ep_own_first"):
        tl.wait((100, 600))
        tl.lift(victim)
        tl.wait((100, 500))
    elif order == "capture_fast_swap":
        tl.wait((50, 300))
        assert victim is not None
        # The window counts from the victim's first edge, whatever bounce follows.
        tl.t = tl.lift(victim) + tl.rng.randint(*s.fast_swap_ms)
    else:
        tl.wait((0, 300))


def _finish_promotion(tl: Timeline, move: Move) -> None:
    """A promoted pawn may be swapped for the new piece after it lands."""
    if not move.promotion:
        return
    s = tl.settings
    if tl.chance(s.promotion_exchange):
        tl.wait((200, 1_200))
        tl.lift(move.to_square)  # the pawn goes off ...
        tl.wait(s.exchange_ms)
        tl.place(move.to_square)  # ... and the new piece comes from the box
        tl.tags.add("promotion_exchange")
    tl.tags.add("promotion")


def _arrival_first(tl: Timeline, move: Move) -> tuple[int, int] | None:
    """How long after the target the origin is seen emptied, when the hands make this
    quiet move so (a queen put down before the pawn is cleared, a step whose magnet closes
    the next switch first); None for the usual order."""
    s = tl.settings
    if move.promotion == QUEEN and tl.chance(s.promotion_piece_first):
        tl.tags.update({"promotion_piece_first", "promotion"})
        return s.piece_first_ms
    step = not move.promotion and distance(move.from_square, move.to_square) == 1
    if step and tl.chance(s.arrive_first):
        tl.tags.add("arrive_first")
        return s.arrive_first_ms
    return None


def _slide(tl: Timeline, squares: list[Square], involved: set[Square]) -> None:
    """Drag the piece in the hand over `squares`, in order; occupied ones are jumped."""
    sensed = [sq for sq in squares if tl.is_empty(sq) and tl.chance(tl.settings.waypoint_sensed)]
    for sq in sensed:
        tl.waypoint(sq)
        tl.wait((0, 30))
    if sensed and tl.chance(tl.settings.flicker):
        _flicker_near(tl, sensed[-1], involved)


def _flicker_near(tl: Timeline, sq: Square, involved: set[Square]) -> None:
    spots = [n for n in neighbours(sq) if tl.is_empty(n) and n not in involved]
    if spots:
        tl.flick(tl.rng.choice(spots))
        tl.wait((0, 20))


def _knock(tl: Timeline, involved: set[Square], complaints: Complaints) -> None:
    """The hand carrying a piece knocks a neighbour of its origin or target."""
    near = sorted({n for sq in sorted(involved) for n in neighbours(sq)} - involved)
    victims = [n for n in near if not tl.is_empty(n)]
    if not victims:
        return
    knocked = tl.rng.choice(victims)
    if tl.chance(tl.settings.push_aside):
        spots = [n for n in neighbours(knocked) if tl.is_empty(n) and n not in involved]
        if spots:
            spot = tl.rng.choice(spots)
            tl.lift(knocked)
            tl.wait((10, 80))
            tl.place(spot)
            _wait_for_complaint(tl)
            complaints.count += 1
            tl.lift(spot)
            tl.wait((150, 600))
            tl.place(knocked)
            tl.wait((100, 500))
            tl.tags.add("knock_push_aside")
            return
    tl.lift(knocked)
    # Put back at once: shorter than settle_ms, so the board need not complain.
    tl.wait((80, max(81, tl.settings.settle_ms - 60)))
    tl.place(knocked)
    tl.wait((100, 400))
    tl.tags.add("knock")


def _illegal_detour(
    tl: Timeline, position: Position, f: Square, involved: set[Square], complaints: Complaints
) -> bool:
    """Put the piece in the hand on a square it cannot reach, wait for the board to
    complain, then take it up again (perhaps first back to its own square)."""
    prints = footprints(position)
    both = 1 << f
    spots = []
    for sq in range(64):
        if not tl.is_empty(sq) or sq in involved:
            continue
        if min(distance(sq, other) for other in involved) > 2:
            continue
        # A square that some legal move's footprint shares with the origin would look
        # like a move in progress, and the board would rightly wait instead of complaining.
        if any(fp & (both | 1 << sq) == both | 1 << sq for fp in prints):
            continue
        spots.append(sq)
    if not spots:
        return False
    wrong = tl.rng.choice(spots)
    tl.place(wrong)
    _wait_for_complaint(tl)
    complaints.count += 1
    tl.lift(wrong)
    if tl.chance(tl.settings.illegal_back_first) and tl.is_empty(f):
        tl.wait((150, 600))
        tl.place(f)
        tl.wait((300, 1_500))
        tl.lift(f)
        tl.tags.add("illegal_back_first")
    tl.wait((150, 700))
    tl.tags.add("illegal_placement")
    return True


def _wait_for_complaint(tl: Timeline) -> None:
    tl.t += tl.settings.settle_ms
    tl.wait(tl.settings.complain_margin_ms)
