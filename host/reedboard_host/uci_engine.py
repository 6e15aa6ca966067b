"""`reedboard-host uci`: the board as a UCI engine. A chess GUI starts this program as its
engine; the engine's "search" is the person at the board.

On `go` the board is brought to the GUI's position. When the board's position is one the
GUI's game went through (most often the one before the GUI's last move) or one move from
the GUI's, the GUI's next move lights up (`show`) for the person to carry out, one after
the other; a move that leaves the GUI's game (the lit move carried out otherwise, a move
made for the GUI before it moved), even one that gave mate or stalemate, is taken back
(the person is told, and the LEDs show where the pieces go back) and the GUI's lit again.
When the board's game is elsewhere (a new game, another position, or a game ended in a way
no takeback undoes, such as a resignation), the board starts a new game from the GUI's
position and its LEDs guide the set-up; a Chess960 game from a start position begins with
the board's guided setup of that start, the GUI's moves then lit as above. The person's
own move from the GUI's position is the `bestmove`, even when a move made early for the
GUI follows it before the engine has looked (that one is then judged as above). The board's game and the GUI's are
compared by position, not by move list, so a GUI that sends `position fen` for every move
works as well as one that sends the whole game: the board keeps one game either way.

UCI is on stdin/stdout; everything for a human goes to stderr (GUIs show or log it).
Nothing the GUI sends can stop the program: a line it cannot use is reported and ignored."""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TextIO

from reedboard import __version__
from reedboard.errors import LinkError, ReedboardError
from reedboard.link.messages import (
    ChoosePromotion,
    ShowMove,
    StartGame,
    TakeBack,
    WireCommand,
    promotion_piece,
)
from reedboard.rules.chess960 import start_number_of
from reedboard.rules.game import Game
from reedboard.rules.position import Position

from reedboard_host.board_text import clock_text
from reedboard_host.connection import HostError, RefusedError, choose_port
from reedboard_host.follow import Follower
from reedboard_host.mirror import GameMirror

POLL_S = 0.05  # how long one turn of the loop waits for the board: the GUI's latency
RETRY_S = 0.5  # between attempts to reach a board that is not there (yet)
CONNECT_S = 1.0  # a short handshake, so the GUI's `isready` waits no longer than this
NO_MOVE = "0000"

Asked = Literal["done", "refused", "failed"]


@dataclass
class _Search:
    gui: Game  # the GUI's game at `go`; its last position is the one the person moves from
    infinite: bool  # `go infinite` / `go ponder`: the answer waits for `stop`
    gui_clock: bool = False  # the GUI sent its own clock (`wtime`, `btime`) with `go`
    found: str | None = None  # the person's move, in the GUI's notation
    shown: str | None = None  # the GUI's move lit on the board (board notation)
    shown_after: int = -1  # the count of the board's changes when it was lit
    new_game_for: str | None = None  # the position a new game was last asked for
    new_game_after: int = -1  # the count of the board's changes after that request
    refused_after: int = -1  # the count of the board's changes when it refused a takeback
    keys: list[str] = field(init=False)  # `_key` of each of the GUI's positions
    _moves_to_target: dict[str, str | None] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        # Once: the board is compared with them on every turn of the loop.
        self.keys = [_key(position) for position in self.gui.positions]

    def move_to_target(self, position: Position) -> str | None:
        """The legal move from `position` to the GUI's position, if one gets there: a GUI
        that sends only its position (`position fen` for every move) leaves its last move
        to be found, and the board keeps one game instead of starting a new one."""
        key = _key(position)
        if key not in self._moves_to_target:
            self._moves_to_target[key] = next(
                (
                    position.uci(move)
                    for move in position.legal_moves()
                    if _key(position.play(move)) == self.keys[-1]
                ),
                None,
            )
        return self._moves_to_target[key]

    def ply_of(self, key: str) -> int | None:
        """The latest of the GUI's positions before its last that is `key`, if any."""
        for ply in range(len(self.keys) - 2, -1, -1):
            if self.keys[ply] == key:
                return ply
        return None


def _key(position: Position) -> str:
    # Placement, side to move, castling and en passant: the move counters do not decide
    # which moves follow, and a GUI may count them differently from the board.
    return " ".join(position.fen().split()[:4])


class UciBoard:
    def __init__(
        self,
        port: str | None,
        *,
        out: TextIO,
        log: Callable[[str], None],
    ) -> None:
        self.port = port
        self.out = out
        self.log = log
        self.chess960 = False
        self.gui: Game | None = Game()  # None after a `position` that could not be read
        self.search: _Search | None = None
        self.follower: Follower | None = None
        self._retry_at = 0.0
        self._waiting_logged = False
        # Every change to the board's games (a move, a takeback, a new game) and every
        # reconnection puts out the move the board was lighting: it is lit again if it is
        # still wanted.
        self._board_changes = 0

    # ----- the GUI's side -----

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """One line from the GUI; False on `quit`. A line that trips over something is
        reported and dropped: the GUI's engine must not die of one odd line."""
        try:
            return self._handle(line)
        except (ReedboardError, ValueError, IndexError, KeyError) as error:
            self.log(f"ignored {line.strip()!r}: {error}")
            return True

    def _handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        command, rest = words[0], words[1:]
        if command == "quit":
            return False
        if command == "uci":
            self.send("id name reedboard")
            self.send("id author the reedboard project")
            self.send("option name UCI_Chess960 type check default false")
            self.send("uciok")
        elif command == "isready":
            self.send("readyok")
        elif command == "setoption":
            self._setoption(rest)
        elif command == "ucinewgame":
            self._finish(None)
            self.gui = Game()
        elif command == "position":
            self._position(rest)
        elif command == "go":
            self._go(rest)
        elif command == "stop":
            if self.search is not None:
                self._finish(self.search.found or NO_MOVE)
        elif command == "ponderhit" and self.search is not None:
            # The GUI now waits for the move: one already played is the answer at once.
            self.search.infinite = False
            if self.search.found is not None:
                self._finish(self.search.found)
        # Anything else (debug, register, a word from a newer UCI) is ignored, as UCI asks.
        return True

    def _setoption(self, words: list[str]) -> None:
        text = " ".join(words)
        name, _, value = text.partition(" value ")
        if name.removeprefix("name ").strip().lower() == "uci_chess960":
            self.chess960 = value.strip().lower() == "true"

    def _position(self, words: list[str]) -> None:
        self.gui = None
        if "moves" in words:
            at = words.index("moves")
            setup, moves = words[:at], words[at + 1 :]
        else:
            setup, moves = words, []
        try:
            if setup[:1] == ["startpos"]:
                start = Position.from_fen(Position.standard().fen(), chess960=self.chess960)
            elif setup[:1] == ["fen"] and len(setup) > 1:
                start = Position.from_fen(" ".join(setup[1:]), chess960=self.chess960)
            else:
                self.log(f"cannot read the position: {' '.join(words)!r}")
                return
            game = Game(start)
            for uci in moves:
                game.push_uci(uci)
        except (ReedboardError, ValueError, IndexError) as error:
            self.log(f"cannot read the position: {error}")
            return
        self.gui = game

    def _go(self, words: list[str]) -> None:
        if self.search is not None:
            self._finish(self.search.found or NO_MOVE)  # a GUI that did not stop the last one
        if self.gui is None:
            self.log("no position to play from")
            self.send(f"bestmove {NO_MOVE}")
            return
        if self.gui.is_game_over():
            self.send(f"bestmove {NO_MOVE}")
            return
        infinite = "infinite" in words or "ponder" in words
        gui_clock = "wtime" in words or "btime" in words
        self.search = _Search(self.gui.copy(), infinite, gui_clock)
        self.send("info string make your move on the board")

    def _finish(self, answer: str | None) -> None:
        """End the search; `answer` None ends it without a `bestmove` (a new game)."""
        search, self.search = self.search, None
        if search is None:
            return
        if search.shown is not None:
            self._request(ShowMove(None))  # the lit move is no longer wanted
            if search.shown[4:] not in ("", "q"):
                self._request(ChoosePromotion("q"))  # nor the piece chosen for it
        if answer is not None:
            self.send(f"bestmove {answer}")

    # ----- the board's side -----

    def _request(self, command: WireCommand) -> bool:
        return self._ask(command) == "done"

    def _ask(self, command: WireCommand) -> Asked:
        """Send a command: "done", "refused" (the board will not carry it out), or
        "failed" (no board, or no answer: it may be asked again)."""
        if self.follower is None or not self.follower.connected:
            return "failed"
        try:
            self.follower.connection.request(command)
            self.follower.sync()
        except RefusedError as error:
            self.log(str(error))
            return "refused"
        except HostError as error:
            self.log(str(error))
            return "failed"
        except LinkError as error:
            self._lost(error)
            return "failed"
        return "done"

    def _lost(self, error: Exception) -> None:
        assert self.follower is not None
        self.log(f"lost the board: {error}; reconnecting")
        self.follower.connection.close()
        self.follower.connected = False

    def board_turn(self, wait_s: float) -> None:
        """Keep the link alive (resends, state after a gap) and reconnect when it drops."""
        now = time.monotonic()
        if self.follower is None or not self.follower.connected:
            if now < self._retry_at:
                return
            self._retry_at = now + RETRY_S
            try:
                if self.follower is None:
                    self.follower = Follower(
                        choose_port(self.port), on_change=self._board_changed, log=self.log
                    )
                self.follower.connection.open(timeout_s=CONNECT_S)
                self.follower.connected = True
                self.follower.sync()
                self._board_changes += 1  # a board that restarted lights nothing
                self.log(f"connected to the board on {self.follower.connection.url}")
                self._waiting_logged = False
            except (HostError, LinkError) as error:
                if self.follower is not None:
                    self.follower.connection.close()
                    self.follower.connected = False
                if not self._waiting_logged:
                    self.log(f"{error}; waiting for the board")
                    self._waiting_logged = True
            return
        try:
            self.follower.connection.poll(wait_s)
            if self.follower.mirror.needs_state:
                self.follower.sync()
        except HostError as error:
            self.log(f"{error}; asking again")
        except LinkError as error:
            self._lost(error)

    def search_turn(self) -> None:
        """One step of bringing the board to the GUI's position and waiting for the
        person's move: each turn looks at the board afresh, so a person who takes back,
        sets up again or starts over on the board is followed."""
        search = self.search
        if search is None or search.found is not None:
            return
        if self.follower is None or not self.follower.connected:
            return
        current = self.follower.mirror.current
        if current is None or self.follower.mirror.needs_state:
            return
        board, gui = current.game, search.gui
        target = search.keys[-1]
        same_rules = board.chess960 == gui.chess960
        if same_rules and _key(board.position) == target:
            if current.result is not None:
                self.log(f"the game on the board is over ({current.result}, {current.reason})")
                self._finish(NO_MOVE)
            return  # the person is thinking
        # The person's move from the GUI's position (made before or after the `go`): the
        # board's last, or the one before it when a move for the GUI was made early too
        # (both may reach us at once). That early move is the next search's to judge: it
        # stands if it is the GUI's, else it is taken back then and the GUI's lit.
        for back in (1, 2):
            if same_rules and len(board) >= back and _key(board.positions[-1 - back]) == target:
                before = board.positions[-1 - back]
                played = before.uci(board.moves[-back])
                search.found = gui.position.uci(gui.position.parse_uci(played))
                self.log(f"the board plays {search.found}")
                times = current.clocks.get(len(board) - back + 1)
                if times is not None and not search.gui_clock:
                    # A GUI that keeps no clock of its own is told the board's.
                    self.send(f"info string clock {clock_text(*times)}")
                if not search.infinite:
                    self._finish(search.found)
                return
        if same_rules and self._catch_up(search, board, over=current.result is not None):
            return
        self._new_game(search)

    def _catch_up(self, search: _Search, board: Game, *, over: bool) -> bool:
        """The board's game is behind the GUI's (its position is one the GUI's game went
        through, or one move from the GUI's): light the GUI's next move, or, when the
        board's last move left the GUI's game, take that back, even if it ended the game
        (`over`): a mate or stalemate is taken back like any move. False when the board's
        game is elsewhere, or over in a way no takeback undoes."""
        position = board.position
        if len(board) and search.ply_of(_key(position)) is None:
            before = board.positions[-2]
            wanted = self._wanted_from(search, before)
            if wanted is not None:
                return self._take_back(search, before, board, wanted)
        if over:
            return False  # a resignation, an agreement or a claim: nothing more is played
        wanted = self._wanted_from(search, position)
        if wanted is None:
            return False
        wanted = position.uci(position.parse_uci(wanted))  # in the board's notation
        if (search.shown, search.shown_after) == (wanted, self._board_changes):
            return True  # lit, and nothing on the board has put it out since
        changes = self._board_changes
        if self._light(wanted):
            if search.shown != wanted:
                self.log(f"carry out {wanted} on the board")
            search.shown, search.shown_after = wanted, changes
        return True

    def _take_back(self, search: _Search, before: Position, board: Game, wanted: str) -> bool:
        """The board's last move left the GUI's game (the lit move carried out otherwise,
        or a move made for the GUI before it moved): have the board take it back. False
        when the board refuses (a game ended by resignation, agreement or claim, which
        must stand), for a new game from the GUI's position instead."""
        if search.refused_after == self._board_changes:
            return False  # refused, and nothing on the board has changed since
        # Named before asking: the takeback changes the board's game under us.
        told = f"{before.uci(board.moves[-1])} is not {before.uci(before.parse_uci(wanted))}"
        asked = self._ask(TakeBack())  # a refusal is logged with the board's reason
        if asked == "refused":
            search.refused_after = self._board_changes
            return False
        if asked == "done":
            self.log(f"{told}: take it back")
            search.shown = None
        return True  # taken back, or asked again on the next turn

    @staticmethod
    def _wanted_from(search: _Search, position: Position) -> str | None:
        """The GUI's move from `position` (GUI notation), if the GUI's game went through
        it or is one move from it."""
        at = search.ply_of(_key(position))
        if at is not None:
            gui = search.gui
            return gui.positions[at].uci(gui.moves[at])
        return search.move_to_target(position)

    def _light(self, uci: str) -> bool:
        """Light `uci` for the person. The person moves a promoting pawn as lit and the
        board takes a queen unless told otherwise: another piece is chosen on the board."""
        piece = uci[4:]
        if piece not in ("", "q") and not self._request(ChoosePromotion(promotion_piece(piece))):
            return False
        return self._request(ShowMove(uci))

    def _new_game(self, search: _Search) -> None:
        """A new game on the board from the GUI's position. A Chess960 game
        from a start position begins with the board's guided setup of that start (a
        sensor cannot tell a knight from a bishop on the back rank); the GUI's moves are
        then lit one by one."""
        gui = search.gui
        number = start_number_of(gui.start) if gui.chess960 else None
        new_game: StartGame
        if number is not None:
            new_game = StartGame("chess960", number)
            key = search.keys[0]
        else:
            key = search.keys[-1]
            fen = None
            if gui.chess960 or key != _key(Position.standard()):
                fen = gui.position.fen(shredder=gui.chess960)
            new_game = StartGame("chess960" if gui.chess960 else "standard", fen=fen)
        if (search.new_game_for, search.new_game_after) == (key, self._board_changes):
            return  # asked, and the board has done nothing else since: it is being set up
        search.shown = None
        if self._request(new_game):
            self.log("a new game on the board from the GUI's position: set it up as lit")
        # Counted after the request, which brought the new game itself. Asked again only
        # if the board goes elsewhere after it (pieces put back to the start, say, start a
        # game of the board's own).
        search.new_game_for, search.new_game_after = key, self._board_changes

    def _board_changed(self, _mirror: GameMirror) -> None:
        self._board_changes += 1

    def close(self) -> None:
        if self.follower is not None:
            self.follower.connection.close()


def _read_lines(stream: TextIO, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)  # the GUI closed our input: as good as `quit`


def run_uci(
    port: str | None,
    *,
    stop: Callable[[], bool],
    log: Callable[[str], None],
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    engine = UciBoard(port, out=stdout, log=log)
    lines: queue.Queue[str | None] = queue.Queue()
    # stdin is read in a thread: the loop must keep the board's link alive while the GUI
    # says nothing, and answer the GUI while the board is quiet.
    threading.Thread(target=_read_lines, args=(stdin, lines), daemon=True).start()
    log(f"reedboard {__version__}: the board as a UCI engine")
    try:
        while not stop():
            while True:
                try:
                    line = lines.get_nowait()
                except queue.Empty:
                    break
                if line is None or not engine.handle(line):
                    return 0
            connected = engine.follower is not None and engine.follower.connected
            engine.board_turn(POLL_S)
            engine.search_turn()
            if not connected:
                # No board to wait on: wait on the GUI instead, briefly.
                try:
                    line = lines.get(timeout=POLL_S)
                except queue.Empty:
                    continue
                if line is None or not engine.handle(line):
                    return 0
    finally:
        engine.close()
    return 0
