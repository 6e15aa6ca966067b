"""`reedboard-host uci`: the board as a UCI engine, with python-chess as the chess GUI. The
GUI plays random moves for one side; each lights up on a running board, the person (the
human model) carries it out and answers with a move of their own, which the GUI gets as the
engine's `bestmove`. Games from another position and Chess960 start with the board set up
as its lights ask, a game under way is caught up move by move, a lit move carried out
otherwise is taken back and lit again (even one that mates; a move in a game resigned since
gives way to a new game), as is one made early for the GUI right after the person's own,
an underpromotion is chosen on the board; `stop`, `go infinite`, `go ponder`, `isready`
and `ucinewgame` keep the protocol's timing."""

from __future__ import annotations

import contextlib
import queue
import random
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import IO

import chess
import chess.engine
import pytest
from chess.engine import INFO_ALL
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.sim.human import human_script

from tests.children import stop
from tests.host.board_person import Person, castle_first, wait_for
from tests.host.running_board import RunningBoard, host_command


def test_odd_input_is_ignored_and_quit_ends_it() -> None:
    # No board on the port: the UCI side still answers at once and survives any line.
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
    result = subprocess.run(
        host_command("uci", "--port", "/no/such/board"),
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=20,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == "id name reedboard"
    assert "uciok" in out
    assert "bestmove 0000" in out  # `go` from a position it could not read
    assert out[-1] == "readyok"
    assert "Traceback" not in result.stderr


# ----- a GUI that plays one side, the person at the board the other -----

GuiChooser = Callable[[chess.Board, random.Random], chess.Move]


def _random_gui_move(board: chess.Board, rng: random.Random) -> chess.Move:
    return rng.choice(list(board.legal_moves))


def _castling_gui_move(board: chess.Board, rng: random.Random) -> chess.Move:
    castling = [m for m in board.legal_moves if board.is_castling(m)]
    if castling:
        return rng.choice(castling)
    back_rank = chess.BB_RANK_1 if board.turn else chess.BB_RANK_8
    developing = [m for m in board.legal_moves if chess.BB_SQUARES[m.from_square] & back_rank]
    return rng.choice(developing or list(board.legal_moves))


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
    ending on the engine's. With `games`, it then starts new games (`ucinewgame`) from
    the start, changing sides each time. With `fen_only` it sends the position without
    its moves, as some GUIs do."""

    def __init__(
        self,
        port: str,
        board: chess.Board,
        *,
        gui_white: bool,
        plies: int,
        rng: random.Random,
        choose: GuiChooser = _random_gui_move,
        games: int = 1,
        fen_only: bool = False,
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.boards, self.gui_white, self.plies = port, [board], gui_white, plies
        self.rng, self.choose, self.games = rng, choose, games
        self.fen_only = fen_only  # `position fen` alone, without the game's moves
        self.games_done = 0
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
                host_command("uci", "--port", self.port), timeout=20
            ) as engine:
                self._engine = engine
                assert engine.id["name"] == "reedboard"
                for game in range(self.games):
                    if game:
                        self.boards.append(chess.Board())
                        self.gui_white = not self.gui_white
                    self._play(engine, self.boards[-1], game)
                    self.games_done += 1
        except BaseException as error:  # handed to the test's thread, which asserts on it
            self.errors.append(error)

    def _play(self, engine: chess.engine.SimpleEngine, board: chess.Board, game: int) -> None:
        start = len(board.move_stack)
        while not board.is_game_over():
            if board.turn == self.gui_white:
                if len(board.move_stack) - start >= self.plies:
                    break  # after the engine's answer: the board has every move
                board.push(self.choose(board, self.rng))
                continue
            # A new `game` value makes python-chess send `ucinewgame` first.
            asked = chess.Board(board.fen()) if self.fen_only else board
            self._asking = _position_key(board.fen())
            try:
                result = engine.play(asked, chess.engine.Limit(time=15), game=game)
            finally:
                self._asking = None
            assert result.move, "the engine gave no move"
            board.push(result.move)


def _board_game(board: RunningBoard) -> Game:
    board_game = board.app.board_game
    assert board_game is not None
    return board_game.game


def _new_games(board: RunningBoard) -> list[str]:
    """The start positions of the games the board has begun (its `new_game` effects)."""
    with board.changed:
        return [e["fen"] for e in board.effects if e.get("event") == "new_game"]


def _assert_same_game(gui: chess.Board, board: RunningBoard) -> None:
    """The board's game is the end of the GUI's: from the same position, the same moves."""
    start = _board_game(board).start
    played = board.moves()
    assert [m.uci() for m in gui.move_stack[len(gui.move_stack) - len(played) :]] == played
    replayed = chess.Board(start.fen(shredder=start.chess960), chess960=start.chess960)
    for uci in played:
        replayed.push_uci(uci)
    assert replayed.board_fen() == gui.board_fen()
    assert replayed.turn == gui.turn


def test_a_gui_plays_the_person_at_the_board() -> None:
    rng = random.Random(8)
    gui_board = chess.Board()
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=True, plies=10, rng=rng)
        person = Person(board, rng, white=False, waits_for=gui.waits_for)
        gui.start()
        person.play(gui.is_alive, timeout_s=60)
        gui.join(30)
        played = board.moves()
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert len(gui_board.move_stack) >= 10 or gui_board.is_game_over()
    assert [m.uci() for m in gui_board.move_stack] == played
    assert not person.fixes  # one game throughout: nothing to set up


MIDDLEGAME = "r1bq1rk1/pppnbppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 3 7"
MIDDLEGAME_BLACK = "r1bq1rk1/pppnbppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/2RQKB1R b K - 4 7"


@pytest.mark.parametrize(
    ("fen", "person_white"),
    [
        (MIDDLEGAME, False),  # the GUI moves first from the position, the person answers
        (MIDDLEGAME, True),  # the engine (the person) moves first, as White
        (MIDDLEGAME_BLACK, False),  # the engine moves first, as Black
        (MIDDLEGAME_BLACK, True),  # the GUI moves first, as Black
    ],
    ids=["gui-white-first", "person-white-first", "person-black-first", "gui-black-first"],
)
def test_the_gui_starts_from_another_position(fen: str, person_white: bool) -> None:
    rng = random.Random(11)
    gui_board = chess.Board(fen)
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=not person_white, plies=6, rng=rng)
        person = Person(board, rng, white=person_white, waits_for=gui.waits_for)
        gui.start()
        person.play(gui.is_alive, timeout_s=40)
        gui.join(10)
        # The board started its game where the GUI's game stood at its first `go`.
        first_go = chess.Board(fen)
        if first_go.turn != person_white:
            first_go.push(gui_board.move_stack[0])
        assert _board_game(board).start.fen() == Position.from_fen(first_go.fen()).fen()
        _assert_same_game(gui_board, board)
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert len(gui_board.move_stack) >= 6 or gui_board.is_game_over()
    assert person.fixes  # the position was set up as the lights asked


def test_a_new_game_is_asked_again_when_the_board_starts_its_own_meanwhile() -> None:
    rng = random.Random(10)
    gui_board = chess.Board(MIDDLEGAME)
    wanted = Position.from_fen(MIDDLEGAME).fen()
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=False, plies=4, rng=rng)
        gui.start()
        wait_for(lambda: _board_game(board).start.fen() == wanted, 10, "the GUI's new game")
        # Before setting it up, the person touches a pawn of the start position still on
        # the board: the pieces stand as at the start, and the board starts a game of its
        # own from there.
        board.live.push([(0, "lift", "a2"), (300, "place", "a2")])
        wait_for(lambda: chess.STARTING_FEN in _new_games(board), 10, "its own game")
        person = Person(board, rng, white=True, waits_for=gui.waits_for)
        person.play(gui.is_alive, timeout_s=30)
        gui.join(10)
        assert _new_games(board) == [wanted, chess.STARTING_FEN, wanted]  # asked again
        _assert_same_game(gui_board, board)
    assert not gui.errors, gui.errors
    assert not gui.is_alive()


def test_a_game_under_way_in_the_gui_is_lit_move_by_move() -> None:
    # The GUI's game went through the board's position (the start): rather than a set-up,
    # the board lights the GUI's moves one by one, so it ends with the whole game.
    rng = random.Random(13)
    gui_board = chess.Board()
    for san in ("e4", "c5", "Nf3", "d6", "d4"):
        gui_board.push_san(san)
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=True, plies=4, rng=rng)
        # They play their own move only where the GUI asks for it: until then, the game's
        # moves light up for them to carry out, their own side's as well.
        person = Person(board, rng, white=False, waits_for=gui.waits_for)
        gui.start()
        person.play(gui.is_alive, timeout_s=40)
        gui.join(10)
        assert _board_game(board).start.fen() == chess.STARTING_FEN
        assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert person.plies == len(gui_board.move_stack)  # every move carried out on the board
    assert not person.fixes


def test_a_gui_that_sends_only_the_position_keeps_one_game_on_the_board() -> None:
    rng = random.Random(17)
    gui_board = chess.Board()
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=True, plies=8, rng=rng, fen_only=True)
        person = Person(board, rng, white=False, waits_for=gui.waits_for)
        gui.start()
        person.play(gui.is_alive, timeout_s=40)
        gui.join(10)
        assert _board_game(board).start.fen() == chess.STARTING_FEN
        assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert not person.fixes  # each GUI move was lit, never a set-up asked for


def _underpromoting_gui_move(board: chess.Board, rng: random.Random) -> chess.Move:
    knights = [m for m in board.legal_moves if m.promotion == chess.KNIGHT]
    return rng.choice(knights or list(board.legal_moves))


def test_an_underpromotion_by_the_gui_is_chosen_on_the_board() -> None:
    # The person carries out what is lit (a pawn to the last rank); the board must record
    # the knight the GUI chose, not the queen it takes by default.
    rng = random.Random(3)
    gui_board = chess.Board("8/P6k/7p/8/8/8/8/K7 b - - 0 1")
    with RunningBoard(speed=20) as board:
        gui = _Gui(
            board.port, gui_board, gui_white=True, plies=4, rng=rng,
            choose=_underpromoting_gui_move,
        )  # fmt: skip
        person = Person(board, rng, white=False, waits_for=gui.waits_for)
        gui.start()
        person.play(gui.is_alive, timeout_s=30)
        gui.join(10)
        _assert_same_game(gui_board, board)
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert "a7a8n" in [m.uci() for m in gui_board.move_stack]


def _castlings(board: chess.Board, white: bool) -> list[str]:
    replay = board.root()
    found = []
    for move in board.move_stack:
        if replay.is_castling(move) and replay.turn == white:
            found.append(move.uci())
        replay.push(move)
    return found


@pytest.mark.parametrize(
    ("number", "person_white"),
    [
        (200, False),  # the king goes one square, the rook jumps over it: both sides castle
        (80, True),  # king and rook swap squares, the person first (the board sees no change)
    ],
)
def test_chess960_with_castling_as_king_takes_rook(number: int, person_white: bool) -> None:
    rng = random.Random(5)
    gui_board = chess.Board.from_chess960_pos(number)
    with RunningBoard(speed=20) as board:
        gui = _Gui(
            board.port, gui_board, gui_white=not person_white, plies=6, rng=rng,
            choose=_castling_gui_move,
        )  # fmt: skip
        person = Person(
            board, rng, white=person_white, choose=castle_first, waits_for=gui.waits_for
        )
        gui.start()
        person.play(gui.is_alive, timeout_s=40)
        gui.join(10)
        # The board's lights guided the setup of the start position piece type by piece
        # type, then lit the GUI's moves: the board has the whole game.
        assert person.guided
        assert _board_game(board).start.fen() == Position.chess960_start(number).fen()
        assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert _castlings(gui_board, person_white), "the person did not castle"
    assert _castlings(gui_board, not person_white), "the GUI did not castle"


def test_a_move_carried_out_otherwise_is_taken_back_and_shown_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rng = random.Random(21)
    gui_board = chess.Board()
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, gui_board, gui_white=True, plies=6, rng=rng)
        person = Person(board, rng, white=False, wrong=1, waits_for=gui.waits_for)
        gui.start()
        person.play(gui.is_alive, timeout_s=40)
        gui.join(10)
        _assert_same_game(gui_board, board)
        assert _board_game(board).start.fen() == chess.STARTING_FEN
    assert not gui.errors, gui.errors
    assert not gui.is_alive()
    assert len(person.mistakes) == 1
    wrong = person.mistakes[0].split()[0]
    told = [m for m in caplog.messages if "take it back" in m]
    assert told and wrong in told[0], caplog.messages
    assert person.fixes  # the board's lights showed where the pieces go back


# ----- the protocol's timing: `stop`, `go infinite`, `isready`, `ucinewgame` -----


class _Lines:
    """The engine as a GUI sees it line by line: what it sends and what it says on stderr,
    each waited for with a deadline."""

    def __init__(self, port: str) -> None:
        self.process = subprocess.Popen(
            host_command("uci", "--port", port),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.out: queue.Queue[str] = queue.Queue()
        self.said: list[str] = []  # stderr so far
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=self._read, args=(self.process.stdout, self.out.put)).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.said.append)).start()

    @staticmethod
    def _read(stream: IO[str], put: Callable[[str], None]) -> None:
        for line in stream:
            put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines))
        self.process.stdin.flush()

    def expect(self, prefix: str, timeout_s: float = 30) -> tuple[str, list[str]]:
        """The next line starting with `prefix`, and the lines that came before it."""
        before: list[str] = []
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self.out.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                message = f"no {prefix!r} after {before}; stderr: {self.said}"
                raise AssertionError(message) from None
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def heard(self, text: str, timeout_s: float = 30) -> None:
        """Wait until the engine has said `text` on stderr."""
        wait_for(lambda: any(text in line for line in self.said), timeout_s, repr(text))

    def quit(self) -> None:
        """`quit`, and a kill if that does not end it."""
        with contextlib.suppress(OSError):  # it may be gone already
            self.send("quit")
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        stop(self.process)


@pytest.fixture
def lines_and_board() -> Iterator[tuple[_Lines, RunningBoard]]:
    with RunningBoard(speed=20) as board:
        gui = _Lines(board.port)
        try:
            gui.send("uci")
            gui.expect("uciok")
            gui.send("isready")
            gui.expect("readyok")
            wait_for(lambda: board.view is not None, 10, "the board's first view")
            yield gui, board
        finally:
            gui.quit()


def _wait_lit(board: RunningBoard, uci: str) -> None:
    wait_for(lambda: board.view is not None and board.view.hint is not None, 10, f"{uci} lit")


def _ready_and_no_answer(gui: _Lines) -> None:
    """`isready` is answered at once, while the search goes on: no `bestmove` before it."""
    gui.send("isready")
    _, before = gui.expect("readyok", timeout_s=2)
    assert not [line for line in before if line.startswith("bestmove")]


def _carry_out(board: RunningBoard, uci: str, rng: random.Random) -> None:
    """The person carries out `uci` from the board's position (once it is quiet)."""
    wait_for(lambda: board.quiet_view() is not None, 10, "a quiet board")
    view = board.quiet_view()
    assert view is not None
    position = Position.from_fen(view.fen)
    move = position.parse_uci(uci)
    board.live.push(human_script(position, [move], seed=rng.randrange(1 << 30)).lines)


def test_stop_before_the_person_moves_answers_no_move(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    gui, board = lines_and_board
    gui.send("position startpos moves e2e4", "go movetime 1000")
    _wait_lit(board, "e2e4")
    gui.send("stop")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove 0000"
    wait_for(lambda: board.view is not None and board.view.hint is None, 10, "the light out")
    assert board.moves() == []


def test_go_infinite_answers_only_on_stop_and_isready_answers_meanwhile(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    gui, board = lines_and_board
    rng = random.Random(4)
    gui.send("position startpos", "go infinite")
    _ready_and_no_answer(gui)
    _carry_out(board, "d2d4", rng)
    gui.heard("the board plays d2d4")
    _ready_and_no_answer(gui)  # it waits for stop
    gui.send("stop")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove d2d4"


def test_ponderhit_answers_at_once_with_the_move_already_made(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    gui, board = lines_and_board
    gui.send("position startpos moves e2e4", "go ponder")
    _wait_lit(board, "e2e4")
    rng = random.Random(6)
    _carry_out(board, "e2e4", rng)
    wait_for(lambda: board.moves() == ["e2e4"], 10, "e2e4 on the board")
    _carry_out(board, "c7c5", rng)
    gui.heard("the board plays c7c5")
    _ready_and_no_answer(gui)  # pondering still
    gui.send("ponderhit")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove c7c5"


def test_the_lit_move_lights_again_after_the_person_takes_it_back(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    gui, board = lines_and_board
    rng = random.Random(8)
    gui.send("position startpos moves e2e4", "go")
    _wait_lit(board, "e2e4")
    _carry_out(board, "e2e4", rng)
    wait_for(lambda: board.moves() == ["e2e4"], 10, "e2e4 on the board")
    # Second thoughts: the pawn goes back by hand, which takes the move back on the board.
    board.live.push([(0, "lift", "e4"), (400, "place", "e2")])
    wait_for(lambda: board.moves() == [], 10, "the move taken back on the board")
    wait_for(lambda: board.view is not None and board.view.hint is not None, 5, "e2e4 lit again")
    _carry_out(board, "e2e4", rng)
    wait_for(lambda: board.moves() == ["e2e4"], 10, "e2e4 on the board again")
    _carry_out(board, "e7e5", rng)
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove e7e5"


def test_a_move_made_for_the_gui_before_it_moves_is_taken_back(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    # The person plays White's first move before the GUI has made it, and the GUI then
    # plays another: the board's move is taken back (no new game), the GUI's lights up.
    gui, board = lines_and_board
    rng = random.Random(12)
    _carry_out(board, "e2e4", rng)
    wait_for(lambda: board.moves() == ["e2e4"], 10, "e2e4 on the board")
    gui.send("position startpos moves d2d4", "go")
    answer: list[str] = []
    threading.Thread(target=lambda: answer.append(gui.expect("bestmove", 30)[0])).start()
    after_d4 = chess.Board()
    after_d4.push_uci("d2d4")
    asked = _position_key(after_d4.fen())
    person = Person(board, rng, white=False, waits_for=lambda fen: _position_key(fen) == asked)
    person.play(lambda: not answer, timeout_s=30)
    gui.heard("e2e4 is not d2d4: take it back")
    assert person.fixes  # the pawn went back to e2 as the lights showed
    played = board.moves()
    assert played[0] == "d2d4" and answer == [f"bestmove {played[1]}"]
    assert _new_games(board) == []


def _lit(board: RunningBoard, uci: str) -> bool:
    view = board.view
    return view is not None and view.hint == (parse_square(uci[:2]), parse_square(uci[2:4]))


def _carry_out_lit(board: RunningBoard, uci: str, rng: random.Random) -> None:
    """The person waits for `uci` to light up, carries it out, and sees it taken."""
    wait_for(partial(_lit, board, uci), 10, f"{uci} lit")
    before = len(board.moves())
    _carry_out(board, uci, rng)
    wait_for(lambda: len(board.moves()) > before, 10, f"{uci} on the board")


def _move_that_goes_on(board: chess.Board) -> chess.Move:
    """The GUI's next move: any that does not end the game, so that the engine is asked."""
    for move in board.legal_moves:
        board.push(move)
        over = board.is_game_over()
        board.pop()
        if not over:
            return move
    raise AssertionError(f"every move ends the game in {board.fen()}")


def _game_overs(board: RunningBoard) -> list[tuple[str, str]]:
    with board.changed:
        return [(e["result"], e["reason"]) for e in board.effects if e.get("event") == "game_over"]


def _bestmove_in_thread(gui: _Lines) -> list[str]:
    """The engine's next `bestmove`, awaited in a thread while the person plays."""
    answer: list[str] = []
    threading.Thread(target=lambda: answer.append(gui.expect("bestmove", 30)[0])).start()
    return answer


# White's queen and bishop both eye f7: from here Qxf7 mates.
SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"]


def test_a_lit_move_carried_out_otherwise_with_mate_is_taken_back_and_the_game_goes_on(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    # The GUI, White, plays d3 where Qxf7 mates; the person, meant to carry out d3, mates
    # instead. The board takes the mate back like any other move, not a new game.
    gui, board = lines_and_board
    rng = random.Random(14)
    gui_board = chess.Board()
    for uci in [*SCHOLAR, "d2d3"]:
        gui_board.push_uci(uci)
    gui.send(f"position startpos moves {' '.join(m.uci() for m in gui_board.move_stack)}", "go")
    answer = _bestmove_in_thread(gui)
    for uci in SCHOLAR:  # the game under way, lit move by move
        _carry_out_lit(board, uci, rng)
    wait_for(partial(_lit, board, "d2d3"), 10, "d2d3 lit")
    _carry_out(board, "h5f7", rng)
    wait_for(lambda: _game_overs(board) == [("1-0", "checkmate")], 10, "the mate on the board")
    gui.heard("h5f7 is not d2d3: take it back")
    wait_for(lambda: board.moves() == SCHOLAR, 10, "the mate taken back")
    # The person puts the queen back as the lights show, carries out d3, now lit again,
    # and answers it; then the game goes on for another move each.

    def asked(fen: str) -> bool:  # the person answers only where the GUI waits for them
        return _position_key(fen) == _position_key(gui_board.fen())

    person = Person(board, rng, white=False, waits_for=asked)
    person.play(lambda: not answer, timeout_s=30)
    assert answer and answer[0].startswith("bestmove "), answer
    gui_board.push_uci(answer[0].split()[1])
    assert person.fixes  # the pieces went back as the board's lights showed
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    gui_board.push(_move_that_goes_on(gui_board))
    gui.send(f"position startpos moves {' '.join(m.uci() for m in gui_board.move_stack)}", "go")
    answer = _bestmove_in_thread(gui)
    person.play(lambda: not answer, timeout_s=30)
    assert answer and answer[0].startswith("bestmove "), answer
    gui_board.push_uci(answer[0].split()[1])
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert _new_games(board) == []
    assert not [line for line in gui.said if "new game" in line], gui.said


def test_a_move_for_the_gui_in_a_game_resigned_since_gives_way_to_a_new_game(
    lines_and_board: tuple[_Lines, RunningBoard],
) -> None:
    # The person plays White's first move before the GUI has made it, then Black resigns
    # on the board (the e4 pawn taken off, both kings set on the light centre squares d5
    # and e4: 1-0). A resignation stands: the board refuses to take e4 back, and a new
    # game starts from the GUI's position instead.
    gui, board = lines_and_board
    rng = random.Random(15)
    _carry_out(board, "e2e4", rng)
    wait_for(lambda: board.moves() == ["e2e4"], 10, "e2e4 on the board")
    board.live.push(
        [(0, "lift", "e4"), (300, "lift", "e1"), (400, "lift", "e8"),
         (900, "place", "e4"), (1000, "place", "d5")]
    )  # fmt: skip
    wait_for(lambda: _game_overs(board) == [("1-0", "resignation")], 10, "the resignation")
    gui.send("position startpos moves d2d4", "go")
    answer = _bestmove_in_thread(gui)
    after_d4 = chess.Board()
    after_d4.push_uci("d2d4")
    asked = _position_key(after_d4.fen())
    person = Person(board, rng, white=False, waits_for=lambda fen: _position_key(fen) == asked)
    person.play(lambda: not answer, timeout_s=30)
    gui.heard("the board refused takeback")
    gui.heard("a new game on the board from the GUI's position")
    assert not [line for line in gui.said if "take it back" in line], gui.said
    assert person.fixes  # the new game's position set up as the lights asked
    (started,) = _new_games(board)
    assert _position_key(started) == asked
    played = board.moves()
    assert len(played) == 1 and answer == [f"bestmove {played[0]}"]


def test_ucinewgame_then_a_new_game_on_the_board() -> None:
    rng = random.Random(9)
    first = chess.Board()
    with RunningBoard(speed=20) as board:
        gui = _Gui(board.port, first, gui_white=True, plies=4, rng=rng, games=2)
        person = Person(board, rng, white=False, waits_for=gui.waits_for)
        gui.start()
        person.play(lambda: gui.is_alive() and gui.games_done == 0, timeout_s=30)
        # The second game: the person plays White, the engine moves first from the start.
        person.white = True
        person.play(gui.is_alive, timeout_s=30)
        gui.join(10)
        assert gui.boards[0].move_stack and gui.boards[1].move_stack
        _assert_same_game(gui.boards[1], board)
        assert _board_game(board).start.fen() == chess.STARTING_FEN
    assert not gui.errors, gui.errors
    assert person.fixes  # the pieces went back to the start as the lights asked


# The person's move, then 200 ms later the GUI's reply made early on the board.
BOTH_AT_ONCE = [(0, "lift", "e7"), (300, "place", "e5"), (320, "lift", "g1"), (500, "place", "f3")]


@pytest.mark.parametrize("go_first", [False, True], ids=["before-go", "after-go"])
def test_the_persons_move_and_an_early_move_for_the_gui_at_once(
    lines_and_board: tuple[_Lines, RunningBoard], go_first: bool
) -> None:
    # The person's move, and 200 ms later the GUI's reply made early: made before the
    # GUI's `go`, both reach the engine together; made after it, together or one by one.
    # Either way the person's move is the `bestmove`, and the early one is taken back
    # when the GUI plays another, whose move then lights up. The board keeps its one game.
    gui, board = lines_and_board
    rng = random.Random(16)
    gui.send("position startpos moves e2e4")
    if go_first:
        gui.send("go")
    if go_first:
        _carry_out_lit(board, "e2e4", rng)
    else:
        _carry_out(board, "e2e4", rng)
    wait_for(lambda: board.moves() == ["e2e4"], 10, "e2e4 on the board")
    board.live.push(BOTH_AT_ONCE)
    wait_for(lambda: board.moves() == ["e2e4", "e7e5", "g1f3"], 10, "both moves on the board")
    if not go_first:
        gui.send("go")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove e7e5"
    gui.send("position startpos moves e2e4 e7e5 b1c3", "go")
    gui.heard("g1f3 is not b1c3: take it back")
    wait_for(lambda: board.moves() == ["e2e4", "e7e5"], 10, "g1f3 taken back")
    after_nc3 = chess.Board()
    for uci in ("e2e4", "e7e5", "b1c3"):
        after_nc3.push_uci(uci)
    asked = _position_key(after_nc3.fen())
    reply = _bestmove_in_thread(gui)
    person = Person(board, rng, white=False, waits_for=lambda fen: _position_key(fen) == asked)
    person.play(lambda: not reply, timeout_s=30)
    assert person.fixes  # the knight went back to g1 as the lights showed
    played = board.moves()
    assert played[:3] == ["e2e4", "e7e5", "b1c3"] and reply == [f"bestmove {played[3]}"]
    assert _new_games(board) == []
    assert not [line for line in gui.said if "new game" in line], gui.said


def test_a_gui_without_a_clock_is_told_the_boards() -> None:
    """A timed game on the board (its own `[clock]`): a GUI that sends no `wtime` or
    `btime` hears the board's clock with the person's move."""
    settings = Settings(time_control=parse_time_control("5+3"))
    said: list[chess.engine.PlayResult] = []
    gui_board = chess.Board()

    def gui() -> None:
        with chess.engine.SimpleEngine.popen_uci(
            host_command("uci", "--port", board.port), timeout=20
        ) as engine:
            said.append(engine.play(gui_board, chess.engine.Limit(time=15), info=INFO_ALL))

    with RunningBoard(speed=20, settings=settings) as board:
        thread = threading.Thread(target=gui, daemon=True)
        thread.start()
        person = Person(board, random.Random(3), white=True)
        person.play(thread.is_alive, timeout_s=60)
        thread.join(30)
    assert said, "the GUI got no move"
    told = str(said[0].info.get("string", ""))
    assert told.startswith("clock White "), told
