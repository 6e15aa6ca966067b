"""A relay restarted with a broadcast delay replays the store once, not twice: the
delay's boards are kept with the live boards' snapshots (snapshots.py) and rebuilt from
them, only the messages after them replayed (real SQLite, the relay's parts as
`reedboard-relay` puts them together)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import Boards
from reedboard_relay.broadcast_delay import DelayedBoards
from reedboard_relay.game_pairings import GamePairings
from reedboard_relay.pairings import Pairings
from reedboard_relay.service import RelayService
from reedboard_relay.store import RelayStore
from reedboard_relay.web import RelayWeb

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import hello, moves, state

OPENING = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]


def relay_on(path: Path, now: list[float]) -> tuple[RelayService, RelayWeb]:
    store = RelayStore(str(path))
    store.clock = lambda: now[0]
    service = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), Boards(store))
    games = GamePairings(Pairings(None, check_every_s=0), store.db)
    return service, RelayWeb(service, games, ArbiterStore(store.db).of)


def ucis(delayed: DelayedBoards | None, board: str = "b1") -> list[str]:
    assert delayed is not None
    current = delayed.boards[board].mirror.current
    assert current is not None
    return [m.uci() for m in current.game.moves]


def test_a_restart_with_a_delay_replays_only_what_came_after_the_kept_boards(
    tmp_path: Path,
) -> None:
    path, now = tmp_path / "relay.sqlite", [time.time() - 3600]
    service, web = relay_on(path, now)
    for frame in (hello(1, "s1"), state(2), *moves(3, OPENING[:3])):  # an hour ago
        service.boards.heard("b1", read(frame), 0)
    now[0] = time.time()
    web.resume_delay(10.0)  # ten minutes: the three plies are due
    for frame in moves(3, OPENING)[3:]:  # two more, just now: not yet
        service.boards.heard("b1", read(frame), 0)
    assert ucis(web.delayed) == OPENING[:3]
    service.keep_snapshots()  # as every half minute and at the stop
    service.boards.store.close()
    # The messages the kept boards hold, gone: a relay that replayed them would not
    # have the games; one that rebuilds from what it kept does.
    with sqlite3.connect(path) as db:
        covered = db.execute("SELECT value FROM relay WHERE key = 'delayed_applied'").fetchone()
        assert covered is not None
        db.execute("DELETE FROM messages WHERE number <= ?", (int(covered[0]),))
    again, web_again = relay_on(path, now)
    try:
        web_again.resume_delay(None)  # the kept delay
        assert ucis(web_again.delayed) == OPENING[:3]  # the fifth ply still younger
        assert web_again.delayed is not None
        web_again.delayed.catch_up(again.boards, now[0] + 601)
        assert ucis(web_again.delayed) == OPENING
    finally:
        again.boards.store.close()


def test_damaged_kept_boards_mean_the_store_is_replayed(tmp_path: Path) -> None:
    path, now = tmp_path / "relay.sqlite", [time.time() - 3600]
    service, web = relay_on(path, now)
    for frame in (hello(1, "s1"), state(2), *moves(3, OPENING)):
        service.boards.heard("b1", read(frame), 0)
    web.resume_delay(10.0)
    service.keep_snapshots()
    service.boards.store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE delayed_snapshots SET mirror = 'not json'")
    again, web_again = relay_on(path, now)
    try:
        web_again.resume_delay(None)
        assert ucis(web_again.delayed) == OPENING
    finally:
        again.boards.store.close()
