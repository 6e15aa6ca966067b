"""The Lichess synchroniser without HTTP: Lichess is played by the test (its game items
handed in, its calls recorded and answered as the test says), the board is the real
firmware on the in-memory pair, and the synchroniser's actions are carried out here as
the bridge's shell carries them out. Moves both ways, a move Lichess refuses, one kept
on the board through a 429's pause, and moves taken back on the board: by hand (also
made and taken back between two of the bridge's steps) or by the bridge."""

from __future__ import annotations

import random
from typing import Any

from reedboard.arbiter.effects import MoveMade, TakenBack
from reedboard.errors import LinkError
from reedboard_host.connection import HostError
from reedboard_host.follow import Follower
from reedboard_host.lichess_actions import (
    AskBoard,
    FollowGame,
    PausedFor,
    PostLater,
    PostNow,
    Steps,
    SyncBoard,
    Tell,
)
from reedboard_host.lichess_api import LichessError, RateLimited
from reedboard_host.lichess_sync import LichessSync

from tests.support.board_pair import BoardPair
from tests.support.person import Person

ME = {"id": "me", "name": "Me"}
THEM = {"id": "them", "name": "Them", "rating": 1500}
GAME = "sync0001"


class _World:
    """The shell around the synchroniser: the board on the pair, Lichess scripted."""

    def __init__(self) -> None:
        self.pair = BoardPair()
        self.follower = Follower(
            "memory", open_port=self.pair.open_port, clock=self.pair.host_clock
        )
        self.sync = LichessSync(self.follower.mirror, me="me")
        self.follower.on_message_hook = self.sync.board_message
        self.follower.connect()
        self.said: list[str] = []
        self.posts: list[str] = []  # the calls made to Lichess at once
        self.later: list[str] = []  # the calls made for later
        self.refuse: list[LichessError] = []  # the next PostNow calls' refusals
        self.paused = 0.0
        self.lichess_moves: list[str] = []
        # White at the board; the test tells them what to do, or lets them watch it.
        self.person = Person(self.pair, random.Random(5), white=True)

    def run(self, steps: Steps) -> None:
        answer: Any = None
        error: BaseException | None = None
        while True:
            self.sync.game_followed = GAME
            try:
                action = steps.send(answer) if error is None else steps.throw(error)
            except StopIteration:
                return
            answer, error = None, None
            try:
                answer = self._do(action)
            except (HostError, LinkError) as met:
                error = met

    def _do(self, action: Any) -> Any:
        match action:
            case AskBoard(command):
                return self.follower.connection.request(command)
            case SyncBoard():
                self.follower.sync()
            case PostNow(path):
                self.posts.append(path)
                if self.refuse:
                    raise self.refuse.pop(0)
                if "/move/" in path:
                    self.lichess_moves.append(path.rsplit("/", 1)[1])
            case PostLater(path, _form):
                self.later.append(path)
            case FollowGame():
                pass
            case PausedFor():
                return self.paused
            case Tell(text):
                self.said.append(text)
        return None

    # ----- Lichess's side -----

    def start(self) -> None:
        full = {
            "type": "gameFull", "id": GAME, "variant": {"key": "standard"}, "speed": "rapid",
            "white": ME, "black": THEM, "initialFen": "startpos",
            "clock": {"initial": 900_000, "increment": 10_000},
            "state": {"type": "gameState", "moves": "", "status": "started"},
        }  # fmt: skip
        self.run(self.sync.item("game", (GAME, full)))

    def lichess_state(self) -> None:
        state = {"type": "gameState", "moves": " ".join(self.lichess_moves), "status": "started"}
        self.run(self.sync.item("game", (GAME, state)))

    # ----- time passes -----

    def turn(self) -> None:
        """One turn of the bridge's loop: the link kept up, then a step of the sync."""
        self.follower.keep_up(0.05)
        self.run(self.sync.step())

    def until(self, done: Any, what: str) -> None:
        end = self.pair.clock.now_ms() + 600_000  # a bound in board time, never a wait
        while not done():
            assert self.pair.clock.now_ms() < end, f"{what}; said: {self.said}"
            self.turn()

    def play(self, uci: str, *, between_steps: bool = False) -> None:
        """The person carries out `uci` on the board, once it is quiet (`between_steps`:
        waiting on the board alone, with no turn of the bridge meanwhile)."""
        self._quiet(between_steps)
        self.person.carry_out(uci)

    def take_back(self, *, between_steps: bool = False) -> None:
        """The person puts the board's last move back by hand, once it is quiet."""
        self._quiet(between_steps)
        self.person.take_back()

    def _quiet(self, between_steps: bool) -> None:
        def quiet() -> bool:
            return self.pair.quiet_view() is not None

        if between_steps:
            self.pair.run_until(quiet, "a quiet board")
        else:
            self.until(quiet, "a quiet board")


def test_moves_go_both_ways() -> None:
    world = _World()
    world.start()
    world.until(lambda: world.sync.game is not None and world.sync.game.board is not None,
                "the board's game adopted")  # fmt: skip
    world.play("e2e4")
    world.until(lambda: world.lichess_moves == ["e2e4"], "e2e4 posted")
    assert world.posts == [f"/api/board/game/{GAME}/move/e2e4"]
    world.lichess_moves.append("e7e5")  # the opponent answers on Lichess
    world.lichess_state()
    world.until(lambda: world.pair.view is not None and world.pair.view.hint is not None,
                "e7e5 lit")  # fmt: skip
    assert "your opponent plays e7e5: carry it out on the board" in world.said
    world.play("e7e5")
    world.until(lambda: world.pair.moves() == ["e2e4", "e7e5"], "e7e5 on the board")
    world.until(lambda: world.pair.view is not None and world.pair.view.hint is None,
                "the light out")  # fmt: skip
    assert world.posts == [f"/api/board/game/{GAME}/move/e2e4"]  # nothing posted twice


def test_a_move_lichess_refuses_is_taken_back() -> None:
    world = _World()
    world.start()
    world.until(lambda: world.sync.game is not None and world.sync.game.board is not None,
                "the board's game adopted")  # fmt: skip
    world.refuse = [LichessError("Lichess refused POST: 400 illegal", 400)]
    world.play("e2e4")
    world.until(lambda: len(world.posts) == 1, "e2e4 posted")
    world.until(lambda: world.pair.moves() == [], "e2e4 taken back on the board")
    kinds = [
        m.effect.kind for m in world.pair.effects if isinstance(m.effect, MoveMade | TakenBack)
    ]
    assert kinds == ["move", "takeback"]
    assert any(line.startswith("Lichess did not take e2e4") for line in world.said)
    assert world.lichess_moves == []


def test_a_move_waits_on_the_board_through_a_429s_pause() -> None:
    world = _World()
    world.start()
    world.until(lambda: world.sync.game is not None and world.sync.game.board is not None,
                "the board's game adopted")  # fmt: skip
    world.refuse = [RateLimited("Lichess refused POST: 429 Too Many Requests", 60.0)]
    world.play("d2d4")
    world.until(lambda: any("stays on the board" in line for line in world.said), "the 429")
    world.paused = 42.0  # the pause lasts: nothing is called
    for _ in range(20):
        world.turn()
    assert len(world.posts) == 1 and world.pair.moves() == ["d2d4"]
    assert sum("d2d4" in line for line in world.said) == 1  # told once, when refused
    world.paused = 0.0  # Lichess's minute is over
    world.until(lambda: world.lichess_moves == ["d2d4"], "d2d4 posted after the pause")
    assert "d2d4 went to Lichess after the pause" in world.said
    assert world.pair.moves() == ["d2d4"]  # never taken back


def test_a_move_made_and_taken_back_between_two_steps_proposes_a_takeback() -> None:
    # The lit e7e5 carried out and put back by hand while the bridge looked elsewhere:
    # its next step finds as many plies on the board as at its last, and must still see
    # the move Lichess has taken back on the board.
    world = _World()
    world.start()
    world.until(lambda: world.sync.game is not None and world.sync.game.board is not None,
                "the board's game adopted")  # fmt: skip
    world.play("e2e4")
    world.until(lambda: world.lichess_moves == ["e2e4"], "e2e4 posted")
    world.lichess_moves.append("e7e5")
    world.lichess_state()
    world.until(lambda: world.pair.view is not None and world.pair.view.hint is not None,
                "e7e5 lit")  # fmt: skip
    # The board alone from here: the host reads nothing, the synchroniser takes no step.
    world.play("e7e5", between_steps=True)
    world.pair.run_until(lambda: world.pair.moves() == ["e2e4", "e7e5"], "e7e5 on the board")
    world.take_back(between_steps=True)
    world.pair.run_until(lambda: world.pair.moves() == ["e2e4"], "e7e5 taken back")
    world.turn()  # the whole batch at once
    proposal = "e7e5 taken back on the board: proposing a takeback on Lichess"
    assert any(line.startswith(proposal) for line in world.said), world.said
    assert world.later == [f"/api/board/game/{GAME}/takeback/yes"]
    assert world.pair.view is not None and world.pair.view.hint is None  # e7e5 not lit


def test_the_bridges_own_takeback_is_not_taken_for_one_by_hand() -> None:
    world = _World()
    world.start()
    world.until(lambda: world.sync.game is not None and world.sync.game.board is not None,
                "the board's game adopted")  # fmt: skip
    world.play("e2e4")
    world.until(lambda: world.lichess_moves == ["e2e4"], "e2e4 posted")
    world.lichess_moves.append("e7e5")
    world.lichess_state()
    world.play("e7e6")  # not the lit move: the bridge takes it back, and lights e7e5 again
    world.until(lambda: any("e7e6 is not the game's move" in line for line in world.said),
                "e7e6 refused")  # fmt: skip
    world.until(lambda: world.pair.moves() == ["e2e4"], "e7e6 taken back")
    # The person puts the pawn back as the lights show and carries out e7e5, lit again.
    world.person.limit = 2
    world.pair.watch(world.person.step)
    world.until(lambda: world.pair.moves() == ["e2e4", "e7e5"], "e7e5 on the board")
    for _ in range(5):
        world.turn()
    assert world.person.fixes
    assert world.later == []  # no takeback proposed on Lichess
    assert not any("taken back on the board" in line for line in world.said), world.said
