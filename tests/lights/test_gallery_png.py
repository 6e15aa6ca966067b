"""`python -m reedboard.lights.gallery FOLDER --png`: PNGs through rsvg-convert, or one line
saying it is missing and a non-zero exit (before, no PNG and not a word)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.lights.gallery import SCENES


def gallery(folder: Path, path: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reedboard.lights.gallery", str(folder), "--png"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PATH": path},
    )  # fmt: skip


def test_without_rsvg_convert_one_line_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    result = gallery(tmp_path / "scenes", str(empty))
    assert result.returncode == 1
    assert result.stderr == (
        "python -m reedboard.lights.gallery: --png needs rsvg-convert "
        "(Debian and Ubuntu: apt-get install librsvg2-bin)\n"
    )
    assert not (tmp_path / "scenes").exists()


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="apt-get install librsvg2-bin")
def test_with_rsvg_convert_every_scene_has_its_png(tmp_path: Path) -> None:
    result = gallery(tmp_path, os.environ["PATH"])
    assert result.returncode == 0, result.stderr
    for name in SCENES:
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
