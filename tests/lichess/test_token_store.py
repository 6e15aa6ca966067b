"""The board's kept Lichess token: written mode 0600 whatever was there, read back,
anything unreadable taken for no token, forgotten."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from reedboard.lichess.token_store import TOKEN_FILE, forget, keep, read_kept


def test_a_token_is_kept_for_the_board_s_user_alone(tmp_path: Path) -> None:
    left = tmp_path / (TOKEN_FILE + ".new")
    left.write_text("an earlier try")
    left.chmod(0o644)
    keep(str(tmp_path), "lip_first")
    keep(str(tmp_path), "lip_second")
    kept = tmp_path / TOKEN_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert read_kept(str(tmp_path)) == "lip_second"
    assert sorted(os.listdir(tmp_path)) == [TOKEN_FILE]
    forget(str(tmp_path))
    forget(str(tmp_path))  # already gone: nothing to say
    assert read_kept(str(tmp_path)) is None


def test_what_is_no_token_reads_as_none(tmp_path: Path) -> None:
    assert read_kept(None) is None
    assert read_kept(str(tmp_path)) is None
    kept = tmp_path / TOKEN_FILE
    for text in (b"", b"lip_a b\n", b"\xff\xfe\n"):
        kept.write_bytes(text)
        assert read_kept(str(tmp_path)) is None
