"""The UCI client: an engine that does not answer in time, or is not there, is one clear
error, never a hung host."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest
from reedboard.opponents.uci_engine import EngineError, UciEngine


def _engine(tmp_path: Path, body: str) -> str:
    path = tmp_path / "engine"
    path.write_text(f"#!{sys.executable}\nimport sys, time\n{body}\n")
    path.chmod(0o755)
    return str(path)


def test_an_engine_that_stays_silent_times_out(tmp_path: Path) -> None:
    engine = UciEngine(
        _engine(tmp_path, "for line in sys.stdin:\n    if line.strip() == 'quit':\n        break")
    )
    try:
        engine.send("isready")
        with pytest.raises(EngineError, match=r"did not answer within 0\.2 s"):
            engine.expect("readyok", 0.2)
        # Hung: killed then and there, not asked to quit and waited for.
        assert engine._process.wait(timeout=30) == -signal.SIGKILL
    finally:
        engine.close()


def test_a_missing_engine_says_how_to_get_one() -> None:
    with pytest.raises(EngineError, match="apt-get install stockfish"):
        UciEngine("no-such-engine-anywhere")
