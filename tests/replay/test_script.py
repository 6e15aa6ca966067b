"""Event scripts: what is read, and every way a script is refused."""

from __future__ import annotations

import pytest
from reedboard.errors import ReedboardError, ScriptError
from reedboard.replay.script import parse_script
from reedboard.rules.chess960 import chess960_fen
from reedboard.rules.squares import parse_square


def test_headers_comments_and_lines_are_read() -> None:
    script = parse_script(
        "# a comment\n@start chess960 2   # position 2\n@mode strict\n\n"
        "1000 lift g2  # lifted\n1400 place g3\n1500 choose n\n"
    )
    assert script.start.fen(shredder=True) == chess960_fen(2)
    assert script.start.chess960 and script.mode == "strict"
    assert [(line.t_ms, line.action) for line in script.lines] == [
        (1000, "lift"),
        (1400, "place"),
        (1500, "choose"),
    ]
    assert script.lines[0].square == parse_square("g2") and script.lines[2].what == "n"


def test_time_added_is_a_line_of_its_own() -> None:
    script = parse_script("@clock 5+0\n1000 add black:120000\n")
    assert [line.text() for line in script.lines] == ["1000 add black:120000"]
    assert not script.clock_buttons


def test_a_fen_start_with_chess960_rights_is_a_chess960_game() -> None:
    script = parse_script("@start fen 1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1\n")
    assert script.start.chess960


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("1000 hop e2\n", 1, "unknown action"),
        ("1000 lift e9\n", 1, "not a square"),
        ("@start fen 8/8/8/8/8/8/8/8 w - - 0 1\n", 1, "bad FEN"),
        ("1000 lift e2\n900 place e4\n", 2, "backwards"),
        ("1000 lift e4\n", 1, "already reads empty"),
        ("1000 place e2\n", 1, "already reads occupied"),
        ("1000 lift e2\n@mode strict\n", 2, "after the first timed line"),
        ("@mode lenient\n", 1, "casual or strict"),
        ("@start chess960 960\n", 1, "0..959"),
        ("@start blitz\n", 1, "@start is"),
        ("@colour white\n", 1, "unknown header"),
        ("1000 choose k\n", 1, "q, r, b or n"),
        ("1000 add red:120000\n", 1, "add takes white:<ms> or black:<ms>"),
        ("1000 add white:0\n", 1, "1..3600000 ms"),
        ("1000 add white:3600001\n", 1, "not 'white:3600001'"),
        ("1000 add white:2m\n", 1, "add takes"),
        ("1000 add white\n", 1, "add takes"),
        ("ten lift e2\n", 1, "not a whole number"),
        ("1000 lift\n", 1, "expected"),
        ("@start standard\n@start standard\n", 2, "second @start"),
    ],
)
def test_a_script_that_cannot_be_read_names_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ScriptError) as caught:
        parse_script(text)
    assert isinstance(caught.value, ReedboardError) and isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert message.startswith(f"line {line}:") and words in message, message
