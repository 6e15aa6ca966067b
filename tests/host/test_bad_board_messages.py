"""A board message with a wrong field never stops the host: it is checked where the host
decodes it, logged in one line naming the message and the field, and skipped, and the
messages after it go on as before. Through the host's real connection, its endpoint, and
the game mirror, on a wire in memory whose board side the test writes."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from reedboard.link.frame import FrameDecoder, crc32_hex, encode_frame
from reedboard.link.messages import AskMoves
from reedboard.rules.fen import STARTING_FEN
from reedboard_host.connection import BoardConnection, RefusedError
from reedboard_host.mirror import GameMirror

from tests.support.logged import logged

INF, NAN = math.inf, math.nan
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


class _Wire:
    """The line between the test, writing the board's side, and the host's connection: the
    host's `BoardPort`. What the test wrote is there to read at once; waiting for more
    moves the host's virtual clock on (nothing else will come)."""

    def __init__(self) -> None:
        self.to_host = bytearray()
        self.from_host = bytearray()
        self.now_s = 0.0

    def read(self, wait_s: float = 0.0) -> bytes:
        data = bytes(self.to_host)
        self.to_host.clear()
        if not data:
            self.now_s += wait_s
        return data

    def write(self, data: bytes) -> None:
        self.from_host += data

    def close(self) -> None:
        pass

    # the host's clock
    def monotonic(self) -> float:
        return self.now_s

    def sleep(self, seconds: float) -> None:
        self.now_s += seconds


class Board:
    """The board's end of the wire, written by the test; the host's connection on the other."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.wire = _Wire()
        self.mirror = GameMirror()
        self.caplog = caplog
        self.host = BoardConnection(
            "wire",
            on_message=self.mirror.apply,
            open_port=lambda _url: self.wire,
            clock=self.wire,
        )
        self.decoder = FrameDecoder()
        self.write({"type": "hello", "seq": 1, "id": 1, "protocol": 1, "session": "s", "game": 7})
        self.host.open()
        self.write(
            {"type": "state", "seq": 2, "game": 7, "start_fen": STARTING_FEN, "chess960": False,
             "moves": ["e2e4"], "result": None, "reason": None}
        )  # fmt: skip
        self.host.poll(0.2)
        assert self.moves() == ["e2e4"]

    def write(self, message: dict[str, Any]) -> None:
        self.wire.to_host += encode_frame(message)

    def write_raw(self, text: str) -> None:
        payload = text.encode()
        self.wire.to_host += payload + b"*" + crc32_hex(payload).encode() + b"\n"

    def moves(self) -> list[str]:
        current = self.mirror.current
        assert current is not None
        game = current.game
        return [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]

    def heard(self) -> list[dict[str, Any]]:
        """What the host has written to the board so far."""
        out = self.decoder.feed(bytes(self.wire.from_host))
        self.wire.from_host.clear()
        return out

    def poll_until(self, done: Any) -> None:
        for _ in range(100):  # each poll returns as soon as bytes arrive
            if done():
                return
            self.host.poll(0.1)
        assert done()

    @property
    def logged(self) -> list[str]:
        """What the host's connection logged."""
        return logged(self.caplog, "reedboard_host")

    def close(self) -> None:
        self.host.close()


@pytest.fixture
def board(caplog: pytest.LogCaptureFixture) -> Iterator[Board]:
    board = Board(caplog)
    yield board
    board.close()


def move(**fields: Any) -> dict[str, Any]:
    return {"type": "effect", "seq": 3, "event": "move", "game": 7, "uci": "e7e5",
            "san": "e5", "fen": AFTER_E4, "ply": 2, "t_ms": 5, **fields}  # fmt: skip


def effect(event: object, **fields: Any) -> dict[str, Any]:  # bad events too
    return {"type": "effect", "seq": 3, "event": event, "game": 7, "t_ms": 5, **fields}


def state(**fields: Any) -> dict[str, Any]:
    return {"type": "state", "seq": 3, "game": 7, "start_fen": STARTING_FEN, "chess960": False,
            "moves": ["e2e4", "e7e5"], "result": None, "reason": None, **fields}  # fmt: skip


def without(message: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k != name}


# (the field named in the log line, the bad message numbered 3)
BAD: list[tuple[str, dict[str, Any]]] = [
    ("game", move(game="x")),
    ("game", move(game=INF)),
    ("game", move(game=NAN)),
    ("game", move(game=-1)),
    ("game", move(game=1.5)),
    ("game", move(game=None)),
    ("game", move(game=2**64)),
    ("ply", move(ply="x")),
    ("ply", move(ply=INF)),
    ("ply", move(ply=0)),
    ("ply", move(ply=None)),
    ("ply", move(ply=True)),
    ("ply", without(move(), "ply")),
    ("uci", move(uci=5)),
    ("uci", move(uci="zz")),
    ("uci", move(uci="e7e5k")),
    ("uci", without(move(), "uci")),
    ("t_ms", move(t_ms="x")),
    ("event", effect(5)),
    ("fen", effect("new_game", fen="not a fen")),
    ("fen", effect("new_game", fen=None)),
    ("fen", effect("new_game")),
    ("chess960", effect("new_game", fen=STARTING_FEN, chess960="yes")),
    ("result", effect("game_over", result="2-0", reason="checkmate")),
    ("result", effect("game_over", result=None, reason="checkmate")),
    ("reason", effect("game_over", result="1-0", reason=5)),
    ("square", effect("violation", rule="4.3", square="z9", message="")),
    ("uci", effect("takeback", uci=7, fen=STARTING_FEN)),
    ("missing", effect("illegal", missing=["e9"], extra=[], pairs=[])),
    ("start_fen", state(start_fen="x")),
    ("start_fen", state(start_fen=None)),
    ("moves", state(moves="e2e4 e7e5")),
    ("moves", state(moves=["e2e4", 5])),
    ("chess960", state(chess960="no")),
    ("game", state(game="x")),
    ("result", state(result="win")),
    ("occupancy", state(occupancy="zz")),
    ("hint", state(hint=["e2"])),
    ("session", {"type": "hello", "seq": 3, "protocol": 1, "session": 5}),
    ("seq", move(seq="3")),
    ("seq", move(seq=-3)),
    ("seq", move(seq=3.0)),
    ("seq", move(seq=None)),
    ("seq", move(seq=True)),
    ("seq", move(seq=INF)),
]


@pytest.mark.parametrize(
    ("field", "message"), BAD, ids=[f"{m['type']}.{f}={m.get(f)!r:.20}" for f, m in BAD]
)
def test_a_bad_board_message_is_logged_and_skipped(
    board: Board, field: str, message: dict[str, Any]
) -> None:
    board.write(message)
    # The next message is numbered 3 when the bad one's seq could not be placed.
    placed = field != "seq"
    board.write(move(seq=4 if placed else 3))
    board.poll_until(lambda: len(board.moves()) == 2)
    assert board.moves() == ["e2e4", "e7e5"]
    [line] = board.logged
    assert line.startswith("skipped a board message: ") and f" {field} " in line, line
    assert "\n" not in line
    if placed:  # the sequence stays whole: nothing is asked for again
        # (a host polls with `resend` for what may follow its last number; a gap it asks
        # to be filled names where the gap ends, `until`)
        assert not [m for m in board.heard() if m["type"] == "resend" and "until" in m]


def test_infinity_and_nan_as_the_board_writes_them(board: Board) -> None:
    board.write_raw('{"type":"effect","seq":3,"event":"move","game":Infinity,"uci":"e7e5","ply":2}')
    board.write_raw('{"type":"effect","seq":4,"event":"move","game":7,"uci":"e7e5","ply":NaN}')
    board.write(move(seq=5))
    board.poll_until(lambda: len(board.moves()) == 2)
    assert [line.split(": ", 2)[1] for line in board.logged] == ["move effect"] * 2


@pytest.mark.parametrize(
    ("field", "reply"),
    [
        ("moves", {"type": "moves", "from": 0, "moves": "e2e4", "plies": 1, "digest": "0" * 8}),
        ("plies", {"type": "moves", "from": 0, "moves": [], "plies": "1", "digest": "0" * 8}),
        ("digest", {"type": "moves", "from": 0, "moves": [], "plies": 0, "digest": 5}),
        ("from", {"type": "moves", "from": INF, "moves": [], "plies": 0, "digest": "0" * 8}),
        ("result", {"type": "ack", "result": "none"}),
        ("message", {"type": "error", "code": "refused", "message": 5}),
    ],
)
def test_a_bad_reply_fails_its_command_at_once(
    board: Board, field: str, reply: dict[str, Any]
) -> None:
    board.write({**reply, "seq": 3, "id": 2})  # the next command's id
    with pytest.raises(RefusedError, match=f"unreadable reply .*{field}"):
        board.host.request(AskMoves(), timeout_s=30, attempts=1)
    [line] = board.logged
    assert f" {field} " in line
    board.write(move(seq=4))
    board.poll_until(lambda: len(board.moves()) == 2)
