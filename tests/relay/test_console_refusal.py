"""The console guard's rule, alone: which requests come from the console's own page."""

from __future__ import annotations

from reedboard_relay.console_guard import host_allowed, refusal


def test_an_address_or_a_given_name_is_the_console_and_nothing_else() -> None:
    for host in ("127.0.0.1:8081", "192.168.1.5", "[::1]:8081", "localhost:8081", "LOCALHOST"):
        assert host_allowed(host, ()), host
    assert host_allowed("relay-pi.local:8081", ("relay-pi.local",))
    for host in ("evil.example", "evil.example:8081", "127.0.0.1.evil.example", "", ":8081"):
        assert not host_allowed(host, ()), host


def test_only_the_pages_own_origin_and_site_pass() -> None:
    host = "127.0.0.1:8081"
    assert refusal(host, None, None, ()) is None  # a script, not a browser
    assert refusal(host, "http://127.0.0.1:8081", "same-origin", ()) is None
    assert refusal(host, "https://127.0.0.1:8081", None, ()) is None  # behind TLS
    assert refusal(host, None, "none", ()) is None  # the arbiter typed the URL
    for origin, site in (
        ("http://127.0.0.1:8080", None),  # the spectators' port
        ("http://evil.example", None),
        ("null", None),
        (None, "cross-site"),
        (None, "same-site"),
        ("http://127.0.0.1:8081", "cross-site"),
    ):
        assert refusal(host, origin, site, ()) is not None, (origin, site)
    assert refusal("evil.example:8081", "http://evil.example:8081", "same-origin", ()) is not None
