"""The CPP codec: a central's writes read and checked, positions written as a presence
board can say them, a central's short FEN made whole."""

from __future__ import annotations

import pytest
from reedboard.ble.cpp import (
    CentralSays,
    CppError,
    complete_fen,
    parse_central,
    position_text,
    presence_fen,
    same_position,
)
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.mark.parametrize(
    ("written", "said"),
    [
        (b"ok", CentralSays("ok")),
        (b"move e7e8q", CentralSays("move", "e7e8q")),
        (b"begin " + START.encode() + b" w\n", CentralSays("begin", START + " w")),
        (b"side ?", CentralSays("side", "?")),
        (b"time 31444 12510", CentralSays("time", "31444 12510")),
        (b"score 1.5 2.5", CentralSays("score", "1.5 2.5")),
        (b"msg Hello peripheral", CentralSays("msg", "Hello peripheral")),
        (b"set_option brightness 3", CentralSays("set_option", "brightness 3")),
        (b"end fifty_move", CentralSays("end", "fifty_move")),
        (b"feature unheard_of", CentralSays("feature", "unheard_of")),  # answered nok
    ],
)
def test_central_commands_are_read(written: bytes, said: CentralSays) -> None:
    assert parse_central(written) == said


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (b"MOVE e2e4", "unknown command 'MOVE'"),
        (b"move e2e4x", "move needs a move in UCI"),
        (b"check z9", "check needs a square"),
        (b"side white", "side is w, b or ?"),
        (b"time 1", "time needs two values"),
        (b"score 1.3 2", "score needs two values"),
        (b"msg", "msg needs a text"),
        (b"set_option brightness", "set_option needs an option's name and value"),
        (b"begin " + START.encode() + b" w KQkq - 0 1 extra", "begin needs a FEN"),
        (b"begin rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq", "begin needs a FEN:"),
        (b"\x00\x00", "an empty command"),
    ],
)
def test_malformed_commands_say_what_is_wrong(written: bytes, message: str) -> None:
    with pytest.raises(CppError) as raised:
        parse_central(written)
    assert str(raised.value).startswith(message)


def test_a_short_fen_gets_the_castling_its_placement_allows() -> None:
    assert complete_fen(f"{START} w", chess960=False) == f"{START} w KQkq - 0 1"
    assert (
        complete_fen("4k3/8/8/8/8/8/8/R3K3 b", chess960=False) == "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1"
    )
    assert complete_fen("4k3/8/8/8/8/8/8/4K3", chess960=False) == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    # Chess960: the outermost rooks either side of the king, by their files.
    chess960 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w"
    assert complete_fen(chess960, chess960=True).split()[2] == "HFhf"
    given = f"{START} w Kq - 3 9"
    assert complete_fen(given, chess960=False) == given


def test_a_presence_board_says_what_it_cannot_know() -> None:
    position = Position.standard()
    sensors = position.occupied & ~(1 << parse_square("e2")) | 1 << parse_square("e4")
    assert presence_fen(position, sensors) == "rnbqkbnr/pppppppp/8/8/4?3/8/PPPP1PPP/RNBQKBNR w"
    assert presence_fen(position, 0) == "8/8/8/8/8/8/8/8 w"
    assert position_text(position) == f"{START} w"
    assert same_position(f"{START} w KQkq - 0 1", position)
    assert not same_position(f"{START} b", position)
