"""The round's tournament mode board by board, pure: who owes an acknowledgement, when a
board is told again, what counts as confirmed."""

from __future__ import annotations

from reedboard.link.acks import SettingsNow
from reedboard.link.board_messages import Ack, Alive, BoardHello, ErrorReply
from reedboard.link.messages import ChangeSettings
from reedboard_relay.round_mode import RETELL_FIRST_S, SETTINGS_IDS, RoundMode

ALIVE = Alive(5)


def settings_now(on: bool) -> SettingsNow:
    """A board's settings as its `ack` of `settings` tells them."""
    return SettingsNow("casual", 80, 300, 250, tournament=on)


def ack(on: bool) -> Ack:
    return Ack(settings_now(on), id=SETTINGS_IDS + int(on), seq=6)


def test_a_board_is_told_again_when_heard_until_it_acknowledges() -> None:
    mode = RoundMode()
    told = mode.switch(True, ["b1", "b2"], now=0.0)
    assert [board for board, _ in told] == ["b1", "b2"]
    assert mode.heard("b2", ack(True), now=0.1) is None
    assert mode.confirmed("b2") and not mode.confirmed("b1")
    assert mode.heard("b1", ALIVE, now=RETELL_FIRST_S - 0.1) is None  # not yet
    again = mode.heard("b1", ALIVE, now=RETELL_FIRST_S)
    assert again == ChangeSettings(id=SETTINGS_IDS + 1, tournament=True)
    assert mode.heard("b1", ALIVE, now=RETELL_FIRST_S + 1) is None  # then twice as long
    assert mode.heard("b1", ALIVE, now=3 * RETELL_FIRST_S) is not None
    assert mode.heard("b1", ack(True), now=10.0) is None
    assert mode.confirmed("b1")
    assert all(mode.heard(b, ALIVE, now=100.0) is None for b in ("b1", "b2"))


def test_an_old_acknowledgement_confirms_nothing() -> None:
    mode = RoundMode()
    mode.switch(True, ["b1"], now=0.0)
    mode.switch(False, ["b1"], now=1.0)
    mode.heard("b1", ack(True), now=1.1)  # the first switch's answer, late
    assert not mode.confirmed("b1") and mode.owed == {"b1": False}
    mode.heard("b1", ack(False), now=1.2)
    assert mode.confirmed("b1") and not mode.owed


def test_a_hello_is_told_at_once_in_a_tournament_round_only() -> None:
    hello = BoardHello("s2", seq=1)
    mode = RoundMode()
    assert mode.heard("b1", hello, now=0.0) is None  # the board's own TOML stands
    mode.switch(True, ["b1"], now=1.0)
    mode.heard("b1", ack(True), now=1.1)
    told = mode.heard("b1", hello, now=1.2)  # restarted: it forgot
    assert told is not None and told.tournament is True
    assert not mode.confirmed("b1")


def test_a_board_that_refuses_the_setting_is_not_told_again() -> None:
    mode = RoundMode()
    mode.switch(True, ["b1"], now=0.0)
    refused = ErrorReply("bad_argument", id=SETTINGS_IDS + 1, seq=2)
    assert mode.heard("b1", refused, now=0.5) is None
    assert mode.heard("b1", ALIVE, now=60.0) is None
    assert not mode.confirmed("b1")


def test_a_restarted_relay_tells_every_board_again_when_heard() -> None:
    mode = RoundMode(on=True)
    mode.resumed(["b1"])
    assert mode.heard("b1", ALIVE, now=0.0) is not None
    off = RoundMode(on=False)
    off.resumed(["b1"])
    assert off.heard("b1", ALIVE, now=0.0) is None


def test_a_board_leaving_tournament_mode_mid_round_is_flagged_and_told_again() -> None:
    """Anyone's `settings` that the board acknowledges says the mode it is in: one that
    took a board out of the round's tournament mode is seen, whoever sent it."""
    mode = RoundMode()
    mode.switch(True, ["b1"], now=0.0)
    mode.heard("b1", ack(True), now=0.1)
    assert mode.confirmed("b1") and not mode.left
    someone_elses = Ack(settings_now(False), id=5, seq=9)
    again = mode.heard("b1", someone_elses, now=0.2)
    assert again == ChangeSettings(id=SETTINGS_IDS + 1, tournament=True)
    assert not mode.confirmed("b1") and mode.left == {"b1"}
    mode.heard("b1", ack(True), now=0.3)
    assert mode.confirmed("b1") and mode.left == {"b1"}  # flagged until the round switches
    mode.switch(False, ["b1"], now=1.0)
    assert not mode.left
    mode.heard("b1", ack(False), now=1.1)
    assert mode.heard("b1", someone_elses, now=1.2) is None  # not a tournament round
    assert mode.confirmed("b1")
