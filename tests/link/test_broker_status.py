"""The board's broker link as the people at the board are told it (`broker_status`):
each of paho's events moves the state, the voice speaks once down and once back, and
only of trouble an attempt confirmed; the words name no broker and no credential."""

from __future__ import annotations

import ssl

import pytest
from paho.mqtt.reasoncodes import ReasonCode
from reedboard.link.broker_status import (
    BrokerStatus,
    LinkTracker,
    failure_reason,
    refusal_reason,
    status_words,
)


def test_a_board_never_reached_is_connecting_then_unreachable_said_once() -> None:
    link = LinkTracker(1000)
    assert link.state == BrokerStatus("connecting", 1000)
    assert link.failed("network") == "down"
    assert link.failed("network") is None  # every later attempt: nothing more said
    assert link.state == BrokerStatus("unreachable", 1000, "network")
    assert link.connected(5000) == "back"
    assert link.state == BrokerStatus("connected", 5000)


def test_a_blink_taken_again_at_the_first_attempt_says_nothing() -> None:
    link = LinkTracker(0)
    assert link.connected(10) is None  # the first connection is no news
    link.disconnected(20)
    assert link.state == BrokerStatus("lost", 20)
    assert link.connected(30) is None
    # Taken over again and again by another client with the same id: still nothing.
    for t in range(40, 100, 20):
        link.disconnected(t)
        assert link.connected(t + 10) is None


def test_a_loss_an_attempt_confirms_is_said_once_and_its_end_once() -> None:
    link = LinkTracker(0)
    link.connected(10)
    link.disconnected(20)
    assert link.failed("network") == "down"
    assert link.state == BrokerStatus("lost", 20, "network")  # since the loss, not the try
    assert link.failed("network") is None
    assert link.refused("password") is None  # the broker back but refusing: no new word
    assert link.state == BrokerStatus("refused", 20, "password")
    assert link.connected(90) == "back"
    assert link.connected(95) is None


def test_a_refusal_before_any_connection_is_said() -> None:
    link = LinkTracker(7)
    assert link.refused("password") == "down"
    assert link.state == BrokerStatus("refused", 7, "password")


@pytest.mark.parametrize(
    ("code", "reason"),
    [(4, "password"), (5, "password"), (2, "client_id"), (3, "unavailable"), (1, "protocol")],
)
def test_refusals_of_mqtt_3_1_1_are_named(code: int, reason: str) -> None:
    # paho's reason code for a CONNACK's return code, as it hands it to `on_connect`.
    from paho.mqtt.client import convert_connack_rc_to_reason_code

    named: ReasonCode = convert_connack_rc_to_reason_code(code)  # type: ignore[arg-type]
    assert refusal_reason(named) == reason


def test_a_refusal_of_no_known_kind_is_other() -> None:
    assert refusal_reason("Quota exceeded") == "other"


def test_an_untrusted_certificate_is_tls_anything_else_the_network() -> None:
    assert failure_reason(ssl.SSLCertVerificationError("hostname mismatch for club")) == "tls"
    assert failure_reason(ConnectionRefusedError(111, "Connection refused")) == "network"
    assert failure_reason(None) == "network"


@pytest.mark.parametrize(
    "status",
    [
        BrokerStatus("connecting", 0),
        BrokerStatus("connected", 0, unsent=3),
        BrokerStatus("lost", 0),
        BrokerStatus("lost", 0, "network"),
        BrokerStatus("unreachable", 0, "tls"),
        BrokerStatus("refused", 0, "password"),
        BrokerStatus("refused", 0, "other"),
    ],
)
def test_the_words_say_the_state_and_never_a_count(status: BrokerStatus) -> None:
    words = status_words(status)
    assert words.startswith("The broadcast is ")
    # The count changes with every move: a line that held it would be announced each time.
    assert status_words(status) == status_words(BrokerStatus(status.link, 0, status.reason, 99))
    down = status.link in ("lost", "unreachable", "refused")
    assert ("sends it once the broker is back" in words) == down


def test_a_loss_is_one_line_before_and_after_an_attempt_failed() -> None:
    assert status_words(BrokerStatus("lost", 0)) == status_words(BrokerStatus("lost", 0, "network"))


def test_the_words_of_a_refused_password_say_so() -> None:
    words = status_words(BrokerStatus("refused", 0, "password"))
    assert "refused the board's user name or password" in words
