"""Lichess as the opponent, as the command line, the page and the saved choice write it,
and the `[lichess]` section: read into a plan, or refused in one line naming the forms."""

from __future__ import annotations

import pytest
from reedboard.config import parse_config
from reedboard.errors import ConfigError
from reedboard.opponents.lichess_spec import LichessPlan, is_lichess, read_lichess
from reedboard.opponents.spec import BadOpponent


def test_every_form_is_read_and_written_back() -> None:
    assert read_lichess("lichess") == LichessPlan("accept", "", (10.0, 5))
    assert read_lichess("lichess accept Friend") == LichessPlan("accept", "Friend", (10.0, 5))
    assert read_lichess("lichess:seek:15+10") == LichessPlan("seek", "", (15.0, 10))
    assert read_lichess("lichess challenge Bob-2", (3.0, 2)) == LichessPlan(
        "challenge", "Bob-2", (3.0, 2)
    )
    assert read_lichess("Lichess challenge bob 5+3").clock == (5.0, 3)
    for text in (
        "lichess",
        "lichess:accept:Friend",
        "lichess:seek:15+10",
        "lichess:challenge:bob:5+3",
    ):
        assert read_lichess(text).spec() == text
        assert read_lichess(read_lichess(text).spec()) == read_lichess(text)
    assert is_lichess(" Lichess seek 10+0") and not is_lichess("engine 5")
    # Taken up again after a restart, a seek or a challenge is not made again.
    assert read_lichess("lichess seek 10+0").resumed().way == "resume"
    assert read_lichess("lichess challenge bob").resumed().spec() == "lichess:resume"
    assert read_lichess("lichess accept bob").resumed() == read_lichess("lichess accept bob")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("lichess seek", "expected lichess, lichess:accept:USER"),
        ("lichess seek 10+0 more", "expected lichess"),
        ("lichess seek forever", r"'forever' is not MINUTES\+INCREMENT"),
        ("lichess challenge", "expected lichess"),
        ("lichess challenge a", "'a' is not a Lichess user name"),
        ("lichess challenge bob;rm 5+3", "is not a Lichess user name"),
        ("lichess accept x y", "expected lichess"),
        ("lichess play", "expected lichess"),
    ],
)
def test_what_cannot_be_read_is_said(text: str, says: str) -> None:
    with pytest.raises(BadOpponent, match=says):
        read_lichess(text)


def test_the_lichess_section() -> None:
    config = parse_config(
        '[lichess]\nplay = true\nserver = "http://127.0.0.1:8080"\nclock = "3+2"\n'
    )
    assert (config.lichess.play, config.lichess.server, config.lichess.clock) == (
        True, "http://127.0.0.1:8080", "3+2"
    )  # fmt: skip
    with pytest.raises(ConfigError, match=r"lichess\.clock"):
        parse_config('[lichess]\nclock = "soon"\n')
    with pytest.raises(ConfigError, match="is not a server's URL"):
        parse_config('[lichess]\nserver = "lichess.org"\n')
    with pytest.raises(ConfigError, match="lichess"):
        parse_config("[lichess]\ntoken = 'lip_x'\n")
