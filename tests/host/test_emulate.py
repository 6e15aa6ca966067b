"""`reedboard-host emulate dgt`'s bridge on the board and host pair in memory: the DGT
software's bytes handed to it directly, its answers decoded as a DGT client does. The
program itself on a real pty: tests/link/test_emulation_pty.py."""

from __future__ import annotations

import chess
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.emulate import emulate
from reedboard_host.follow import Follower

from tests.link.emulated import DgtClient
from tests.support.board_pair import BoardPair

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
        return client().board_fen() == after_e4.board_fen()

    emulate("dgt", follower, software, stop)
    assert pushed and pair.moves() == ["e2e4"]
    assert (chess.E4, 1) in [  # the pawn's arrival, reported as a field update
        (chess.parse_square(name), code)
        for name, code in DgtClient().feed(bytes(software.received))
    ]
