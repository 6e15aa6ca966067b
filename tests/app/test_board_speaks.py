"""The board's voice in its loop: it says what `reedboard replay --say` prints, a move the
host lights, and what a player asks by tapping; in a tournament, nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reedboard.app import App
from reedboard.app_ports import Sensing
from reedboard.cli import main
from reedboard.config import MatrixConfig
from reedboard.hal.clock import VirtualClock
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.link.event_codec import effect_json
from reedboard.link.messages import parse_command
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.speaking import BoardVoice
from reedboard.voice.languages import phrasebook

from tests.app.games import script_setup
from tests.app.test_board_is_the_replay import on_the_board
from tests.app.test_self_test_at_start import board as stuck_board

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "docs" / "examples").glob("*.events"))


def board(
    text: str, language: str = "fr", scan_hz: float = 200.0
) -> tuple[App, BoardVoice, RecordingSpeaker]:
    script = parse_script(text)
    scanned = scripted_board(script, electrical=False)  # the voice, not the wiring
    speaker = RecordingSpeaker()
    voice = BoardVoice(speaker, phrasebook(language))
    app = App(
        Sensing(scanned, scan_hz=scan_hz, source=scanned),
        VirtualClock(),
        voice=voice,
        game=script_setup(script),
    )
    return app, voice, speaker


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_the_board_says_and_decides_what_the_replay_prints(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # One run of the board for both: what it says, and its effects (the other scripts'
    # effects are test_board_is_the_replay.py's).
    assert main(["replay", str(path), "--say", "fr"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    replayed = [line["text"] for line in printed if line["event"] == "say"]
    text = path.read_text(encoding="utf-8")
    speaker = RecordingSpeaker()
    # The voice, not the wiring (test_board_is_the_replay.py reads these through it).
    effects = on_the_board(text, BoardVoice(speaker, phrasebook("fr")), electrical=False)
    assert replayed, "a script that says nothing shows nothing"
    assert speaker.texts == replayed
    decided = [effect_json(e) for e in replay_script(parse_script(text))]
    assert decided, "a script that decides nothing shows nothing"
    assert effects == decided


def test_an_illegal_board_is_fleeting_and_a_move_is_not() -> None:
    app, _voice, speaker = board(
        "@start standard\n1000 lift g1\n1400 place g3\n3000 lift g3\n3400 place g1\n"
        "4000 lift g1\n4400 place f3\n",
        "en",
    )
    app.run(until_done=True)
    assert [(u.text, u.fleeting) for u in speaker.said] == [
        ("Illegal: put the knight back on g1, from g3.", True),
        ("Board restored.", True),
        ("Knight g1 to f3.", False),
    ]


def test_a_move_the_host_lights_is_said_as_the_move_to_play() -> None:
    app, _voice, speaker = board("@start standard\n1000 lift e2\n1400 place e4\n")
    for now in range(0, 3000, 5):
        app.step(now)
    app.local_command(parse_command({"type": "show", "uci": "g8f6"}), 3000)
    app.step(3005)
    app.step(3010)
    assert speaker.texts == ["Pion e2 e4.", "À jouer : cavalier g8 f6."]


TAPS = """@start standard
1000 lift e2
1400 place e4
3000 place d5
3150 lift d5
3400 place d5
3550 lift d5
"""


def test_two_taps_on_an_empty_square_ask_for_the_last_move() -> None:
    app, _voice, speaker = board(TAPS)
    app.run(until_done=True)
    assert speaker.texts == ["Pion e2 e4.", "Dernier coup : pion e2 e4."]
    assert app.board_game is not None
    assert app.board_game.arbiter.view().marked_blink == 1 << 35  # d5 blinks: heard


def test_three_taps_ask_for_the_whole_position() -> None:
    app, _voice, speaker = board(TAPS + "3800 place d5\n3950 lift d5\n", "en")
    app.run(until_done=True)
    assert speaker.texts[-1].startswith("White: king e1, queen d1, rooks a1 and h1")
    assert speaker.texts[-1].endswith("pawns a7, b7, c7, d7, e7, f7, g7 and h7. Black to move.")


def test_four_taps_ask_for_the_clocks() -> None:
    four = "3800 place d5\n3950 lift d5\n4200 place d5\n4350 lift d5\n"
    app, _voice, speaker = board(TAPS + four)
    app.run(until_done=True)
    assert speaker.texts[-1] == "La partie n'est pas chronométrée."
    # A timed game (5 minutes): White took 1.4 s; Black's time runs from then to the
    # question, asked 0.9 s after the last tap (4.35 s): 300 - 3.85 s = 4 minutes 56.
    # It runs to Black's flag, 300 s on: scanned 20 times a second, at a tenth of the CPU
    # of the default 200. The script's moments are stepped at their own times whatever
    # the rate; the answer comes at the next scan, at most 50 ms on, within the second.
    app, _voice, speaker = board(
        TAPS.replace("@start standard", "@start standard\n@clock 5") + four, scan_hz=20
    )
    app.run(until_done=True)
    # (the script runs on until Black's flag falls: the result comes after the answer)
    assert speaker.texts[-2:] == [
        "Blancs 4 minutes 58, noirs 4 minutes 56.",
        "Les blancs gagnent : temps dépassé.",
    ]


def test_the_taps_leave_the_game_alone() -> None:
    """The arbiter decides the same with and without the taps."""
    effects = []
    for text in (TAPS, "@start standard\n1000 lift e2\n1400 place e4\n"):
        app, _voice, _speaker = board(text)
        seen: list[str] = []
        app.on_effect = lambda m, seen=seen: seen.append(m.effect.kind)
        app.run(until_done=True)
        effects.append(seen)
    assert effects[0] == effects[1] == ["touch", "move"]


def test_in_a_tournament_the_board_says_nothing() -> None:
    app, voice, speaker = board(TAPS)
    voice.tournament = True
    app.run(until_done=True)
    assert speaker.texts == []


def test_a_fault_found_at_start_is_said_naming_the_square() -> None:
    speaker = RecordingSpeaker()
    voice = BoardVoice(speaker, phrasebook("en"))
    app = App(
        Sensing(stuck_board(stuck_empty="e2"), matrix=MatrixConfig()), VirtualClock(), voice=voice
    )
    app.start()
    assert speaker.texts == ["Fault found at start: e2."]
