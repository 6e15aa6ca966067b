"""The Lichess broadcast push against a stand-in over real HTTP: the latest state after
every change, coalesced, a full pause after a 429, nothing lost after a refusal; each game
checked before it goes and Lichess's answer read game by game (an HTTP 200 can carry
`"error": "Invalid move: ..."`, and then Lichess took nothing); never an empty push."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from reedboard.rules import Game, write_pgn
from reedboard_relay.lichess_push import LichessPush, PushSettings, Refusals, rounds_for
from reedboard_relay.push_games import PushedGame, problem_of, read_answer

from tests.relay.broadcast_standin import BroadcastStandIn
from tests.relay.broker import free_port
from tests.relay.relay_refused import relay_refused
from tests.support.logged import logged


def game(white: str, *sans: str) -> str:
    played = Game()
    for san in sans:
        played.push_san(san)
    return write_pgn(played, {"White": white, "Black": "Bob"})


class Source:
    """The round's games as the relay would give them, changed by the test; `asked` is
    set once the pusher has read them."""

    def __init__(self, *games: PushedGame) -> None:
        self.games = list(games)
        self.lock = threading.Lock()
        self.asked = threading.Event()

    def set(self, *games: PushedGame) -> None:
        with self.lock:
            self.games = list(games)

    def __call__(self) -> list[PushedGame]:
        with self.lock:
            self.asked.set()
            return list(self.games)


def test_changes_are_pushed_coalesced_with_the_token(caplog: pytest.LogCaptureFixture) -> None:
    source = Source(PushedGame("b1", game("first", "e4")))
    with BroadcastStandIn() as lichess:
        settings = PushSettings("r1", "s3cret", lichess.url, min_interval_s=0.5)
        push = LichessPush(settings, source)
        push.start()
        try:
            lichess.wait_for(lambda s: len(s.pushes) == 1)
            for n in range(5):  # five changes during the pause: one push of the latest
                source.set(PushedGame("b1", game(f"change {n}", "e4")))
                push.changed()
            lichess.wait_for(lambda s: len(s.pushes) == 2)
        finally:
            push.stop()
    (_, round_id, token, first), (_, _, _, second) = lichess.pushes
    assert (round_id, token) == ("r1", "s3cret")
    assert '"first"' in first and '"change 4"' in second
    assert not any("s3cret" in line for line in logged(caplog, "reedboard_relay"))


PAUSE_S = 0.5  # after a 429, in the 429 test


def test_a_429_pauses_the_whole_pause_and_the_latest_state_then_goes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = Source(PushedGame("b1", game("first", "e4")))
    with BroadcastStandIn() as lichess:
        lichess.refuse_next = [429, 503]
        # A pause five times the pushes' interval: kept whole, it cannot pass for one.
        settings = PushSettings("r1", "t", lichess.url, min_interval_s=0.1,
                                pause_after_429_s=PAUSE_S)  # fmt: skip
        push = LichessPush(settings, source)
        push.start()
        try:
            lichess.wait_for(lambda s: len(s.refused) == 1)
            source.set(PushedGame("b1", game("latest", "e4")))
            push.changed()
            lichess.wait_for(lambda s: len(s.pushes) == 1, timeout_s=30)
        finally:
            push.stop()
    (refused_at, _), (second_at, status) = lichess.refused
    assert status == 503
    assert second_at - refused_at >= PAUSE_S  # the 429's pause was kept whole
    assert '"latest"' in lichess.pushes[0][3]
    assert any("429" in line for line in logged(caplog, "reedboard_relay"))


def test_nothing_is_pushed_before_a_board_has_a_game() -> None:
    source = Source()
    with BroadcastStandIn() as lichess:
        push = LichessPush(PushSettings("r1", "t", lichess.url, min_interval_s=0.1), source)
        push.start()
        try:
            assert source.asked.wait(20)  # the pusher saw the round with no game
            source.set(PushedGame("b1", game("Ann", "d4")))
            push.changed()
            lichess.wait_for(lambda s: len(s.pushes) == 1)
        finally:
            push.stop()
    assert [body for body, _ in lichess.answered] == [lichess.pushes[0][3]]
    assert "1. d4 *" in lichess.pushes[0][3]


def test_a_refused_game_is_said_and_the_others_still_go(caplog: pytest.LogCaptureFixture) -> None:
    illegal = game("Cy", "e4").replace("1. e4", "1. e5")
    source = Source(
        PushedGame("b1", game("Ann", "e4", "e5")),
        PushedGame("b2", illegal),
        PushedGame("b3", game("Eve", "Nf3")),  # Lichess refuses this one
    )
    refusals, told = Refusals(), list[str]()
    with BroadcastStandIn() as lichess:
        lichess.bad_moves = {"Nf3"}
        settings = PushSettings("r1", "t", lichess.url, min_interval_s=0.1)
        push = LichessPush(settings, source, refusals, told.append)
        push.start()
        try:
            lichess.wait_for(lambda s: len(s.pushes) == 1)
            first_refusal = refusals.of("b3")
            source.set(PushedGame("b1", game("Ann", "e4", "e5")),
                       PushedGame("b3", game("Eve", "Nc3")))  # fmt: skip
            push.changed()  # b3's game, changed, is tried again
            lichess.wait_for(lambda s: len(s.pushes) == 2)
        finally:
            push.stop()
    refused_push, _ = lichess.answered[0]
    assert '"Ann"' in refused_push and '"Eve"' in refused_push and '"Cy"' not in refused_push
    assert '"Ann"' in lichess.pushes[0][3] and '"Eve"' not in lichess.pushes[0][3]
    assert '"Eve"' in lichess.pushes[1][3]
    assert first_refusal == "refused by Lichess: Invalid move: Nf3"
    assert (refusals.of("b2") or "").startswith("not pushed:") and refusals.of("b3") is None
    assert told[:2] == ["b2", "b3"]
    lines = logged(caplog, "reedboard_relay")
    assert any("board b3" in line and "Invalid move: Nf3" in line for line in lines)
    assert any("board b2" in line and "not pushed" in line for line in lines)


def test_a_200_that_refuses_the_push_is_said_and_the_push_tried_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = Source(PushedGame("b1", game("Ann", "e4")))
    with BroadcastStandIn() as lichess:
        lichess.error_next = ["Invalid move: Zz9"]
        push = LichessPush(PushSettings("r1", "t", lichess.url, min_interval_s=0.1), source)
        push.start()
        try:
            lichess.wait_for(lambda s: len(s.pushes) == 1, timeout_s=30)
        finally:
            push.stop()
    assert len(lichess.answered) == 2
    lines = logged(caplog, "reedboard_relay")
    assert any("refused the push" in line and "Invalid move: Zz9" in line for line in lines)


def test_the_push_runs_on_the_loop_it_is_started_on() -> None:
    """On the relay's one loop, as a task beside the MQTT and web sides: no thread of its
    own, no loop of its own; `changed` from another thread still reaches it."""
    source = Source(PushedGame("b1", game("first", "e4")))

    async def pushing(lichess: BroadcastStandIn) -> tuple[bool, list[str]]:
        push = LichessPush(PushSettings("r1", "t", lichess.url, min_interval_s=0.1), source)
        push.start()
        try:
            await asyncio.to_thread(lichess.wait_for, lambda s: len(s.pushes) == 1)
            source.set(PushedGame("b1", game("second", "e4")))
            await asyncio.to_thread(push.changed)  # from a thread other than the loop's
            await asyncio.to_thread(lichess.wait_for, lambda s: len(s.pushes) == 2)
            threads = [t.name for t in threading.enumerate()]
            return push.loop is asyncio.get_running_loop(), threads
        finally:
            await push.close()

    with BroadcastStandIn() as lichess:
        on_the_loop, threads = asyncio.run(pushing(lichess))
    assert on_the_loop and "lichess-push" not in threads
    assert '"second"' in lichess.pushes[1][3]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (game("A", "e4"), None),
        (game("A", "e4").replace("1. e4", "1. Zz9"), "Zz9"),
        (game("A", "e4").replace('[Round "?"]', "[Round ?]"), "is not a PGN tag"),
        (game("A", "e4") + "\n" + game("B", "d4"), "more than one game"),
        (game("A", "e4").replace("*\n", "1-0\n"), "its Result tag says '*'"),
        (game("A", "e4").replace('[Site "?"]\n', ""), "no Site tag"),
    ],
)
def test_each_game_is_checked_before_it_goes(text: str, problem: str | None) -> None:
    said = problem_of(text)
    assert said == problem if problem is None else problem in (said or "")


def test_the_answer_is_read_game_by_game() -> None:
    answer = b'{"games":[{"tags":{},"moves":4},{"tags":{},"error":"Invalid move: Nxe5"}]}'
    assert read_answer(answer, 2).refused == {1: "Invalid move: Nxe5"}
    assert read_answer(b'{"error":"Game 2 matches with Chapter 1"}', 2).error is not None
    assert read_answer(b"<html>", 1).error is not None
    assert read_answer(b'{"games":[]}', 1).error is not None  # not an answer for the game


def test_more_than_100_boards_are_split_over_the_rounds() -> None:
    boards = [f"b{n:03}" for n in range(250)]
    split = rounds_for(boards, ["r1", "r2", "r3"])
    assert [len(split[r]) for r in ("r1", "r2", "r3")] == [100, 100, 50]
    assert split["r2"][0] == "b100"


@pytest.mark.parametrize(
    ("token", "url", "said", "as_process"),
    [
        ("lip_x\n", "ftp://lichess.example",
         "--lichess-url 'ftp://lichess.example' is not a server's URL: give https://HOST[:PORT]",
         False),
        ("\n", "https://lichess.org",
         "the first line of the token file {path} is empty: it should hold a Lichess API token",
         False),
        ("lip_a b\n", "https://lichess.org",
         "the first line of the token file {path} is not a Lichess API token: it holds a "
         "space, a line break, a control character or a letter outside ASCII", True),
    ],
)  # fmt: skip
def test_a_bad_lichess_setting_is_refused_at_start(
    token: str,
    url: str,
    said: str,
    as_process: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Checked as the host's Lichess bridge checks them, before the relay starts: once
    started, a push could only fail in the log (and a token that is not one word would be
    quoted in an HTTP library's error)."""
    path = tmp_path / "token"
    path.write_text(token)
    argv = ["--mqtt", f"mqtt://127.0.0.1:{free_port()}", "--db", str(tmp_path / "relay.sqlite"),
            "--lichess-round", "r1", "--token-file", str(path), "--lichess-url", url]  # fmt: skip
    status, err, _out = relay_refused(argv, capsys, as_process=as_process)
    assert status == 2
    assert err == f"reedboard-relay: {said.format(path=path)}\n"
    assert "lip_a" not in err
