"""The espeak-ng adapter: the real voice renders speech; the worker says sentences in
order off the caller's thread and cuts a stale one (with a stand-in program that takes
espeak-ng's options and notes what it was given)."""

from __future__ import annotations

import shutil
import struct
import wave
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from reedboard.hal.espeak import EspeakSettings, EspeakSpeaker, render_wav, unplayed
from reedboard.voice.languages import phrasebook

STAND_IN = """#!/bin/sh
# Takes espeak-ng's options; notes each sentence's start and end in $NOTES.
text=$(cat)
echo "start $text" >> "{notes}"
case "$text" in
  slow*) sleep 30 ;;
esac
echo "end $text" >> "{notes}"
"""


def stand_in(tmp_path: Path) -> tuple[EspeakSettings, Path]:
    notes = tmp_path / "notes.txt"
    program = tmp_path / "fake-espeak"
    program.write_text(STAND_IN.format(notes=notes))
    program.chmod(0o755)
    return EspeakSettings(program=str(program)), notes


def lines(notes: Path) -> list[str]:
    return notes.read_text().splitlines() if notes.exists() else []


@pytest.fixture
def speakers() -> Iterator[list[EspeakSpeaker]]:
    made: list[EspeakSpeaker] = []
    yield made
    for speaker in made:
        speaker.close()


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("fr", "Dame h5 prend pion f7, échec et mat. Les blancs gagnent."),
        ("en", "Illegal: put the knight back on g1, from g3."),
    ],
)
def test_the_real_voice_renders_speech(tmp_path: Path, language: str, text: str) -> None:
    path = tmp_path / "said.wav"
    render_wav(text, path, EspeakSettings(voice=phrasebook(language).espeak_voice))
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2
        rate, frames = wav.getframerate(), wav.getnframes()
        samples = struct.unpack(f"<{frames * wav.getnchannels()}h", wav.readframes(frames))
    seconds = frames / rate
    assert 1.0 < seconds < 15.0  # a sentence of a dozen words
    loud = [s for s in samples if abs(s) > 1000]
    assert len(loud) > len(samples) / 10  # speech, not silence
    assert max(abs(s) for s in samples) > 5000


def test_sentences_are_said_in_order(tmp_path: Path, speakers: list[EspeakSpeaker]) -> None:
    settings, notes = stand_in(tmp_path)
    speaker = EspeakSpeaker(settings)
    speakers.append(speaker)
    for text in ("Pion e2 e4.", "Pion e7 e5.", "Cavalier g1 f3."):
        speaker.say(text)
    assert speaker.idle(20)
    assert lines(notes) == [
        "start Pion e2 e4.", "end Pion e2 e4.",
        "start Pion e7 e5.", "end Pion e7 e5.",
        "start Cavalier g1 f3.", "end Cavalier g1 f3.",
    ]  # fmt: skip


def test_say_returns_while_the_sentence_is_being_said(
    tmp_path: Path, speakers: list[EspeakSpeaker], caplog: pytest.LogCaptureFixture
) -> None:
    """The scan loop never waits on speech: `say` returns with the 30 s sentence under way,
    and a newer sentence cuts it, being stale."""
    settings, notes = stand_in(tmp_path)
    speaker = EspeakSpeaker(settings)
    speakers.append(speaker)
    speaker.say("slow: illegal, put the knight back on g1", fleeting=True)
    assert not speaker.idle(0.5)  # still being said
    speaker.say("Board restored.")
    assert speaker.idle(20)  # long before the 30 s: the stale sentence was cut
    assert caplog.messages == []  # a sentence cut is no failure
    assert lines(notes) == [
        "start slow: illegal, put the knight back on g1",
        "start Board restored.",
        "end Board restored.",
    ]


def test_a_missing_program_is_logged_once(
    tmp_path: Path, speakers: list[EspeakSpeaker], caplog: pytest.LogCaptureFixture
) -> None:
    settings = EspeakSettings(program=str(tmp_path / "no-such-program"))
    speaker = EspeakSpeaker(settings)
    speakers.append(speaker)
    speaker.say("Pion e2 e4.")
    speaker.say("Pion e7 e5.")
    assert speaker.idle(10)
    assert len(caplog.messages) == 1
    assert "no-such-program" in caplog.messages[0]


def test_a_missing_program_says_what_to_install(
    tmp_path: Path, speakers: list[EspeakSpeaker], caplog: pytest.LogCaptureFixture
) -> None:
    speaker = EspeakSpeaker(EspeakSettings(program=str(tmp_path / "espeak-ng")))
    speakers.append(speaker)
    speaker.say("Pion e2 e4.")
    assert speaker.idle(10)
    assert caplog.messages == [
        f"voice: cannot run {tmp_path / 'espeak-ng'}: No such file or directory: install it "
        "(sudo apt-get install espeak-ng); the board plays on in silence"
    ]


def tools(tmp_path: Path, **scripts: str) -> Path:
    """A directory to be the whole PATH: the tools the stand-in uses, and `scripts`."""
    directory = tmp_path / "bin"
    directory.mkdir()
    for tool in ("cat", "sleep"):
        found = shutil.which(tool)
        assert found is not None
        (directory / tool).symlink_to(found)
    for name, text in scripts.items():
        (directory / name).write_text(text)
        (directory / name).chmod(0o755)
    return directory


def test_a_device_without_aplay_says_to_install_it(
    tmp_path: Path,
    speakers: list[EspeakSpeaker],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", str(tools(tmp_path)))
    settings, _ = stand_in(tmp_path)
    speaker = EspeakSpeaker(replace(settings, device="plughw:1,0"))
    speakers.append(speaker)
    speaker.say("Pion e2 e4.")
    speaker.say("Pion e7 e5.")
    assert speaker.idle(10)
    assert caplog.messages == [
        "voice: cannot run aplay: No such file or directory: install it (sudo apt-get "
        "install alsa-utils); the board plays on in silence"
    ]


def test_a_device_aplay_cannot_open_is_said_once(
    tmp_path: Path,
    speakers: list[EspeakSpeaker],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # aplay -D on a card that is not there: "audio open error", exit status 1.
    aplay = "#!/bin/sh\necho 'aplay: main:831: audio open error: No such file or directory' >&2\nexit 1\n"
    monkeypatch.setenv("PATH", str(tools(tmp_path, aplay=aplay)))
    settings, notes = stand_in(tmp_path)
    speaker = EspeakSpeaker(replace(settings, device="plughw:9,0"))
    speakers.append(speaker)
    speaker.say("Pion e2 e4.")
    speaker.say("Pion e7 e5.")
    assert speaker.idle(20)
    assert caplog.messages == [
        "voice: aplay failed (exit status 1): check [voice] in the board's config (aplay -L "
        "lists the devices)"
    ]
    assert "end Pion e7 e5." in lines(notes)  # the board went on


def test_close_cuts_what_is_said(tmp_path: Path) -> None:
    settings, notes = stand_in(tmp_path)
    speaker = EspeakSpeaker(settings)
    speaker.say("slow and lasting")
    assert not speaker.idle(0.5)
    speaker.close()
    assert lines(notes) == ["start slow and lasting"]
    speaker.say("after the end")  # ignored, no error


COMPLAINING = """#!/bin/sh
cat > /dev/null
echo "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" >&2
echo "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default" >&2
"""


def test_speech_that_could_not_be_played_is_logged_once(
    tmp_path: Path, speakers: list[EspeakSpeaker], caplog: pytest.LogCaptureFixture
) -> None:
    # As espeak-ng does without a sound card: it complains on stderr, and exits 0.
    program = tmp_path / "espeak-ng"
    program.write_text(COMPLAINING)
    program.chmod(0o755)
    speaker = EspeakSpeaker(EspeakSettings(program=str(program)))
    speakers.append(speaker)
    speaker.say("Pion e2 e4.")
    speaker.say("Pion e7 e5.")
    assert speaker.idle(10)
    assert caplog.messages == [
        f"voice: speech could not be played: {program} says \"cannot find card '0' (no sound "
        'card?)"; going on in silence'
    ]


def test_a_sentence_said_or_cut_is_no_complaint() -> None:
    assert unplayed(b"", 0) is None
    assert unplayed(b"", -15) is None  # cut by a newer sentence
    assert unplayed(b"", 1) == "exit status 1"
    assert unplayed(b"aplay: main:831: audio open error: No such file\n", 1) == (
        "aplay: main:831: audio open error: No such file"
    )
