"""CPP rounds against the real board (its App, game and arbiter; pieces moved on a fake
matrix), the phone's side in memory: what the central reads for what it writes and for
what the players do."""

from __future__ import annotations

import pytest
from reedboard.ble.peripheral import Connection
from reedboard.ble.phone import ANNOUNCE_AGAIN_MS
from reedboard.link.board_messages import CentralMessage, read_board_message
from reedboard.link.frame import FrameDecoder

from tests.ble.phone_board import PHONE, MemoryTransport, PhoneBoard

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
OTHER = "/org/bluez/hci0/dev_00_AA_00_00_00_03"


@pytest.fixture
def board() -> tuple[PhoneBoard, MemoryTransport]:
    transport = MemoryTransport()
    board = PhoneBoard(transport)
    board.run(50)
    transport.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", True))
    return board, transport


def said(board: PhoneBoard, transport: MemoryTransport, *texts: str) -> list[str]:
    """What the board notified after the central wrote `texts`."""
    transport.sent.clear()
    for text in texts:
        transport.write(text)
    board.run(30)
    heard, transport.sent = transport.sent, []
    return heard


def test_a_whole_game_both_ways_to_mate(board: tuple[PhoneBoard, MemoryTransport]) -> None:
    b, t = board
    assert said(b, t, "set_variant standard", "side w", f"begin {START}") == [
        "ok",
        "err side needs feature side, which was not asked for",
        f"sync {START}",
    ]
    central_moves = iter(["e7e5", "b8c6", "g8f6"])
    for origin, target in (("e2", "e4"), ("f1", "c4"), ("d1", "h5"), ("h5", "f7")):
        t.sent.clear()
        b.move(origin, target, capture=target == "f7")
        assert t.sent == [f"move {origin}{target}"]
        reply = next(central_moves, None)
        if reply is None:
            break
        assert said(b, t, "ok", f"move {reply}") == []  # the move is lit, nothing said
        b.move(reply[:2], reply[2:])
        assert t.sent == []  # the central's own move, made: no answer (no `moved` feature)
    assert said(b, t, "ok", "end checkmate") == []
    assert [m.uci() for m in b.game.moves] == [
        "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7",
    ]  # fmt: skip
    assert b.game.outcome() is not None and b.game.outcome().reason == "checkmate"  # type: ignore[union-attr]


def test_a_refused_move_is_taken_back_and_the_board_resyncs(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    said(b, t, f"begin {START}")
    b.move("e2", "e4")
    assert said(b, t, "nok") == ["unsync rnbqkbnr/pppppppp/8/8/4?3/8/PPPP1PPP/RNBQKBNR w"]
    b.lift("e4")
    b.run(200)
    b.place("e2")
    b.run(1500)
    assert t.sent[-1] == f"sync {START}"
    assert len(b.game) == 0


def test_a_wrong_move_for_the_central_is_refused_by_the_board(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    said(b, t, "feature moved", f"begin {START}")
    b.move("e2", "e4")
    said(b, t, "ok", "move c7c5")
    b.move("e7", "e5")  # not the central's move: taken back, c7c5 lit again
    assert [m.uci() for m in b.game.moves] == ["e2e4"]
    b.move("e5", "e7")
    t.sent.clear()
    b.move("c7", "c5")
    assert t.sent[-1] == "moved"
    assert [m.uci() for m in b.game.moves] == ["e2e4", "c7c5"]


def test_promote_names_the_piece_the_board_could_not_know(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    fen = "8/P6k/8/8/8/8/8/4K3 w"
    said(b, t, f"begin {fen}")
    b.fake.set_occupancy(b.game.position.occupied)
    b.run(1500)
    b.move("a7", "a8")
    assert t.sent[-1] == "move a7a8q"
    said(b, t, "promote a7a8n")
    assert len(b.game) == 0  # taken back: the player makes it again with the knight
    b.lift("a8")
    b.run(100)
    b.place("a7")
    b.run(1500)
    t.sent.clear()
    b.move("a7", "a8")
    assert [m.uci() for m in b.game.moves] == ["a7a8n"]
    assert t.sent == []


@pytest.mark.parametrize(
    ("written", "answer"),
    [
        (b"", "err an empty command"),
        (b"\xff\xfe", "err a command is UTF-8 text"),
        (b"dance", "err unknown command 'dance'"),
        (b"move e2", "err move needs a move in UCI such as e2e4, not 'e2'"),
        (b"move e2e5", "err move e2e5: e2e5 is not legal in"),
        (b"begin 8/8 w", "err begin needs a FEN, not '8/8 w'"),
        (b"begin rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", "err begin needs a FEN:"),
        (b"end bored", "err end does not know 'bored'"),
        (b"ok", "err ok: the board asked nothing"),
        (b"ok now", "err ok takes no argument"),
        (b"time 1 2", "err time needs feature time"),
        (b"x" * 600, "err a command of 600 bytes is longer than 512"),
    ],
)
def test_malformed_commands_are_answered_with_err_and_the_game_is_intact(
    board: tuple[PhoneBoard, MemoryTransport], written: bytes, answer: str
) -> None:
    b, t = board
    said(b, t, f"begin {START}")
    b.move("e2", "e4")
    said(b, t, "ok")
    heard = said(b, t, written.decode("utf-8", "replace") if written[:1] != b"\xff" else "")
    if written[:1] == b"\xff":
        t.write(written)
        b.run(30)
        heard = t.sent
    assert len(heard) == 1 and heard[0].startswith(answer)
    assert [m.uci() for m in b.game.moves] == ["e2e4"]
    b.move("e7", "e5")
    assert t.sent[-1] == "move e7e5"  # the round goes on


def test_a_central_that_leaves_mid_move_finds_the_game_when_it_comes_back(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    said(b, t, f"begin {START}")
    b.move("e2", "e4")
    said(b, t, "ok", "move e7e5")
    t.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", False))
    b.run(30)
    b.move("e7", "e5")  # the player carries out the central's move meanwhile
    t.sent.clear()
    t.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", True))
    after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"
    assert said(b, t, f"begin {after}") == [f"sync {after}"]
    assert [m.uci() for m in b.game.moves] == ["e2e4", "e7e5"]  # the same game
    # A central that comes back from before the board's last move: taken back to it.
    b.move("g1", "f3")
    t.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", False))
    t.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", True))
    heard = said(b, t, f"begin {after}")
    assert heard[0].startswith("unsync ") and "?" in heard[0]
    assert len(b.game) == 2


def test_a_second_central_is_dropped_while_the_first_controls(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    said(b, t, f"begin {START}")
    t.incoming.append(Connection(OTHER, "00:AA:00:00:00:03", True))
    t.write("end abort", OTHER)
    b.run(30)
    assert t.dropped == [OTHER]
    b.move("e2", "e4")
    assert t.sent[-1] == "move e2e4"  # the first central's round goes on


def test_features_options_and_the_state_stream(board: tuple[PhoneBoard, MemoryTransport]) -> None:
    b, t = board
    assert said(b, t, "feature state_stream", "feature variant_reason", "feature option") == [
        "ok",
        "nok",
        "ok",
    ]
    options = said(b, t, "options_begin")
    assert options[0] == "option mode enum casual casual strict"
    assert options[-1] == "options_end"
    said(b, t, "set_option mode strict")
    assert said(b, t, "options_begin")[0] == "option mode enum strict casual strict"
    assert said(b, t, "set_option settle_ms 0")[0].startswith("err set_option settle_ms")
    said(b, t, f"begin {START}")
    t.sent.clear()
    b.lift("e2")
    b.run(100)
    assert t.sent == ["state rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w"]


def test_castling_is_the_kings_move_and_king_takes_rook_in_chess_960(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w"
    for variant, board_move, central_move in (
        ("standard", "e1g1", "e8c8"),
        ("chess_960", "e1h1", "e8a8"),
    ):
        assert said(b, t, f"set_variant {variant}", f"begin {fen}")[0] == "ok"
        b.fake.set_occupancy(b.game.position.occupied)
        b.run(1500)
        t.sent.clear()
        # The king two squares, then the rook over it: castling.
        b.lift("e1")
        b.run(100)
        b.place("g1")
        b.run(100)
        b.lift("h1")
        b.run(100)
        b.place("f1")
        b.run(1500)
        assert t.sent == [f"move {board_move}"]
        assert said(b, t, "ok", f"move {central_move}") == []
        b.lift("e8")
        b.run(100)
        b.place("c8")
        b.run(100)
        b.lift("a8")
        b.run(100)
        b.place("d8")
        b.run(1500)
        assert len(b.game) == 2
        assert b.game.positions[-2].uci(b.game.moves[-1]) == central_move
        assert t.sent == []  # the central's castling, made as lit
        assert b.game.chess960 == (variant == "chess_960")


def test_the_centrals_undo_is_carried_out_by_the_player(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    said(b, t, "feature undo", "feature moved", f"begin {START}")
    b.move("e2", "e4")
    said(b, t, "ok", "move e7e5")
    t.sent.clear()
    b.move("e7", "e5")
    assert t.sent == ["moved"]
    assert said(b, t, "undo e7e5") == []  # taken back on the board, lit for the player
    assert said(b, t, "undo e7e5") == ["err undo e7e5: the board's last move is not e7e5"]
    t.sent.clear()
    b.move("e5", "e7")
    assert t.sent == ["moved"]
    assert [m.uci() for m in b.game.moves] == ["e2e4"]
    # A takeback by hand goes to the central, which may refuse it.
    t.sent.clear()
    b.move("e4", "e2")
    assert t.sent == ["undo e2e4"]
    said(b, t, "nok")
    t.sent.clear()
    b.move("e2", "e4")
    assert [m.uci() for m in b.game.moves] == ["e2e4"]
    assert t.sent == ["moved"]


def test_set_state_guides_the_player_to_the_centrals_position(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    fen = "rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b"
    assert said(b, t, "set_state") == [
        "err set_state needs feature set_state, which was not asked for"
    ]
    assert said(b, t, "feature set_state", f"begin {fen}") == [
        "ok",
        "unsync_setible rnbqkbnr/pppppppp/8/8/8/8/?PPPPPPP/RNBQKBNR b",
    ]
    assert said(b, t, "set_state") == []  # the board lights what must change
    b.run(1500)
    assert b.app.board_game is not None
    view = b.app.board_game.arbiter.view()
    assert (view.missing, view.extra) == (1 << 16, 1 << 8)  # a2's pawn to a3, lit
    t.sent.clear()
    b.move("a2", "a3")
    assert t.sent[-1] == f"sync {fen}"
    assert said(b, t, "set_state")[0].startswith("err set_state: the board offered no state")
    b.move("e7", "e5")
    assert t.sent[-1] == "move e7e5"


def test_a_board_in_place_answers_sync_and_set_state_has_nothing_to_set(
    board: tuple[PhoneBoard, MemoryTransport],
) -> None:
    b, t = board
    assert said(b, t, "feature set_state", f"begin {START}") == ["ok", f"sync {START}"]
    assert said(b, t, "set_state")[0].startswith("err set_state")


def test_the_centrals_clocks_and_score_are_kept(board: tuple[PhoneBoard, MemoryTransport]) -> None:
    b, t = board
    assert said(b, t, "feature time", "time 31444 12510") == ["ok", "err no round: begin one first"]
    assert said(b, t, f"begin {START}", "time 31444 12510") == [f"sync {START}"]
    assert b.phone.session.clocks == (31444, 12510)
    assert said(b, t, "feature score", "score 1.5 2.5", "score 1.2 2") == [
        "ok",
        "err score needs two values, not '1.2 2'",
    ]
    assert b.phone.session.score == "1.5 2.5"
    assert said(b, t, "time 31444")[0].startswith("err time needs two values")
    assert said(b, t, "time 5 -1")[0].startswith("err time needs two values")
    assert b.phone.session.clocks == (31444, 12510)


def centrals_told(b: PhoneBoard) -> list[CentralMessage]:
    """The `central` messages the board sent its host, read back as a host reads them."""
    told: dict[int, CentralMessage] = {}  # by number: the link sends a frame more than once
    for wire in FrameDecoder().feed(bytes(b.link.written)):
        message, problem = read_board_message(wire)
        assert problem is None
        if isinstance(message, CentralMessage):
            told[message.seq] = message
    return [told[seq] for seq in sorted(told)]


def test_the_host_is_told_who_controls_the_board() -> None:
    t = MemoryTransport()
    b = PhoneBoard(t)
    b.run(50)
    assert centrals_told(b) == []
    t.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", True, "Pixel 7"))
    b.run(30)
    t.incoming.append(Connection(OTHER, "00:AA:00:00:00:03", True, "Other"))  # dropped
    said(b, t, "feature time", f"begin {START}")
    said(b, t, "time 300000 290000")
    b.run(ANNOUNCE_AGAIN_MS)  # told again, for a host that connected since
    t.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", False))
    b.run(ANNOUNCE_AGAIN_MS)  # no phone: nothing more to tell
    assert [(c.connected, c.protocol, c.name, c.address, c.white_ms) for c in centrals_told(b)] == [
        (True, None, "Pixel 7", "00:AA:00:00:00:02", None),
        (True, "cpp", "Pixel 7", "00:AA:00:00:00:02", None),
        (True, "cpp", "Pixel 7", "00:AA:00:00:00:02", 300000),
        (True, "cpp", "Pixel 7", "00:AA:00:00:00:02", 300000),
        (False, None, None, None, None),
    ]
