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
Nothing the GUI sends can stop the program: a line it cannot use is reported and ignored.

Here is the shell: the GUI's lines are read (`protocol`), the decisions are the
bridge's (`bridge`), and this module carries out what it decides: it writes to the
GUI, asks the board through the follower (which keeps the link up) and tells the person."""

from __future__ import annotations

import logging
import queue
import sys
import threading
from collections.abc import Callable
from typing import Protocol, TextIO

from reedboard import __version__
from reedboard.errors import LinkError, ReedboardError
from reedboard.link.messages import WireCommand

from reedboard_host.connection import HostError, RefusedError
from reedboard_host.follow import Follower
from reedboard_host.mirror import GameMirror
from reedboard_host.uci.bridge import Action, AskBoard, Asked, SendToGui, Tell, UciBridge
from reedboard_host.uci.protocol import Quit, read_line

POLL_S = 0.05  # how long one turn of the loop waits for the board: the GUI's latency

logger = logging.getLogger(__name__)


class GuiOut(Protocol):
    """Where the lines for the GUI go: stdout, or a test's list."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> None: ...


class UciBoard:
    def __init__(
        self,
        follower: Follower,
        *,
        out: GuiOut,
    ) -> None:
        self.out = out
        self.bridge = UciBridge()
        self.follower = follower
        follower.on_change = self._board_changed
        follower.on_connect = self.bridge.board_changed  # a board that restarted lights nothing

    # ----- the GUI's side -----

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """One line from the GUI; False on `quit`. A line that trips over something is
        reported and dropped: the GUI's engine must not die of one odd line."""
        try:
            command = read_line(line, chess960=self.bridge.chess960)
            if isinstance(command, Quit):
                return False
            self._carry_out(self.bridge.gui_command(command))
        except (ReedboardError, ValueError, IndexError, KeyError) as error:
            logger.warning("ignored %r: %s", line.strip(), error)
        return True

    # ----- the board's side -----

    def board_turn(self, wait_s: float) -> bool:
        """Keep the link alive (resends, state after a gap) and reconnect when it drops;
        whether the board is connected."""
        return self.follower.keep_up(wait_s, idle=False)

    def search_turn(self) -> None:
        """One step of the bridge's search on the board's game as it now stands."""
        if not self.follower.connected:
            return
        mirror = self.follower.mirror
        current = None if mirror.needs_state else mirror.current
        self._carry_out(self.bridge.board_turn(current))

    def _carry_out(self, actions: list[Action]) -> None:
        for action in actions:
            match action:
                case SendToGui(line):
                    self.send(line)
                case Tell(text):
                    logger.info("%s", text)
                case AskBoard(command, then):
                    outcome = self._ask(command)
                    if then is not None:
                        self._carry_out(then(outcome))

    def _ask(self, command: WireCommand) -> Asked:
        """Send a command: "done", "refused" (the board will not carry it out), or
        "failed" (no board, or no answer: it may be asked again)."""
        if not self.follower.connected:
            return "failed"
        try:
            self.follower.connection.request(command)
            self.follower.sync()
        except RefusedError as error:
            logger.warning("%s", error)
            return "refused"
        except HostError as error:
            logger.warning("%s", error)
            return "failed"
        except LinkError as error:
            self.follower.lost(error)
            return "failed"
        return "done"

    def _board_changed(self, _mirror: GameMirror) -> None:
        self.bridge.board_changed()

    def close(self) -> None:
        self.follower.connection.close()


def _read_lines(stream: TextIO, lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)  # the GUI closed our input: as good as `quit`


def run_uci(
    port: str | None,
    *,
    stop: Callable[[], bool],
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    engine = UciBoard(Follower(port), out=stdout)
    lines: queue.Queue[str | None] = queue.Queue()
    # stdin is read in a thread: the loop must keep the board's link alive while the GUI
    # says nothing, and answer the GUI while the board is quiet.
    threading.Thread(target=_read_lines, args=(stdin, lines), daemon=True).start()
    logger.info("reedboard %s: the board as a UCI engine", __version__)
    try:
        while not stop():
            while True:
                try:
                    line = lines.get_nowait()
                except queue.Empty:
                    break
                if line is None or not engine.handle(line):
                    return 0
            connected = engine.board_turn(POLL_S)
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
