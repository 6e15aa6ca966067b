"""Voice benchmark: what speaking costs the board's loop, and how long espeak-ng takes.

    python bench/voice.py [--games N]

Three figures, each a median:
- a sentence built: the narrator following every effect of seeded games (random legal
  moves played by the human model through `reedboard replay`'s path), per effect said;
- `say()` returning to the loop: the espeak-ng adapter queueing a sentence (the worker
  runs a stand-in program that reads the text and exits, so the queue is what is timed);
- a sentence rendered by the real espeak-ng to a WAV file (skipped without espeak-ng):
  how long before the first sound could start, at worst.
Goal: the first two well under a millisecond, so a scan (5 ms) never notices the voice.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from reedboard.hal.espeak import EspeakSettings, EspeakSpeaker, render_wav
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard.voice.languages import phrasebook
from reedboard.voice.narrator import Narrator


def random_moves(seed: int, plies: int) -> list[str]:
    rng = random.Random(seed)
    position = Position.standard()
    moves = []
    for _ in range(plies):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(position.uci(move))
        position = position.play(move)
    return moves


def sentence_times(games: int) -> list[float]:
    times = []
    for seed in range(games):
        start = Position.standard()
        position = start
        moves = []
        for uci in random_moves(seed, 60):
            move = position.parse_uci(uci)
            moves.append(move)
            position = position.play(move)
        script = parse_script(human_script(start, moves, seed=seed).text())
        effects = replay_script(script)
        narrator = Narrator(phrasebook("fr"), start)
        for effect in effects:
            began = time.perf_counter()
            said = narrator.hear(effect)
            spent = time.perf_counter() - began
            if said:
                times.append(spent)
    return times


def say_times(count: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / "stand-in"
        program.write_text("#!/bin/sh\ncat > /dev/null\n")
        program.chmod(0o755)
        speaker = EspeakSpeaker(EspeakSettings(program=str(program)))
        times = []
        try:
            for index in range(count):
                began = time.perf_counter()
                speaker.say(f"Cavalier g1 f3, coup {index}.", fleeting=index % 2 == 0)
                times.append(time.perf_counter() - began)
            speaker.idle(60)
        finally:
            speaker.close()
    return times


def render_times(count: int) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(count):
            began = time.perf_counter()
            render_wav(
                "Dame h5 prend pion f7, échec et mat.",
                Path(folder) / f"{index}.wav",
                EspeakSettings(voice="fr"),
            )
            times.append(time.perf_counter() - began)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    sentences = sentence_times(args.games)
    print(f"sentence built: median {statistics.median(sentences) * 1e6:.0f} µs, "
          f"max {max(sentences) * 1e6:.0f} µs over {len(sentences)} sentences")  # fmt: skip
    says = say_times(200)
    print(f"say() returns: median {statistics.median(says) * 1e6:.0f} µs, "
          f"max {max(says) * 1e6:.0f} µs over {len(says)} sentences")  # fmt: skip
    if shutil.which("espeak-ng") is None:
        print("espeak-ng render: skipped (espeak-ng is not installed)")
        return
    renders = render_times(10)
    print(f"espeak-ng render of a sentence: median {statistics.median(renders) * 1e3:.0f} ms")


if __name__ == "__main__":
    main()
