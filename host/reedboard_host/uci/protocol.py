"""The UCI protocol as the board-as-engine speaks it: a GUI's lines read into values, and
the engine's lines written. Pure: no I/O, no board.

Only what the board's engine acts on is read; any other line (`debug`, `register`, a word
of a newer UCI) is `Ignored`, as UCI asks. A `position` that cannot be read is kept as
`Position(None, reason)`, for the engine to report and play nothing from."""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.errors import ReedboardError
from reedboard.rules.game import Game
from reedboard.rules.position import Position

NO_MOVE = "0000"
IDENTITY = (
    "id name reedboard",
    "id author the reedboard project",
    "option name UCI_Chess960 type check default false",
    "uciok",
)


@dataclass(frozen=True)
class Uci:
    pass


@dataclass(frozen=True)
class IsReady:
    pass


@dataclass(frozen=True)
class SetOption:
    name: str  # as written; UCI names are matched without regard to case
    value: str


@dataclass(frozen=True)
class UciNewGame:
    pass


@dataclass(frozen=True)
class SetPosition:
    game: Game | None  # None: the position could not be read (`problem` says why)
    problem: str = ""


@dataclass(frozen=True)
class Go:
    infinite: bool  # `go infinite` or `go ponder`: the answer waits for `stop`/`ponderhit`
    gui_clock: bool = False  # the GUI sent its own clock (`wtime`, `btime`)


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class PonderHit:
    pass


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Ignored:
    pass


GuiCommand = (
    Uci | IsReady | SetOption | UciNewGame | SetPosition | Go | Stop | PonderHit | Quit | Ignored
)


def read_line(line: str, *, chess960: bool) -> GuiCommand:
    """One line from the GUI. `chess960` is whether UCI_Chess960 is on (how castling in
    the position's moves is written)."""
    words = line.split()
    if not words:
        return Ignored()
    command, rest = words[0], words[1:]
    match command:
        case "quit":
            return Quit()
        case "uci":
            return Uci()
        case "isready":
            return IsReady()
        case "setoption":
            name, _, value = " ".join(rest).partition(" value ")
            return SetOption(name.removeprefix("name ").strip(), value.strip())
        case "ucinewgame":
            return UciNewGame()
        case "position":
            return read_position(rest, chess960=chess960)
        case "go":
            return Go(
                infinite="infinite" in rest or "ponder" in rest,
                gui_clock="wtime" in rest or "btime" in rest,
            )
        case "stop":
            return Stop()
        case "ponderhit":
            return PonderHit()
    return Ignored()


def read_position(words: list[str], *, chess960: bool) -> SetPosition:
    """`startpos` or `fen F`, then `moves ...`: the GUI's game."""
    if "moves" in words:
        at = words.index("moves")
        setup, moves = words[:at], words[at + 1 :]
    else:
        setup, moves = words, []
    try:
        if setup[:1] == ["startpos"]:
            start = Position.from_fen(Position.standard().fen(), chess960=chess960)
        elif setup[:1] == ["fen"] and len(setup) > 1:
            start = Position.from_fen(" ".join(setup[1:]), chess960=chess960)
        else:
            return SetPosition(None, f"cannot read the position: {' '.join(words)!r}")
        game = Game(start)
        for uci in moves:
            game.push_uci(uci)
    except (ReedboardError, ValueError, IndexError) as error:
        return SetPosition(None, f"cannot read the position: {error}")
    return SetPosition(game)


def bestmove(uci: str) -> str:
    return f"bestmove {uci}"


def info_string(text: str) -> str:
    return f"info string {text}"
