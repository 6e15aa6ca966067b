"""`reedboard-host play`: a person plays on the board against a UCI engine.

The engine's move is shown on the board's LEDs (`show`); the person carries it out and
the board checks it like any move. Should the engine's side make another move than the
one shown, the board takes it back and shows the right one again. The game ends on the
board (mate, a draw, a resignation from the host) or with Ctrl-C; its PGN is printed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from reedboard.errors import LinkError
from reedboard.rules.pgn import write_pgn

from reedboard_host.connection import HostError, choose_port
from reedboard_host.engine import UciEngine
from reedboard_host.follow import Follower
from reedboard_host.pgn_file import PgnFile


def play(args: argparse.Namespace, *, stop: Callable[[], bool], log: Callable[[str], None]) -> int:
    engine = UciEngine(args.engine)
    out = PgnFile(args.out) if args.out else None
    follower = Follower(choose_port(args.port), on_change=out.update if out else None, log=log)
    engine_white = args.color == "black"
    shown: tuple[int, str] | None = None  # (ply, uci) asked of the engine's side
    try:
        follower.connect()
        follower.connection.request("new_game", variant="standard")
        follower.sync()
        engine.start(level=args.level, chess960=False)
        log(f"you play {args.color}; the engine's moves light up on the board")
        while not stop():
            follower.connection.poll(0.05)
            if follower.mirror.needs_state:
                follower.sync()
            current = follower.mirror.current
            if current is None:
                continue
            if current.result is not None:
                break
            game = current.game
            ply = len(game)
            if shown is not None and ply == shown[0] + 1:
                played = game.positions[-2].uci(game.moves[-1])
                if played != shown[1]:
                    log(f"{played} is not the engine's move {shown[1]}: take it back")
                    follower.connection.request("takeback")
                    _show(follower, shown[1])
                    follower.sync()
                    continue
                shown = None
            if game.position.turn == engine_white and shown is None:
                moves = [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]
                best = engine.best_move(game.start.fen(), moves, args.movetime_ms)
                _show(follower, best)
                shown = (ply, best)
                log(f"engine plays {best}: carry it out on the board")
        _catch_up(follower, log)
        current = follower.mirror.current
        if current is not None:
            sys.stdout.write(write_pgn(current.game, result=current.result or "*"))
            sys.stdout.flush()
    finally:
        engine.close()
        follower.connection.close()
        if out is not None:
            out.update(follower.mirror)
            out.close()
    return 0


def _show(follower: Follower, uci: str) -> None:
    """Light the engine's move. Sensors cannot tell a knight from a queen: the board
    promotes to a queen unless told the piece first, for this one promotion."""
    if uci[4:] not in ("", "q"):
        follower.connection.request("promotion", piece=uci[4:])
    follower.connection.request("show", uci=uci)


def _catch_up(follower: Follower, log: Callable[[str], None]) -> None:
    """Fetch the board's game before printing it: Ctrl-C can come just after a move the
    board has committed and sent but this side has not read yet, and that move belongs in
    the PGN. A board that no longer answers leaves the game as last heard."""
    try:
        follower.sync()
    except (HostError, LinkError) as error:
        log(f"{error}: the game printed may lack the last moves")
