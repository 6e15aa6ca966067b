"""`reedboard-host emulate dgt`'s bridge on the board and host pair in memory: the DGT
software's bytes handed to it directly, its answers decoded as a DGT client does. The
program itself on a real pty: tests/link/test_emulation_pty.py."""

from __future__ import annotations

import chess
import pytest
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import MoveMade
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.emulate import emulate
from reedboard_host.follow import Follower

from tests.link.emulated import DgtClient, dgt_clocks, dgt_messages
from tests.support.board_pair import BoardPair, HostEnd

LIMIT_MS = 600_000  # a bound in the pair's board time for a stuck run, never a wait


class _Software:
    """The DGT software's end: what it sends, and all it has received."""

    def __init__(self, sends: bytes) -> None:
        self.to_board = sends
        self.received = bytearray()

    def read(self) -> bytes:
        data, self.to_board = self.to_board, b""
        return data

    def write(self, data: bytes) -> None:
        self.received += data


def test_the_software_sees_the_board_and_a_move_made_on_it() -> None:
    pair = BoardPair()
    follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
    software = _Software(bytes((0x42, 0x44)))  # the board, then every change
    start = Position.standard()
    pushed: list[bool] = []
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")

    def client() -> DgtClient:
        seen = DgtClient()
        seen.feed(bytes(software.received))
        return seen

    def stop() -> bool:
        assert pair.clock.now_ms() < LIMIT_MS, bytes(software.received).hex()
        if not pushed and client().board_fen() == chess.Board().board_fen():
            pair.push(human_script(start, [start.parse_uci("e2e4")], seed=3).lines)
            pushed.append(True)
        # The software sees the pieces as they stand (a DGT board's way); the board makes
        # the move once its piece has rested.
        return client().board_fen() == after_e4.board_fen() and pair.moves() == ["e2e4"]

    emulate("dgt", follower, software, stop)
    assert pushed and pair.moves() == ["e2e4"]
    assert (chess.E4, 1) in [  # the pawn's arrival, reported as a field update
        (chess.parse_square(name), code)
        for name, code in DgtClient().feed(bytes(software.received))
    ]


SEEN_WITHIN_MS = 200  # a poll (100 ms), the board's debounce and a turn of the loop


def _capture_seen_ms(offset_ms: int) -> tuple[int, str, list[str]]:
    """1.e4 d5 2.exd5 by a hand that holds the capturer while the victim goes and the
    capturer lands 25 ms later, `offset_ms` after the board answered a `state`: board ms
    from the placement to the client showing the pawn on d5 (or -1), the client's board
    then, and the board's moves then."""
    pair = BoardPair(start=_opened())
    follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
    software = _Software(bytes((0x42, 0x44)))
    placed: list[int] = []
    seen: list[int] = []
    states = [0]

    def client() -> DgtClient:
        seen_board = DgtClient()
        seen_board.feed(bytes(software.received))
        return seen_board

    def stop() -> bool:
        assert pair.clock.now_ms() < LIMIT_MS, bytes(software.received).hex()
        answered = pair.answered.count("state")
        now = pair.clock.now_ms()
        if not placed and now > 1000 and answered > states[0]:
            pair.push([(0, "lift", "e4")])  # the capturer in the hand, seen by a poll
            end = pair.push([(400 + offset_ms, "lift", "d5"), (425 + offset_ms, "place", "d5")])
            placed.append(end)
        states[0] = answered
        if placed and not seen and client().board_fen() == _after("e2e4", "d7d5", "e4d5"):
            seen.append(now - placed[0])
        return bool(placed) and now >= placed[0] + SEEN_WITHIN_MS

    emulate("dgt", follower, software, stop)
    return (seen[0] if seen else -1), client().board_fen(), pair.moves()


@pytest.mark.parametrize("offset_ms", range(0, 100, 20))
def test_a_capture_shows_the_capturer_as_soon_as_it_lands(offset_ms: int) -> None:
    """The victim is lifted and the capturer placed between two of the host's polls: the
    client sees the capturer on the square within a poll of its landing, as on a DGT
    board, not the victim until the board commits the capture."""
    seen_ms, board_fen, moves = _capture_seen_ms(offset_ms)
    assert 0 <= seen_ms < SEEN_WITHIN_MS, (board_fen, moves)


class _SlowLine(HostEnd):
    """The host's port on a busy line: what the board says reaches the host only at the
    end of each wait, so a reply and the effects that followed it come in one read."""

    def read(self, wait_s: float = 0.0) -> bytes:
        self._check()
        self.pair.deliver()
        if wait_s > 0:
            self.pair.advance(wait_s)
        self._check()
        data = bytes(self.pair.to_host)
        self.pair.to_host.clear()
        return data


class _DeafLine(HostEnd):
    """The host's port on a line that loses what the host sends while `deaf`."""

    deaf = False

    def write(self, data: bytes) -> None:
        if not self.deaf:
            super().write(data)


def _after(*ucis: str) -> str:
    board = chess.Board()
    for uci in ucis:
        board.push_uci(uci)
    return board.board_fen()


def _opened() -> Game:
    """The game after 1.e4 d5."""
    start = Game(Position.standard())
    for uci in ("e2e4", "d7d5"):
        start.push(start.position.parse_uci(uci))
    return start


@pytest.mark.parametrize("offset_ms", range(0, 100, 20))
def test_the_move_shows_the_moment_the_host_holds_it(offset_ms: int) -> None:
    """On a line that hands over the board's bytes in batches, a `state` the board made
    before it committed 2.exd5 arrives with the move: from the turn the host holds the
    move on, the client's board is the position after it, never the one before."""
    pair = BoardPair(start=_opened())
    follower = Follower("memory", open_port=lambda _url: _SlowLine(pair), clock=pair.host_clock)
    software = _Software(bytes((0x42, 0x44)))
    pushed: list[int] = []
    wrong: list[str] = []

    def stop() -> bool:
        now = pair.clock.now_ms()
        assert now < LIMIT_MS, bytes(software.received).hex()
        if not pushed and now > 1000:
            lines = [(0, "lift", "e4"), (400, "lift", "d5"), (425 + offset_ms, "place", "d5")]
            pushed.append(pair.push(lines))
        current = follower.mirror.current
        held = current is not None and len(current.game.moves) == 3
        client = DgtClient()
        client.feed(bytes(software.received))
        if held and client.board_fen() != _after("e2e4", "d7d5", "e4d5"):
            wrong.append(client.board_fen())
        return held and now > pushed[0] + 3000

    emulate("dgt", follower, software, stop)
    assert pair.moves() == ["e2e4", "d7d5", "e4d5"]
    assert not wrong, wrong[:3]


def test_the_client_is_answered_while_the_board_is_not() -> None:
    """The board hears nothing the host sends for a while (its `state` requests are
    lost): the client's request for the board is answered at once, from the view the
    emulation has, not once the host gives up waiting."""
    pair = BoardPair()
    line = _DeafLine(pair)
    follower = Follower("memory", open_port=lambda _url: line, clock=pair.host_clock)
    software = _Software(bytes((0x44,)))
    asked_at: list[int] = []
    answered_at: list[int] = []

    def stop() -> bool:
        now = pair.clock.now_ms()
        assert now < LIMIT_MS, bytes(software.received).hex()
        if not asked_at and now > 1000:
            line.deaf = True
            software.to_board = bytes((0x42,))
            asked_at.append(now)
        dumps = [kind for kind, _ in dgt_messages(bytes(software.received)) if kind == 0x86]
        if asked_at and dumps and not answered_at:
            answered_at.append(now)
        return bool(answered_at) or (bool(asked_at) and now > asked_at[0] + 5000)

    emulate("dgt", follower, software, stop)
    assert answered_at, "the client's request was never answered"
    assert answered_at[0] - asked_at[0] <= 100
    client = DgtClient()
    client.feed(bytes(software.received))
    assert client.board_fen() == chess.Board().board_fen()


def test_the_clocks_of_a_timed_game_reach_the_client() -> None:
    """A 5+0 game: after 1.e4 the client in update mode (`4b`, as picochess asks) gets
    the clock (`BWTIME`) without asking: White's time as the board's move gave it,
    stopped; Black's running, a message each second it shows; and again when asked."""
    pair = BoardPair(settings=Settings(time_control=parse_time_control("5+0")))
    follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
    software = _Software(bytes((0x42, 0x4B)))
    position = Position.standard()
    moved_at: list[int] = []  # the bytes the client had when the board moved
    asked_at: list[int] = []  # the bytes the client had when it asked for the clock

    def stop() -> bool:
        now = pair.clock.now_ms()
        assert now < LIMIT_MS, bytes(software.received).hex()
        if now > 1000 and not pair.moves() and not pair.effects:
            pair.push(human_script(position, [position.parse_uci("e2e4")], seed=3).lines)
        if pair.moves() and not moved_at:
            moved_at.append(len(software.received))
        if asked_at:
            return True  # one turn of the emulation since the client asked
        if moved_at and now > pair.effects[-1].effect.t_ms + 3500:
            software.to_board = bytes((0x41,))
            asked_at.append(len(software.received))
        return False

    emulate("dgt", follower, software, stop)
    move = next(m.effect for m in pair.effects if isinstance(m.effect, MoveMade))
    assert move.clock is not None
    white_ms, black_ms = move.clock
    clocks = dgt_clocks(bytes(software.received[moved_at[0] : asked_at[0]]))
    assert len(clocks) >= 3
    assert all(c.left_s == -(-white_ms // 1000) and not c.left_turn for c in clocks)
    assert all(c.running and c.right_turn and c.right_high for c in clocks[1:])
    seconds = [c.right_s for c in clocks]
    assert seconds[0] <= -(-black_ms // 1000) and seconds[-1] <= seconds[0] - 3
    [answer] = dgt_clocks(bytes(software.received[asked_at[0] :]))  # within the turn
    assert answer.left_s == clocks[-1].left_s and answer.right_s <= seconds[-1]
