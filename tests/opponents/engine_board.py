"""A board that plays the engine, for tests and benches: the real loop (`App`) on a fake
matrix and a virtual clock, the opponent attached to its clients as `reedboard run`
attaches it, and a person who carries out the engine's lit moves (read off the board's
lights, as a person reads them) and makes their own, each by clean hands on the fake
switches."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.board_game import Settings
from reedboard.events import MoveMade
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import SensorLine
from reedboard.journal.store import Journal
from reedboard.link.board_messages import EffectMessage
from reedboard.link.clients import Clients
from reedboard.opponents.chosen import Opponents
from reedboard.opponents.client import OpponentClient
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.thinker import Answer, EngineThread, Question, Thinker
from reedboard.opponents.uci_engine import Thought
from reedboard.rules.game import Game
from reedboard.rules.pieces import QUEEN
from reedboard.rules.position import Position

from tests.app.games import move_lines

STEP_MS = 10
SETTLED_MS = 1200  # after the last switch of a move, before the person goes on
ENGINE_WAIT_S = 30.0  # a loaded machine's Stockfish answers far sooner


class Waiter(Protocol):
    def wait(self, timeout_s: float) -> bool: ...


@dataclass
class EngineBoard:
    app: App
    fake: FakeBoard
    clock: VirtualClock
    opponents: Opponents
    threads: list[Waiter] = field(default_factory=list)  # the engines, to wait on
    effects: list[EffectMessage] = field(default_factory=list)
    lit: list[str] = field(default_factory=list)  # the engine's moves, as lit

    @property
    def game(self) -> Game:
        assert self.app.board_game is not None
        return self.app.board_game.game

    def shown(self) -> str | None:
        """The move the board's lights ask for, if any."""
        assert self.app.board_game is not None
        hint = self.app.board_game.arbiter.hint
        return None if hint is None else self.game.position.uci(hint)

    def run_for(self, ms: int) -> None:
        end = self.clock.t_ms + ms
        while self.clock.t_ms < end:
            self.step()

    def step(self) -> None:
        self.clock.t_ms += STEP_MS
        self.app.catch_up(self.clock.t_ms)
        self.app.step(self.clock.t_ms)

    def wait_for_engine(self) -> None:
        """The board's turns go on while the engine thinks; the test waits on the
        engine's answer rather than turning the loop for nothing meanwhile. A turn may
        pick the answer up itself (the engine answered between two waits), and a later
        one light its move: either ends the wait, not only an answer still waiting."""
        deadline = time.monotonic() + ENGINE_WAIT_S
        while time.monotonic() < deadline:
            self.step()  # the board's turn: what the opponent has to ask is asked
            if self.shown() is not None or any(thread.wait(0.02) for thread in self.threads):
                break
        # The opponent takes the answer on the next turn and asks what it decided, which
        # the turn after carries out, as it does the host's commands.
        self.step()
        self.step()

    def move_now(self) -> None:
        """Have the engine end its search at once (UCI `stop`) and answer with the best it
        found: a test of a long search need not wait its time out."""
        assert self.opponents.playing is not None
        self.opponents.playing.thinker.stop()

    def make(self, uci: str) -> None:
        """Carry out `uci` on the switches, by clean hands, and let it settle: until the
        board has told the move (it may hold one that could still grow, a rook's that
        castling may follow, longer than `SETTLED_MS`) or could have."""
        ply = len(self.game) + 1
        told = len(self.effects)
        lines, _ = move_lines(self.game.position, uci, 0)
        last = self.fake.schedule(lines, start_ms=self.clock.t_ms + STEP_MS)
        while self.clock.t_ms < last + SETTLED_MS or self.fake.pending:
            self.step()
        # The person reads the board and goes on once it has taken the move: a move that
        # may grow (a rook's that castling may follow) is held longer than SETTLED_MS.
        assert self.app.board_game is not None
        settings = self.app.board_game.settings
        held = max(settings.castle_wait_ms, settings.knock_wait_ms) + SETTLED_MS
        while self.clock.t_ms < last + held and not self._told_move(ply, told):
            self.step()

    def _told_move(self, ply: int, since: int) -> bool:
        return any(
            isinstance(m.effect, MoveMade) and m.effect.ply == ply for m in self.effects[since:]
        )

    def put_back(self, uci: str) -> None:
        """Put back a move the board took back (a plain one: no capture, no castling)."""
        lines = [SensorLine(0, "lift", uci[2:4]), SensorLine(300, "place", uci[0:2])]
        end = self.fake.schedule(lines, start_ms=self.clock.t_ms + STEP_MS) + SETTLED_MS
        while self.clock.t_ms < end or self.fake.pending:
            self.step()


def engine_board(
    settings: EngineSettings,
    *,
    spec: str = "engine",
    journal: Journal | None = None,
    data_dir: str | None = None,
    start: Position | None = None,
    make_thinker: Callable[[EngineSettings], Thinker] | None = None,
) -> EngineBoard:
    clock = VirtualClock()
    threads: list[Waiter] = []

    def thinker(s: EngineSettings) -> Thinker:
        made = EngineThread(s) if make_thinker is None else make_thinker(s)
        if isinstance(made, EngineThread | ScriptedThinker):
            threads.append(made)
        return made

    opponents = Opponents(settings, data_dir=data_dir, make_thinker=thinker)
    position = start or Position.standard()
    fake = FakeBoard(position.occupied, electrical=False)
    effects: list[EffectMessage] = []
    clients = Clients()
    opponent = OpponentClient.attach(opponents, clients)
    app = App(
        Sensing(fake, source=fake),
        clock,
        link=HostLink(
            clients=clients,
            on_effect=effects.append,
            watch=lambda _board_game, now: opponent.turn(now),
        ),
        journal=journal,
        game=GameSetup(settings=Settings(), start=Game(position)),
    )
    board = EngineBoard(app, fake, clock, opponents, threads, effects)
    if spec:
        assert opponents.choose(spec) is None
    app.start()
    return board


def person_move(game: Game, rng: random.Random) -> str:
    """A legal move of the person's, at random (a promotion to a queen)."""
    choices = [m for m in game.position.legal_moves() if m.promotion in (None, 0, QUEEN)]
    return game.position.uci(rng.choice(choices))


def play_out(board: EngineBoard, person_white: bool, seed: int, max_plies: int) -> None:
    """Play until the game ends or `max_plies`: the person's random moves, the engine's
    as lit."""
    rng = random.Random(seed)
    idle = 0
    while not board.game.is_game_over() and len(board.game) < max_plies:
        if board.game.position.turn == person_white:
            board.make(person_move(board.game, rng))
            continue
        lit = board.shown()
        if lit is None:
            idle += 1
            assert idle < 200, "the engine lit no move"
            board.wait_for_engine()
            continue
        idle = 0
        board.lit.append(lit)
        board.make(lit)


class ScriptedThinker(Thinker):
    """An engine that answers each question with the next of `moves` at once (picked up
    on the board's next turn): a game replayed move for move, whatever the timing."""

    def __init__(self, moves: list[str]) -> None:
        self.moves = list(moves)
        self.asked: list[Question] = []
        self._waiting: list[Answer] = []

    def ask(self, question: Question) -> None:
        self.asked.append(question)
        best = self.moves.pop(0) if self.moves else None
        if best is None:
            self._waiting.append(Answer(question.key, error="the script has no more moves"))
        else:
            self._waiting.append(Answer(question.key, Thought(best)))

    def answers(self) -> list[Answer]:
        found, self._waiting = self._waiting, []
        return found

    def wait(self, timeout_s: float) -> bool:
        return bool(self._waiting)

    def stop(self) -> None:
        pass  # every question is answered at once: none to end

    def close(self) -> None:
        pass
