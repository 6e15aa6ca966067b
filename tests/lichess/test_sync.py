"""The Lichess synchroniser without HTTP: Lichess is played by the test (its game items
handed in, its calls recorded and answered as the test says), the board is the real
firmware on the in-memory pair, and the synchroniser's actions are carried out here as
the bridge's shell carries them out. Moves both ways, a move Lichess refuses, one kept
on the board through a 429's pause, and moves taken back on the board: by hand (also
made and taken back between two of the bridge's steps) or by the bridge. Takebacks by
hand proposed to Lichess, declined and then taken, or accepting the opponent's."""

from __future__ import annotations

import random
from typing import Any

from reedboard.errors import BoardRequestError, LinkError
from reedboard.events import MoveMade, TakenBack
from reedboard.lichess.actions import (
    AskBoard,
    FollowGame,
    PausedFor,
    PostLater,
    PostNow,
    Steps,
    SyncBoard,
    Tell,
)
from reedboard.lichess.api import LichessError, RateLimited
from reedboard.lichess.sync import LichessSync
from reedboard_host.follow import Follower

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
        # Lichess's side, as the stand-in plays it: the opponent's replies (one each time
        # the person's move reaches Lichess, while `replies`), and the takeback proposals
        # standing. What Lichess does with a call reaches the synchroniser at the next turn.
        self.opponent: list[str] = []
        self.replies = True
        self.takeback_offer = {"white": False, "black": False}
        self._news: list[str] = []  # the calls made for later, to be answered
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
            except (BoardRequestError, LinkError, LichessError) as met:
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
                    if self.replies and self.opponent:
                        self.lichess_moves.append(self.opponent.pop(0))
                    self._news.append("")  # Lichess's state with the move (and reply)
            case PostLater(path, _form):
                self.later.append(path)
                self._news.append(path)
            case FollowGame():
                pass
            case PausedFor():
                return self.paused
            case Tell(text):
                self.said.append(text)
        return None

    # ----- Lichess's side -----

    def start(self) -> None:
        """Lichess starts the game, and the bridge adopts the board's game for it."""
        full = {
            "type": "gameFull", "id": GAME, "variant": {"key": "standard"}, "speed": "rapid",
            "white": ME, "black": THEM, "initialFen": "startpos",
            "clock": {"initial": 900_000, "increment": 10_000},
            "state": {"type": "gameState", "moves": "", "status": "started"},
        }  # fmt: skip
        self.run(self.sync.item("game", (GAME, full)))
        self.until(lambda: self.sync.game is not None and self.sync.game.board is not None,
                   "the board's game adopted")  # fmt: skip

    def lichess_state(self) -> None:
        state: dict[str, Any] = {
            "type": "gameState", "moves": " ".join(self.lichess_moves), "status": "started"
        }  # fmt: skip
        for colour, offered in self.takeback_offer.items():
            if offered:
                state[f"{colour[0]}takeback"] = True
        self.run(self.sync.item("game", (GAME, state)))

    def propose_takeback(self) -> None:
        """The opponent (black) proposes a takeback on Lichess."""
        self.takeback_offer["black"] = True
        self.lichess_state()

    def answer_takeback(self, accept: bool) -> None:
        """The opponent answers the person's takeback proposal."""
        assert self.takeback_offer["white"], "no takeback proposed"
        if accept:
            self._take_back(proposer_white=True)
        else:
            self.takeback_offer["white"] = False
        self.lichess_state()

    def opponent_plays(self) -> None:
        """The opponent's reply held back while `replies` is off."""
        self.lichess_moves.append(self.opponent.pop(0))
        self.lichess_state()

    def _answer(self, path: str) -> None:
        """Lichess took the call `path` made for later: the synchroniser is told, and
        Lichess's game changes as the call asks."""
        if path:
            self.run(self.sync.item("posted", path))
        if path.endswith("/takeback/yes"):
            if self.takeback_offer["black"]:
                self._take_back(proposer_white=False)
            else:
                self.takeback_offer["white"] = True
        elif path.endswith("/takeback/no"):
            self.takeback_offer = {"white": False, "black": False}
        self.lichess_state()

    def _take_back(self, *, proposer_white: bool) -> None:
        """Back to the proposer's turn, as Lichess does: one ply if they moved last, else
        two; then the opponent replies if it is their turn."""
        white_to_move = len(self.lichess_moves) % 2 == 0
        plies = 1 if white_to_move != proposer_white else 2
        del self.lichess_moves[-plies:]
        self.takeback_offer = {"white": False, "black": False}
        if len(self.lichess_moves) % 2 == 1 and self.replies and self.opponent:
            self.lichess_moves.append(self.opponent.pop(0))

    # ----- time passes -----

    def turn(self) -> None:
        """One turn of the bridge's loop: the link kept up, then a step of the sync."""
        self.follower.keep_up(0.05)
        news, self._news = self._news, []
        for path in news:
            self._answer(path)
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


def _in_step(world: _World, plies: int) -> bool:
    """The board and Lichess have the same game, of `plies` plies or more."""
    played = world.pair.moves()
    return len(played) >= plies and world.lichess_moves == played


def _taken_back(world: _World) -> list[str]:
    return [m.effect.uci for m in world.pair.effects if isinstance(m.effect, TakenBack)]


def _playing(world: _World, script: list[str], limit: int) -> Person[BoardPair]:
    """The game adopted, and the person playing along (`script`, up to `limit` plies)."""
    world.start()
    person = world.person
    person.script, person.limit = script, limit
    world.pair.watch(person.step)
    return person


def test_a_move_taken_back_by_hand_proposes_a_takeback() -> None:
    world = _World()
    world.opponent = ["e7e5", "b8c6", "g8f6", "d7d6"]
    person = _playing(world, ["e2e4", "g1f3"], limit=4)
    world.until(lambda: _in_step(world, 4), "four plies on both")
    # The opponent's move put back by hand: a takeback proposed, which the opponent
    # declines, and the move is lit again for the person to carry out.
    world.take_back()
    world.until(lambda: world.takeback_offer["white"], "the takeback proposed")
    assert world.pair.moves() == ["e2e4", "e7e5", "g1f3"]
    assert any(line.startswith("b8c6 taken back on the board: proposing a takeback")
               for line in world.said), world.said  # fmt: skip
    world.answer_takeback(False)
    world.until(lambda: _in_step(world, 4), "b8c6 carried out again")
    assert "your opponent declined the takeback: the game goes on" in world.said
    # Again, and this time taken: Lichess goes back two plies, the board one more.
    world.take_back()
    world.until(lambda: world.takeback_offer["white"], "the takeback proposed again")
    person.script = ["b1c3"]
    world.answer_takeback(True)
    world.until(lambda: world.pair.moves()[2:3] == ["b1c3"], "b1c3 on the board")
    world.until(lambda: _in_step(world, 4), "g8f6 carried out")
    # With the opponent's proposal standing, a move put back by hand accepts it.
    world.propose_takeback()
    world.until(lambda: any("proposes a takeback" in line for line in world.said),
                "the opponent's proposal told")  # fmt: skip
    world.take_back()
    world.until(lambda: any("accepting the takeback" in line for line in world.said),
                "the proposal accepted")  # fmt: skip
    world.until(lambda: len(world.lichess_moves) == 4 and _in_step(world, 4), "d7d6 played")
    assert world.lichess_moves == ["e2e4", "e7e5", "b1c3", "d7d6"]
    assert _taken_back(world)[:3] == ["b8c6", "b8c6", "g1f3"], _taken_back(world)
    assert world.later.count(f"/api/board/game/{GAME}/takeback/yes") == 3
    assert world.posts.count(f"/api/board/game/{GAME}/move/g1f3") == 1


def test_the_persons_own_move_put_back_before_the_reply() -> None:
    world = _World()
    world.opponent = ["e7e5", "b8c6"]
    person = _playing(world, ["e2e4", "g1f3"], limit=2)
    world.until(lambda: _in_step(world, 2), "two plies on both")
    world.replies = False  # the opponent thinks
    person.limit = 3
    world.until(lambda: _in_step(world, 3), "g1f3 on both")
    # g1f3 put back by hand: a takeback proposed; declined, g1f3 is lit again and
    # carried out, and is not sent to Lichess again.
    person.limit = 2
    world.take_back()
    world.until(lambda: world.takeback_offer["white"], "the takeback proposed")
    world.answer_takeback(False)
    world.until(lambda: "Lichess has g1f3: carry it out on the board" in world.said,
                "g1f3 lit again")  # fmt: skip
    world.until(lambda: _in_step(world, 3), "g1f3 carried out again")
    # Again, and taken: one ply back on Lichess too, and the person plays another.
    world.take_back()
    world.until(lambda: world.takeback_offer["white"], "the takeback proposed again")
    person.script, person.limit = ["b1c3"], 3
    world.answer_takeback(True)
    world.until(lambda: world.lichess_moves == ["e2e4", "e7e5", "b1c3"], "b1c3 on Lichess")
    world.opponent_plays()
    world.until(lambda: _in_step(world, 4), "b8c6 carried out")
    move = f"/api/board/game/{GAME}/move/"
    assert world.posts.count(move + "g1f3") == 1 and move + "b1c3" in world.posts
    assert _taken_back(world) == ["g1f3", "g1f3"]
    assert "your opponent declined the takeback: the game goes on" in world.said


def _a_first_move_settling_when_the_game_arrives(world: _World, lines: list[Any]) -> None:
    """The person's first move complete on the board, not yet made (the board waits for
    it to settle), when Lichess's game arrives."""
    placed = world.pair.push(lines)
    world.pair.advance((placed - world.pair.clock.now_ms() + 50) / 1000)
    assert world.pair.moves() == [], "the move was made before the game arrived"
    world.start()
    for _ in range(40):  # two seconds of the bridge's turns
        world.turn()


def test_a_first_move_settling_when_the_game_arrives_goes_to_lichess() -> None:
    # e2-e3 may still grow into e2-e4: the board waits `settle_ms` (300 ms) of stillness.
    world = _World()
    _a_first_move_settling_when_the_game_arrives(world, [(0, "lift", "e2"), (200, "place", "e3")])
    assert world.lichess_moves == ["e2e3"], world.said
    assert world.pair.moves() == ["e2e3"]


def test_a_first_knight_move_resting_when_the_game_arrives_goes_to_lichess() -> None:
    # A move that cannot grow is made once its piece has rested 150 ms.
    world = _World()
    _a_first_move_settling_when_the_game_arrives(world, [(0, "lift", "g1"), (200, "place", "f3")])
    assert world.lichess_moves == ["g1f3"], world.said
    assert world.pair.moves() == ["g1f3"]
