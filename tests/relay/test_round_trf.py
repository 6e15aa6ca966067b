"""The round's results, back to the pairing program: `GET /round.trf` is the TRF the
pairings came from with the round's result columns filled from the relay's results (and
each player's points brought up to date), every other byte as it was."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard_relay.game_on_board import game_on
from reedboard_relay.pairings_trf import FIRST_ROUND, ROUND_WIDTH, read_trf

from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import relay_urls
from tests.relay.test_game_pairings import FOOLS_MATE, MATED, Relay, hello, moves, state
from tests.relay.test_pairings_trf import SPRING_OPEN

RESULT_AT = FIRST_ROUND + 2 * ROUND_WIDTH + 6  # round 3's result column, from 0


def test_the_rounds_results_go_into_a_copy_of_the_trf(tmp_path: Path) -> None:
    trf = tmp_path / "spring.trf"
    trf.write_bytes(SPRING_OPEN.replace("\n", "\r\n").encode("cp1252"))  # as on Windows
    relay = Relay(tmp_path / "relay.sqlite", trf)
    try:
        # Board 1, Novak - Okafor: mated, 0-1. Board 2, Brown - Müller: Müller never
        # came, the arbiter gives it to Brown before a move. Board 3 still plays.
        relay.heard("1", hello(1, "s"), state(2), *moves(3, FOOLS_MATE), MATED)
        relay.heard("2", hello(1, "s"), state(2))
        relay.arbiter.set_result("2", game_on(relay.boards.boards["2"].mirror), "1-0", "forfeit")
        relay.heard("3", hello(1, "s"), state(2), *moves(3, ["e2e4"]))
        data, written = relay.web.round_trf()
    finally:
        relay.close()
    assert written == 2
    before = trf.read_bytes().split(b"\r\n")
    after = data.split(b"\r\n")
    changed = {n for n, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
    text = data.decode("cp1252")
    lines = text.split("\r\n")
    by_rank = {int(line[4:8]): line for line in lines if line.startswith("001")}
    assert changed == {lines.index(by_rank[n]) for n in (7, 1, 5, 6)}
    assert {n: by_rank[n][RESULT_AT] for n in (7, 1, 5, 6)} == {7: "0", 1: "1", 5: "+", 6: "-"}
    assert {n: by_rank[n][80:84] for n in (7, 1, 5, 6)} == {
        7: " 2.0", 1: " 3.0", 5: " 2.0", 6: " 1.0"}  # fmt: skip
    assert "Müller, Jörg" in by_rank[6]  # the file's own encoding
    rounds = {p.rank: p.rounds[2].result for p in read_trf(text).players.values()}
    assert rounds == {1: "1", 2: " ", 3: "H", 4: " ", 5: "+", 6: "-", 7: "0"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def test_the_relay_serves_it_and_says_when_it_has_no_trf(broker: Broker, tmp_path: Path) -> None:
    trf, csv = tmp_path / "spring.trf", tmp_path / "round.csv"
    trf.write_text(SPRING_OPEN, encoding="utf-8")
    csv.write_text("board,white,black\nb1,Ann,Bob\n")
    for pairings, expected in ((trf, 200), (csv, 404)):
        relay = relay_urls(broker, tmp_path / "relay.sqlite", "--pairings", str(pairings))
        with relay as (url, _console, _relay):
            try:
                with urllib.request.urlopen(url + "round.trf", timeout=10) as answer:
                    status, body = answer.status, answer.read()
            except urllib.error.HTTPError as error:
                status, body = error.code, error.read()
        assert status == expected
        if expected == 200:  # nothing played yet: the file as it was
            assert body == SPRING_OPEN.encode("utf-8")
        else:
            assert b"no player lines" in body
