"""The board's loop and `reedboard replay` are one path: a script played on the fake board
through `App` (scanned by the real matrix code, a turn every 5 ms) gives the effects the
replay prints for it, time for time. The examples of docs/examples are played so by
test_board_speaks.py, once, with the voice that test listens to as well."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reedboard.app import App
from reedboard.app_ports import HostLink, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.link.event_codec import effect_json
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.speaking import BoardVoice

from tests.app.games import script_setup

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(
    [
        *(ROOT / "tests" / "reader" / "cases").glob("*.events"),
        *(ROOT / "tests" / "replay").glob("*.events"),
    ]
)


def on_the_board(
    text: str, voice: BoardVoice | None = None, *, electrical: bool = True
) -> list[dict[str, Any]]:
    """The effects the board sends playing the script (with `voice`, if given, speaking)
    as the replay prints them: without what only the link adds. `electrical`: its
    switches read through the simulated matrix, as the board's scanner reads them."""
    script = parse_script(text)
    board = scripted_board(script, electrical=electrical)
    sent: list[dict[str, Any]] = []
    app = App(
        Sensing(board, source=board),
        VirtualClock(),
        link=HostLink(on_effect=lambda message: sent.append(message.to_wire())),
        game=script_setup(script),
        voice=voice,
    )
    app.run(until_done=True)
    return [
        {k: v for k, v in m.items() if k not in ("type", "seq", "game", "chess960", "variant")}
        for m in sent
    ]


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_the_board_decides_what_the_replay_prints(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    replayed = [effect_json(e) for e in replay_script(parse_script(text))]
    assert replayed, "a script that decides nothing shows nothing"
    assert on_the_board(text) == replayed
