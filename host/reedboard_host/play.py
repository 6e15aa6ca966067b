"""`reedboard-host play`: a person plays on the board against a UCI engine.

The engine's move is shown on the board's LEDs (`show`); the person carries it out and
the board checks it like any move. Should the engine's side make another move than the
one shown, the board takes it back and shows the right one again. The game ends on the
board (mate, a draw, a resignation from the host) or with Ctrl-C; its PGN is printed,
the players named ("Stockfish 16 (level 5)" and the person's login name).

The engine is started and must answer the UCI handshake before the board is touched: a
program that is not a UCI engine is one line and leaves the board's game alone. A game
under way on the board is replaced only when asked (`--new`)."""

from __future__ import annotations

import argparse
import datetime
import getpass
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass

from reedboard.errors import LinkError
from reedboard.link.messages import ChoosePromotion, ShowMove, StartGame, TakeBack, promotion_piece
from reedboard.opponents.uci_engine import UciEngine

from reedboard_host.connection import HostError
from reedboard_host.follow import Follower
from reedboard_host.mirror import MirroredGame
from reedboard_host.pgn_file import PgnFile, pgn_text

HANDSHAKE_S = 5.0  # a UCI engine answers `uci` at once; a program that does not is no engine

logger = logging.getLogger(__name__)


def person_name() -> str:
    """The person at the board: their login name, or "Player"."""
    try:
        return getpass.getuser() or "Player"
    except (KeyError, OSError):
        return "Player"


def game_under_way(follower: Follower) -> MirroredGame | None:
    """The board's game when it has moves and no result yet."""
    current = follower.mirror.current
    if current is None or current.result is not None or not len(current.game):
        return None
    return current


def play(
    args: argparse.Namespace,
    *,
    stop: Callable[[], bool] = lambda: False,
    follower: Follower | None = None,
) -> int:
    """Play until the game ends on the board or `stop()` says so (the command line ends
    it with a signal instead, wherever it waits: see `stopping`). `follower` is the
    board's (default: on the port `args.port` names)."""
    engine = UciEngine(args.engine)
    try:
        engine.start(level=args.level, chess960=False, handshake_s=HANDSHAKE_S)
        return _play(args, engine, follower or Follower(args.port), stop)
    finally:
        engine.close()


@dataclass
class _EngineSide:
    """The engine's side of the game on the board: its moves lit, and checked once played."""

    follower: Follower
    engine: UciEngine
    engine_white: bool
    movetime_ms: int
    shown: tuple[int, str] | None = None  # (ply, uci) asked of the engine's side

    def turn(self) -> bool:
        """One look at the board's game: check the move made for the engine, or ask the
        engine for its next one. False once the game is over."""
        current = self.follower.mirror.current
        if current is None:
            return True
        if current.result is not None:
            return False
        game = current.game
        ply = len(game)
        shown = self.shown
        # The move made for the engine is checked even when the person's next move came
        # in the same read (a busy PC reads the line late): the mirror may jump two plies.
        if shown is not None and ply > shown[0]:
            played = game.positions[shown[0]].uci(game.moves[shown[0]])
            if played != shown[1]:
                logger.info("%s is not the engine's move %s: take it back", played, shown[1])
                undo = TakeBack() if ply == shown[0] + 1 else TakeBack(to_ply=shown[0])
                self.follower.connection.request(undo)
                _show(self.follower, shown[1])
                self.follower.sync()
                return True
            self.shown = None
        if game.position.turn == self.engine_white and self.shown is None:
            moves = [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]
            best = self.engine.best_move(game.start.fen(), moves, self.movetime_ms)
            _show(self.follower, best)
            self.shown = (ply, best)
            logger.info("engine plays %s: carry it out on the board", best)
        return True


def _play(
    args: argparse.Namespace,
    engine: UciEngine,
    follower: Follower,
    stop: Callable[[], bool],
) -> int:
    engine_name = f"{engine.id_name or args.engine} (level {args.level})"
    person = args.name or person_name()
    players = (person, engine_name) if args.color == "white" else (engine_name, person)
    side = _EngineSide(follower, engine, args.color == "black", args.movetime_ms)
    out: PgnFile | None = None
    started = False  # the board's game is this program's: its PGN is printed at the end
    try:
        out = _start(args, follower, players)
        follower.connection.request(StartGame("standard"))
        started = True
        follower.sync()
        logger.info(
            "you play %s against %s; its moves light up on the board", args.color, engine_name
        )
        while not stop():
            if not follower.keep_up(0.05):
                continue
            try:
                if not side.turn():
                    break
            except LinkError as error:
                follower.lost(error)  # the next turns connect again; the game goes on
    finally:
        _finish(follower, out, players, started=started)
    return 0


def _start(
    args: argparse.Namespace,
    follower: Follower,
    players: tuple[str, str],
) -> PgnFile | None:
    """Connect, and check that this program's game may replace the board's (a game under
    way only with `--new`); the PGN file to record it to, if any."""
    follower.connect()
    under_way = game_under_way(follower)
    if under_way is not None:
        if not args.new:
            raise HostError(
                f"a game is under way on the board ({len(under_way.game)} plies): "
                "finish it, or give --new to replace it"
            )
        logger.info("the game under way on the board (%d plies) is replaced", len(under_way.game))
    out = PgnFile(args.out, players=players) if args.out else None
    if out is not None:
        follower.on_change = out.update
    return out


def _finish(
    follower: Follower,
    out: PgnFile | None,
    players: tuple[str, str],
    *,
    started: bool,
) -> None:
    """Write and print the game on the way out, however play ended."""
    if started:
        _catch_up(follower)
    follower.connection.close()
    current = follower.mirror.current
    if out is not None:
        out.update(follower.mirror)
        out.close()
    if started and current is not None:
        today = datetime.date.today()
        text = pgn_text(current, site="reedboard", date=today, round_="-", players=players)
        sys.stdout.write(text)
        sys.stdout.flush()


def _show(follower: Follower, uci: str) -> None:
    """Light the engine's move. Sensors cannot tell a knight from a queen: the board
    promotes to a queen unless told the piece first, for this one promotion."""
    if uci[4:] not in ("", "q"):
        follower.connection.request(ChoosePromotion(promotion_piece(uci[4:])))
    follower.connection.request(ShowMove(uci))


def _catch_up(follower: Follower) -> None:
    """Fetch the board's game before printing it: Ctrl-C can come just after a move the
    board has committed and sent but this side has not read yet, and that move belongs in
    the PGN. A board that no longer answers leaves the game as last heard."""
    try:
        follower.sync()
    except (HostError, LinkError) as error:
        logger.warning("%s: the game printed may lack the last moves", error)
