"""A board's `alive` on the broker: it may overtake the messages it counts (QoS 0 passes
QoS 1 held for the relay), so only a tail still missing an `alive` later is asked for."""

from __future__ import annotations

from pathlib import Path

from reedboard.link.board_messages import Alive
from reedboard.link.messages import Resend
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_store import frames


def test_a_tail_in_flight_is_not_asked_for(tmp_path: Path) -> None:
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, move = frames()
    boards.heard("b1", read(hello), 0)
    boards.heard("b1", read(state), 0)
    # The alive naming the move comes first; the move is on its way.
    _changed, wanted = boards.heard("b1", read(Alive(3).to_wire()), 1000)
    assert wanted is None
    _changed, wanted = boards.heard("b1", read(move), 1500)
    assert wanted is None
    _changed, wanted = boards.heard("b1", read(Alive(3).to_wire()), 2000)
    assert wanted is None


def test_a_tail_still_missing_an_alive_later_is_asked_for(tmp_path: Path) -> None:
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, _lost = frames()
    boards.heard("b1", read(hello), 0)
    boards.heard("b1", read(state), 0)
    boards.heard("b1", read(Alive(3).to_wire()), 1000)
    _changed, wanted = boards.heard("b1", read(Alive(3).to_wire()), 2000)
    assert wanted == Resend(2, "s1", 4, resync="hello")


def test_alives_read_together_after_a_stall_are_not_a_lost_tail(tmp_path: Path) -> None:
    """A relay held up reads the `alive`s it missed back to back, ahead of the frames its
    broker holds for it: nothing is asked for."""
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, _held_by_the_broker = frames()
    boards.heard("b1", read(hello), 0)
    boards.heard("b1", read(state), 0)
    for number in range(3):
        _changed, wanted = boards.heard("b1", read(Alive(3).to_wire()), 5000 + number)
        assert wanted is None


def test_a_tail_arriving_slowly_is_not_asked_for(tmp_path: Path) -> None:
    """A relay seconds behind: every alive names messages not yet in, but each second
    brings some of them: they are on their way."""
    boards = Boards(RelayStore(str(tmp_path / "relay.sqlite")))
    hello, state, move = frames()
    boards.heard("b1", read(hello), 0)
    boards.heard("b1", read(Alive(3).to_wire()), 1000)
    boards.heard("b1", read(state), 1500)
    _changed, wanted = boards.heard("b1", read(Alive(4).to_wire()), 2000)
    assert wanted is None
    boards.heard("b1", read(move), 2500)
    _changed, wanted = boards.heard("b1", read(Alive(5).to_wire()), 3000)
    assert wanted is None
