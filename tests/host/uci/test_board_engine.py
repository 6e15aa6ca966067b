"""The board as a UCI engine (`UciBoard`), with a GUI played by the test, on the board and
the host in memory on a virtual clock. The GUI plays random moves for one side; each
lights up on the board, the person (the human model) carries it out and answers with a
move of their own, which the GUI gets as the engine's `bestmove`. Games from another
position and Chess960 start with the board set up as its lights ask, a game under way is
caught up move by move, a lit move carried out otherwise is taken back and lit again (even
one that mates; a move in a game resigned since gives way to a new game), as is one made
early for the GUI right after the person's own, an underpromotion is chosen on the board;
`stop`, `go infinite`, `go ponder`, `isready` and `ucinewgame` keep the protocol's timing.
The program itself, against a board on a real pty: test_command.py."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from functools import partial

import chess
import pytest
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import GameOver, NewGame
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard_host.follow import Follower
from reedboard_host.uci.board_engine import POLL_S, UciBoard

from tests.support.board_pair import BoardPair
from tests.support.logged import logged
from tests.support.person import Chooser, Person, castle_first, random_move

LIMIT_S = 600.0  # a bound in board time on any wait below: a stuck run fails, nothing sleeps


class _Out:
    """The engine's stdout: the lines it sends to the GUI."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._partial = ""

    def write(self, text: str) -> int:
        *whole, self._partial = (self._partial + text).split("\n")
        self.lines += whole
        return len(text)

    def flush(self) -> None:
        pass


class _Engine:
    """reedboard's UCI engine as a GUI sees it, in this process on the pair: lines in,
    lines out. Waiting for an answer turns the engine's loop (the board's link, then the
    search), and with it the board's virtual time."""

    def __init__(self, pair: BoardPair, caplog: pytest.LogCaptureFixture) -> None:
        self.pair = pair
        caplog.set_level(logging.INFO, logger="reedboard_host")
        self.caplog = caplog
        self._out = _Out()
        self.read = 0  # the lines of `out` already taken by `expect`
        follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
        self.uci = UciBoard(follower, out=self._out)

    @property
    def said(self) -> list[str]:
        """What it told the person (stderr)."""
        return logged(self.caplog, "reedboard_host")

    @property
    def out(self) -> list[str]:
        return self._out.lines

    def send(self, *lines: str) -> None:
        for line in lines:
            assert self.uci.handle(line), f"{line!r} ended the engine"

    def turn(self) -> None:
        self.uci.board_turn(POLL_S)
        self.uci.search_turn()

    def run_until(self, done: Callable[[], bool], what: str) -> None:
        end_ms = self.pair.clock.now_ms() + LIMIT_S * 1000
        while not done():
            assert self.pair.clock.now_ms() < end_ms, f"{what} never came; said: {self.said}"
            self.turn()

    def expect(self, prefix: str) -> tuple[str, list[str]]:
        """The next line starting with `prefix`, and the lines that came before it."""
        self.run_until(
            lambda: any(line.startswith(prefix) for line in self.out[self.read :]), repr(prefix)
        )
        before: list[str] = []
        while True:
            line = self.out[self.read]
            self.read += 1
            if line.startswith(prefix):
                return line, before
            before.append(line)

    def heard(self, text: str) -> None:
        """Turn until the engine has said `text` to the person."""
        self.run_until(lambda: any(text in line for line in self.said), repr(text))

    def answered(self) -> bool:
        return any(line.startswith("bestmove") for line in self.out[self.read :])


def _engine(pair: BoardPair, caplog: pytest.LogCaptureFixture) -> _Engine:
    engine = _Engine(pair, caplog)
    engine.send("uci")
    engine.expect("uciok")
    engine.send("isready")
    engine.expect("readyok")
    engine.run_until(lambda: engine.uci.follower.connected, "the board connected")
    return engine


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


def _position_line(board: chess.Board, *, fen_only: bool = False) -> str:
    """The `position` line a GUI sends for `board` (as python-chess writes it)."""
    if fen_only:
        return f"position fen {board.fen()}"
    root = board.root()
    setup = (
        "startpos"
        if root.fen() == chess.STARTING_FEN and not board.chess960
        else (f"position fen {root.fen()}".removeprefix("position "))
    )
    moves: list[str] = []
    for move in board.move_stack:
        moves.append(root.uci(move))
        root.push(move)
    return f"position {setup}" + (f" moves {' '.join(moves)}" if moves else "")


class _Gui:
    """The chess GUI: it plays `board`'s side `gui_white` with `choose` and asks the engine
    (the board) for the other side's moves, at least `plies` moves in all, ending on the
    engine's. With `fen_only` it sends the position without its moves, as some GUIs do."""

    def __init__(
        self,
        engine: _Engine,
        board: chess.Board,
        *,
        gui_white: bool,
        plies: int,
        rng: random.Random,
        choose: GuiChooser = _random_gui_move,
        fen_only: bool = False,
    ) -> None:
        self.engine, self.board, self.gui_white, self.plies = engine, board, gui_white, plies
        self.rng, self.choose, self.fen_only = rng, choose, fen_only
        self._asking: str | None = None  # the position the GUI waits on the engine in
        self._new_game = False
        self._played = 0  # the GUI's own moves in this game
        if board.chess960:
            engine.send("setoption name UCI_Chess960 value true")

    def waits_for(self, fen: str) -> bool:
        """Whether the GUI waits for the engine's move in `fen`'s position."""
        return self._asking is not None and self._asking == _position_key(fen)

    def new_game(self, board: chess.Board, *, gui_white: bool) -> None:
        """The next game (`ucinewgame` before its first `position`)."""
        self.board, self.gui_white, self._new_game = board, gui_white, True
        self._played = 0

    def ask(self) -> bool:
        """Play the GUI's moves up to the engine's turn and ask for its move (`go`);
        False when the game is over or long enough."""
        board = self.board
        while not board.is_game_over():
            if board.turn != self.gui_white:
                if self._new_game:
                    self.engine.send("ucinewgame")
                    self._new_game = False
                self._asking = _position_key(board.fen())
                self.engine.send(_position_line(board, fen_only=self.fen_only), "go")
                return True
            if self._played >= self.plies:
                return False  # after the engine's answer: the board has every move
            board.push(self.choose(board, self.rng))
            self._played += 1
        return False

    def play(self) -> None:
        """Play on (after an `ask` already made, if any) until the game is long enough."""
        while self._asking is not None or self.ask():
            answer, _ = self.engine.expect("bestmove")
            self._asking = None
            move = answer.split()[1]
            assert move != "0000", f"the engine gave no move; said: {self.engine.said}"
            self.board.push_uci(move)


def _board_game(pair: BoardPair) -> Game:
    board_game = pair.app.board_game
    assert board_game is not None
    return board_game.game


def _new_games(pair: BoardPair) -> list[str]:
    """The start positions of the games the board has begun (its `new_game` effects)."""
    return [m.effect.fen for m in pair.effects if isinstance(m.effect, NewGame)]


def _assert_same_game(gui: chess.Board, pair: BoardPair) -> None:
    """The board's game is the end of the GUI's: from the same position, the same moves."""
    start = _board_game(pair).start
    played = pair.moves()
    assert [m.uci() for m in gui.move_stack[len(gui.move_stack) - len(played) :]] == played
    replayed = chess.Board(start.fen(shredder=start.chess960), chess960=start.chess960)
    for uci in played:
        replayed.push_uci(uci)
    assert replayed.board_fen() == gui.board_fen()
    assert replayed.turn == gui.turn


def _person(
    pair: BoardPair,
    rng: random.Random,
    *,
    white: bool,
    waits_for: Callable[[str], bool],
    choose: Chooser = random_move,
    wrong: int = 0,
) -> Person[BoardPair]:
    """The person at the pair's board, looking at it after each of its steps."""
    person = Person(
        pair, rng, white, choose=choose, wrong=wrong, waits_for=waits_for, await_new_game=False
    )
    pair.watch(person.step)
    return person


def test_a_gui_plays_the_person_at_the_board(caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(8)
    gui_board = chess.Board()
    pair = BoardPair()
    gui = _Gui(_engine(pair, caplog), gui_board, gui_white=True, plies=10, rng=rng)
    person = _person(pair, rng, white=False, waits_for=gui.waits_for)
    gui.play()
    assert len(gui_board.move_stack) >= 10 or gui_board.is_game_over()
    assert [m.uci() for m in gui_board.move_stack] == pair.moves()
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
def test_the_gui_starts_from_another_position(
    fen: str, person_white: bool, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(11)
    gui_board = chess.Board(fen)
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=not person_white, plies=6, rng=rng)
    person = _person(board, rng, white=person_white, waits_for=gui.waits_for)
    gui.play()
    # The board started its game where the GUI's game stood at its first `go`.
    first_go = chess.Board(fen)
    if first_go.turn != person_white:
        first_go.push(gui_board.move_stack[0])
    assert _board_game(board).start.fen() == Position.from_fen(first_go.fen()).fen()
    _assert_same_game(gui_board, board)
    assert len(gui_board.move_stack) >= 6 or gui_board.is_game_over()
    assert person.fixes  # the position was set up as the lights asked


def test_a_new_game_is_asked_again_when_the_board_starts_its_own_meanwhile(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rng = random.Random(10)
    gui_board = chess.Board(MIDDLEGAME)
    wanted = Position.from_fen(MIDDLEGAME).fen()
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=False, plies=4, rng=rng)
    assert gui.ask()
    engine.run_until(lambda: _board_game(board).start.fen() == wanted, "the GUI's new game")
    # Before setting it up, the person touches a pawn of the start position still on
    # the board: the pieces stand as at the start, and the board starts a game of its
    # own from there.
    board.push([(0, "lift", "a2"), (300, "place", "a2")])
    engine.run_until(lambda: chess.STARTING_FEN in _new_games(board), "its own game")
    _person(board, rng, white=True, waits_for=gui.waits_for)
    gui.play()
    assert _new_games(board) == [wanted, chess.STARTING_FEN, wanted]  # asked again
    _assert_same_game(gui_board, board)


def test_a_game_under_way_in_the_gui_is_lit_move_by_move(caplog: pytest.LogCaptureFixture) -> None:
    # The GUI's game went through the board's position (the start): rather than a set-up,
    # the board lights the GUI's moves one by one, so it ends with the whole game.
    rng = random.Random(13)
    gui_board = chess.Board()
    for san in ("e4", "c5", "Nf3", "d6", "d4"):
        gui_board.push_san(san)
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=True, plies=4, rng=rng)
    # They play their own move only where the GUI asks for it: until then, the game's
    # moves light up for them to carry out, their own side's as well.
    person = _person(board, rng, white=False, waits_for=gui.waits_for)
    gui.play()
    assert _board_game(board).start.fen() == chess.STARTING_FEN
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert person.plies == len(gui_board.move_stack)  # every move carried out on the board
    assert not person.fixes


def test_a_gui_that_sends_only_the_position_keeps_one_game_on_the_board(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rng = random.Random(17)
    gui_board = chess.Board()
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=True, plies=8, rng=rng, fen_only=True)
    person = _person(board, rng, white=False, waits_for=gui.waits_for)
    gui.play()
    assert _board_game(board).start.fen() == chess.STARTING_FEN
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert not person.fixes  # each GUI move was lit, never a set-up asked for


def _underpromoting_gui_move(board: chess.Board, rng: random.Random) -> chess.Move:
    knights = [m for m in board.legal_moves if m.promotion == chess.KNIGHT]
    return rng.choice(knights or list(board.legal_moves))


def test_an_underpromotion_by_the_gui_is_chosen_on_the_board(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The person carries out what is lit (a pawn to the last rank); the board must record
    # the knight the GUI chose, not the queen it takes by default.
    rng = random.Random(3)
    gui_board = chess.Board("8/P6k/7p/8/8/8/8/K7 b - - 0 1")
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=True, plies=4, rng=rng,
        choose=_underpromoting_gui_move,
    )  # fmt: skip
    _person(board, rng, white=False, waits_for=gui.waits_for)
    gui.play()
    _assert_same_game(gui_board, board)
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
def test_chess960_with_castling_as_king_takes_rook(
    number: int, person_white: bool, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(5)
    gui_board = chess.Board.from_chess960_pos(number)
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=not person_white, plies=6, rng=rng,
        choose=_castling_gui_move,
    )  # fmt: skip
    person = _person(board, rng, white=person_white, choose=castle_first, waits_for=gui.waits_for)
    gui.play()
    # The board's lights guided the setup of the start position piece type by piece
    # type, then lit the GUI's moves: the board has the whole game.
    assert person.guided
    assert _board_game(board).start.fen() == Position.chess960_start(number).fen()
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert _castlings(gui_board, person_white), "the person did not castle"
    assert _castlings(gui_board, not person_white), "the GUI did not castle"


def test_a_move_carried_out_otherwise_is_taken_back_and_shown_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rng = random.Random(21)
    gui_board = chess.Board()
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, gui_board, gui_white=True, plies=6, rng=rng)
    person = _person(board, rng, white=False, wrong=1, waits_for=gui.waits_for)
    gui.play()
    _assert_same_game(gui_board, board)
    assert _board_game(board).start.fen() == chess.STARTING_FEN
    assert len(person.mistakes) == 1
    wrong = person.mistakes[0].split()[0]
    told = [m for m in engine.said if "take it back" in m]
    assert told and wrong in told[0], engine.said
    assert person.fixes  # the board's lights showed where the pieces go back


# ----- the protocol's timing: `stop`, `go infinite`, `isready`, `ucinewgame` -----


@pytest.fixture
def gui_and_board(caplog: pytest.LogCaptureFixture) -> tuple[_Engine, BoardPair]:
    pair = BoardPair()
    return _engine(pair, caplog), pair


def _wait_lit(gui: _Engine, board: BoardPair, uci: str) -> None:
    gui.run_until(lambda: board.view is not None and board.view.hint is not None, f"{uci} lit")


def _ready_and_no_answer(gui: _Engine) -> None:
    """`isready` is answered at once, while the search goes on: no `bestmove` before it."""
    gui.send("isready")
    _, before = gui.expect("readyok")
    assert not [line for line in before if line.startswith("bestmove")]


def _carry_out(gui: _Engine, board: BoardPair, uci: str, rng: random.Random) -> None:
    """The person carries out `uci` from the board's position (once it is quiet)."""
    gui.run_until(lambda: board.quiet_view() is not None, "a quiet board")
    Person(board, rng, white=True).carry_out(uci)


def test_stop_before_the_person_moves_answers_no_move(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    gui, board = gui_and_board
    gui.send("position startpos moves e2e4", "go movetime 1000")
    _wait_lit(gui, board, "e2e4")
    gui.send("stop")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove 0000"
    gui.run_until(lambda: board.view is not None and board.view.hint is None, "the light out")
    assert board.moves() == []


def test_go_infinite_answers_only_on_stop_and_isready_answers_meanwhile(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    gui, board = gui_and_board
    rng = random.Random(4)
    gui.send("position startpos", "go infinite")
    _ready_and_no_answer(gui)
    _carry_out(gui, board, "d2d4", rng)
    gui.heard("the board plays d2d4")
    _ready_and_no_answer(gui)  # it waits for stop
    gui.send("stop")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove d2d4"


def test_ponderhit_answers_at_once_with_the_move_already_made(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    gui, board = gui_and_board
    gui.send("position startpos moves e2e4", "go ponder")
    _wait_lit(gui, board, "e2e4")
    rng = random.Random(6)
    _carry_out(gui, board, "e2e4", rng)
    gui.run_until(lambda: board.moves() == ["e2e4"], "e2e4 on the board")
    _carry_out(gui, board, "c7c5", rng)
    gui.heard("the board plays c7c5")
    _ready_and_no_answer(gui)  # pondering still
    gui.send("ponderhit")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove c7c5"


def test_the_lit_move_lights_again_after_the_person_takes_it_back(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    gui, board = gui_and_board
    rng = random.Random(8)
    gui.send("position startpos moves e2e4", "go")
    _wait_lit(gui, board, "e2e4")
    _carry_out(gui, board, "e2e4", rng)
    gui.run_until(lambda: board.moves() == ["e2e4"], "e2e4 on the board")
    # Second thoughts: the pawn goes back by hand, which takes the move back on the board.
    board.push([(0, "lift", "e4"), (400, "place", "e2")])
    gui.run_until(lambda: board.moves() == [], "the move taken back on the board")
    gui.run_until(lambda: board.view is not None and board.view.hint is not None, "e2e4 lit again")
    _carry_out(gui, board, "e2e4", rng)
    gui.run_until(lambda: board.moves() == ["e2e4"], "e2e4 on the board again")
    _carry_out(gui, board, "e7e5", rng)
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove e7e5"


def test_a_move_made_for_the_gui_before_it_moves_is_taken_back(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    # The person plays White's first move before the GUI has made it, and the GUI then
    # plays another: the board's move is taken back (no new game), the GUI's lights up.
    gui, board = gui_and_board
    rng = random.Random(12)
    _carry_out(gui, board, "e2e4", rng)
    gui.run_until(lambda: board.moves() == ["e2e4"], "e2e4 on the board")
    gui.send("position startpos moves d2d4", "go")
    after_d4 = chess.Board()
    after_d4.push_uci("d2d4")
    asked = _position_key(after_d4.fen())
    person = _person(board, rng, white=False, waits_for=lambda fen: _position_key(fen) == asked)
    answer = [gui.expect("bestmove")[0]]
    gui.heard("e2e4 is not d2d4: take it back")
    assert person.fixes  # the pawn went back to e2 as the lights showed
    played = board.moves()
    assert played[0] == "d2d4" and answer == [f"bestmove {played[1]}"]
    assert _new_games(board) == []


def _lit(board: BoardPair, uci: str) -> bool:
    view = board.view
    return view is not None and view.hint == (parse_square(uci[:2]), parse_square(uci[2:4]))


def _carry_out_lit(gui: _Engine, board: BoardPair, uci: str, rng: random.Random) -> None:
    """The person waits for `uci` to light up, carries it out, and sees it taken."""
    gui.run_until(partial(_lit, board, uci), f"{uci} lit")
    before = len(board.moves())
    _carry_out(gui, board, uci, rng)
    gui.run_until(lambda: len(board.moves()) > before, f"{uci} on the board")


def _move_that_goes_on(board: chess.Board) -> chess.Move:
    """The GUI's next move: any that does not end the game, so that the engine is asked."""
    for move in board.legal_moves:
        board.push(move)
        over = board.is_game_over()
        board.pop()
        if not over:
            return move
    raise AssertionError(f"every move ends the game in {board.fen()}")


def _game_overs(board: BoardPair) -> list[tuple[str, str]]:
    return [
        (m.effect.result, m.effect.reason) for m in board.effects if isinstance(m.effect, GameOver)
    ]


# White's queen and bishop both eye f7: from here Qxf7 mates.
SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"]


def test_a_lit_move_carried_out_otherwise_with_mate_is_taken_back_and_the_game_goes_on(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    # The GUI, White, plays d3 where Qxf7 mates; the person, meant to carry out d3, mates
    # instead. The board takes the mate back like any other move, not a new game.
    gui, board = gui_and_board
    rng = random.Random(14)
    gui_board = chess.Board()
    for uci in [*SCHOLAR, "d2d3"]:
        gui_board.push_uci(uci)
    gui.send(f"position startpos moves {' '.join(m.uci() for m in gui_board.move_stack)}", "go")
    for uci in SCHOLAR:  # the game under way, lit move by move
        _carry_out_lit(gui, board, uci, rng)
    gui.run_until(partial(_lit, board, "d2d3"), "d2d3 lit")
    _carry_out(gui, board, "h5f7", rng)
    gui.run_until(lambda: _game_overs(board) == [("1-0", "checkmate")], "the mate on the board")
    gui.heard("h5f7 is not d2d3: take it back")
    gui.run_until(lambda: board.moves() == SCHOLAR, "the mate taken back")
    # The person puts the queen back as the lights show, carries out d3, now lit again,
    # and answers it; then the game goes on for another move each.

    def asked(fen: str) -> bool:  # the person answers only where the GUI waits for them
        return _position_key(fen) == _position_key(gui_board.fen())

    person = _person(board, rng, white=False, waits_for=asked)
    answer = [gui.expect("bestmove")[0]]
    assert answer and answer[0].startswith("bestmove "), answer
    gui_board.push_uci(answer[0].split()[1])
    assert person.fixes  # the pieces went back as the board's lights showed
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    gui_board.push(_move_that_goes_on(gui_board))
    gui.send(f"position startpos moves {' '.join(m.uci() for m in gui_board.move_stack)}", "go")
    answer = [gui.expect("bestmove")[0]]
    assert answer and answer[0].startswith("bestmove "), answer
    gui_board.push_uci(answer[0].split()[1])
    assert board.moves() == [m.uci() for m in gui_board.move_stack]
    assert _new_games(board) == []
    assert not [line for line in gui.said if "new game" in line], gui.said


def test_a_move_for_the_gui_in_a_game_resigned_since_gives_way_to_a_new_game(
    gui_and_board: tuple[_Engine, BoardPair],
) -> None:
    # The person plays White's first move before the GUI has made it, then Black resigns
    # on the board (the e4 pawn taken off, both kings set on the light centre squares d5
    # and e4: 1-0). A resignation stands: the board refuses to take e4 back, and a new
    # game starts from the GUI's position instead.
    gui, board = gui_and_board
    rng = random.Random(15)
    _carry_out(gui, board, "e2e4", rng)
    gui.run_until(lambda: board.moves() == ["e2e4"], "e2e4 on the board")
    board.push(
        [(0, "lift", "e4"), (300, "lift", "e1"), (400, "lift", "e8"),
         (900, "place", "e4"), (1000, "place", "d5")]
    )  # fmt: skip
    gui.run_until(lambda: _game_overs(board) == [("1-0", "resignation")], "the resignation")
    gui.send("position startpos moves d2d4", "go")
    after_d4 = chess.Board()
    after_d4.push_uci("d2d4")
    asked = _position_key(after_d4.fen())
    person = _person(board, rng, white=False, waits_for=lambda fen: _position_key(fen) == asked)
    answer = [gui.expect("bestmove")[0]]
    gui.heard("the board refused takeback")
    gui.heard("a new game on the board from the GUI's position")
    assert not [line for line in gui.said if "take it back" in line], gui.said
    assert person.fixes  # the new game's position set up as the lights asked
    (started,) = _new_games(board)
    assert _position_key(started) == asked
    played = board.moves()
    assert len(played) == 1 and answer == [f"bestmove {played[0]}"]


def test_ucinewgame_then_a_new_game_on_the_board(caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(9)
    first = chess.Board()
    board = BoardPair()
    engine = _engine(board, caplog)
    gui = _Gui(engine, first, gui_white=True, plies=4, rng=rng)
    person = _person(board, rng, white=False, waits_for=gui.waits_for)
    gui.play()
    # The second game: the person plays White, the engine moves first from the start.
    second = chess.Board()
    gui.new_game(second, gui_white=False)
    person.white = True
    gui.play()
    assert first.move_stack and second.move_stack
    _assert_same_game(second, board)
    assert _board_game(board).start.fen() == chess.STARTING_FEN
    assert person.fixes  # the pieces went back to the start as the lights asked


# The person's move, then 200 ms later the GUI's reply made early on the board.
BOTH_AT_ONCE = [(0, "lift", "e7"), (300, "place", "e5"), (320, "lift", "g1"), (500, "place", "f3")]


@pytest.mark.parametrize("go_first", [False, True], ids=["before-go", "after-go"])
def test_the_persons_move_and_an_early_move_for_the_gui_at_once(
    gui_and_board: tuple[_Engine, BoardPair], go_first: bool
) -> None:
    # The person's move, and 200 ms later the GUI's reply made early: made before the
    # GUI's `go`, both reach the engine together; made after it, together or one by one.
    # Either way the person's move is the `bestmove`, and the early one is taken back
    # when the GUI plays another, whose move then lights up. The board keeps its one game.
    gui, board = gui_and_board
    rng = random.Random(16)
    gui.send("position startpos moves e2e4")
    if go_first:
        gui.send("go")
    if go_first:
        _carry_out_lit(gui, board, "e2e4", rng)
    else:
        _carry_out(gui, board, "e2e4", rng)
    gui.run_until(lambda: board.moves() == ["e2e4"], "e2e4 on the board")
    board.push(BOTH_AT_ONCE)
    gui.run_until(lambda: board.moves() == ["e2e4", "e7e5", "g1f3"], "both moves on the board")
    if not go_first:
        gui.send("go")
    answer, _ = gui.expect("bestmove")
    assert answer == "bestmove e7e5"
    gui.send("position startpos moves e2e4 e7e5 b1c3", "go")
    gui.heard("g1f3 is not b1c3: take it back")
    gui.run_until(lambda: board.moves() == ["e2e4", "e7e5"], "g1f3 taken back")
    after_nc3 = chess.Board()
    for uci in ("e2e4", "e7e5", "b1c3"):
        after_nc3.push_uci(uci)
    asked = _position_key(after_nc3.fen())
    person = _person(board, rng, white=False, waits_for=lambda fen: _position_key(fen) == asked)
    reply = [gui.expect("bestmove")[0]]
    assert person.fixes  # the knight went back to g1 as the lights showed
    played = board.moves()
    assert played[:3] == ["e2e4", "e7e5", "b1c3"] and reply == [f"bestmove {played[3]}"]
    assert _new_games(board) == []
    assert not [line for line in gui.said if "new game" in line], gui.said


@pytest.mark.parametrize("gui_clock", [False, True], ids=["no-gui-clock", "gui-clock"])
def test_a_gui_without_a_clock_is_told_the_boards(
    gui_clock: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """A timed game on the board (its own `[clock]`): a GUI that sends no `wtime` or
    `btime` hears the board's clock with the person's move; one that keeps its own does
    not."""
    rng = random.Random(3)
    pair = BoardPair(settings=Settings(time_control=parse_time_control("5+3")))
    engine = _engine(pair, caplog)
    _person(pair, rng, white=True, waits_for=lambda fen: _position_key(fen) == _START_KEY)
    engine.send("position startpos", "go wtime 300000 btime 300000" if gui_clock else "go")
    answer, before = engine.expect("bestmove")
    assert answer != "bestmove 0000", engine.said
    told = [line for line in before if line.startswith("info string clock ")]
    if gui_clock:
        assert told == [], before
    else:
        assert len(told) == 1 and told[0].startswith("info string clock White "), before


_START_KEY = _position_key(chess.STARTING_FEN)
