"""The ChessLink emulation, character by character: the handshake, the registers, the
automatic status reports, and what a ChessLink client makes of a capture, castling, en
passant and a promotion (python-chess as the oracle)."""

from __future__ import annotations

import chess
import pytest
from reedboard.link.chesslink import (
    DARK,
    ChessLinkBoard,
    corner_index,
    encode,
    square_corners,
)
from reedboard.rules.squares import SQUARE_NAMES

from link.emulated import chesslink_message, chesslink_replies, play, status_fen

# Reports only on a change, as clients set it, so that a transcript stays short.
ON_CHANGE = chesslink_message("W0203")


def _after(fen: str, *ucis: str) -> str:
    board = chess.Board(fen)
    for uci in ucis:
        board.push_uci(uci)
    return board.board_fen()


def test_handshake_byte_for_byte() -> None:
    board = ChessLinkBoard()
    start = chess.Board()
    shown = [""] * 64
    for square, piece in start.piece_map().items():
        shown[square] = piece.symbol()
    board.squares_changed(shown, [])
    board.receive_data(b"V56" + b"R0153" + b"W020356" + b"S53" + b"R0250")
    # The version "0105": v, 0, 1, 0, 5 XOR to 0x72.
    assert board.data_to_send() == (
        b"v010572"
        + chesslink_message("r0114")
        + chesslink_message("w0203")
        + chesslink_message("sRNBKQBNRPPPPPPPP" + "." * 32 + "pppppppprnbkqbnr")
        + chesslink_message("r0203")
    )
    assert chesslink_message("R01") == b"R0153"
    assert chesslink_message("S") == b"S53"


def test_a_game_of_special_moves_as_the_client_sees_it() -> None:
    script = """@start standard
1000 lift e2
1300 place e4
2500 lift g8
2800 place f6
4000 lift e4
4300 place e5
5500 lift d7
5800 place d5
7000 lift e5
7300 place d6
7600 lift d5
9000 lift c7
9300 lift d6
9600 place d6
"""
    out = play("chesslink", script, b"V56" + ON_CHANGE)
    replies = chesslink_replies(out)
    # Until the client's W arrives, the board reports on every scan (its default).
    assert [r for r in replies if not r.startswith("s")] == ["v0105", "w0203"]
    later = replies[replies.index("w0203") + 1 :]
    statuses = [status_fen(r) for r in later]
    fen = chess.STARTING_FEN
    expected = [
        _after(fen, *moves)
        for moves in (
            [],  # e2 lifted: the pawn is gone
            ["e2e4"],
            ["e2e4", "g8f6"],
        )
    ]
    # Every report agrees with the sensors; the positions after each move are among them.
    for ucis in (["e2e4"], ["e2e4", "g8f6", "e4e5", "d7d5", "e5d6"]):
        assert _after(fen, *ucis) in statuses
    assert statuses[-1] == _after(fen, "e2e4", "g8f6", "e4e5", "d7d5", "e5d6", "c7d6")
    assert expected[1] in statuses and expected[2] in statuses
    # The first report is the lift of e2: the pawn has gone from the client's board.
    assert statuses[0] == "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR"


@pytest.mark.parametrize(
    ("fen", "lines", "ucis"),
    [
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", ["lift e8", "place c8", "lift a8", "place d8"],
         ["e8c8"]),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", ["lift e4", "lift d4", "place d3"], ["e4d3"]),
        ("4k3/8/8/8/8/8/p7/4K3 b - - 0 1", ["lift a2", "choose r", "place a1"], ["a2a1r"]),
    ],
    ids=["long-castling", "en-passant", "promotion"],
)  # fmt: skip
def test_black_special_moves_end_as_the_game_has_them(
    fen: str, lines: list[str], ucis: list[str]
) -> None:
    script = f"@start fen {fen}\n" + "".join(
        f"{1000 + 300 * i} {line}\n" for i, line in enumerate(lines)
    )
    out = play("chesslink", script, ON_CHANGE)
    statuses = [status_fen(r) for r in chesslink_replies(out) if r.startswith("s")]
    assert statuses[-1] == _after(fen, *ucis)


def test_automatic_reports_follow_the_registers() -> None:
    board = ChessLinkBoard()
    board.tick(0)  # every scan by default: 20 x 2.048 ms
    board.tick(20)
    board.tick(41)
    assert len(chesslink_replies(board.data_to_send())) == 2
    board.receive_data(chesslink_message("W0201"))  # off
    board.tick(100)
    board.squares_changed([""] * 64, [(0, "")])
    assert chesslink_replies(board.data_to_send()) == ["w0201"]
    board.receive_data(chesslink_message("W0202") + chesslink_message("W030A"))  # 40.96 ms
    board.data_to_send()
    for t in range(200, 300):
        board.tick(t)
    assert len(chesslink_replies(board.data_to_send())) == 3
    board.receive_data(chesslink_message("T"))  # reset: defaults again, no answer
    assert board.data_to_send() == b""
    assert board.registers[2] == 0


def test_leds_parity_and_bad_input() -> None:
    board = ChessLinkBoard(parity_bit=True)
    patterns = [0] * 81
    for square in ("e2", "e4"):
        sq = SQUARE_NAMES.index(square)
        for f in (sq % 8, sq % 8 + 1):
            for r in (sq // 8, sq // 8 + 1):
                patterns[corner_index(f, r)] = 0xF0
    text = "L20" + "".join(f"{p:02X}" for p in patterns)
    # The client sets the parity bit in each byte itself; the board understands it.
    (pattern,) = board.receive_data(encode(text, parity_bit=True))
    # e3 shares all its corners with e2 and e4: only the corners tell the move exactly.
    assert pattern.lit_squares() == sum(1 << SQUARE_NAMES.index(n) for n in ("e2", "e3", "e4"))
    assert pattern.lit_corners() == square_corners(12) | square_corners(28)
    reply = board.data_to_send()
    assert all(bin(b).count("1") % 2 == 1 for b in reply)
    assert chesslink_replies(reply) == ["l"]
    assert board.receive_data(chesslink_message("X")) == [DARK]
    # The corners as real clients number them: LED 0 at h1, 8 at h8, 72 at a1, 80 at a8.
    assert [corner_index(8, 0), corner_index(8, 8), corner_index(0, 0), corner_index(0, 8)] == [
        0,
        8,
        72,
        80,
    ]
    quiet = ChessLinkBoard()
    for junk in (b"S00", b"Wxyz12", bytes(range(256)), b"L" + b"F" * 500, b"\r\nV5"):
        assert quiet.receive_data(junk) == []
    assert quiet.bad_messages >= 2
    quiet.receive_data(b"6")  # completes the V split over two reads
    assert chesslink_replies(quiet.data_to_send()) == ["v0105"]
