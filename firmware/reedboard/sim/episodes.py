"""Situations a club player's hands make around the moves, added to a game the human
model has played with clean hands: each family rewrites the script's lines and says
which moves the board must still find.

- `knock_capturable`: while the moving piece is in the hand, a neighbour it could take
  is knocked and falls back (40-200 ms);
- `knock_onto_legal`: before a move, the hand carrying the piece knocks an own neighbour
  onto a square it could move to, puts its piece back, and puts the neighbour back once
  the board has complained;
- `knock_by_hand`: while the moving piece is in the hand (a quiet move, or a capture whose
  victim is off first), a neighbour of its square or its target, of either colour, is
  knocked and put back by hand (empty 250 ms-1.5 s), the piece set down 20 ms-1.5 s
  after (or later, as the model carried it);
- `takeback`: after a capture (casual mode), both pieces go back in either order, the
  captured piece first onto the square the capturer has just left or the capturer home
  first, and the capture is played again;
- `sweep`: after the last move (a result the board does not know), the player to move
  drags a long-range piece along its line and off the board while the other hand clears
  pieces away, tens of ms apart in either order;
- `overlap`: blitz, the opponent lifts the piece of the reply while the player's piece is
  still in the air;
- `same_scan`: castling with king and rook lifted in the same scan (one timestamp).

Every family keeps the sensors consistent (no lift of an empty square): the lines are
checked as they are rewritten.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from reedboard.events import Effect, MoveMade, TakenBack
from reedboard.hal.sensor_line import SensorLine
from reedboard.rules.moves import Move
from reedboard.rules.pieces import BISHOP, QUEEN, ROOK
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Square, squares_of
from reedboard.sim.geometry import distance, neighbours, path
from reedboard.sim.human import HumanScript

Family = Callable[[HumanScript, random.Random, int], HumanScript | None]
SQUARE = {name: index for index, name in enumerate(SQUARE_NAMES)}


def _positions(script: HumanScript) -> list[Position]:
    """The position before each move, and after the last."""
    positions = [script.start]
    for uci in script.ucis:
        positions.append(positions[-1].play(positions[-1].parse_uci(uci)))
    return positions


def _bounds(script: HumanScript, index: int) -> tuple[int, int]:
    starts = script.starts
    end = starts[index + 1] if index + 1 < len(starts) else len(script.lines)
    return starts[index], end


def _with_lines(
    script: HumanScript, lines: list[SensorLine], decisive: list[int], starts: list[int]
) -> HumanScript:
    lines.sort(key=lambda line: line[0])  # stable: same-time lines keep their order
    return replace(script, lines=tuple(lines), decisive_ms=tuple(decisive), starts=tuple(starts))


def _shifted(script: HumanScript, at: int, delta: int) -> tuple[list[SensorLine], list[int]]:
    """The lines with every line from index `at` on later by `delta`, and the decisive
    times of the moves from the one that starts there."""
    lines = [
        line.at(line.t_ms + delta) if index >= at else line
        for index, line in enumerate(script.lines)
    ]
    first_moved = next((i for i, s in enumerate(script.starts) if s >= at), len(script.starts))
    decisive = [d + delta if i >= first_moved else d for i, d in enumerate(script.decisive_ms)]
    return lines, decisive


def _mover_window(script: HumanScript, index: int, square: Square) -> tuple[int, int] | None:
    """When the move's piece leaves `square` and when something is next set down."""
    first, end = _bounds(script, index)
    name = SQUARE_NAMES[square]
    lifted = None
    for t, action, arg in script.lines[first:end]:
        if lifted is None and action == "lift" and arg == name:
            lifted = t
        elif lifted is not None and action == "place":
            return lifted, t
    return None


def knock_capturable(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    positions = _positions(script)
    options = []
    for index, uci in enumerate(script.ucis):
        position = positions[index]
        move = position.parse_uci(uci)
        if position.is_capture(move) or position.is_castling(move) or move.promotion:
            continue
        f = move.from_square
        involved = {f, move.to_square, *path(f, move.to_square)}
        victims = [
            m.to_square
            for m in position.legal_moves_from(f)
            if position.is_capture(m)
            and not position.is_en_passant(m)
            and distance(f, m.to_square) == 1
            and m.to_square not in involved
        ]
        window = _mover_window(script, index, f)
        if victims and window is not None and window[1] - window[0] >= 150:
            options.append((index, sorted(set(victims)), window))
    if not options:
        return None
    lines = list(script.lines)
    for _index, victims, (lifted, placed) in options:
        victim = SQUARE_NAMES[rng.choice(victims)]
        fall = rng.randint(40, 200)
        at = rng.randint(lifted + 10, max(lifted + 10, placed - fall - 30))
        if at + fall >= placed - 20:
            continue
        lines += [SensorLine(at, "lift", victim), SensorLine(at + fall, "place", victim)]
    return _with_lines(script, lines, list(script.decisive_ms), list(script.starts))


def knock_onto_legal(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    positions = _positions(script)
    candidates = []
    for index, uci in enumerate(script.ucis):
        position = positions[index]
        move = position.parse_uci(uci)
        f = move.from_square
        steps = [
            m
            for m in position.legal_moves()
            if m.from_square != f
            and distance(m.from_square, f) == 1
            and distance(m.from_square, m.to_square) == 1
            and not position.is_capture(m)
            and not position.is_castling(m)
            and not m.promotion
        ]
        if steps and not position.is_castling(move):
            candidates.append((index, steps))
    if not candidates:
        return None
    # One knock per game: each shifts everything after it.
    index, steps = rng.choice(candidates)
    knocked = rng.choice(steps)
    mover = SQUARE_NAMES[positions[index].parse_uci(script.ucis[index]).from_square]
    home, landed = SQUARE_NAMES[knocked.from_square], SQUARE_NAMES[knocked.to_square]
    at = script.starts[index]
    t = script.lines[at][0] if at < len(script.lines) else script.end_ms + 500
    episode: list[SensorLine] = []
    t0 = t
    episode.append(SensorLine(t, "lift", mover))
    t += rng.randint(100, 300)
    episode.append(SensorLine(t, "lift", home))
    t += rng.randint(15, 70)
    episode.append(SensorLine(t, "place", landed))
    t += rng.randint(100, 300)
    episode.append(SensorLine(t, "place", mover))
    t += settle_ms + rng.randint(150, 900)  # the board complains meanwhile
    episode.append(SensorLine(t, "lift", landed))
    t += rng.randint(150, 600)
    episode.append(SensorLine(t, "place", home))
    t += rng.randint(400, 1500)
    lines, decisive = _shifted(script, at, t - t0)
    complaints = script.complaints + 1
    script = replace(script, complaints=complaints)
    return _with_lines(script, lines + episode, decisive, list(script.starts))


def _knock_options(script: HumanScript) -> list[tuple[int, int, int, int, list[Square]]]:
    """The moves a knock by hand may interrupt: (move, index of the line setting the
    piece down, lift time, set-down time, neighbours that may be knocked). Quiet moves
    and captures whose victim is off before the capturer is lifted; no castling, no
    promotion, no en passant: their other pieces would be in the hand too."""
    positions = _positions(script)
    options = []
    for index, uci in enumerate(script.ucis):
        position = positions[index]
        move = position.parse_uci(uci)
        if position.is_castling(move) or move.promotion or position.is_en_passant(move):
            continue
        f, t = move.from_square, move.to_square
        first, end = _bounds(script, index)
        name = SQUARE_NAMES[f]
        lift = next((i for i in range(first, end) if script.lines[i][1:] == ("lift", name)), None)
        if lift is None:
            continue
        if position.is_capture(move) and not any(
            script.lines[i][1:] == ("lift", SQUARE_NAMES[t]) for i in range(first, lift)
        ):
            continue  # the capturer lifted first: its victim's lift would be the knock's
        down = next((i for i in range(lift, end) if script.lines[i][1] == "place"), None)
        if down is None or script.lines[down][0] - script.lines[lift][0] < 60:
            continue
        touched = {SQUARE[line[2]] for line in script.lines[first:end] if line[1] != "choose"}
        near = {*neighbours(f), *neighbours(t)} - touched - {f, t, *path(f, t)}
        victims = [sq for sq in sorted(near) if position.occupied >> sq & 1]
        if victims:
            options.append((index, down, script.lines[lift][0], script.lines[down][0], victims))
    return options


def knock_by_hand(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    knocks = []  # (index of the set-down line, its time, the delay, the two lines)
    for index, down, lifted, placed, victims in _knock_options(script):
        if rng.random() > 0.5:
            continue
        square = SQUARE_NAMES[rng.choice(victims)]
        at = rng.randint(lifted + 10, max(lifted + 10, placed - 30))
        back = at + rng.randint(250, 1500)
        # (One hand: the piece is set down after the knocked one is back, not with it.)
        delay = max(0, back + rng.randint(20, 1500) - placed)
        knocks.append((index, down, placed, delay, at, back, square))
    if not knocks:
        return None
    # Each knock delays what follows its piece's set-down: every later line and move.
    lines: list[SensorLine] = []
    for n, line in enumerate(script.lines):
        lines.append(line.at(line.t_ms + sum(k[3] for k in knocks if n >= k[1])))
    decisive = [
        d + sum(k[3] for k in knocks if d >= k[2] and k[0] <= i)
        for i, d in enumerate(script.decisive_ms)
    ]
    for _index, down, _placed, _delay, at, back, square in knocks:
        before = sum(k[3] for k in knocks if k[1] < down)
        lines += [
            SensorLine(at + before, "lift", square),
            SensorLine(back + before, "place", square),
        ]
    return _with_lines(script, lines, decisive, list(script.starts))


def takeback(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    if script.mode != "casual":
        return None
    positions = _positions(script)
    captures = [
        i
        for i, uci in enumerate(script.ucis)
        if positions[i].is_capture(m := positions[i].parse_uci(uci))
        and not positions[i].is_en_passant(m)
        and not m.promotion
    ]
    if not captures:
        return None
    index = rng.choice(captures)
    move = positions[index].parse_uci(script.ucis[index])
    f, t_sq = SQUARE_NAMES[move.from_square], SQUARE_NAMES[move.to_square]
    first, end = _bounds(script, index)
    move_lines = script.lines[first:end]
    t = script.decisive_ms[index] + rng.randint(400, 1500)
    order = rng.choice(("capturer_home_first", "victim_first", "victim_first_pause"))
    episode: list[SensorLine] = [SensorLine(t, "lift", t_sq)]
    t += rng.randint(150, 600)
    if order == "capturer_home_first":
        episode.append(SensorLine(t, "place", f))
        t += rng.randint(150, 900)
        episode.append(SensorLine(t, "place", t_sq))
    else:
        episode.append(SensorLine(t, "place", t_sq))
        t += rng.randint(100, 400) if order == "victim_first" else rng.randint(800, 2500)
        episode.append(SensorLine(t, "place", f))
    t += rng.randint(600, 1500)
    # The capture played again, as the hands first played it.
    base = move_lines[0][0]
    again = [line.at(t + (line.t_ms - base)) for line in move_lines]
    replayed_decisive = t + (script.decisive_ms[index] - base)
    last_of_move = max(line[0] for line in again)
    delta = (
        last_of_move
        + rng.randint(300, 1200)
        - (script.lines[end][0] if end < len(script.lines) else last_of_move)
    )
    delta = max(delta, 0)
    lines, decisive = _shifted(script, end, delta)
    decisive[index] = replayed_decisive
    lines = lines + episode + again
    return _with_lines(script, lines, decisive, list(script.starts))


def sweep(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    position = _positions(script)[-1]
    # A move that could still go on along its line waits to be committed; one that
    # cannot is committed as its piece lands, before any sweep: the board was right.
    legal = list(position.legal_moves())
    lines_of = [
        m
        for m in legal
        if position.piece_type_at(m.from_square) in (BISHOP, ROOK, QUEEN)
        and not position.is_capture(m)
        and len(path(m.from_square, m.to_square)) >= 1
        and any(
            other.from_square == m.from_square
            and m.to_square in path(m.from_square, other.to_square)
            for other in legal
        )
    ]
    if not lines_of:
        return None
    move: Move = rng.choice(lines_of)
    t = script.end_ms + rng.randint(500, 2000)
    out: list[SensorLine] = [SensorLine(t, "lift", SQUARE_NAMES[move.from_square])]
    for sq in path(move.from_square, move.to_square):
        t += rng.randint(30, 80)
        out.append(SensorLine(t, "place", SQUARE_NAMES[sq]))
        t += rng.randint(20, 150)
        out.append(SensorLine(t, "lift", SQUARE_NAMES[sq]))
    t += rng.randint(30, 80)
    out.append(SensorLine(t, "place", SQUARE_NAMES[move.to_square]))
    t += rng.randint(40, 150)
    off = t
    out.append(SensorLine(off, "lift", SQUARE_NAMES[move.to_square]))
    # The other hand clears the opponent's pieces, starting just before or after.
    bb = position.occupied_by(not position.turn)
    theirs = list(squares_of(bb))
    t = off + rng.randint(-60, 80)
    for sq in rng.sample(theirs, min(len(theirs), rng.randint(2, 5))):
        out.append(SensorLine(t, "lift", SQUARE_NAMES[sq]))
        t += rng.randint(80, 250)
    return _with_lines(
        script, list(script.lines) + out, list(script.decisive_ms), list(script.starts)
    )


def overlap(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    positions = _positions(script)
    lines = list(script.lines)
    changed = False
    overlapped = -2
    for index in range(len(script.ucis) - 1):
        position = positions[index]
        move = position.parse_uci(script.ucis[index])
        if index == overlapped + 1:
            continue  # a player does not start a move before the reply is down
        if position.is_castling(move) or move.promotion or position.is_en_passant(move):
            continue
        reply = positions[index + 1].parse_uci(script.ucis[index + 1])
        after = positions[index + 1]
        if after.is_castling(reply) or after.is_capture(reply) or reply.promotion:
            continue
        window = _mover_window(script, index, move.from_square)
        first, _end = _bounds(script, index + 1)
        if window is None or first >= len(lines) or rng.random() > 0.5:
            continue
        lifted, placed = window
        _t, action, arg = script.lines[first]
        touched = {move.from_square, move.to_square, *path(move.from_square, move.to_square)}
        if action != "lift" or SQUARE[arg] in touched or placed - lifted < 80:
            continue
        if SQUARE[arg] != reply.from_square:
            continue
        early = rng.randint(lifted + 20, placed - 10)
        if index and early < script.decisive_ms[index - 1] + settle_ms + 50:
            continue  # the replier's own last move must have been decided first
        lines[first] = script.lines[first].at(early)
        changed = True
        overlapped = index
    if not changed:
        return None
    return _with_lines(script, lines, list(script.decisive_ms), list(script.starts))


def same_scan(script: HumanScript, rng: random.Random, settle_ms: int) -> HumanScript | None:
    positions = _positions(script)
    lines = list(script.lines)
    changed = False
    for index, uci in enumerate(script.ucis):
        position = positions[index]
        move = position.parse_uci(uci)
        if not position.is_castling(move):
            continue
        kf, _kt, rf, _rt = position.castling_squares(move)
        first, end = _bounds(script, index)
        lifts = [
            i
            for i in range(first, end)
            if lines[i][1] == "lift" and SQUARE[lines[i][2]] in (kf, rf)
        ]
        if len(lifts) < 2:
            continue
        a, b = lifts[0], lifts[1]
        if any(lines[i][1] == "place" for i in range(a, b)):
            continue  # one piece already down: not lifted together
        lines[b] = lines[b].at(lines[a].t_ms)
        changed = True
    if not changed:
        return None
    return _with_lines(script, lines, list(script.decisive_ms), list(script.starts))


FAMILIES: dict[str, Family] = {
    "knock_capturable": knock_capturable,
    "knock_onto_legal": knock_onto_legal,
    "knock_by_hand": knock_by_hand,
    "takeback": takeback,
    "sweep": sweep,
    "overlap": overlap,
    "same_scan": same_scan,
}


def net_moves(effects: Sequence[Effect]) -> list[MoveMade]:
    """The board's moves with its takebacks undone: what the host's game holds."""
    made: list[MoveMade] = []
    for effect in effects:
        if isinstance(effect, MoveMade):
            made.append(effect)
        elif isinstance(effect, TakenBack) and made:
            made.pop()
    return made


def check_lines(script: HumanScript) -> None:
    """Every lift finds its square occupied and every place finds it empty."""
    occupied = script.start.occupied
    for t, action, arg in script.lines:
        if action == "choose":
            continue
        bit = 1 << SQUARE[arg]
        if bool(occupied & bit) == (action == "place"):
            raise AssertionError(f"{action} {arg} at {t} ms finds it already so")
        occupied ^= bit


__all__ = ["FAMILIES", "check_lines", "net_moves"]
