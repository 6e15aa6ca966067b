"""Nothing a host sends stops the board. Every field of every command is checked where the
link decodes it; a bad one gets an `error` reply naming the command and the field, and the
board goes on. Sent as frames through the running board's own loop (`App.step`): the
endpoint's decoding, the board game and the journal are the real ones."""

from __future__ import annotations

import itertools
import json
import math
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.journal.store import Journal
from reedboard.link.frame import FrameDecoder, crc32_hex, encode_frame
from reedboard.link.messages import HOST_TYPES, message_id
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.wire_link import WireLink
from tests.support.examples import examples
from tests.support.linked_pty import LinkedPty

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n"
NAN, INF = math.nan, math.inf
HUGE = 2**64
REPLIES = ("ack", "error", "state", "moves", "hello")


class Board:
    """A running board with a journal that has played 1. e4."""

    def __init__(self, tmp_path: Path) -> None:
        script = parse_script(SCRIPT)
        source = scripted_board(script, electrical=False)
        self.journal = Journal(tmp_path / "journal.sqlite")
        self.link = WireLink()
        self.app = App(
            Sensing(source, source=source),
            VirtualClock(),
            link=HostLink(self.link),
            journal=self.journal,
            game=GameSetup(start=Game(script.start)),
        )
        self.now = 0
        # A turn each 50 ms (the script's moments fall on them) plays 1. e4 to the same
        # state as a turn each 5 ms, for a sixth of the CPU: the board is made anew for
        # each of the 650 cases below.
        for self.now in range(0, 3000, 50):
            self.app.step(self.now)
        self.decoder = FrameDecoder()
        self.link.written.clear()
        self.ids = itertools.count(1_000_000)  # ids no other command sent uses

    def send(self, data: bytes) -> list[dict[str, Any]]:
        """Bytes from the host, taken by one turn of the board; what the board wrote."""
        self.now += 5
        self.app.step(self.now, data)
        out = self.decoder.feed(bytes(self.link.written))
        self.link.written.clear()
        # Numbered frames go out more than once in a turn (a repeat saves a host a resend
        # on a noisy line); a host keeps the first of each number, and so does this one.
        seen: set[int] = set()
        unique = []
        for message in out:
            seq = message.get("seq")
            if seq is not None:
                if seq in seen:
                    continue
                seen.add(seq)
            unique.append(message)
        return unique

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        [reply] = [m for m in self.send(encode_frame(message)) if m["type"] in REPLIES]
        return reply


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Board]:
    board = Board(tmp_path)
    yield board
    board.journal.close()


@pytest.fixture(scope="module")
def one_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    """One board for every case of the table: each case shows the board goes on, the
    game as it was, so the next case finds it as a fresh one would be (each case's ids
    are its own: a repeated id is answered with the reply it had). Made anew for each
    of 230 cases, the boards were most of the table's CPU."""
    board = Board(tmp_path_factory.mktemp("table"))
    yield board
    board.journal.close()


NOT_INT: list[object] = ["7", None, 1.5, NAN, INF, -INF, True, [], {}]


def ints(low: int, high: int) -> list[Any]:
    return [*NOT_INT, low - 1, high + 1, HUGE, -HUGE]


NOT_TEXT = [7, 1.5, NAN, INF, True, [], {}]
NOT_SQUARES = ["e4", 7, True, {}, ["e9"], ["E4"], [None], [7], [NAN], [["e4"]], ["a1"] * 65]

# (command, field, wrong values): every field of every command the board takes.
BAD_FIELDS: list[tuple[str, str, list[Any]]] = [
    ("hello", "protocol", ints(0, 2**31 - 1)),
    ("hello", "client", [*NOT_TEXT, "x" * 201]),
    ("resend", "after", ints(0, 2**53 - 1)),
    ("resend", "session", NOT_TEXT),
    ("moves", "from", ints(0, 2**31 - 1)),
    ("new_game", "variant", ["fen", "", "STANDARD", *NOT_TEXT]),
    ("new_game", "number", ints(0, 959)),
    ("new_game", "fen", [*NOT_TEXT, "", "x", "8/8/8/8/8/8/8/8 w - - 0 1", "k" * 500]),
    ("mode", "mode", [None, "hard", "", *NOT_TEXT]),
    ("promotion", "piece", [None, "k", "p", "Q", "queen", "", *NOT_TEXT]),
    ("show", "uci", ["e2", "e2e4k", "e9e4", "e2e4qq", "0000", "", *NOT_TEXT]),
    ("mark", "squares", NOT_SQUARES),
    ("mark", "blink", NOT_SQUARES),
    ("brightness", "percent", ints(0, 100)),
    ("draw", "agreed", ["yes", 1, 0, 1.5, NAN, [], {}]),
    ("resign", "color", ["red", "", "White", *NOT_TEXT]),
    ("settings", "settle_ms", ints(1, 60_000)),
    ("settings", "castle_wait_ms", ints(1, 60_000)),
    ("settings", "knock_wait_ms", ints(1, 60_000)),
    ("settings", "speed", [1, "fast", None]),
    ("say", "what", ["", "e9", "E4", "everything", "x" * 201, *NOT_TEXT]),
    ("clock_add", "color", [None, "red", "", "White", *NOT_TEXT]),
    ("clock_add", "ms", [*ints(1, 3_600_000), 0]),
    ("clock_add", "game", [n for n in ints(0, 2**53 - 1) if n is not None]),
]
# What each command needs beside the field under test, to be otherwise right.
CONTEXT: dict[str, dict[str, Any]] = {
    "resend": {"after": 0},
    "new_game": {"variant": "chess960"},
    "mode": {"mode": "casual"},
    "promotion": {"piece": "q"},
    "brightness": {"percent": 50},
    "clock_add": {"color": "white", "ms": 120_000},
}
CASES = [
    pytest.param(command, name, value, id=f"{command}.{name}={value!r:.30}")
    for command, name, values in BAD_FIELDS
    for value in values
]


def test_the_table_covers_every_command_with_fields() -> None:
    without_fields = {"state", "takeback", "led_test"}
    assert {command for command, _, _ in BAD_FIELDS} | without_fields == set(HOST_TYPES)


@pytest.mark.parametrize(("command", "name", "value"), CASES)
def test_a_bad_field_is_answered_with_an_error_naming_it(
    one_board: Board, command: str, name: str, value: Any
) -> None:
    board = one_board
    fen_before = board.app.board_game.game.position.fen() if board.app.board_game else ""
    case = next(board.ids)
    message = {**CONTEXT.get(command, {}), "type": command, "id": case, name: value}
    reply = board.ask(message)
    assert reply["type"] == "error", reply
    assert (reply["id"], reply["code"], reply["command"], reply["field"]) == (
        case,
        "bad_argument",
        command,
        name,
    )
    assert f"{command}: {name}" in reply["message"]
    # The board goes on: the game is as it was, and a good command is answered.
    assert board.app.board_game is not None
    assert board.app.board_game.game.position.fen() == fen_before
    assert board.ask({"type": "moves", "id": next(board.ids)})["moves"] == ["e2e4"]


@pytest.mark.parametrize("value", ["1", 1.0, -1, HUGE, NAN, INF, True, [], {}])
def test_a_bad_id_is_refused_with_a_null_id(board: Board, value: Any) -> None:
    reply = board.ask({"type": "state", "id": value})
    assert (reply["type"], reply["id"], reply["field"]) == ("error", None, "id")


def test_a_missing_id_is_answered_with_a_null_id(board: Board) -> None:
    reply = board.ask({"type": "moves", "from": 0})
    assert (reply["type"], reply["id"], reply["moves"]) == ("moves", None, ["e2e4"])


def test_an_unknown_type_is_named_in_the_error(board: Board) -> None:
    reply = board.ask({"type": "fly", "id": 3})
    assert (reply["type"], reply["code"], reply["command"], reply["field"]) == (
        "error",
        "unknown_type",
        "fly",
        "type",
    )


def test_the_reported_command_is_answered_and_the_board_goes_on(board: Board) -> None:
    """The message that stopped the board: `from` null."""
    reply = board.ask({"type": "moves", "id": 1, "from": None})
    assert (reply["type"], reply["field"]) == ("error", "from")
    assert board.ask({"type": "moves", "id": 2, "from": 0})["moves"] == ["e2e4"]


def test_nan_and_infinity_on_the_wire(board: Board) -> None:
    """JSON with NaN, Infinity and huge exponents, as a hostile host writes it."""
    for text in (
        '{"type":"moves","id":5,"from":NaN}',
        '{"type":"moves","id":5,"from":Infinity}',
        '{"type":"moves","id":5,"from":1e400}',
        '{"type":"brightness","id":5,"percent":-Infinity}',
    ):
        payload = text.encode()
        out = board.send(payload + b"*" + crc32_hex(payload).encode() + b"\n")
        [reply] = [m for m in out if m["type"] in REPLIES]
        assert (reply["type"], reply["id"]) == ("error", 5), text


def test_good_values_still_work(board: Board) -> None:
    assert board.ask({"type": "moves", "id": 1, "from": 1})["moves"] == []
    assert board.ask({"type": "show", "id": 2, "uci": "e7e5"})["type"] == "ack"
    assert board.ask({"type": "show", "id": 3, "uci": None})["type"] == "ack"
    assert board.ask({"type": "resign", "id": 4, "color": None})["result"] == "1-0"
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert board.ask({"type": "new_game", "id": 5, "fen": fen})["fen"] == fen


def test_a_legal_looking_but_impossible_move_is_refused_by_the_game(board: Board) -> None:
    reply = board.ask({"type": "show", "id": 9, "uci": "a1a8"})
    assert (reply["type"], reply["code"]) == ("error", "refused")


# ----- random messages -----

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["e2e4", "e4", "a1", "q", "white", "chess960", "strict", "8/8 w - -"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)
field_names = st.sampled_from(
    [
        "id",
        "from",
        "after",
        "session",
        "protocol",
        "client",
        "variant",
        "number",
        "fen",
        "mode",
        "piece",
        "uci",
        "squares",
        "blink",
        "percent",
        "agreed",
        "color",
        "settle_ms",
        "castle_wait_ms",
        "knock_wait_ms",
    ]
) | st.text(max_size=6)
messages = st.builds(
    lambda kind, fields: {**fields, "type": kind},
    st.sampled_from(HOST_TYPES) | st.text(max_size=8),
    st.dictionaries(field_names, json_values, max_size=5),
)


# Hypothesis's own default count: the table above already sends every wrong value of every
# field; these batches mix them. Drawing the nested values is most of the cost (300 batches
# took 18 s of CPU, 60 ms each); `--hypothesis-profile=deep` draws ten times as many, anew.
@settings(
    max_examples=examples(100),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(messages, min_size=1, max_size=4))
# A command sent twice in one read: the second is answered with the first's reply.
@example(batch=[{"type": "mark"}, {"type": "mark", "id": 27}, {"type": "mark", "id": 27}])
def test_random_messages_never_stop_the_board(board: Board, batch: list[dict[str, Any]]) -> None:
    data = b"".join(encode_frame(m) for m in batch)
    out = board.send(data)  # raises if anything in the loop does
    replies = [m for m in out if m["type"] in REPLIES]
    # Every command is answered (a resend may be answered with the messages instead). A
    # command repeating the id of one answered already (here or before) is answered with
    # that very reply, the same numbered frame, as a host retrying is: its id is answered.
    commands = [m for m in batch if m["type"] != "resend"]
    assert {message_id(m) for m in commands} - {None} <= {m.get("id") for m in replies}
    unnamed = sum(1 for m in commands if message_id(m) is None)
    assert sum(1 for m in replies if m.get("id") is None) >= unnamed
    assert all(json.dumps(m) for m in out)
    assert board.ask({"type": "moves", "id": 10**9})["type"] == "moves"


# ----- random sequences of well-formed commands -----

squares = st.lists(st.sampled_from(["a1", "e4", "h8", "d5", "c6"]), max_size=3)
good_commands = st.one_of(
    st.builds(lambda n: {"type": "moves", "from": n}, st.integers(0, 12)),
    st.just({"type": "state"}),
    st.just({"type": "takeback"}),
    st.just({"type": "led_test"}),
    st.just({"type": "hello", "protocol": 1}),
    st.builds(
        lambda n: {"type": "new_game", "variant": "chess960", "number": n}, st.integers(0, 959)
    ),
    st.just({"type": "new_game", "variant": "chess960"}),
    st.just({"type": "new_game"}),
    st.sampled_from(
        [
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate: refused, the game would be over
            "8/P7/8/8/8/8/8/k6K w - - 0 1",
        ]
    ).map(lambda fen: {"type": "new_game", "fen": fen}),
    st.sampled_from(["casual", "strict"]).map(lambda m: {"type": "mode", "mode": m}),
    st.sampled_from("qrbn").map(lambda p: {"type": "promotion", "piece": p}),
    st.sampled_from(["e2e4", "e7e5", "g1f3", "a7a8q", "e1g1", None]).map(
        lambda u: {"type": "show", "uci": u}
    ),
    st.builds(lambda s, b: {"type": "mark", "squares": s, "blink": b}, squares, squares),
    st.integers(0, 100).map(lambda p: {"type": "brightness", "percent": p}),
    st.booleans().map(lambda a: {"type": "draw", "agreed": a}),
    st.sampled_from(["white", "black", None]).map(lambda c: {"type": "resign", "color": c}),
    st.builds(
        lambda s, c, k: {
            "type": "settings",
            "settle_ms": s,
            "castle_wait_ms": c,
            "knock_wait_ms": k,
        },
        st.integers(1, 60_000),
        st.integers(1, 60_000),
        st.integers(1, 60_000),
    ),
)


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(commands=st.lists(good_commands, min_size=1, max_size=12))
def test_any_sequence_of_good_commands_is_answered(
    board: Board, commands: list[dict[str, Any]]
) -> None:
    for number, command in enumerate(commands):
        reply = board.ask({**command, "id": 1000 + number + 100 * len(commands)})
        assert reply["type"] != "error" or reply["code"] == "refused", (command, reply)
    board.ask({"type": "hello", "id": 1, "protocol": 1})  # the next example's ids are new


# ----- the board as a process -----


@pytest.fixture
def running_board(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`reedboard run --fake` on a real pty; yields the process and the host's end."""
    line = LinkedPty()
    board = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "reedboard.cli",
            "run",
            "--fake",
            "--serial",
            line.path,
            "--web",
            "off",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield board, line.master
    finally:
        if board.poll() is None:
            board.send_signal(signal.SIGTERM)
            try:
                board.wait(20)
            except subprocess.TimeoutExpired:
                board.kill()
                board.wait()
        line.close()


def _reply(master: int, frame: bytes, reply_id: int) -> dict[str, Any]:
    """Send `frame` every half second until the board answers `reply_id`."""
    decoder = FrameDecoder()
    deadline = time.monotonic() + 60
    sent = 0.0
    while time.monotonic() < deadline:
        if time.monotonic() - sent > 0.5:
            os.write(master, frame)
            sent = time.monotonic()
        if select.select([master], [], [], 0.1)[0]:
            for message in decoder.feed(os.read(master, 65536)):
                if message["type"] in REPLIES and message.get("id") == reply_id:
                    return message
    raise AssertionError(f"the board never answered id {reply_id}")


def test_the_running_board_answers_the_frame_that_stopped_it(
    running_board: tuple[subprocess.Popen[bytes], int],
) -> None:
    board, master = running_board
    reply = _reply(master, encode_frame({"type": "moves", "id": 1, "from": None}), 1)
    assert (reply["type"], reply["command"], reply["field"]) == ("error", "moves", "from")
    assert _reply(master, encode_frame({"type": "moves", "id": 2}), 2)["type"] == "moves"
    assert board.poll() is None, "the board is still running"
    board.send_signal(signal.SIGTERM)
    assert board.wait(20) == 0
