"""A game's `[Date]` is the day it was played, kept in the relay's SQLite: the PGN served
the next day, or by a relay restarted since, still says it; the board's next game takes
its own day. The relay used to write the day the PGN was served."""

from __future__ import annotations

import datetime
from pathlib import Path

from reedboard_relay.game_dates import GameDates
from reedboard_relay.web import RelayWeb

from tests.relay.test_game_pairings import ROUND_1, Relay, hello, moves, new_game, rewrite, state


class Calendar:
    def __init__(self, day: datetime.date) -> None:
        self.day = day

    def __call__(self) -> datetime.date:
        return self.day


def relay_on(db: Path, pairings: Path, calendar: Calendar) -> Relay:
    relay = Relay(db, pairings)
    dates = GameDates(relay.store.db, calendar)
    relay.web = RelayWeb(relay.service, relay.games, relay.arbiter.of, dates=dates)
    return relay


def dated(relay: Relay) -> str:
    text = relay.web.pgn("b1") or ""
    return next(line for line in text.splitlines() if line.startswith("[Date "))


def test_a_game_keeps_the_day_it_was_played(tmp_path: Path) -> None:
    db, pairings = tmp_path / "relay.sqlite", tmp_path / "round.csv"
    rewrite(pairings, ROUND_1, 1)
    calendar = Calendar(datetime.date(2026, 3, 1))
    relay = relay_on(db, pairings, calendar)
    try:
        relay.heard("b1", hello(1, "s1"), state(2), *moves(3, ["e2e4", "e7e5"]))
        calendar.day = datetime.date(2026, 3, 2)  # served after midnight
        assert dated(relay) == '[Date "2026.03.01"]'
    finally:
        relay.close()
    calendar.day = datetime.date(2026, 3, 3)
    again = relay_on(db, pairings, calendar)  # restarted days later
    try:
        assert dated(again) == '[Date "2026.03.01"]'
        again.heard("b1", new_game(5), *moves(6, ["d2d4"]))  # the board's next game
        assert dated(again) == '[Date "2026.03.03"]'
    finally:
        again.close()
