"""A board's `alive` on the broker: it may overtake the messages it counts (QoS 0 passes
QoS 1 held for the relay), so only a tail still missing an `alive` later is asked for."""

from __future__ import annotations

from pathlib import Path

from reedboard.link.board_messages import Alive
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.test_store import frames


def test_a_tail_in_flight_is_not_asked_for(tmp_path: Path) -> None:
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, move = frames()
    boards.heard("b1", hello)
    boards.heard("b1", state)
    # The alive naming the move comes first; the move is on its way.
    _changed, wanted = boards.heard("b1", Alive(3).to_wire())
    assert wanted is None
    _changed, wanted = boards.heard("b1", move)
    assert wanted is None
    _changed, wanted = boards.heard("b1", Alive(3).to_wire())
    assert wanted is None


def test_a_tail_still_missing_an_alive_later_is_asked_for(tmp_path: Path) -> None:
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, _lost = frames()
    boards.heard("b1", hello)
    boards.heard("b1", state)
    boards.heard("b1", Alive(3).to_wire())
    _changed, wanted = boards.heard("b1", Alive(3).to_wire())
    assert wanted == {"type": "resend", "after": 2, "session": "s1"}


def test_a_tail_arriving_slowly_is_not_asked_for(tmp_path: Path) -> None:
    """A relay seconds behind: every alive names messages not yet in, but each second
    brings some of them: they are on their way."""
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, move = frames()
    boards.heard("b1", hello)
    boards.heard("b1", Alive(3).to_wire())
    boards.heard("b1", state)
    _changed, wanted = boards.heard("b1", Alive(4).to_wire())
    assert wanted is None
    boards.heard("b1", move)
    _changed, wanted = boards.heard("b1", Alive(5).to_wire())
    assert wanted is None
