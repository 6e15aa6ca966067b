"""A plain board file, read without tomllib, gives what tomllib gives; any other file is
left to tomllib (None), whose messages are the ones a user then reads."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reedboard.config import parse_config
from reedboard.plain_toml import plain_toml

from tests.support.examples import examples

ROOT = Path(__file__).resolve().parents[1]

# Lines of all kinds: plain ones, and ones TOML takes or refuses that are not plain.
LINES = [
    "",
    "# a comment",
    "  \t# indented",
    "[matrix]",
    "[leds] # with a comment",
    "[ leds ]",
    "[leds.x]",
    "[[leds]]",
    "[matrix",
    "rows = [4, 17, 27]",
    "rows = [ 4, 17, 27, ]",
    "rows = []",
    "rows = [4,,5]",
    "rows = [4, 1.5, -2]",
    "rows = [4,\n17]",
    "rows = [0x4]",
    'a1 = "R1C1"',
    'a1 = "R1C1" # corner',
    'a1="a#b"',
    'a1 = "tab\there"',
    'a1 = "\\u00e9"',
    "a1 = 'literal'",
    'a1 = """x"""',
    'a1 = "open',
    'a1 = "x" y',
    "scan_hz = 200.0",
    "scan_hz = -0.25",
    "scan_hz = 1.",
    "scan_hz = .5",
    "scan_hz = 1e3",
    "scan_hz = inf",
    "count = 64",
    "count = +64",
    "count = -0",
    "count = 064",
    "count = 1_000",
    "count = 1#c",
    "count = 99999999999999999999",
    "count = --1",
    "count = 1 2",
    "count =",
    "= 1",
    "enabled = true",
    "enabled = false # off",
    "enabled = True",
    '"quoted" = 1',
    "dotted.key = 1",
    "with space = 1",
    "c\x01 = 1",
    "# bell \x07",
    "x = 1\r",
    "count = 65",
]


def same(text: str) -> None:
    """`plain_toml(text)` is None, or tomllib's data with the same types."""
    found = plain_toml(text)
    if found is not None:
        assert repr(found) == repr(tomllib.loads(text)), text


def test_every_file_of_up_to_three_lines_reads_as_tomllib_reads_it() -> None:
    """All 143,000 of them, in under a second: most are not plain and return at once."""
    for count in range(4):
        for lines in itertools.product(LINES, repeat=count):
            same("\n".join(lines))


# Longer files, drawn: drawing costs Hypothesis about 2 ms a file, the check microseconds,
# so the short files are all checked above rather than drawn by the thousand.
@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=4, max_size=8))
def test_a_longer_plain_file_reads_as_tomllib_reads_it(lines: list[str]) -> None:
    same("\n".join(lines))


@pytest.mark.parametrize("line", LINES)
def test_each_line_in_a_table(line: str) -> None:
    same(f"[t]\n{line}\n")


def test_the_example_and_the_deployed_files_are_plain() -> None:
    for path in [ROOT / "board.example.toml", *ROOT.glob("deploy/*.toml")]:
        text = path.read_text(encoding="utf-8")
        assert plain_toml(text) == tomllib.loads(text), path


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n",  # a key outside any table
        "[a]\nx = 1\nx = 2\n",  # given twice (tomllib refuses it)
        "[a]\n[a]\n",
        "[a]\nx = 'literal'\n",
        '[a]\nx = "esc\\"aped"\n',
        "[a]\nx = 1e3\n",
        "[a]\nx = [1,\n2]\n",
        "[a]\r\nx = 1\r\n",
    ],
)
def test_what_is_not_plain_is_left_to_tomllib(text: str) -> None:
    assert plain_toml(text) is None


def test_a_config_not_plain_still_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match=r"^board\.toml: not valid TOML: "):
        parse_config("[matrix]\nscan_hz = 1.\n", source="board.toml")
    assert parse_config("[matrix]\nscan_hz = 1e2\n").matrix.scan_hz == 100.0
