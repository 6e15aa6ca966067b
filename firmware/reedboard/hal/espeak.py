"""The board's voice through espeak-ng (Debian's `espeak-ng`, on every Pi): a `Speaker`.

The scan loop only queues a sentence (`say` takes a lock and returns); a worker thread
runs one `espeak-ng` process per sentence, so a scan never waits on speech. A sentence
that a newer one makes stale is cut by ending its process (`hal/speech.py` has the rule).

Without a `device`, espeak-ng plays on the system's default output (the Pi's audio out,
or whatever ALSA or PulseAudio make the default: a USB speaker, a Bluetooth one). With a
`device` (an ALSA name like `plughw:1,0`), espeak-ng writes the sound to `aplay -D device`.
The text goes in on stdin, never as an argument, so no sentence can read as an option.
A missing espeak-ng (or aplay), or one that fails on a wrong voice or device, is said once
in the log with what to do, and the board plays on in silence; so is speech that could not
be played (no sound card: espeak-ng then complains on stderr, and still exits 0).
"""

from __future__ import annotations

import logging
import re
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from reedboard.hal.speech import SpeechQueue, Utterance

PROGRAM = "espeak-ng"
APLAY = "aplay"
# The Debian package of each program the voice runs.
PACKAGES = {PROGRAM: "espeak-ng", APLAY: "alsa-utils"}

logger = logging.getLogger(__name__)

# ALSA's lines start with where in its sources they come from: not a reason to read.
ALSA_PLACE = re.compile(r"^ALSA lib [^ ]*:\(\w+\) ")


def unplayed(complaint: bytes, status: int | None) -> str | None:
    """Why a sentence was not heard, from what its program wrote on stderr and its exit
    status; None when nothing says it went wrong, or when it was cut (a signal)."""
    if status is not None and status < 0:
        return None
    lines = [line.strip() for line in complaint.decode(errors="replace").splitlines()]
    said = [ALSA_PLACE.sub("", line) for line in lines if line]
    if said:
        return said[0] + (" (no sound card?)" if "card" in said[0] else "")
    return f"exit status {status}" if status else None


@dataclass(frozen=True, slots=True)
class EspeakSettings:
    voice: str = "fr"  # espeak-ng's voice name (`espeak-ng --voices`)
    rate: int = 160  # words per minute
    volume: int = 100  # espeak-ng's amplitude, 0..200
    device: str | None = None  # an ALSA device for aplay; None: the default output
    program: str = PROGRAM  # another program taking espeak-ng's options (tests use one)

    def command(self, *extra: str) -> list[str]:
        return [self.program, "--stdin", "-v", self.voice, "-s", str(self.rate), "-a",
                str(self.volume), *extra]  # fmt: skip


def render_wav(text: str, path: str | Path, settings: EspeakSettings) -> None:
    """Write `text` as spoken to a WAV file (the test of the real voice, a maker's check)."""
    subprocess.run(
        settings.command("-w", str(path)),
        input=text.encode("utf-8"),
        check=True,
        capture_output=True,
        timeout=60,
    )


class EspeakSpeaker:
    def __init__(self, settings: EspeakSettings) -> None:
        self.settings = settings
        self.queue = SpeechQueue()
        self.spoken = 0  # sentences said to the end (or cut): a count tests and logs read
        self._lock = threading.Condition()
        self._processes: list[subprocess.Popen[bytes]] = []
        self._closing = False
        self._told: set[str] = set()  # the programs whose trouble the log has had
        self._worker = threading.Thread(target=self._work, name="espeak", daemon=True)
        self._worker.start()

    def say(self, text: str, *, fleeting: bool = False) -> None:
        with self._lock:
            if self._closing:
                return
            if self.queue.add(Utterance(text, fleeting)):
                self._stop_processes()
            self._lock.notify_all()

    def close(self) -> None:
        """Stop at once: what is being said is cut, what waits is dropped."""
        with self._lock:
            self._closing = True
            self.queue.waiting.clear()
            self._stop_processes()
            self._lock.notify_all()
        self._worker.join(timeout=5)

    def idle(self, timeout_s: float) -> bool:
        """Wait until everything queued has been said; False if it takes longer."""
        with self._lock:
            return self._lock.wait_for(
                lambda: self.queue.current is None and not self.queue.waiting, timeout_s
            )

    def _work(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._closing or bool(self.queue.waiting))
                if self._closing:
                    return
                utterance = self.queue.take()
                assert utterance is not None
                started = self._start(utterance.text)
            self._heard(started)
            with self._lock:
                self._processes = []
                self.queue.finished()
                self.spoken += 1
                self._lock.notify_all()

    def _start(self, text: str) -> list[tuple[subprocess.Popen[bytes], IO[bytes]]]:
        """The processes that say `text`, each with the file its stderr goes to (called
        with the lock held, never waits). A file, not a pipe: a process that lingers (a
        child of a script) cannot keep the reader waiting, nor a long complaint fill it."""
        # Closed by `_heard` once read, or below when not needed.
        complaints = [tempfile.TemporaryFile() for _ in range(2)]  # noqa: SIM115
        try:
            processes = self._spawn(complaints)
        except OSError as error:
            for file in complaints:
                file.close()
            program = str(error.filename or self.settings.program)
            self._tell_once(
                program,
                f"cannot run {program}: {error.strerror or error}: install it (sudo apt-get "
                f"install {PACKAGES.get(Path(program).name, Path(program).name)}); the board "
                "plays on in silence",
            )
            return []
        for file in complaints[len(processes) :]:
            file.close()
        speak = processes[0]
        assert speak.stdin is not None
        try:
            speak.stdin.write(text.encode("utf-8"))
            speak.stdin.close()
        except OSError:
            pass  # cut before it read the text: nothing to say
        self._processes = processes
        return list(zip(processes, complaints, strict=False))

    def _spawn(self, complaints: Sequence[IO[bytes]]) -> list[subprocess.Popen[bytes]]:
        """espeak-ng, and aplay after it with a `device`; none left running if one fails."""
        settings = self.settings
        if settings.device is None:
            return [
                subprocess.Popen(settings.command(), stdin=subprocess.PIPE, stderr=complaints[0])
            ]
        speak = subprocess.Popen(
            settings.command("--stdout"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=complaints[0],
        )
        assert speak.stdout is not None and speak.stdin is not None
        try:
            play = subprocess.Popen(
                [APLAY, "-q", "-D", settings.device], stdin=speak.stdout, stderr=complaints[1]
            )
        except OSError:
            speak.stdin.close()  # espeak-ng reads nothing, says nothing and ends
            speak.kill()
            speak.wait()
            speak.stdout.close()
            raise
        speak.stdout.close()  # aplay holds the pipe now
        return [speak, play]

    def _heard(self, started: list[tuple[subprocess.Popen[bytes], IO[bytes]]]) -> None:
        """Wait for the processes saying a sentence, then say once per program that it
        ended in failure on its own (not cut by a newer sentence: that is a signal), and
        once that speech was not heard although every program exited 0 (espeak-ng does so
        without a sound card, complaining only on stderr). aplay fails on a device that is
        not there, which would otherwise leave the board silent unseen (espeak-ng with
        --stdin says even an unknown voice, in its default one)."""
        programs = (self.settings.program, APLAY)
        for program, (process, complaints) in zip(programs, started, strict=False):
            status = process.wait()
            with complaints:
                complaints.seek(0)
                why = unplayed(complaints.read(), status)
            if status > 0:
                hint = " (aplay -L lists the devices)" if program == APLAY else ""
                self._tell_once(
                    program,
                    f"{program} failed (exit status {process.returncode}): check [voice] in "
                    f"the board's config{hint}",
                )
            elif why is not None:
                self._tell_once(
                    "speech",
                    f"speech could not be played: {program} says {why!r}; going on in silence",
                )

    def _tell_once(self, program: str, message: str) -> None:
        if program not in self._told:
            self._told.add(program)
            logger.warning("voice: %s", message)

    def _stop_processes(self) -> None:
        for process in self._processes:
            if process.poll() is None:
                process.terminate()


__all__ = ["EspeakSettings", "EspeakSpeaker", "render_wav"]
