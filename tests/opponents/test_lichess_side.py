"""Lichess played by the board itself, with no PC: `reedboard run --fake` and its page
against the Lichess stand-in over real HTTP. The token entered on the page (refused:
said, not kept; taken: kept 0600, never said back nor logged), then a seek, a challenge
to a friend, a challenge accepted, a whole game to mate from the page and the board
alone, and a network lost in the middle of a game."""

from __future__ import annotations

import logging
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard.lichess import streams
from reedboard.lichess.token_store import TOKEN_FILE, keep

from tests.host.lichess_standin import StandIn
from tests.opponents.lichess_board import ANSWER_S, TOKEN, LichessBoard, lichess_board
from tests.simweb.waiting import wait_for

# Scholar's mate: the board player (white) mates on the seventh ply.
PERSON = ["e2e4", "f1c4", "d1h5", "h5f7"]
STAND_IN = ["e7e5", "b8c6", "g8f6"]


@pytest.fixture
def lichess() -> Iterator[StandIn]:
    with StandIn(TOKEN) as standin:
        yield standin


@pytest.fixture
def board(tmp_path: Path, lichess: StandIn) -> Iterator[LichessBoard]:
    with lichess_board(tmp_path, lichess) as running:
        running.pair()
        yield running


def opponent_now(board: LichessBoard) -> str:
    assert board.assembled.opponents is not None
    return board.assembled.opponents.current()


def said(board: LichessBoard) -> str:
    """Everything the board's Lichess player said, a line each."""
    opponents = board.assembled.opponents
    assert opponents is not None and opponents.lichess is not None
    return "\n".join(opponents.lichess.news)


def enter_token(board: LichessBoard) -> None:
    answer = board.command("lichess_token", token=TOKEN)
    assert answer["type"] == "reply" and answer["lichess"] == "BoardPlayer", answer


def play_out(board: LichessBoard, person: list[str], answers: list[str]) -> None:
    """The person's moves made on the switches, each answer of Lichess's waited for as
    the board lights it and then carried out on the switches too."""
    for ply, mine in enumerate(person):
        theirs = answers[ply] if ply < len(answers) else None
        before = board.plies()
        board.make(mine)
        wait_for(lambda: board.plies() == before + 1, ANSWER_S)  # noqa: B023 - called at once
        if theirs is None:
            break
        wait_for(lambda: board.lit() == theirs, ANSWER_S)  # noqa: B023
        board.make(theirs)
        wait_for(lambda: board.plies() == before + 2, ANSWER_S)  # noqa: B023


def test_a_refused_token_is_said_on_the_page_and_not_kept(
    board: LichessBoard, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answer = board.command("lichess_token", token="lip_wrongtoken")
    assert answer["type"] == "error"
    assert "Lichess refused the token" in answer["message"]
    assert not (board.data_dir / TOKEN_FILE).exists()

    enter_token(board)
    kept = board.data_dir / TOKEN_FILE
    assert kept.read_text() == TOKEN + "\n"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert "lip_wrongtoken" not in caplog.text and TOKEN not in caplog.text
    # A token of the wrong shape is refused before any call to Lichess.
    calls = lichess_calls(board)
    assert "line break" in board.command("lichess_token", token="lip_a\nb")["message"]
    assert lichess_calls(board) == calls


def lichess_calls(board: LichessBoard) -> int:
    return sum(board.lichess.requests.values())


def test_lichess_waits_for_a_token_then_seeks(board: LichessBoard) -> None:
    answer = board.command("opponent", spec="lichess seek 10+0")
    assert answer["type"] == "reply", answer
    assert opponent_now(board) == "Lichess: enter your Lichess API token on the page"
    assert not board.lichess.seeks
    enter_token(board)
    wait_for(lambda: bool(board.lichess.seeks), ANSWER_S)
    assert board.lichess.seeks[0]["time"] == "10" and board.lichess.seeks[0]["increment"] == "0"
    wait_for(lambda: "game abcd1234, you play white" in opponent_now(board), ANSWER_S)


def test_a_whole_game_from_the_page_and_the_board_alone(board: LichessBoard) -> None:
    board.lichess.opponent_script = list(STAND_IN)
    enter_token(board)
    assert board.command("opponent", spec="lichess seek 10+0")["type"] == "reply"
    wait_for(lambda: board.lichess.game is not None, ANSWER_S)
    play_out(board, PERSON, STAND_IN)
    wait_for(lambda: board.lichess.status == "mate", ANSWER_S)
    assert board.lichess.winner == "white"
    played = [m for pair in zip(PERSON, [*STAND_IN, ""], strict=True) for m in pair if m]
    assert board.lichess.moves() == list(board.state().moves) == played
    assert board.state().result == "1-0"
    # Each of Lichess's moves was lit and said, as the engine's are.
    for told in ("Your move: pawn e7 to e5.", "Your move: knight b8 to c6."):
        assert told in board.speaker.said, board.speaker.said
    wait_for(lambda: "over on Lichess: mate, white wins" in said(board), ANSWER_S)


def test_lichess_s_clocks_draws_and_resignation_from_the_page(board: LichessBoard) -> None:
    board.lichess.opponent_script = list(STAND_IN)
    enter_token(board)
    assert board.command("opponent", spec="lichess seek 10+0")["type"] == "reply"
    wait_for(lambda: board.lichess.game is not None, ANSWER_S)
    play_out(board, PERSON[:1], STAND_IN[:1])
    # The clocks are Lichess's, shown with the game.
    wait_for(lambda: "White 10:00.0  Black 10:00.0" in opponent_now(board), ANSWER_S)
    # A draw offered on Lichess is said; declined from the page, the game goes on.
    board.lichess.offer_draw()
    wait_for(lambda: "your opponent offers a draw" in said(board), ANSWER_S)
    # Shown on an open page, though nothing changed on the board.
    assert board.page_shows("your opponent offers a draw")
    assert board.command("lichess", command="no")["type"] == "reply"
    wait_for(lambda: "draw/no" in board.lichess.posts, ANSWER_S)
    # A takeback proposed from the page goes to Lichess.
    assert board.command("lichess", command="takeback")["type"] == "reply"
    wait_for(lambda: "takeback/yes" in board.lichess.posts, ANSWER_S)
    board.lichess.answer_takeback(False)
    # Resigning on the page ends the game on Lichess as on the board.
    assert board.command("lichess", command="resign")["type"] == "reply"
    wait_for(lambda: board.lichess.status == "resign", ANSWER_S)
    assert board.lichess.winner == "black"
    wait_for(lambda: board.state().result == "0-1", ANSWER_S)
    # No engine helps in a game on Lichess.
    assert "no hint in a game on Lichess" in board.command("hint")["message"]
    # A word the game does not know is refused, in words.
    assert "unknown Lichess command" in board.command("lichess", command="castle")["message"]


def test_a_named_friend_is_challenged(board: LichessBoard) -> None:
    enter_token(board)
    assert board.command("opponent", spec="lichess challenge Friend_1 5+3")["type"] == "reply"
    wait_for(lambda: bool(board.lichess.challenges), ANSWER_S)
    user, form = board.lichess.challenges[0]
    assert user == "Friend_1"
    assert (form["clock.limit"], form["clock.increment"]) == ("300", "3")
    wait_for(lambda: "game chal1234, you play white" in opponent_now(board), ANSWER_S)
    # The board's game was started for it: the person's first move goes to Lichess.
    board.make("d2d4")
    wait_for(lambda: board.lichess.moves()[:1] == ["d2d4"], ANSWER_S)


def test_a_challenge_is_accepted(board: LichessBoard) -> None:
    enter_token(board)
    assert board.command("opponent", spec="lichess accept friend")["type"] == "reply"
    wait_for(lambda: "signed in" in opponent_now(board), ANSWER_S)
    board.lichess.send_challenge("other12", {"id": "stranger", "name": "Stranger"})
    board.lichess.send_challenge("chal5678", {"id": "friend", "name": "Friend"})
    wait_for(lambda: board.lichess.accepted == ["chal5678"], ANSWER_S)
    assert "other12" not in board.lichess.accepted
    wait_for(lambda: "game chal5678" in opponent_now(board), ANSWER_S)


def test_the_opponent_chosen_on_the_command_line_with_a_kept_token(
    tmp_path: Path, lichess: StandIn
) -> None:
    keep(str(tmp_path), TOKEN)
    with lichess_board(tmp_path, lichess, "--opponent", "lichess:seek:15+10") as running:
        wait_for(lambda: bool(lichess.seeks), ANSWER_S)
        assert (lichess.seeks[0]["time"], lichess.seeks[0]["increment"]) == ("15", "10")
        wait_for(lambda: running.lit() is None and lichess.game is not None, ANSWER_S)


def test_a_board_started_again_mid_game_goes_on_without_seeking_again(
    tmp_path: Path, lichess: StandIn
) -> None:
    lichess.opponent_script = list(STAND_IN)
    keep(str(tmp_path), TOKEN)
    with lichess_board(tmp_path, lichess, "--opponent", "lichess:seek:10+0") as running:
        wait_for(lambda: lichess.game is not None, ANSWER_S)
        play_out(running, PERSON[:1], STAND_IN[:1])
    # A power cut: the board comes back with its opponent, follows the game in progress
    # (from the position Lichess has) and seeks no other.
    with lichess_board(tmp_path, lichess) as again:
        wait_for(lambda: "game abcd1234, you play white" in opponent_now(again), ANSWER_S)
        wait_for(lambda: list(again.state().moves) == [] and again.lit() is None, ANSWER_S)
        # A fake board's pieces start where a game starts: put where the lights show.
        again.put_back("e2", "e4")
        again.put_back("e7", "e5")
        wait_for(again.in_place, ANSWER_S)
        again.make(PERSON[1])
        wait_for(lambda: lichess.moves()[:3] == ["e2e4", "e7e5", "f1c4"], ANSWER_S)
    assert len(lichess.seeks) == 1


def test_a_network_lost_mid_game_is_waited_out(
    board: LichessBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Streams tried again a tenth of a second after they end, doubling as they fail (a
    # second on the board): the same backoff, its waits ten times shorter.
    monkeypatch.setattr(streams, "RETRY_S", 0.1)
    board.lichess.opponent_script = list(STAND_IN)
    enter_token(board)
    assert board.command("opponent", spec="lichess seek 10+0")["type"] == "reply"
    wait_for(lambda: board.lichess.game is not None, ANSWER_S)
    play_out(board, PERSON[:1], STAND_IN[:1])
    opened = board.lichess.stream_opens.get("game", 0)
    # The line breaks: every stream ends, and Lichess cannot be reached for a while. The
    # streams are opened again until it answers, and the game goes on where it stood.
    board.lichess.refuse_next = {"game": [503, 503], "events": [503, 503]}
    board.lichess.drop_streams()
    play_out(board, PERSON[1:2], STAND_IN[1:2])
    assert board.lichess.stream_opens.get("game", 0) > opened
    # A move Lichess could not take is taken back on the board; made again, it goes.
    board.lichess.refuse_next = {"move": [503]}
    before = board.plies()
    board.make(PERSON[2])
    wait_for(lambda: "Lichess did not take d1h5" in said(board), ANSWER_S)
    wait_for(lambda: board.plies() == before, ANSWER_S)
    board.put_back("h5", "d1")
    wait_for(board.in_place, ANSWER_S)
    play_out(board, PERSON[2:], STAND_IN[2:])
    wait_for(lambda: board.lichess.status == "mate", ANSWER_S)
    assert board.lichess.moves() == list(board.state().moves)


def test_a_move_made_before_the_game_stream_opens_goes_to_lichess(board: LichessBoard) -> None:
    board.lichess.opponent_script = list(STAND_IN)
    gate = board.lichess.game_stream_gate = threading.Event()
    enter_token(board)
    assert board.command("opponent", spec="lichess seek 10+0")["type"] == "reply"
    wait_for(lambda: board.lichess.game is not None, ANSWER_S)
    try:
        board.make("e2e4")
        wait_for(lambda: board.plies() == 1, ANSWER_S)
    finally:
        gate.set()
    wait_for(lambda: board.lichess.moves()[:1] == ["e2e4"], ANSWER_S)
    wait_for(lambda: board.lit() == "e7e5", ANSWER_S)
