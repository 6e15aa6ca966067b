"""Pictures of the board's scenes for the documentation, made by the real arbiter.

    python -m reedboard.lights.gallery docs/scenes [--png]

Each scene is reached by feeding the arbiter the square changes a player makes, then
drawn with `render_svg`; `--png` also converts each picture with `rsvg-convert`
(librsvg), and says so in one line when it is not installed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from reedboard.command_line import OneLineParser, example
from reedboard.errors import ReedboardError
from reedboard.lights.frame import Frame
from reedboard.lights.placement import pieces_of_fen
from reedboard.lights.render_svg import render_svg
from reedboard.lights.scenes import scene_for
from reedboard.lights.selftest import sweep_scene
from reedboard.lights.setup import PAWN_SQUARES, SetupGuide, setup_scene
from reedboard.reader.move_reader import MoveReader
from reedboard.reader.view import BoardView
from reedboard.rules.game import Game
from reedboard.rules.pieces import BLACK, WHITE
from reedboard.rules.squares import Square, parse_square
from reedboard.sensing.debounce import SquareChange
from reedboard.sensing.held import Held, likeliest

Scene = tuple[str, Frame, str]  # board FEN (pieces to draw), frame, title


def _play(fen: str, changes: str, *, settle: int = 0) -> Scene:
    """Feed the arbiter `changes` ("lift e2, place e4"), 400 ms apart, and let it settle;
    the pieces drawn follow the hands (a placed piece is the likeliest one held)."""
    arbiter = MoveReader(Game.from_fen(fen))
    pieces = pieces_of_fen(fen)
    hand: list[Held] = []
    t = 1000
    for part in changes.split(","):
        action, name = part.split()
        sq = parse_square(name)
        if action == "lift":
            hand.append(Held(pieces.pop(sq), sq))
        else:
            pieces[sq] = hand.pop(likeliest(hand, sq, arbiter.game.position)).piece
        arbiter.feed(SquareChange(sq, action == "place", t))
        t += 400
    if settle:
        arbiter.tick(t + settle)
    view = arbiter.view()
    if view.fen != fen:
        pieces = pieces_of_fen(view.fen)
    return _fen_of(pieces), scene_for(view), ""


def _fen_of(pieces: dict[Square, str]) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            row += pieces.get(rank * 8 + file, "1")
        rows.append(row)
    return "/".join(rows)


def _titled(scene: Scene, title: str) -> Scene:
    return scene[0], scene[1], title


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
SCENES: dict[str, Callable[[], Scene]] = {
    "lifted": lambda: _titled(
        _play("r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 1", "lift e5"),
        "A pawn lifted: quiet move, en passant",
    ),
    "king-lifted": lambda: _titled(
        _play("r3k2r/8/8/8/8/8/5n2/R3K2R w KQkq - 0 1", "lift e1"),
        "The king lifted: castling, a capture, quiet moves",
    ),
    "castling-pending": lambda: _titled(
        _play("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "lift e1, place g1"),
        "King on g1: the rook's path completes castling",
    ),
    "capturers": lambda: _titled(
        _play("4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1", "lift d5"),
        "An opponent's pawn lifted: what can take it",
    ),
    "mismatch": lambda: _titled(
        _play(START, "lift g1, place g3", settle=3000), "Mismatch: put the knight back"
    ),
    "hint": lambda: (
        START.split(" ")[0],
        scene_for(_hinted()),
        "The engine's move, to be carried out: e2-e4",
    ),
    "marked": lambda: (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR",
        scene_for(_marked()),
        "A program's marks: f7 steady, c4 and h5 blink",
    ),
    "check": lambda: _titled(
        _play("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "lift a1, place a8", settle=3000),
        "Idle: the last move and a king in check",
    ),
    "game-over": lambda: _titled(
        _play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "lift a1, place a8", settle=3000),
        "Checkmate: 1-0",
    ),
    "flag": lambda: (
        "6k1/5ppp/8/8/8/8/8/R5K1",
        scene_for(_flagged()),
        "Black's flag fell, White can mate: 1-0 on time",
    ),
    "low-time": lambda: (
        _play(START, "lift e2, place e4, lift e7, place e5", settle=3000)[0],
        scene_for(_play_view(START, "e2e4 e7e5"), low_time=WHITE),
        "White has under 10 s: White's back rank",
    ),
    "result-offer": lambda: _titled(
        _play(
            "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
            "lift e8, lift e1, place e4, place d5",
        ),
        "Both kings on light centre squares: 1-0 offered",
    ),
    "setup": lambda: (
        "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1",
        setup_scene(SetupGuide.chess960(0).step(PAWN_SQUARES)),
        "Chess960 position 0: place the rooks",
    ),
    "self-test": lambda: (
        "8/8/8/8/8/8/8/8 w - - 0 1",
        sweep_scene(3, faults=(1 << parse_square("c6")) | (1 << parse_square("f4"))),
        "Self-test: the sweep, two faulty squares",
    ),
}


def _flagged() -> BoardView:
    game = Game.from_fen("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    game.flag_fell(BLACK, opponent_can_mate=True)
    return MoveReader(game).view()


def _play_view(fen: str, ucis: str) -> BoardView:
    """The idle board after the moves `ucis`, played in the game."""
    game = Game.from_fen(fen)
    for uci in ucis.split():
        game.push_uci(uci)
    return MoveReader(game).view()


def _hinted() -> BoardView:
    arbiter = MoveReader(Game())
    arbiter.show_move(Game().position.parse_uci("e2e4"))
    return arbiter.view()


def _marked() -> BoardView:
    """The squares a ChessLink program lights that are no move: the attacked f7 steady,
    its attackers blinking."""
    arbiter = MoveReader(
        Game.from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    )
    arbiter.mark(1 << parse_square("f7"), (1 << parse_square("h5")) | (1 << parse_square("c4")))
    return arbiter.view()


PNG_CONVERTER = "rsvg-convert"


class NoConverterError(ReedboardError, RuntimeError):
    """PNGs were asked for and `rsvg-convert` is not installed."""


def write_gallery(folder: Path, *, png: bool = False) -> list[Path]:
    converter = shutil.which(PNG_CONVERTER) if png else None
    if png and converter is None:
        raise NoConverterError(
            f"--png needs {PNG_CONVERTER} (Debian and Ubuntu: apt-get install librsvg2-bin)"
        )
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in SCENES.items():
        board, frame, title = make()
        path = folder / f"{name}.svg"
        path.write_text(render_svg(board + " w - - 0 1", frame, title=title), encoding="utf-8")
        written.append(path)
        if converter:
            png_path = path.with_suffix(".png")
            subprocess.run([converter, str(path), "-o", str(png_path)], check=True)
            written.append(png_path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    prog = "python -m reedboard.lights.gallery"
    parser = OneLineParser(
        prog=prog,
        description=__doc__.split("\n", 1)[0],
        epilog=example(f"{prog} docs/scenes --png"),
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--png", action="store_true", help=f"also write PNGs ({PNG_CONVERTER})")
    args = parser.parse_args(argv)
    try:
        for path in write_gallery(args.folder, png=args.png):
            print(path)
    except (NoConverterError, OSError, subprocess.CalledProcessError) as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
