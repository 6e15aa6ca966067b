"""`reedboard-host uci` as a real program: python-chess as the chess GUI runs it as its
engine against a running board on a real pty, and a person (the human model) at the board
answers the GUI's moves; and odd input, without a board, never stops its loop. The bridge's
behaviour in all its cases is tested in memory (test_board_engine.py)."""

from __future__ import annotations

import io
import random
import threading
from collections.abc import Callable, Iterator

import chess
import chess.engine
import pytest
from reedboard_host.uci.board_engine import run_uci

from tests.host.running_board import RunningBoard, host_command
from tests.support.person import Person


def test_odd_input_is_ignored_and_quit_ends_it() -> None:
    # No board on the port: the UCI side still answers at once and survives any line.
    # The command's loop in this process (the program is the GUI's engine below).
    lines = [
        "uci",
        "",
        "bogus command",
        "position fen not a fen",
        "position startpos moves e2e5",
        "go",
        "setoption name UCI_Chess960 value true",
        "setoption",
        "position",
        "isready",
        "quit",
    ]
    stdout = io.StringIO()
    status = run_uci(
        "/no/such/board", stop=lambda: False, stdin=io.StringIO("\n".join(lines) + "\n"),
        stdout=stdout,
    )  # fmt: skip
    assert status == 0
    out = stdout.getvalue().splitlines()
    assert out[0] == "id name reedboard"
    assert "uciok" in out
    assert "bestmove 0000" in out  # `go` from a position it could not read
    assert out[-1] == "readyok"


# ----- a GUI that plays one side, the person at the board the other -----

GuiChooser = Callable[[chess.Board, random.Random], chess.Move]

# python-chess's bound on each exchange with the engine (its start, each move, its quit),
# by the wall clock: a bound for a stuck engine, not a slow one. Each of the engine's moves
# is the person's at the board, read by the board's loop, its link and the host program,
# all sharing a loaded machine's cores with this test's threads: python-chess's default
# (here 20 s, 35 s for a move) is the only source of a TimeoutError in this test.
ENGINE_STUCK_S = 120


def _random_gui_move(board: chess.Board, rng: random.Random) -> chess.Move:
    return rng.choice(list(board.legal_moves))


def _position_key(fen: str) -> str:
    # Placement and side to move: python-chess and the board may write the other fields
    # differently (castling rights in Chess960, an en passant square no pawn can use).
    return " ".join(fen.split()[:2])


_GUIS: list[_Gui] = []  # every GUI a test started, closed when the test ends


@pytest.fixture(autouse=True)
def _guis_closed() -> Iterator[None]:
    """A test that fails midway leaves its GUI waiting on the engine: end it with the test."""
    yield
    while _GUIS:
        _GUIS.pop().close()


class _Gui(threading.Thread):
    """The chess GUI in a thread: it plays `board`'s side `gui_white` with `choose` and
    asks the engine (the board) for the other side's moves, at least `plies` moves in all,
    ending on the engine's."""

    def __init__(
        self,
        port: str,
        board: chess.Board,
        *,
        gui_white: bool,
        plies: int,
        rng: random.Random,
        choose: GuiChooser = _random_gui_move,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.boards, self.gui_white, self.plies = port, [board], gui_white, plies
        self.rng, self.choose = rng, choose
        self.errors: list[BaseException] = []
        self._asking: str | None = None  # the position the GUI waits on the engine in
        self._engine: chess.engine.SimpleEngine | None = None
        _GUIS.append(self)

    def close(self) -> None:
        """End the engine's program now (python-chess kills it) and the thread with it."""
        if self._engine is not None:
            self._engine.close()
        if self.is_alive():
            self.join(30)

    def waits_for(self, fen: str) -> bool:
        """Whether the GUI waits for the engine's move in `fen`'s position."""
        return self._asking is not None and self._asking == _position_key(fen)

    def run(self) -> None:
        try:
            with chess.engine.SimpleEngine.popen_uci(
                host_command("uci", "--port", self.port), timeout=ENGINE_STUCK_S
            ) as engine:
                self._engine = engine
                assert engine.id["name"] == "reedboard"
                self._play(engine, self.boards[-1])
        except BaseException as error:  # handed to the test's thread, which asserts on it
            self.errors.append(error)

    def _play(self, engine: chess.engine.SimpleEngine, board: chess.Board) -> None:
        start = len(board.move_stack)
        while not board.is_game_over():
            if board.turn == self.gui_white:
                if len(board.move_stack) - start >= self.plies:
                    break  # after the engine's answer: the board has every move
                board.push(self.choose(board, self.rng))
                continue
            self._asking = _position_key(board.fen())
            try:
                result = engine.play(board, chess.engine.Limit(time=15))
            finally:
                self._asking = None
            assert result.move, "the engine gave no move"
            board.push(result.move)


def test_a_gui_plays_the_person_at_the_board() -> None:
    rng = random.Random(8)
    gui_board = chess.Board()
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=True, plies=10, rng=rng)
        person = Person(board, rng, white=False, waits_for=gui.waits_for, await_new_game=False)
        gui.start()
        board.play_along(person.step, gui.is_alive, still_s=60)
        gui.join(30)
        played = board.moves()
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert len(gui_board.move_stack) >= 10 or gui_board.is_game_over()
    assert [m.uci() for m in gui_board.move_stack] == played
    assert not person.fixes  # one game throughout: nothing to set up
