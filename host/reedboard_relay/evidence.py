"""The arbiter's evidence: everything the relay heard of a game and everything decided
on it, in order, to settle a claim. Recorded, never enforced: under the Laws an illegal
move or a touched piece is for the opponent to claim and the arbiter to rule. Pure.

What a reed switch can prove, and what it cannot: it sees a magnet, not a hand. A lift
is seen when the magnet leaves its square, not who lifted it nor when a finger let go;
a touch that does not move the piece is not seen at all. So a lifted piece of the side
to move is most likely the mover's, one of the other side is the mover's only when the
next move captures on its square, and otherwise the sensors cannot tell whose hand it
was. The timeline says so in its words."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from reedboard.events import (
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    Restored,
    SensorFault,
    TakenBack,
    Touched,
    Violation,
)
from reedboard.rules.squares import SQUARE_NAMES, squares_of

from reedboard_relay.game_on_board import GameOnBoard

Data = Mapping[str, object]

PIECES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
# Said once at the head of every export: what the sensors cannot prove.
LIMITS = (
    "A reed switch sees a piece's magnet, not a hand: a lift is seen, not who lifted it, "
    "not when the piece was let go, and a touch that does not move a piece is not seen."
)


@dataclass(frozen=True)
class Evidence:
    """One thing heard or decided about a game."""

    at: float  # when the relay heard or the arbiter decided it, seconds since the epoch
    game: GameOnBoard
    ply: int  # the plies the game had then (a move: the ply it made)
    kind: str
    data: Data = field(default_factory=dict)
    board_ms: int | None = None  # the board's own clock, where the board said it


class Row(TypedDict):
    """One line of the timeline as the console shows and exports it."""

    at: float
    board_ms: int | None
    ply: int
    kind: str
    text: str
    stood_ms: int | None  # an illegal position: how long it stood, once it ended


def of_effect(effect: Effect, white_to_move: bool | None) -> tuple[str, dict[str, object]] | None:
    """What to record of a board's event (`white_to_move`: the side to move before it, when
    the relay knows the game), or None for one that is no evidence (a clock press)."""
    match effect:
        case Touched(square=square, piece=piece):
            return "touch", {
                "square": SQUARE_NAMES[square],
                "piece": piece,
                "white_to_move": white_to_move,
            }
        case MoveMade(uci=uci, san=san):
            return "move", {"uci": uci, "san": san}
        case Illegal(missing=missing, extra=extra):
            return "illegal", {"missing": _names(missing), "extra": _names(extra)}
        case Restored():
            return "restored", {}
        case Violation(rule=rule, square=square, message=message):
            return "violation", {"rule": rule, "square": SQUARE_NAMES[square], "message": message}
        case TakenBack(uci=uci):
            return "takeback", {"uci": uci}
        case NewGame(fen=fen):
            return "new_game", {"fen": fen}
        case GameOver(result=result, reason=reason):
            return "game_over", {"result": result, "reason": reason}
        case Offered(offer=offer, state=state):
            return "offer", {"offer": offer, "state": state}
        case SensorFault(square=square, fault=fault):
            return "sensor", {"square": SQUARE_NAMES[square], "fault": fault}
    return None


def timeline(entries: Iterable[Evidence], game: GameOnBoard, ply: int | None = None) -> list[Row]:
    """The game's evidence in the order it happened, in words; at `ply`, only what
    happened while the game stood at that ply (after that ply's move, before the next)."""
    kept = sorted((e for e in entries if e.game == game), key=lambda e: e.at)
    rows = []
    for number, entry in enumerate(kept):
        if ply is not None and entry.ply != ply:
            continue
        rows.append(
            Row(
                at=entry.at,
                board_ms=entry.board_ms,
                ply=entry.ply,
                kind=entry.kind,
                text=said(entry, kept[number + 1 :]),
                stood_ms=_stood(entry, kept[number + 1 :]),
            )
        )
    return rows


def said(entry: Evidence, after: list[Evidence]) -> str:
    """The entry in the arbiter's words (`after`: what followed it in its game)."""
    if entry.kind == "touch":
        return _touch(entry.data, after)
    if entry.kind in ("offline", "online"):
        why = entry.data.get("why")
        return f"the board went {entry.kind}" + (f" ({why})" if why else "")
    words = _WORDS.get(entry.kind)
    return entry.kind if words is None else words(entry.data)


_WORDS: dict[str, Callable[[Data], str]] = {
    "move": lambda d: f"move {d.get('san') or d.get('uci')} made",
    "illegal": lambda d: (
        f"illegal position: pieces missing from {_list(d.get('missing'))}, "
        f"extra on {_list(d.get('extra'))}"
    ),
    "restored": lambda _d: "the position on the board matches the game again",
    "violation": lambda d: (
        f"touch-move violation (FIDE {d.get('rule')}) at {d.get('square')}: {d.get('message')}"
    ),
    "takeback": lambda d: f"move {d.get('uci')} taken back on the board",
    "new_game": lambda _d: "a new game set up on the board",
    "game_over": lambda d: f"the board ended the game {d.get('result')} ({d.get('reason')})",
    "offer": lambda d: f"result {d.get('offer')} shown with the kings: {d.get('state')}",
    "sensor": lambda d: f"the switch under {d.get('square')}: {d.get('fault')}",
    "session": lambda _d: "the board restarted (a new session began)",
    "twins": lambda _d: "two boards publish with this id: their games mix",
    "correction": lambda d: (
        f"arbiter: the move at ply {d.get('at_ply')} found illegal (FIDE 7.5.1), "
        f"{_list(d.get('cancelled'))} cancelled" + _note(d)
    ),
    "time_added": lambda d: (
        f"arbiter: {d.get('words')} added to {d.get('color')}'s clock" + _note(d)
    ),
    "result": lambda d: f"arbiter: result set to {d.get('result')}" + _note(d, "reason"),
    "answer": lambda d: (
        f"the board answered the arbiter's {d.get('about')}: {d.get('state')}"
        + (f" ({d['answer']})" if d.get("answer") else "")
    ),
}


def _touch(d: Data, after: list[Evidence]) -> str:
    piece = str(d.get("piece", "?"))
    colour = "White" if piece.isupper() else "Black"
    what = f"{colour}'s {PIECES.get(piece.lower(), piece)} lifted from {d.get('square')}"
    to_move = d.get("white_to_move")
    if to_move is None:
        return f"{what}: the side to move unknown, whose hand the sensors cannot tell"
    if (colour == "White") == to_move:
        return f"{what} (the side to move's piece: most likely their hand)"
    following = next((e for e in after if e.kind in ("move", "takeback", "new_game")), None)
    if following is not None and following.kind == "move":
        uci = str(following.data.get("uci", ""))
        if uci[2:4] == d.get("square"):
            return f"{what} (the next move captured there: the mover's hand)"
    return f"{what} while {'White' if to_move else 'Black'} was to move: AMBIGUOUS, the mover or its owner (the sensors cannot tell)"


def _stood(entry: Evidence, after: list[Evidence]) -> int | None:
    """An illegal position: how long it stood until the board matched a game again, by
    the board's clock where it gave one (else the relay's); None while it stands."""
    if entry.kind != "illegal":
        return None
    ended = next((e for e in after if e.kind in ("restored", "move", "takeback", "new_game")), None)
    if ended is None:
        return None
    if entry.board_ms is not None and ended.board_ms is not None:
        return max(0, ended.board_ms - entry.board_ms)
    return max(0, round((ended.at - entry.at) * 1000))


def csv_text(board: str, games: Iterable[tuple[GameOnBoard, list[Row]]]) -> str:
    """The timelines as CSV, one line per entry (fields quoted as needed, so a note cannot
    add a line), after a comment line saying what the sensors cannot prove. A game is
    named `ordinal/number`: the games the board finished before it, its journal's number."""
    out = io.StringIO()
    out.write(f"# {LIMITS}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["board", "game", "at", "board_ms", "ply", "kind", "stood_ms", "text"])
    for (ordinal, number), rows in games:
        for row in rows:
            writer.writerow(
                [board, f"{ordinal}/{number}", f"{row['at']:.3f}", row["board_ms"], row["ply"],
                 row["kind"], row["stood_ms"], row["text"]]
            )  # fmt: skip
    return out.getvalue()


def _names(squares: int) -> list[str]:
    return [SQUARE_NAMES[s] for s in squares_of(squares)]


def _list(value: object) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value) or "none"
    return str(value)


def _note(d: Data, name: str = "note") -> str:
    return f" ({d[name]})" if d.get(name) else ""
