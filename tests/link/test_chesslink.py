"""The ChessLink emulation, character by character: the handshake, the registers, the
automatic status reports, and what a ChessLink client makes of a capture, castling, en
passant and a promotion (python-chess as the oracle)."""

from __future__ import annotations

import chess
import pytest
from reedboard.link.chesslink import (
    DARK,
    ChessLinkBoard,
    LedPattern,
    corner_index,
    encode,
    square_corners,
)
from reedboard.rules.squares import parse_square

from tests.link.emulated import chesslink_message, chesslink_replies, play, play_timed, status_fen

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
        sq = parse_square(square)
        for f in (sq % 8, sq % 8 + 1):
            for r in (sq // 8, sq // 8 + 1):
                patterns[corner_index(f, r)] = 0xF0
    text = "L20" + "".join(f"{p:02X}" for p in patterns)
    # The client sets the parity bit in each byte itself; the board understands it.
    (pattern,) = board.receive_data(encode(text, parity_bit=True))
    assert isinstance(pattern, LedPattern)
    # e3 shares all its corners with e2 and e4: only the corners tell the move exactly.
    assert pattern.lit_squares() == sum(1 << parse_square(n) for n in ("e2", "e3", "e4"))
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


# ----- reports on a change, as the registers ask -----

# What python-mchess sends when it connects: the version, reports on a change seen by 5
# scans (W02 07), the scan time read, set to 48 x 2.048 = 98.3 ms (W01 30) and read back,
# then the board's status.
MCHESS_SETUP = b"".join(chesslink_message(c) for c in ("V", "W0207", "R01", "W0130", "R01", "S"))
MCHESS_SCAN_MS = 48 * 2.048
MCHESS_SCANS = 5

B3_WAYPOINT = chess.Board("rnbqkbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBQKBNR w KQkq - 0 1")
AFTER_B4 = _after(chess.STARTING_FEN, "b2b4")


def _start_shown() -> list[str]:
    shown = [""] * 64
    for square, piece in chess.Board().piece_map().items():
        shown[square] = piece.symbol()
    return shown


def _slide_through_the_codec(setup: bytes, rest_ms: int) -> list[tuple[int, str]]:
    """The pawn slides b2-b3-b4, resting `rest_ms` on b3; the codec ticks every 5 ms as
    the board's loop turns. Returns the statuses sent, with the time each was sent."""
    board = ChessLinkBoard()
    shown = _start_shown()
    board.squares_changed(shown, [])
    board.tick(0)
    board.receive_data(setup)
    board.data_to_send()
    b2, b3, b4 = (parse_square(n) for n in ("b2", "b3", "b4"))
    changes = {1000: [(b2, "")], 1100: [(b3, "P")], 1100 + rest_ms: [(b3, ""), (b4, "P")]}
    statuses = []
    for t in sorted(set(range(5, 3000, 5)) | set(changes)):
        for sq, piece in changes.get(t, []):
            shown[sq] = piece
        if t in changes:
            board.squares_changed(shown, changes[t])
        board.tick(t)
        statuses += [(t, r) for r in chesslink_replies(board.data_to_send()) if r[0] == "s"]
    return statuses


def test_register_writes_are_acknowledged_and_read_back() -> None:
    board = ChessLinkBoard()
    board.receive_data(MCHESS_SETUP)
    replies = chesslink_replies(board.data_to_send())
    assert replies[:5] == ["v0105", "w0207", "r0114", "w0130", "r0130"]
    assert replies[5].startswith("s")
    assert board.scan_ms() == pytest.approx(MCHESS_SCAN_MS)
    assert board.debounce_scans() == MCHESS_SCANS
    board.receive_data(chesslink_message("W010E") + chesslink_message("R01"))
    # Below 15 the board scans at its default pace, and keeps the value written.
    assert chesslink_replies(board.data_to_send()) == ["w010E", "r010E"]
    assert board.scan_ms() == pytest.approx(20 * 2.048)


def test_a_slides_waypoint_is_never_reported_with_python_mchess_registers() -> None:
    statuses = _slide_through_the_codec(MCHESS_SETUP, rest_ms=133)
    fens = [status_fen(s) for _t, s in statuses]
    assert B3_WAYPOINT.board_fen() not in fens
    assert fens == [AFTER_B4]  # b2 empty and b3 passed too quickly: one change, reported
    # Reported once 5 scans in a row have seen it: the first at the change, every 98.3 ms.
    ((t, _status),) = statuses
    assert 1233 + 4 * MCHESS_SCAN_MS <= t <= 1233 + 5 * MCHESS_SCAN_MS


def test_a_change_that_lasts_is_reported_within_the_configured_scans() -> None:
    statuses = _slide_through_the_codec(MCHESS_SETUP, rest_ms=700)
    assert [status_fen(s) for _t, s in statuses] == [B3_WAYPOINT.board_fen(), AFTER_B4]
    (t3, _), (t4, _) = statuses
    assert 1100 + 4 * MCHESS_SCAN_MS <= t3 <= 1100 + 5 * MCHESS_SCAN_MS
    assert 1800 + 4 * MCHESS_SCAN_MS <= t4 <= 1800 + 5 * MCHESS_SCAN_MS


def test_without_the_debounce_every_change_is_reported_once_a_scan() -> None:
    """Mode 3 (on any change, no debounce) reports the waypoint: the register is what
    hides it."""
    statuses = _slide_through_the_codec(chesslink_message("W0203"), rest_ms=133)
    fens = [status_fen(s) for _t, s in statuses]
    assert fens == [
        "rnbqkbnr/pppppppp/8/8/8/8/P1PPPPPP/RNBQKBNR",  # b2 lifted
        B3_WAYPOINT.board_fen(),
        AFTER_B4,
    ]
    # At the next scan of the default 40.96 ms.
    assert statuses[1][0] - 1100 <= 41


def test_a_slide_on_the_running_board_with_python_mchess_registers() -> None:
    """The board's own loop on a virtual clock: the board infers b2b4, the client never
    hears of b3, and hears of b4 within 5 scans of the board noticing the pawn there."""
    script = "@start standard\n1000 lift b2\n1300 place b3\n1433 lift b3\n1433 place b4\n"
    writes = play_timed("chesslink", script, MCHESS_SETUP)
    replies = [(t, r) for t, data in writes for r in chesslink_replies(data)]
    answers = [r for _t, r in replies if r[0] != "s"]
    assert answers == ["v0105", "w0207", "r0114", "w0130", "r0130"]
    # Until its W02 arrives the board reports every scan; from the S reply on, changes.
    after = next(i for i, (_t, r) in enumerate(replies) if r == "r0130") + 1
    statuses = [(t, status_fen(r)) for t, r in replies[after:]]
    assert statuses[0][1] == chess.Board().board_fen()  # the S reply
    assert B3_WAYPOINT.board_fen() not in [fen for _t, fen in statuses]
    assert statuses[-1][1] == AFTER_B4
    reported = statuses[-1][0]
    # The debouncer holds a change 12 ms before the board takes it; then 5 scans.
    assert reported - 1433 <= 12 + 5 * MCHESS_SCAN_MS + 5
