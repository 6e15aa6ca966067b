"""The board's voice through espeak-ng (Debian's `espeak-ng`, on every Pi): a `Speaker`.

The scan loop only queues a sentence (`say` takes a lock and returns); a worker thread
runs one `espeak-ng` process per sentence, so a scan never waits on speech. A sentence
that a newer one makes stale is cut by ending its process (`hal/speech.py` has the rule).

Without a `device`, espeak-ng plays on the system's default output (the Pi's audio out,
or whatever ALSA or PulseAudio make the default: a USB speaker, a Bluetooth one). With a
`device` (an ALSA name like `plughw:1,0`), espeak-ng writes the sound to `aplay -D device`.
The text goes in on stdin, never as an argument, so no sentence can read as an option.
A missing espeak-ng (or aplay), or one that fails on a wrong voice or device, is said once
in the log with what to do, and the board plays on in silence.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from reedboard.hal.speech import SpeechQueue, Utterance

PROGRAM = "espeak-ng"
APLAY = "aplay"
# The Debian package of each program the voice runs.
PACKAGES = {PROGRAM: "espeak-ng", APLAY: "alsa-utils"}

logger = logging.getLogger(__name__)


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
            for process in started:
                process.wait()
            self._tell_failures(started)
            with self._lock:
                self._processes = []
                self.queue.finished()
                self.spoken += 1
                self._lock.notify_all()

    def _start(self, text: str) -> list[subprocess.Popen[bytes]]:
        """The processes that say `text` (called with the lock held, never waits)."""
        try:
            processes = self._spawn()
        except OSError as error:
            program = str(error.filename or self.settings.program)
            self._tell_once(
                program,
                f"cannot run {program}: {error.strerror or error}: install it (sudo apt-get "
                f"install {PACKAGES.get(Path(program).name, Path(program).name)}); the board "
                "plays on in silence",
            )
            return []
        speak = processes[0]
        assert speak.stdin is not None
        try:
            speak.stdin.write(text.encode("utf-8"))
            speak.stdin.close()
        except OSError:
            pass  # cut before it read the text: nothing to say
        self._processes = processes
        return processes

    def _spawn(self) -> list[subprocess.Popen[bytes]]:
        """espeak-ng, and aplay after it with a `device`; none left running if one fails."""
        settings = self.settings
        if settings.device is None:
            return [
                subprocess.Popen(
                    settings.command(), stdin=subprocess.PIPE, stderr=subprocess.DEVNULL
                )
            ]
        speak = subprocess.Popen(
            settings.command("--stdout"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert speak.stdout is not None and speak.stdin is not None
        try:
            play = subprocess.Popen(
                [APLAY, "-q", "-D", settings.device], stdin=speak.stdout, stderr=subprocess.DEVNULL
            )
        except OSError:
            speak.stdin.close()  # espeak-ng reads nothing, says nothing and ends
            speak.kill()
            speak.wait()
            speak.stdout.close()
            raise
        speak.stdout.close()  # aplay holds the pipe now
        return [speak, play]

    def _tell_failures(self, processes: list[subprocess.Popen[bytes]]) -> None:
        """Say once per program that it ended in failure on its own (not cut by a newer
        sentence: that is a signal). aplay fails so on a device that is not there, which
        would otherwise leave the board silent unseen (espeak-ng with --stdin says even an
        unknown voice, in its default one)."""
        for program, process in zip((self.settings.program, APLAY), processes, strict=False):
            if process.returncode > 0:
                hint = " (aplay -L lists the devices)" if program == APLAY else ""
                self._tell_once(
                    program,
                    f"{program} failed (exit status {process.returncode}): check [voice] in "
                    f"the board's config{hint}",
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
