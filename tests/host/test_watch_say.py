"""`reedboard-host watch --say LANG`: the board's sentences printed and said on the PC,
through the espeak-ng adapter (here a stand-in `espeak-ng` first on the PATH, which notes
what it is given to say); `reedboard-host say WHAT`: the board's own voice asked. `watch`
runs in the test's process on the board pair (it is a program on a real pty in
test_commands.py), `say` once as a program."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard.speaking import BoardVoice
from reedboard.stopping import Stopped
from reedboard.voice.languages import phrasebook

from tests.host.running_board import RunningBoard
from tests.support.board_pair import BoardPair
from tests.support.host_on_pair import HostOnPair

pytestmark = pytest.mark.timeout(120)

STAND_IN = """#!/bin/sh
cat >> "{notes}"
echo >> "{notes}"
"""


def test_watch_says_each_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `watch --say` in this process on the board pair (`watch` as a program is in
    # test_commands.py), with the stand-in `espeak-ng` as a real program on the PATH.
    notes = tmp_path / "said.txt"
    program = tmp_path / "espeak-ng"
    program.write_text(STAND_IN.format(notes=notes))
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    pair = BoardPair()
    host_on = HostOnPair(pair, monkeypatch, capsys)
    seen: list[str] = []
    pushed: list[bool] = []
    start = Position.standard()

    def look() -> None:
        seen.append(capsys.readouterr().out)
        if not pushed and "state" in pair.answered:  # the watcher has asked for the state
            pair.push(human_script(start, [start.parse_uci("g1f3")], seed=2).lines)
            pushed.append(True)
        if "say Cavalier g1 f3." in "".join(seen):
            # The stand-in is a real program: its note comes in real time, and the board's
            # clock stands still meanwhile. Then Ctrl-C, as a person ends `watch`.
            deadline = time.monotonic() + 10
            while "Cavalier g1 f3." not in (notes.read_text() if notes.exists() else ""):
                assert time.monotonic() < deadline, "espeak-ng was never asked to say it"
                time.sleep(0.05)
            raise Stopped
        # A bound in the board's time, for a move never said (nothing real waits).
        assert pair.clock.now_ms() < 120_000, "".join(seen)

    pair.watch(look)
    ran = host_on("watch", "--say", "fr")
    assert ran.returncode == 0, ran.stderr
    assert notes.read_text().splitlines() == ["Cavalier g1 f3."]


def host(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reedboard_host.cli", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_say_asks_the_board_s_voice() -> None:
    # The program on a real pty once; the other questions in-process, below.
    speaker = RecordingSpeaker()
    board = RunningBoard()
    board.app.voice = BoardVoice(speaker, phrasebook("en"))
    with board:
        position = host("say", "position", "--port", board.port)
    assert position.returncode == 0, position.stderr
    assert position.stdout.startswith("White: king e1, queen d1, rooks a1 and h1")
    assert position.stdout.endswith(". White to move.\n")
    assert speaker.texts == [position.stdout.strip()]


def test_say_a_square_and_the_last_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    speaker = RecordingSpeaker()
    pair = BoardPair()
    pair.app.voice = BoardVoice(speaker, phrasebook("en"))
    host_on = HostOnPair(pair, monkeypatch, capsys)
    square = host_on("say", "e1")
    last = host_on("say", "last")
    assert square.returncode == 0 and last.returncode == 0, square.stderr + last.stderr
    assert square.stdout == "e1: white king.\n"
    assert last.stdout == "No move yet.\n"
    assert speaker.texts == ["e1: white king.", "No move yet."]


def test_say_on_a_board_without_a_voice_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result = HostOnPair(BoardPair(), monkeypatch, capsys)("say", "last")  # in-process
    assert result.returncode == 1
    assert "the board's voice is off" in result.stderr


def test_a_question_the_board_cannot_answer_is_refused_before_the_port(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pair = BoardPair()
    result = HostOnPair(pair, monkeypatch, capsys)("say", "everything")
    assert pair.answered == []  # nothing was sent
    assert result.returncode == 2
    assert "'everything' is not a question" in result.stderr


def sound_card() -> bool:
    cards = Path("/proc/asound/cards")
    return cards.exists() and "no soundcards" not in cards.read_text()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.skipif(sound_card(), reason="this machine has a sound card: speech is played")
def test_watch_without_a_sound_card_says_speech_is_not_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # In this process on the board pair, with the real espeak-ng.
    pair = BoardPair()
    host_on = HostOnPair(pair, monkeypatch, capsys)
    said: list[str] = []
    pushed: list[bool] = []
    start = Position.standard()
    moves = [start.parse_uci("g1f3")]
    moves.append(start.play(moves[0]).parse_uci("g8f6"))

    def look() -> None:
        said.append(capsys.readouterr().err)
        if not pushed and "state" in pair.answered:  # the watcher has asked for the state
            pair.push(human_script(start, moves, seed=2).lines)
            pushed.append(True)
        if len(pair.moves()) == 2:
            # espeak-ng is a real program: its failure comes in real time, while the
            # board's clock stands still. Then Ctrl-C, as a person ends `watch`.
            deadline = time.monotonic() + 30
            while "speech could not be played" not in "".join(said):
                assert time.monotonic() < deadline, "".join(said)
                time.sleep(0.05)
                said.append(capsys.readouterr().err)
            raise Stopped
        assert pair.clock.now_ms() < 120_000, "".join(said)  # a bound in the board's time

    pair.watch(look)
    ran = host_on("watch", "--say", "en")
    assert ran.returncode == 0, ran.stderr
    lines = "".join([*said, ran.stderr]).splitlines()
    assert len(lines) == 1, lines  # that line only
    assert lines[0].startswith("reedboard-host: voice: speech could not be played: espeak-ng")
