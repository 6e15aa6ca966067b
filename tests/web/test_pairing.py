"""Pairing (`web.pairing`): the code and its squares, and each way of guessing it that
the board bounds: wrong tries on one code, tries a minute, codes asked a minute, a code
left too long; the paired devices' tokens kept as digests in a file of mode 0600."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from reedboard.web.pairing import (
    CODE_LIFE_S,
    STARTS_PER_MINUTE,
    TOKENS_FILE,
    TRIES_PER_CODE,
    TRIES_PER_MINUTE,
    Pairing,
    PairingRefused,
    TokenStore,
    code_squares,
)


class Board:
    """What the pairing shows on the board, and the time, for a test."""

    def __init__(self, folder: Path | None = None) -> None:
        self.shown: list[str | None] = []
        self.now = 1000.0
        self.pairing = Pairing(
            TokenStore(None if folder is None else str(folder)), self.shown.append, lambda: self.now
        )

    @property
    def code(self) -> str:
        code = self.shown[-1]
        assert code is not None
        return code


def wrong(code: str) -> str:
    return "".join("1" if digit != "1" else "2" for digit in code)


def test_a_code_is_four_ranks_lit_on_the_files_a_to_d() -> None:
    assert code_squares("3714") == ("a3", "b7", "c1", "d4")
    board = Board()
    board.pairing.start()
    assert len(board.code) == 4 and set(board.code) <= set("12345678")


def test_the_right_code_pairs_once_and_clears_the_board() -> None:
    board = Board()
    board.pairing.start()
    code = board.code
    token = board.pairing.try_code(code)
    assert board.pairing.knows(token) and board.shown[-1] is None
    assert not board.pairing.knows("forged") and not board.pairing.knows(None)
    with pytest.raises(PairingRefused, match="ask for one first"):
        board.pairing.try_code(code)  # used up


def test_a_code_dies_after_its_wrong_tries() -> None:
    board = Board()
    board.pairing.start()
    code = board.code
    for _ in range(TRIES_PER_CODE - 1):
        with pytest.raises(PairingRefused, match="wrong code"):
            board.pairing.try_code(wrong(code))
    with pytest.raises(PairingRefused, match="too many tries: ask for a new one"):
        board.pairing.try_code(wrong(code))
    assert board.shown[-1] is None  # off the board
    with pytest.raises(PairingRefused):
        board.pairing.try_code(code)


def test_tries_are_bounded_a_minute_across_codes() -> None:
    board = Board()
    tries = 0
    while tries < TRIES_PER_MINUTE:
        board.pairing.start()  # a new code before this one dies
        for _ in range(min(TRIES_PER_CODE - 1, TRIES_PER_MINUTE - tries)):
            with pytest.raises(PairingRefused, match="wrong code"):
                board.pairing.try_code(wrong(board.code))
            tries += 1
            board.now += 1
    with pytest.raises(PairingRefused, match="wait a minute"):
        board.pairing.try_code(board.code)  # even the right one
    board.now += 60
    board.pairing.start()
    assert board.pairing.knows(board.pairing.try_code(board.code))


def test_codes_asked_are_bounded_a_minute() -> None:
    board = Board()
    for _ in range(STARTS_PER_MINUTE):
        board.pairing.start()
    with pytest.raises(PairingRefused, match="wait a minute"):
        board.pairing.start()
    board.now += 61
    board.pairing.start()


def test_a_code_left_too_long_is_dead() -> None:
    board = Board()
    board.pairing.start()
    board.now += CODE_LIFE_S + 1
    with pytest.raises(PairingRefused, match="ask for one first"):
        board.pairing.try_code(board.code)


def test_tokens_are_kept_as_digests_readable_by_the_board_only(tmp_path: Path) -> None:
    board = Board(tmp_path)
    board.pairing.start()
    token = board.pairing.try_code(board.code)
    kept = tmp_path / TOKENS_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert token not in kept.read_text()
    assert TokenStore(str(tmp_path)).knows(token)  # after a restart too


def test_a_damaged_token_file_is_said_in_words(tmp_path: Path) -> None:
    (tmp_path / TOKENS_FILE).write_text("{not json")
    with pytest.raises(Exception, match="cannot read the paired devices"):
        TokenStore(str(tmp_path))
