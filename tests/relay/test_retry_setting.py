"""How often the board, the bridge and the relay try a broker again: one setting for each
(`[mqtt] retry_ms`, `--mqtt-retry-ms`), the same default everywhere, a bad value refused
with one line naming it before anything starts."""

from __future__ import annotations

import pytest
from reedboard.errors import ConfigError
from reedboard.link.mqtt_client import BrokerSettings, check_settings, retry_waits_s
from reedboard.link.mqtt_retry import RETRY_MS
from reedboard_host.cli import build_parser as host_parser
from reedboard_relay.cli import parser as relay_parser
from reedboard_relay.mqtt_loop import MqttOnLoop


def test_the_default_tries_after_1_then_2_then_every_4_seconds() -> None:
    assert RETRY_MS == 4000
    assert retry_waits_s(RETRY_MS) == (1.0, 2.0, 4.0)
    assert retry_waits_s(100) == (0.025, 0.05, 0.1)


def test_the_relay_and_the_bridge_take_the_setting_with_the_same_default() -> None:
    relay = relay_parser().parse_args(["--mqtt", "mqtt://h"])
    bridge = host_parser().parse_args(["publish", "--port", "p", "--mqtt", "mqtt://h",
                                       "--board-id", "b"])  # fmt: skip
    assert relay.mqtt_retry_ms == bridge.mqtt_retry_ms == RETRY_MS
    relay = relay_parser().parse_args(["--mqtt", "mqtt://h", "--mqtt-retry-ms", "250"])
    assert relay.mqtt_retry_ms == 250


@pytest.mark.parametrize("value", ["5", "600001", "1.5", "soon", "-100"])
@pytest.mark.parametrize("program", ["relay", "bridge"])
def test_a_bad_retry_time_is_one_line(
    program: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as ended:
        if program == "relay":
            relay_parser().parse_args(["--mqtt", "mqtt://h", "--mqtt-retry-ms", value])
        else:
            host_parser().parse_args(["publish", "--port", "p", "--mqtt", "mqtt://h",
                                      "--board-id", "b", "--mqtt-retry-ms", value])  # fmt: skip
    assert ended.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "--mqtt-retry-ms" in said[0] and value in said[0], said


def test_settings_made_in_code_are_checked_too() -> None:
    with pytest.raises(ConfigError, match=r"MQTT retry time 5 ms is not 10\.\.600000 ms"):
        check_settings(BrokerSettings("mqtt://127.0.0.1", "b1", retry_ms=5))


def test_the_relays_loop_waits_as_told() -> None:
    import asyncio

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    loop = asyncio.new_event_loop()
    try:
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        assert MqttOnLoop(client, loop, lambda: None).retry_waits_s == (1.0, 2.0, 4.0)
        assert MqttOnLoop(client, loop, lambda: None, retry_ms=200).retry_waits_s == (
            0.05, 0.1, 0.2,
        )  # fmt: skip
    finally:
        loop.close()
