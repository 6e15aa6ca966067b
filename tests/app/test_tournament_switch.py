"""Tournament mode switched by the host (`settings` with `tournament`, as a relay sends it
for a round): the running board's LEDs stop showing a lifted piece's legal targets at
once, its voice goes silent, and both come back when the host switches it off."""

from __future__ import annotations

from reedboard.app import App
from reedboard.app_ports import Sensing
from reedboard.commands.run_board import board_lights
from reedboard.config import LedConfig
from reedboard.hal.clock import VirtualClock
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights.palette import RGB
from reedboard.link.acks import SettingsNow
from reedboard.link.board_messages import Ack
from reedboard.link.messages import ChangeSettings, parse_command
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.speaking import BoardVoice
from reedboard.voice.languages import phrasebook

DARK: RGB = (0, 0, 0)


def lit(frame: tuple[RGB, ...] | None) -> int:
    assert frame is not None
    return sum(1 for colour in frame if colour != DARK)


def test_the_host_switches_tournament_mode_on_and_off() -> None:
    strip = RecordingStrip(64)
    speaker = RecordingSpeaker()
    voice = BoardVoice(speaker, phrasebook("en"))
    board = scripted_board(parse_script("@start standard\n1000 lift e2\n6000 place e4\n"))
    app = App(Sensing(board, source=board), VirtualClock(), lights=board_lights(LedConfig(), strip), voice=voice)  # fmt: skip
    for now in range(0, 2000, 5):
        app.step(now)
    helped = lit(strip.last)  # the lifted pawn and its two targets, at least
    assert helped >= 3

    command = parse_command({"type": "settings", "id": 7, "tournament": True})
    assert command == ChangeSettings(id=7, tournament=True)
    answer = app.local_command(command, 2000)
    assert isinstance(answer.reply, Ack) and isinstance(answer.reply.done, SettingsNow)
    assert answer.reply.done.tournament is True
    fair = lit(strip.last)
    assert fair < helped - 1  # e3 and e4 are dark: no legal targets in a tournament
    for now in range(2000, 8000, 5):
        app.step(now)
    assert app.board_game is not None and len(app.board_game.game) == 1
    assert speaker.texts == []  # the move was made and not said

    answer = app.local_command(ChangeSettings(tournament=False), 8000)
    assert isinstance(answer.reply, Ack) and isinstance(answer.reply.done, SettingsNow)
    assert answer.reply.done.tournament is False
    assert app.board_game is not None and not app.board_game.settings.tournament


def test_without_the_switch_the_same_move_is_said() -> None:
    speaker = RecordingSpeaker()
    voice = BoardVoice(speaker, phrasebook("en"))
    board = scripted_board(parse_script("@start standard\n1000 lift e2\n6000 place e4\n"))
    app = App(Sensing(board, source=board), VirtualClock(), voice=voice)
    for now in range(0, 8000, 5):
        app.step(now)
    assert speaker.texts  # what the switch silences in the test above
