"""Time controls as the contract writes them, and their PGN tag (PGN standard 9.6.1)."""

from __future__ import annotations

import pytest
from reedboard.chess_clock.time_control import Period, TimeControl, parse_time_control
from reedboard.errors import InvalidInputError


@pytest.mark.parametrize(
    ("text", "periods", "increment_ms", "pgn"),
    [
        ("5+3", (Period(300_000),), 3000, "300+3"),
        ("15+0", (Period(900_000),), 0, "900"),
        ("15", (Period(900_000),), 0, "900"),
        ("0.5+0", (Period(30_000),), 0, "30"),
        ("3+2", (Period(180_000),), 2000, "180+2"),
        ("1+0.5", (Period(60_000),), 500, "60+0.5"),
        (
            "90/40:30+30",
            (Period(5_400_000, 40), Period(1_800_000)),
            30_000,
            "40/5400+30:1800+30",
        ),
        (
            "120/40:60/20:15+30",
            (Period(7_200_000, 40), Period(3_600_000, 20), Period(900_000)),
            30_000,
            "40/7200+30:20/3600+30:900+30",
        ),
    ],
)
def test_controls_read_as_written(
    text: str, periods: tuple[Period, ...], increment_ms: int, pgn: str
) -> None:
    control = parse_time_control(text)
    assert control == TimeControl(periods, increment_ms)
    assert control.pgn_tag() == pgn
    assert parse_time_control(control.text()) == control


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("", "expected"),
        ("5+", "expected"),
        ("+3", "expected"),
        ("five+3", "'five' is not a number of minutes"),
        ("5+x", "'x' is not a number of increment"),
        ("-5+3", "not a number of minutes"),
        ("0+3", "some time to start"),
        ("90:30+30", "every period but the last"),
        ("90/40+30", "the last period has no move count"),
        ("90/0:30+30", "'0' is not a number of moves"),
        ("0.00001+0", "not a whole ms"),
        ("2000+0", "over 1440 minutes"),
    ],
)
def test_bad_controls_are_named(text: str, fault: str) -> None:
    with pytest.raises(InvalidInputError, match=fault):
        parse_time_control(text)


def test_the_next_period_comes_with_its_last_move() -> None:
    control = parse_time_control("90/40:30/20:15+30")
    gained = {made: control.bonus_after(made) for made in (39, 40, 41, 59, 60, 61)}
    assert gained == {39: 0, 40: 1_800_000, 41: 0, 59: 0, 60: 900_000, 61: 0}
