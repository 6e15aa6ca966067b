"""`reedboard journal export --events`: what cannot be exported is one line on stderr and
exit status 2, never a traceback or half a script."""

from __future__ import annotations

from pathlib import Path

import pytest
from reedboard.cli import main
from reedboard.journal.store import Journal
from reedboard.rules.fen import STARTING_FEN


def _export(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["journal", "export", "--events", "--journal", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_no_journal_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "none.sqlite"
    assert _export(path, capsys) == (2, "", f"reedboard journal: there is no journal at {path}\n")
    assert not path.exists()  # not created by looking


def test_a_journal_without_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    code, out, err = _export(path, capsys)
    assert (code, out) == (
        2,
        "",
    ) and err == f"reedboard journal: the journal {path} holds no game\n"


def test_a_file_that_is_no_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_text("not a database, just text that is long enough to be read" * 40)
    code, out, err = _export(path, capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"reedboard journal: the journal {path} cannot be trusted: ")
    assert err.count("\n") == 1


def test_a_game_just_begun_exports_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game = journal.start_game(STARTING_FEN, chess960=False, variant="standard", mode="strict")
        journal.keep_start_sensors(game, 0xFFFF00000000FFFF)
    code, out, err = _export(path, capsys)
    assert (code, err) == (0, "")
    assert [line for line in out.splitlines() if not line.startswith("#")] == [
        "@start standard",
        "@mode strict",
    ]


def test_export_says_what_to_export(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["journal", "export"])
    assert exited.value.code == 2
    assert "--events" in capsys.readouterr().err
