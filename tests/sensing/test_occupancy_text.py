from __future__ import annotations

from reedboard.rules.squares import BB_RANKS, parse_square
from reedboard.sensing.text import occupancy_lines, occupancy_text


def test_rank_8_first_files_a_to_h() -> None:
    lines = occupancy_lines((1 << parse_square("a1")) | (1 << parse_square("h8")))
    assert lines[0] == ".......#"
    assert lines[7] == "#......."
    assert all(line == "........" for line in lines[1:7])


def test_text_is_eight_lines() -> None:
    text = occupancy_text(BB_RANKS[1])
    assert text.splitlines()[6] == "########"
    assert text.count("\n") == 8
