"""Results the Laws and the sensors make, end to end: fake boards (whole firmware
boards, each on a thread of the test's process) end their games by mate, by the kings' resignation and draw, and by a flag,
then have their pieces swept off (lifted one by one, several at once, slid and dragged
to where a move could go), one of them set up again; a real Mosquitto carries their
streams to the relay. The relay shows each result with the game's moves, and no board
publishes a move after its result: only a set-up start position begins a new game. The
relay names the players from a TRF, and keeps them when the file is broken meanwhile."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.children import child, stop
from tests.relay import board_scripts
from tests.relay.board_scripts import Script
from tests.relay.board_thread import BoardThread, board_thread
from tests.relay.broker import Broker, running_broker
from tests.relay.caught_up import caught_up
from tests.relay.fake_board import quiet_board
from tests.relay.test_pairings_trf import SPRING_OPEN
from tests.relay.test_relay_end_to_end import BIN, games_of, get
from tests.support.said_lines import SaidLines

SPEED = "20"  # the longest script, 22 s of a person's time, in about a second


def scripts() -> dict[str, tuple[Script, str]]:
    """Each board's script and the result it ends with."""
    mate = board_scripts.fools_mate()
    mate.sweep(seed=1)
    resigned = board_scripts.resignation()
    resigned.headers.append("@mode strict")  # touch-move binds: still no move after the result
    resigned.drag("f3g5")  # White's knight to a square it could go to, left, then off
    resigned.sweep(seed=2)
    drawn = board_scripts.draw()
    drawn.sweep(seed=3)
    for square in board_scripts.SET_UP_ORDER[:20]:
        drawn.place(square, after_ms=150)  # half a set-up: no new game
    again = board_scripts.fools_mate()
    again.sweep(seed=4)
    again.set_up()  # the start position: a new game, as the board's rules say
    return {
        "mate": (mate, "0-1"),
        "resign": (resigned, "1-0"),
        "draw": (drawn, "1/2-1/2"),
        "flag": (board_scripts.flag(), "1-0"),
        "again": (again, "0-1"),
    }


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def effects(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def games_played(said: list[dict[str, Any]]) -> list[tuple[list[str], str | None]]:
    """The board's games as it told them: each one's moves and result. Any move the board
    tells after a result and before a new game fails the test."""
    games: list[tuple[list[str], str | None]] = [([], None)]
    for effect in said:
        moves, result = games[-1]
        if effect["event"] == "new_game" and games != [([], None)]:
            games.append(([], None))
        elif effect["event"] == "move":
            assert result is None, f"a move after the result {result}: {effect}"
            moves.append(effect["san"])
        elif effect["event"] == "game_over":
            games[-1] = (moves, effect["result"])
    return games


def test_results_from_the_board_reach_the_relay_and_a_sweep_makes_no_move(
    broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "relay.sqlite"
    pairings = tmp_path / "spring-open.trf"
    pairings.write_text(SPRING_OPEN, encoding="utf-8")
    played = scripts()
    relay_command = [
        str(BIN / "reedboard-relay"), "--mqtt", broker.url, "--db", str(db),
        "--pairings", str(pairings), "--boards", "mate,resign,draw",
    ]  # fmt: skip
    with child(relay_command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as relay:
        assert relay.stdout is not None
        url = relay.stdout.readline().strip()
        outputs: dict[str, str] = {}
        with boards_playing(broker, tmp_path, played) as boards:
            for board, playing in boards.items():
                assert playing.wait(180) == 0, board
                outputs[board] = playing.output()
        told = {board: games_played(effects(out)) for board, out in outputs.items()}
        for board, (_, result) in played.items():
            assert told[board][0][1] == result, (board, told[board])
        assert len(told["again"]) == 2 and told["again"][1] == ([], None)
        assert all(len(told[b]) == 1 for b in ("mate", "resign", "draw", "flag"))

        expected = {board: games[-1] for board, games in told.items()}
        plies_results = {b: (len(m), r) for b, (m, r) in expected.items()}

        def at_relay() -> dict[str, tuple[int, str | None]]:
            return {e["id"]: (e["ply"], e["result"]) for e in json.loads(get(url + "api/boards"))}

        assert caught_up(at_relay, plies_results) == plies_results
        listed = {entry["id"]: entry for entry in json.loads(get(url + "api/boards"))}
        # The pairings of the TRF's last round, on the boards --boards names.
        assert (listed["mate"]["white"], listed["mate"]["black"]) == (
            "Novak, Jan",
            "Okafor, Daniel",
        )
        assert listed["flag"]["white"] == "?"  # a board with no pairing is still shown

        pgn = get(url + "games.pgn")
        assert games_of(pgn) == {board: moves for board, (moves, _) in expected.items()}
        for board, (_, ended) in expected.items():
            one = get(url + f"boards/{board}.pgn")
            shown = ended or "*"
            assert f'[Result "{shown}"]' in one and one.rstrip().endswith(shown)
        resigned = get(url + "boards/resign.pgn")
        for tag in ('[Round "3.2"]', '[White "Brown, Tom"]', '[Event "Spring Open 2026"]'):
            assert tag in resigned

        # A file broken while the relay runs: the relay says what is wrong (it looks at
        # the file once a second), and the names stay.
        assert relay.stderr is not None
        said = SaidLines(relay.stderr)
        pairings.write_text(SPRING_OPEN.replace("2598 NGR", "25 8 NGR"), encoding="utf-8")
        os.utime(pairings, (1, 1))  # a different time, however fast the test wrote it
        said.wait_for("line 11, rating (columns 49-52): '25 8' is not a number")
        names = {e["id"]: e["white"] for e in json.loads(get(url + "api/boards"))}
        assert names["resign"] == "Brown, Tom"
        assert stop(relay, signal.SIGTERM) == 0

    # The game ended before the set-up is kept whole in the relay's store.
    store = RelayStore(str(db))
    try:
        mirror = Boards(store).boards["again"].mirror
        assert len(mirror.finished) == 1
        finished = mirror.finished[0]
        assert (len(finished.game), finished.result) == (4, "0-1")
        assert mirror.current is not None and len(mirror.current.game) == 0
    finally:
        store.close()


@contextlib.contextmanager
def boards_playing(
    broker: Broker, folder: Path, played: dict[str, tuple[Script, str]]
) -> Iterator[dict[str, BoardThread]]:
    """Every board, started together, each stopped whatever happens."""
    with contextlib.ExitStack() as stack:
        boards = {}
        for board, (script, _) in played.items():
            path = folder / f"{board}.events"
            path.write_text(script.text())
            command = [
                "--fake", "--script", str(path), "--speed", SPEED, "--until-done", "--print",
                "--mqtt", broker.url, "--board-id", board, *quiet_board(folder),
            ]  # fmt: skip
            boards[board] = stack.enter_context(board_thread(command))
        yield boards
