"""`reedboard-host lichess` against a stand-in Lichess (tests/host/lichess_standin.py, in
Lichess's published shapes), with the board on the in-memory pair and its virtual clock
(`bridge_on_pair.py`; one test keeps the command a real program with a real board behind
a pty) and the human model as the person at it: seeks and challenges both ways, moves both ways (Lichess refusing
one), draw offers from either side and agreed on the board, takebacks proposed by either
side, typed or made by hand, claims when the opponent has left, a game joined in progress,
streams that drop, Chess960 with castling on both sides, odd lines from the server; a move
Lichess refuses with 429 (kept on the board through Lichess's minute, on the test's clock),
a game gone from Lichess (404), and the token: never printed, never sent elsewhere, and a
bad token or server one line with exit status 2 (the refusals by the command's `main` in
the test's process; a token Lichess refuses by the program)."""

from __future__ import annotations

import random
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from reedboard.lichess.api import RATE_LIMIT_S
from reedboard.rules.position import Position
from reedboard_host import cli

from tests.children import stop
from tests.host.lichess.bridge_on_pair import PairedBridge, bridge_on_pair
from tests.host.lichess_standin import OPPONENT, HeaderRecorder, ManualClock, StandIn
from tests.host.running_board import RunningBoard, host_command
from tests.support.board_pair import BoardPair
from tests.support.host_on_pair import Ran
from tests.support.person import Person

TOKEN = "lip_secretStandInToken42"
# Chess960 with the kings beside their rooks: after one knight move each side may castle
# by moving the rook alone (king takes rook: g1h1), a castling the hands must show.
CHESS960_FEN = "rnbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBBQNKR w KQkq - 0 1"


class Bridge:
    """`reedboard-host lichess` as a program: its stderr collected, lines typed to it."""

    def __init__(self, board: RunningBoard, *args: str) -> None:
        self.board = board
        self.err: list[str] = []
        self.process = subprocess.Popen(
            host_command("lichess", *args),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self._drain = threading.Thread(target=self._read, daemon=True)
        self._drain.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.err.append(line)

    @property
    def stderr(self) -> str:
        return "".join(self.err)

    def said(self, text: str) -> bool:
        return text in self.stderr

    def alive(self) -> bool:
        return self.process.poll() is None

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def stop(self) -> int:
        """Ctrl-C, and a kill if that does not end it."""
        code = stop(self.process, signal.SIGINT)
        self._drain.join(5)
        return code


@contextmanager
def bridge_to(
    lichess: StandIn, board: RunningBoard, tmp_path: Path, *args: str
) -> Iterator[Bridge]:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    bridge = Bridge(
        board, "--token-file", str(token_file), "--port", board.port, "--server", lichess.url,
        *args,
    )  # fmt: skip
    try:
        yield bridge
    finally:
        code = bridge.stop()
    assert code == 0, bridge.stderr
    assert TOKEN not in bridge.stderr and "Traceback" not in bridge.stderr, bridge.stderr
    assert lichess.auth_headers == {f"Bearer {TOKEN}"}


AnyBridge = Bridge | PairedBridge

# How long the bridge and the board may both stay silent before a wait fails: a bound for
# a stuck run. It is not a bound on the whole wait, which a loaded machine may stretch as
# far as it likes while the two go on doing things (pytest's time-out bounds the test).
STILL_S = 30


class _Stall:
    """Fails a wait once neither the bridge has said anything new nor the board has had
    a new effect for `still_s` seconds."""

    def __init__(self, bridge: AnyBridge, still_s: float) -> None:
        self.bridge, self.still_s = bridge, still_s
        self.seen = self._activity()
        self.deadline = time.monotonic() + still_s

    def _activity(self) -> tuple[int, int]:
        return len(self.bridge.stderr), len(self.bridge.board.effects)

    def stuck(self) -> bool:
        now, activity = time.monotonic(), self._activity()
        if activity != self.seen:
            self.seen, self.deadline = activity, now + self.still_s
        return now >= self.deadline


def play_until(
    person: Person[RunningBoard] | Person[BoardPair],
    bridge: AnyBridge,
    done: Callable[[], bool],
    still_s: float = STILL_S,
) -> None:
    """The person plays on until `done`; fails, with what the bridge said, once nothing
    has happened for `still_s`. On the pair, the person's hands act between the board's
    steps, on the bridge's thread."""
    if isinstance(bridge, PairedBridge):
        assert isinstance(person.board, BoardPair)
        bridge.hands(person)  # as on the running board: the person acts only meanwhile
        try:
            wait_until(done, bridge, still_s)
        finally:
            bridge.hands(None)
        return
    assert isinstance(person.board, RunningBoard)
    stall = _Stall(bridge, still_s)
    while not done():
        assert not stall.stuck(), (
            f"stuck for {still_s} s; the bridge said:\n{bridge.stderr}{_history(person.board)}"
        )
        assert bridge.alive(), bridge.stderr
        with person.board.changed:
            person.board.changed.wait(0.1)  # until the board shows something new
        person.step()


def effects_of(board: RunningBoard | BoardPair) -> list[dict[str, Any]]:
    """The board's effects as a host reads them."""
    if isinstance(board, BoardPair):
        return [message.to_wire() for message in list(board.effects)]
    return board.effects


def _history(board: RunningBoard | BoardPair) -> str:
    """The board's effects, one a line, for a failure's message."""
    return "\n".join(
        f"{e['event']} {e.get('fen') or e.get('uci') or e.get('square') or e.get('extra') or ''} {e.get('t_ms')}"
        for e in effects_of(board)
    )


def take_back(person: Person[RunningBoard] | Person[BoardPair], bridge: AnyBridge) -> None:
    """The person puts the board's last move back by hand, once the board is quiet."""
    wait_until(lambda: person.board.quiet_view() is not None, bridge)
    gesture(bridge, person.take_back)


def gesture(bridge: AnyBridge, hands: Callable[[], None]) -> None:
    """A gesture the test asks of the person: on the pair, between two of its steps."""
    if isinstance(bridge, PairedBridge):
        bridge.on_board(hands)
    else:
        hands()


def in_step(
    lichess: StandIn, board: RunningBoard | BoardPair, plies: int, start: int = 0
) -> Callable[[], bool]:
    def check() -> bool:
        played = board.moves() if board.app.board_game is not None else []
        return len(played) >= plies and lichess.moves(start) == played

    return check


def wait_until(condition: Callable[[], bool], bridge: AnyBridge, still_s: float = STILL_S) -> None:
    """Poll `condition` until it holds; fail once nothing has happened for `still_s`."""
    stall = _Stall(bridge, still_s)
    while not condition():
        assert not stall.stuck(), (
            f"stuck for {still_s} s; the bridge said:\n{bridge.stderr}{_history(bridge.board)}"
        )
        time.sleep(0.02)


def streamed(lichess: StandIn, bridge: AnyBridge) -> None:
    """Wait until the game's stream has sent the stand-in's latest change (an offer): it
    sends only the latest state it finds, so an offer answered before it went out would
    reach the bridge as no offer at all, and its answer as nothing new."""
    with lichess.changed:
        version = lichess.version
    wait_until(lambda: lichess.streamed_version >= version, bridge)


def game_over_reason(board: RunningBoard | BoardPair) -> str | None:
    over = [e for e in effects_of(board) if e["event"] == "game_over"]
    return over[-1]["reason"] if over else None


def test_a_seek_game_with_a_refused_move_and_dropped_streams() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.refuse_plies = {3}  # the person's second move
        with bridge_on_pair(lichess, board, TOKEN, "--seek", "15+10") as bridge:
            person = Person(board, random.Random(11), white=True)
            play_until(person, bridge, in_step(lichess, board, 6))
            lichess.drop_streams()
            wait_until(lambda: lichess.stream_opens.get("game", 0) >= 2, bridge)
            play_until(person, bridge, in_step(lichess, board, 12))
            bridge.type("resign")
            wait_until(lambda: lichess.status == "resign", bridge)
            wait_until(lambda: game_over_reason(board) == "resignation", bridge)
    stderr = bridge.stderr
    assert lichess.seeks == [{"rated": "false", "time": "15", "increment": "10"}]
    assert len(lichess.refused) == 1 and f"Lichess did not take {lichess.refused[0]}" in stderr
    assert lichess.stream_opens["events"] >= 2 and lichess.stream_opens["game"] >= 2
    # Every move of the person's reached Lichess once: no move posted twice, none lost.
    posted = [p for p in lichess.posts if p.startswith("move/")]
    assert len(posted) == len(lichess.moves()[0::2]) + 1, lichess.posts
    assert "resign" in lichess.posts
    assert "your opponent plays" in stderr and "chat StandIn: good luck" in stderr
    assert stderr.count("chat StandIn") == 1  # the reopened stream is not a new game


def test_a_challenge_accepted_and_draw_offers_answered() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        args = ("--challenge", "Friend", "--clock", "5+3", "--rated")
        with bridge_on_pair(lichess, board, TOKEN, *args) as bridge:
            # No move of the person's under way when the opponent offers a draw: a move
            # on Lichess ends the offer before the person could answer it.
            person = Person(board, random.Random(3), white=True, limit=4)
            play_until(person, bridge, in_step(lichess, board, 4))
            lichess.offer_draw()
            wait_until(lambda: bridge.said("your opponent offers a draw"), bridge)
            bridge.type("no")
            wait_until(lambda: "draw/no" in lichess.posts, bridge)
            person.limit = 6
            play_until(person, bridge, in_step(lichess, board, 6))
            lichess.offer_draw()
            wait_until(lambda: bridge.stderr.count("your opponent offers a draw") == 2, bridge)
            bridge.type("draw")
            wait_until(lambda: lichess.status == "draw", bridge)
            wait_until(lambda: game_over_reason(board) == "agreement", bridge)
    assert lichess.challenges == [("Friend", {"rated": "true", "clock.limit": "300",
                                              "clock.increment": "3", "keepAliveStream": "true"})]  # fmt: skip
    assert lichess.posts.count("draw/yes") == 1
    assert "challenge sent: https://lichess.org/chal1234" in bridge.stderr
    assert "accepting the draw" in bridge.stderr


def test_a_declined_chess960_challenge_is_one_line(tmp_path: Path) -> None:
    with StandIn(TOKEN) as lichess, RunningBoard(speed=20) as board:
        lichess.answer = "decline"
        args = ("--challenge", "Friend", "--clock", "0.5+0", "--variant", "chess960")
        with bridge_to(lichess, board, tmp_path, *args) as bridge:
            wait_until(lambda: bridge.said("declined"), bridge)
    assert lichess.challenges == [("Friend", {"rated": "false", "clock.limit": "30",
                                              "clock.increment": "0", "keepAliveStream": "true",
                                              "variant": "chess960"})]  # fmt: skip
    declined = [line for line in bridge.err if "declined" in line]
    assert declined == [
        "reedboard-host: lichess: Friend declined your challenge: "
        "I'm not accepting challenges at the moment.\n"
    ], bridge.stderr


def test_incoming_challenges_and_a_chess960_game_drawn_on_the_board() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.send_challenge("atom0001", OPPONENT, variant="atomic")
        lichess.send_challenge("strange1", {"id": "stranger", "name": "Stranger"})
        lichess.send_challenge("c9600001", OPPONENT, variant="chess960", fen=CHESS960_FEN)
        lichess.opponent_script = ["f8g6", "g8h8"]  # a knight out, then castling
        with bridge_on_pair(lichess, board, TOKEN, "--accept", "StandIn") as bridge:
            person = Person(board, random.Random(7), white=True, script=["f1g3", "g1h1"])
            person.limit = 4  # then the board stays still for the draw
            play_until(person, bridge, in_step(lichess, board, 4))
            assert board.moves() == ["f1g3", "f8g6", "g1h1", "g8h8"]  # both castled
            # A draw agreed on the board that Lichess's opponent turns down: the board
            # starts again from the position, and the game goes on.
            gesture(bridge, person.agree_draw)
            wait_until(lambda: "draw/yes" in lichess.posts, bridge)
            streamed(lichess, bridge)  # the offer seen standing, then turned down
            lichess.decline_draw()
            wait_until(lambda: bridge.said("did not take the draw"), bridge)
            person.limit = 2  # moves of the board's new game
            play_until(person, bridge, in_step(lichess, board, 2, start=4))
            # Then a draw offered by typing, with nobody's offer to answer: taken.
            lichess.accepts_draws = True
            bridge.type("draw")
            wait_until(lambda: lichess.status == "draw", bridge)
            wait_until(lambda: game_over_reason(board) == "agreement", bridge)
    assert lichess.declined == {"atom0001": "variant"}
    assert lichess.accepted == ["c9600001"]
    assert "strange1" in lichess.pending  # left for the person to answer on Lichess
    assert lichess.posts.count("draw/yes") == 2
    stderr = bridge.stderr
    assert "Stranger (1500) challenges you to a casual Standard game, 10+5: not from" in stderr
    assert "draw agreed on the board" in stderr and "offering a draw" in stderr


def test_a_game_from_a_position_with_castling_in_both_notations() -> None:
    fen = "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.start_game("frompos1", variant="fromPosition", fen=fen)
        lichess.opponent_script = ["e8h8"]
        with bridge_on_pair(lichess, board, TOKEN) as bridge:
            person = Person(board, random.Random(9), white=True, script=["e1c1"])
            play_until(person, bridge, in_step(lichess, board, 4))
    # Lichess writes castling as king takes rook; the board as the king's two steps.
    assert lichess.lichess_moves().split()[:2] == ["e1a1", "e8h8"]
    assert board.moves()[:2] == ["e1c1", "e8g8"]
    assert "move/e1c1" in lichess.posts


def test_a_mate_on_the_board_reaches_lichess() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.start_game(
            "mate0001", variant="fromPosition", fen="6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
        )
        with bridge_on_pair(lichess, board, TOKEN) as bridge:
            person = Person(board, random.Random(1), white=True, script=["a1a8"])
            play_until(person, bridge, lambda: lichess.status == "mate")
            wait_until(lambda: bridge.said("over on Lichess: mate, white wins"), bridge)
            # Lichess's clocks, as its game state gives them (the stand-in's 15+10).
            assert bridge.said("clocks on Lichess: White 15:00.0  Black 15:00.0")
    assert game_over_reason(board) == "checkmate"
    assert lichess.moves() == ["a1a8"]


def test_joining_a_game_in_progress_through_odd_lines() -> None:
    # White has castled, written as Lichess writes it (king takes rook); the person is black.
    moves = ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1")
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.garbage = True
        lichess.start_game("going123", me_white=False, moves=moves)
        with bridge_on_pair(lichess, board, TOKEN) as bridge:
            person = Person(board, random.Random(5), white=False)
            play_until(person, bridge, in_step(lichess, board, 4, start=len(moves)))
            lichess.say({"type": "opponentGone", "gone": True, "claimWinInSeconds": 8})
            lichess.say({"type": "opponentGone", "gone": False})
            play_until(person, bridge, in_step(lichess, board, 6, start=len(moves)))
            wait_until(lambda: bridge.said("the opponent is back"), bridge)
    assert board.app.board_game is not None
    assert (
        board.app.board_game.game.start.fen()
        == Position.from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
        ).fen()
    )
    assert "left the game: you may claim the win on Lichess in 8 s" in bridge.stderr
    assert "ignored an odd event message" in bridge.stderr
    assert "ignored an odd game message" in bridge.stderr  # the odd lines were read, and skipped


def test_a_bad_token_is_one_clear_line(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("lip_notTheRightOne\n")
    with StandIn(TOKEN) as lichess:
        result = subprocess.run(
            host_command("lichess", "--token-file", str(token_file), "--port", "/no/such/board",
                  "--server", lichess.url),
            capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("reedboard-host lichess: Lichess refused the token (401")
    assert "lip_notTheRightOne" not in result.stderr


def test_a_challenge_clock_lichess_does_not_offer_is_one_line(
    tmp_path: Path, in_process: Callable[..., Ran]
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    result = in_process("--token-file", str(token_file), "--server", "http://127.0.0.1:9",
                        "--challenge", "Friend", "--clock", "2.5+0")  # fmt: skip
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "whole minutes" in result.stderr


def _effects(board: RunningBoard | BoardPair, event: str) -> list[str]:
    return [e.get("uci", "") for e in effects_of(board) if e["event"] == event]


def test_the_opponents_takeback_declined_then_accepted() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.opponent_script = ["e7e5", "b8c6"]
        with bridge_on_pair(lichess, board, TOKEN, "--seek", "15+10") as bridge:
            person = Person(board, random.Random(4), white=True, script=["e2e4", "g1f3"])
            person.limit = 4
            play_until(person, bridge, in_step(lichess, board, 4))
            lichess.propose_takeback()
            wait_until(lambda: bridge.said("your opponent proposes a takeback"), bridge)
            bridge.type("no")
            wait_until(lambda: "takeback/no" in lichess.posts, bridge)
            # The state without the proposal must reach the bridge before the next proposal:
            # else the stream sends only the latest state, which looks like the first
            # proposal still standing, and nothing new is told.
            with lichess.changed:  # the post is handled under this lock: its change is made
                declined = lichess.version
            wait_until(lambda: lichess.streamed_version >= declined, bridge)
            assert lichess.moves() == board.moves() == ["e2e4", "e7e5", "g1f3", "b8c6"]
            # Asked again, and taken: Lichess goes back to before b8c6, the opponent plays
            # another move, and the board takes b8c6 back and lights the new one.
            lichess.opponent_script = ["g8f6"]
            lichess.propose_takeback()
            wait_until(
                lambda: bridge.stderr.count("your opponent proposes a takeback") == 2, bridge
            )
            bridge.type("takeback")
            play_until(person, bridge, lambda: board.moves() == ["e2e4", "e7e5", "g1f3", "g8f6"])
            person.limit = 6
            play_until(person, bridge, in_step(lichess, board, 6))
    assert lichess.posts.count("takeback/yes") == 1
    assert _effects(board, "takeback") == ["b8c6"]
    assert "declining the takeback" in bridge.stderr and "accepting the takeback" in bridge.stderr
    assert "taken back on Lichess: b8c6" in bridge.stderr


def test_a_typed_takeback_declined_and_then_taken() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.opponent_script = ["e7e5", "b8c6"]
        with bridge_on_pair(lichess, board, TOKEN, "--seek", "15+10") as bridge:
            person = Person(board, random.Random(6), white=True, script=["e2e4", "g1f3"])
            person.limit = 4
            play_until(person, bridge, in_step(lichess, board, 4))
            bridge.type("takeback")
            wait_until(lambda: lichess.takeback_offer["white"], bridge)
            streamed(lichess, bridge)  # the proposal seen standing, then turned down
            lichess.answer_takeback(False)
            wait_until(lambda: bridge.said("your opponent declined the takeback"), bridge)
            bridge.type("takeback")
            wait_until(lambda: lichess.takeback_offer["white"], bridge)
            # The person moved last but one: Lichess takes back two plies, and so does the
            # board, before the person plays on.
            person.script = ["d2d4"]
            lichess.opponent_script = ["d7d5"]
            lichess.answer_takeback(True)
            play_until(person, bridge, lambda: board.moves() == ["e2e4", "e7e5", "d2d4", "d7d5"])
            play_until(person, bridge, in_step(lichess, board, 4))
    assert _effects(board, "takeback") == ["b8c6", "g1f3"]
    assert lichess.posts.count("takeback/yes") == 2
    assert "proposing a takeback" in bridge.stderr


def test_a_move_put_back_by_hand_while_the_reply_is_lit() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.opponent_script = ["e7e5", "b8c6"]
        with bridge_on_pair(lichess, board, TOKEN, "--seek", "15+10") as bridge:
            person = Person(board, random.Random(16), white=True, script=["e2e4", "g1f3"])
            person.limit = 2
            play_until(person, bridge, in_step(lichess, board, 2))
            lichess.replies = False
            person.limit = 3
            play_until(person, bridge, in_step(lichess, board, 3))
            lichess.opponent_plays()
            wait_until(lambda: bridge.said("your opponent plays b8c6"), bridge)
            # g1f3 put back by hand with b8c6 lit: the light goes out, a takeback is
            # proposed, and taken: two plies back on Lichess, none more on the board.
            take_back(person, bridge)
            wait_until(lambda: board.view is not None and board.view.hint is None, bridge)
            wait_until(lambda: lichess.takeback_offer["white"], bridge)
            person.script = ["d2d4"]
            lichess.answer_takeback(True)
            lichess.opponent_script = ["d7d5"]
            play_until(person, bridge, lambda: lichess.moves()[2:] == ["d2d4"])
            lichess.opponent_plays()
            play_until(person, bridge, in_step(lichess, board, 4))
    assert board.moves() == ["e2e4", "e7e5", "d2d4", "d7d5"]
    assert _effects(board, "takeback") == ["g1f3"]


def test_claims_when_the_opponent_has_left() -> None:
    board = BoardPair()
    with (
        StandIn(TOKEN) as lichess,
        bridge_on_pair(lichess, board, TOKEN, "--seek", "15+10") as bridge,
    ):
        person = Person(board, random.Random(2), white=True, limit=2)
        play_until(person, bridge, in_step(lichess, board, 2))
        bridge.type("hello")
        wait_until(lambda: bridge.said("unknown command 'hello'"), bridge)
        lichess.opponent_leaves(30)
        wait_until(lambda: bridge.said("claim the win on Lichess in 30 s"), bridge)
        bridge.type("claim")  # too early: Lichess says no, and the game goes on
        wait_until(lambda: bridge.said("Lichess refused POST"), bridge)
        lichess.opponent_leaves(0)
        wait_until(lambda: bridge.said("the opponent has left the game: type `claim`"), bridge)
        bridge.type("claim")
        wait_until(lambda: lichess.status == "timeout", bridge)
        wait_until(lambda: game_over_reason(board) == "resignation", bridge)
        # The next game: a draw claimed.
        lichess.start_game("second01")
        wait_until(lambda: bridge.said("game second01 against"), bridge)
        play_until(
            person,
            bridge,
            lambda: len(_effects(board, "new_game")) >= 2 and in_step(lichess, board, 2)(),
        )
        lichess.opponent_leaves(0)
        wait_until(lambda: bridge.stderr.count("type `claim`") == 3, bridge)
        bridge.type("claim-draw")
        wait_until(lambda: lichess.status == "draw", bridge)
        wait_until(lambda: game_over_reason(board) == "agreement", bridge)
    assert lichess.posts.count("claim-victory") == 2 and lichess.posts.count("claim-draw") == 1
    commands = "resign, draw, takeback, no, abort, claim, claim-draw"
    assert f"unknown command 'hello': one of {commands}" in bridge.stderr
    assert "white wins" in bridge.stderr


def test_a_takeback_past_where_the_board_joined_sets_up_again() -> None:
    moves = ["e2e4", "e7e5", "g1f3", "b8c6"]
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.start_game("joined12", moves=tuple(moves))
        lichess.opponent_script = ["g8f6"]
        with bridge_on_pair(lichess, board, TOKEN) as bridge:
            person = Person(board, random.Random(14), white=True, script=["f1c4"], limit=2)
            play_until(person, bridge, in_step(lichess, board, 2, start=4))
            person.limit = 0
            bridge.type("takeback")
            wait_until(lambda: lichess.takeback_offer["white"], bridge)
            lichess.answer_takeback(True)  # back to where the board's game began
            play_until(
                person,
                bridge,
                lambda: board.moves() == [] and board.quiet_view() is not None,
            )
            assert lichess.moves() == moves
            bridge.type("takeback")
            wait_until(lambda: lichess.takeback_offer["white"], bridge)
            lichess.answer_takeback(True)  # two plies before it: the board starts again
            # No move until the board's new game is there: until the bridge has read
            # Lichess's news, the old game stands quiet with White to move, and a move
            # made in it is lost with it.
            play_until(
                person, bridge, lambda: bridge.stderr.count("set up the game's position") == 2
            )
            person.script, person.limit = ["d2d4"], 2
            play_until(person, bridge, in_step(lichess, board, 2, start=2))
    assert board.app.board_game is not None
    start = Position.standard()
    for uci in moves[:2]:
        start = start.play(start.parse_uci(uci))
    assert board.app.board_game.game.start.fen() == start.fen()
    assert board.moves()[0] == "d2d4", _history(board)


def test_a_move_refused_with_429_waits_on_the_board_for_the_minute() -> None:
    # Lichess answers the person's move with 429: the move stays on the board (no
    # takeback, nothing else to play), and goes to Lichess once its minute is over.
    clock = ManualClock()
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.start_game("wait0001")
        lichess.opponent_script = ["e7e5", "b8c6"]
        with bridge_on_pair(lichess, board, TOKEN, clock=clock) as bridge:
            person = Person(board, random.Random(17), True, script=["e2e4", "g1f3"], limit=2)
            play_until(person, bridge, in_step(lichess, board, 2))
            lichess.refuse_next["move"] = [429]
            person.limit = 3
            play_until(person, bridge, lambda: bridge.said("429 Too Many Requests"))
            assert bridge.said("g1f3 stays on the board and goes to Lichess then")
            assert bridge.api.paused_for() == RATE_LIMIT_S  # the clock has not moved
            assert lichess.requests["move"] == 2 and lichess.moves() == ["e2e4", "e7e5"]
            assert board.moves() == ["e2e4", "e7e5", "g1f3"]
            clock.advance(RATE_LIMIT_S)
            play_until(person, bridge, in_step(lichess, board, 4))
    assert bridge.said("g1f3 went to Lichess after the pause")
    assert lichess.posts.count("move/g1f3") == 1
    assert _effects(board, "takeback") == []
    assert "take it back" not in bridge.stderr and "did not take" not in bridge.stderr


def test_a_game_gone_from_lichess_is_left_for_the_next() -> None:
    board = BoardPair()
    with StandIn(TOKEN) as lichess:
        lichess.start_game("gone0001")
        with bridge_on_pair(lichess, board, TOKEN) as bridge:
            person = Person(board, random.Random(19), white=True, limit=2)
            play_until(person, bridge, in_step(lichess, board, 2))
            lichess.forget_game()  # its stream answers 404 from now on
            wait_until(lambda: bridge.said("game gone0001 is gone from Lichess (404)"), bridge)
            lichess.start_game("next0001")
            play_until(
                person,
                bridge,
                lambda: len(_effects(board, "new_game")) >= 2 and in_step(lichess, board, 2)(),
            )
    # One try for the game that is gone, one line to say so; the next game was taken up.
    assert lichess.not_found == ["/api/board/game/stream/gone0001"]
    assert bridge.stderr.count("gone0001") == 2, bridge.stderr  # its start, and its end
    assert "game next0001 against StandIn" in bridge.stderr


@pytest.fixture
def in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., Ran]:
    """`reedboard-host lichess ARGS --port /no/such/board` run by its `main` in the test's
    process, with `env` as its environment's Lichess token: what a refusal says and its
    exit status, as a program would have them (one refusal stays a program, above),
    without the program's start."""
    # The command listens for a stop; the test's process keeps its own signals.
    monkeypatch.setattr(cli, "stop_asked", lambda: lambda: False)

    def run(*args: str, env: dict[str, str] | None = None) -> Ran:
        monkeypatch.delenv("LICHESS_TOKEN", raising=False)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        capsys.readouterr()
        try:
            status = cli.main(["lichess", "--port", "/no/such/board", *args])
        except SystemExit as exit_:  # argparse's refusal of an argument
            status = exit_.code if isinstance(exit_.code, int) else 1
        out, err = capsys.readouterr()
        return Ran(status, out, err)

    return run


SECRET = "StandInToken"  # in every token below: never to be printed


@pytest.mark.parametrize(
    ("env", "file_text", "args", "said"),
    [
        ({"LICHESS_TOKEN": TOKEN + "\nX-Other: 1"}, None, [], "LICHESS_TOKEN is not a Lichess"),
        ({"LICHESS_TOKEN": "lip_" + SECRET + " 42"}, None, [], "LICHESS_TOKEN is not a Lichess"),
        ({"LICHESS_TOKEN": TOKEN + "\x07"}, None, [], "it holds a space, a line break, a control"),
        ({"LICHESS_TOKEN": "lip_" + SECRET + "é"}, None, [], "LICHESS_TOKEN is not a Lichess"),
        ({"LICHESS_TOKEN": "  "}, None, [], "LICHESS_TOKEN is empty"),
        ({}, None, [], "no Lichess token: give --token-file FILE or set LICHESS_TOKEN"),
        ({}, "", ["--token-file", "{file}"], "token is empty"),
        ({}, "\n" + TOKEN + "\n", ["--token-file", "{file}"], "is empty"),
        ({}, TOKEN + "\t1\n", ["--token-file", "{file}"], "is not a Lichess API token"),
        ({}, None, ["--token-file", "{file}"], "cannot read the token file"),
        ({}, None, ["--token-file", TOKEN], "--token-file names no file"),
        ({"LICHESS_TOKEN": TOKEN}, None, ["--server", "notaurl"], "--server 'notaurl' is not"),
        ({"LICHESS_TOKEN": TOKEN}, None, ["--server", "ftp://lichess.org"], "is not a server's"),
        ({"LICHESS_TOKEN": TOKEN}, None, ["--server", "https://"], "is not a server's URL"),
        ({"LICHESS_TOKEN": TOKEN}, None, ["--server", "https://lichess.org:x"], "is not a server"),
        ({"LICHESS_TOKEN": TOKEN}, None, ["--server", f"https://{TOKEN}@lichess.org"], "user name"),
        ({"LICHESS_TOKEN": TOKEN}, None, ["--seek", "15+10", "--challenge", "Friend"], "not both"),
    ],
    ids=[
        "env-newline",
        "env-space",
        "env-control",
        "env-not-ascii",
        "env-blank",
        "no-token",
        "file-empty",
        "file-first-line-empty",
        "file-tab",
        "file-missing",
        "file-is-the-token",
        "server-not-a-url",
        "server-ftp",
        "server-no-host",
        "server-bad-port",
        "server-with-token",
        "seek-and-challenge",
    ],
)
def test_a_bad_token_or_server_is_one_line_without_the_token(
    tmp_path: Path,
    in_process: Callable[..., Ran],
    env: dict[str, str],
    file_text: str | None,
    args: list[str],
    said: str,
) -> None:
    token_file = tmp_path / "token"
    if file_text is not None:
        token_file.write_text(file_text)
    result = in_process(*(a.replace("{file}", str(token_file)) for a in args), env=env)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reedboard-host lichess: "), result.stderr
    assert said in lines[0]
    assert SECRET not in result.stderr


def test_a_redirect_to_another_server_does_not_take_the_token(
    tmp_path: Path, in_process: Callable[..., Ran]
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    with StandIn(TOKEN) as lichess, HeaderRecorder() as elsewhere:
        lichess.redirect_to = elsewhere.url
        result = in_process("--token-file", str(token_file), "--server", lichess.url)
    assert elsewhere.headers == []  # not followed: nothing reached the other server
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "GET /api/account on to http://127.0.0.1:" in lines[0]
    assert "not followed" in lines[0] and SECRET not in result.stderr
