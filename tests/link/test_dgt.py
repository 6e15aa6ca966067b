"""The DGT emulation, byte by byte: what the board writes for a client's handshake and a
game's lifts and places, and what a DGT client makes of it (python-chess as the oracle)."""

from __future__ import annotations

import chess
import pytest
from reedboard.events import MoveMade, PromotionChosen
from reedboard.link.dgt import DgtBoard, LedCommand, board_dump, our_square
from reedboard.link.emulation import EmulatedEndpoint
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

from tests.link.emulated import DgtClient, dgt_index, dgt_messages, play

HANDSHAKE = bytes((0x40, 0x4D, 0x45, 0x55, 0x47, 0x4C, 0x42, 0x44))


def _fu(name: str, code: int) -> bytes:
    return bytes((0x8E, 0x00, 0x05, dgt_index(name), code))


def _after(fen: str, *ucis: str) -> str:
    board = chess.Board(fen)
    for uci in ucis:
        board.push_uci(uci)
    return board.board_fen()


def test_handshake_dump_and_a_capture_byte_for_byte() -> None:
    script = """@start standard
1000 lift e2
1300 place e4
2500 lift d7
2800 place d5
4000 lift e4
4300 lift d5
4600 place d5
"""
    out = play("dgt", script, HANDSHAKE)
    start = bytes((8, 9, 10, 12, 11, 10, 9, 8)) + bytes([7] * 8) + bytes(32)
    start += bytes([1] * 8) + bytes((2, 3, 4, 6, 5, 4, 3, 2))
    header = (
        bytes((0x93, 0x00, 0x05, 1, 7))
        + bytes((0x91, 0x00, 0x08))
        + b"00001"
        + bytes((0xA2, 0x00, 0x0D))
        + b"0000000001"
    )
    assert out.startswith(header)
    messages = dgt_messages(out)
    kinds = [kind for kind, _ in messages]
    assert kinds[:6] == [0x93, 0x91, 0xA2, 0x92, 0xA0, 0x86]
    assert messages[4][1] == bytes((100, 0, 0, 0, 0, 0, 0, 0, 0))
    dump = bytes((0x86, 0x00, 0x43)) + start
    updates = out[out.index(dump) + len(dump) :]
    assert updates == b"".join(
        [
            _fu("e2", 0),
            _fu("e4", 1),
            _fu("d7", 0),
            _fu("d5", 7),
            _fu("e4", 0),  # the capturer lifted first
            _fu("d5", 0),  # then its victim
            _fu("d5", 1),  # the capturer, not the victim, lands
        ]
    )
    client = DgtClient()
    client.feed(out)
    assert client.board_fen() == _after(chess.STARTING_FEN, "e2e4", "d7d5", "e4d5")


@pytest.mark.parametrize(
    ("fen", "lines", "ucis", "expected"),
    [
        pytest.param(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            ["lift e1", "place g1", "lift h1", "place f1"],
            ["e1g1"],
            [("e1", 0), ("g1", 5), ("h1", 0), ("f1", 2)],
            id="castling",
        ),
        pytest.param(
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            ["lift d5", "lift e5", "place d6"],
            ["e5d6"],
            [("d5", 0), ("e5", 0), ("d6", 1)],
            id="en-passant",
        ),
        pytest.param(
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            ["lift e5", "place d6", "lift d5"],
            ["e5d6"],
            [("e5", 0), ("d6", 1), ("d5", 0)],
            id="en-passant-victim-last",
        ),
        pytest.param(
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            ["lift a7", "place a8"],
            ["a7a8q"],
            [("a7", 0), ("a8", 6)],
            id="promotion",
        ),
        pytest.param(
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            ["lift a7", "choose n", "place a8"],
            ["a7a8n"],
            # The move is made once the pawn has rested on a8: the client sees the knight
            # at once, never a queen first.
            [("a7", 0), ("a8", 3)],
            id="underpromotion",
        ),
        pytest.param(
            "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            ["lift a7", "lift b8", "place b8"],
            ["a7b8q"],
            [("a7", 0), ("b8", 0), ("b8", 6)],
            id="capture-promotion",
        ),
    ],
)
def test_special_moves_reach_the_client_as_the_game_has_them(
    fen: str, lines: list[str], ucis: list[str], expected: list[tuple[str, int]]
) -> None:
    script = f"@start fen {fen}\n" + "".join(
        f"{1000 + 300 * i} {line}\n" for i, line in enumerate(lines)
    )
    out = play("dgt", script, bytes((0x42, 0x44)))
    client = DgtClient()
    assert client.feed(out) == expected
    assert client.board_fen() == _after(fen, *ucis)


def test_idle_board_sends_no_updates_but_its_dump_follows_the_sensors() -> None:
    script = "@start standard\n1000 lift e2\n1300 place e4\n2000 lift g8\n"
    out = play("dgt", script, bytes((0x40,)))
    assert out == b""
    board = DgtBoard()
    shown = [""] * 64
    shown[parse_square("e4")] = "P"
    board.squares_changed(shown, [(parse_square("e4"), "P")])
    assert board.data_to_send() == b""
    board.receive_data(bytes((0x42,)))
    assert board.data_to_send() == board_dump(shown)


def test_clock_and_led_commands_and_noise_never_crash_and_leds_name_a_move() -> None:
    board = DgtBoard()
    e2, e4 = dgt_index("e2"), dgt_index("e4")
    commands = board.receive_data(bytes((0x2B, 0x04, 0x03, 0x0B, 0x00, 0x00, 0x60, 0x04)))
    assert commands == [] and board.data_to_send() == b""
    commands = board.receive_data(bytes((0x01, e2, e4, 0x00, 0x49, 0x4A, 0x4E, 0x50, 0xFF)))
    assert commands == [LedCommand((our_square(e2), our_square(e4)))]
    assert board.receive_data(bytes((0x60, 0x02, 0x00, 0x00))) == [LedCommand(None)]
    assert board.receive_data(bytes((0x60, 0x04, 0x01, 0x77, 0x01, 0x00))) == []
    assert board.data_to_send() == b""
    for junk in (bytes(range(256)), b"\x2b", b"\x60\xff" + bytes(300)):
        DgtBoard().receive_data(junk)
    stray = DgtBoard()
    stray.receive_data(bytes((0x60, 0xF0, 0x4D)))  # a bogus length: the version still comes
    assert stray.data_to_send() == bytes((0x93, 0x00, 0x05, 1, 7))


def test_square_numbering() -> None:
    assert [our_square(n) for n in (0, 7, 56, 63)] == [
        parse_square(name) for name in ("a8", "h8", "a1", "h1")
    ]


def test_a_state_from_before_the_commit_does_not_use_up_the_correction() -> None:
    """`reedboard-host emulate` hears of a move (its effect) in the same read as the
    `state` it asked for, which the board produced a turn before the commit: the promoted
    piece the game has must still reach the client, with the first state after it."""
    before = Position.from_fen("4k3/8/8/8/8/8/3p4/4RK2 b - - 0 1")
    after = before.play(before.parse_uci("d2e1b"))
    emulation = EmulatedEndpoint("dgt", "host")
    emulation.observe(before, before.occupied, 0)
    emulation.receive_data(bytes((0x42, 0x44)))  # the board, then field updates
    in_hand = before.occupied & ~_bb("d2", "e1")
    emulation.observe(before, in_hand, 100)
    emulation.effect(MoveMade(0, "d2e1b", "", "", 1))
    emulation.observe(before, in_hand, 200)  # the state produced before the commit
    emulation.observe(after, after.occupied, 300)
    client = DgtClient()
    updates = client.feed(emulation.data_to_send())
    assert updates[-1] == ("e1", 10)  # a black bishop, after the queen the hand showed
    emulation.receive_data(bytes((0x42,)))
    dump = DgtClient()
    dump.feed(emulation.data_to_send())
    assert dump.board_fen() == client.board_fen() == after.board_fen()


def _bb(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


def test_a_pawn_on_its_last_rank_shows_the_piece_chosen() -> None:
    """The host chose the next promotion's piece (its `promotion` effect): the pawn set
    down on the last rank shows that piece at once, before the board commits the move.
    The committed promotion spends the choice: the next pawn shows a queen."""
    before = Position.from_fen("8/P3P3/8/8/8/k7/8/4K3 w - - 0 1")
    emulation = EmulatedEndpoint("dgt", "host")
    emulation.observe(before, before.occupied, 0)
    emulation.receive_data(bytes((0x42, 0x44)))
    emulation.effect(PromotionChosen(0, "r"))
    emulation.observe(before, before.occupied & ~_bb("e7"), 100)
    emulation.observe(before, before.occupied & ~_bb("e7") | _bb("e8"), 200)
    assert DgtClient().feed(emulation.data_to_send()) == [("e7", 0), ("e8", 2)]  # a rook
    promoted = before.play(before.parse_uci("e7e8r"))
    emulation.effect(MoveMade(0, "e7e8r", "", promoted.fen(), 1))
    emulation.moved(promoted)
    replied = promoted.play(promoted.parse_uci("a3b4"))
    emulation.observe(replied, replied.occupied, 300)
    emulation.observe(replied, replied.occupied & ~_bb("a7"), 400)
    emulation.observe(replied, replied.occupied & ~_bb("a7") | _bb("a8"), 500)
    assert DgtClient().feed(emulation.data_to_send())[-2:] == [("a7", 0), ("a8", 6)]


def test_a_piece_lifted_before_the_host_saw_it_land_stays_gone_at_the_commit() -> None:
    """exd5 lands and Black's queen takes it back at once: the host hears of the pawn's
    lift from d5 (its `touch`) before any state showed it there, then of the move. The
    client's d5 stays empty: the pawn is in Black's hand, not back on the square."""
    before = Position.from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    emulation = EmulatedEndpoint("dgt", "host")
    emulation.observe(before, before.occupied, 0)
    emulation.receive_data(bytes((0x42, 0x44)))
    emulation.lifted(parse_square("e4"))
    emulation.lifted(parse_square("d5"))  # the victim
    emulation.lifted(parse_square("d5"))  # the capturer, landed and taken: never seen there
    after = before.play(before.parse_uci("e4d5"))
    emulation.effect(MoveMade(0, "e4d5", "", after.fen(), 3))
    emulation.moved(after)
    client = DgtClient()
    client.feed(emulation.data_to_send())
    assert client.board_fen() == _after(before.fen(), "e4d5").replace("3P4", "8")
