"""The GUI's UCI lines read into values, whatever a GUI may send."""

from __future__ import annotations

import pytest
from reedboard_host.uci.protocol import (
    Go,
    GuiCommand,
    Ignored,
    IsReady,
    PonderHit,
    Quit,
    SetOption,
    SetPosition,
    Stop,
    Uci,
    UciNewGame,
    read_line,
)


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("uci", Uci()),
        ("isready\n", IsReady()),
        ("setoption name UCI_Chess960 value true", SetOption("UCI_Chess960", "true")),
        ("setoption", SetOption("", "")),
        ("ucinewgame", UciNewGame()),
        ("go movetime 1000", Go(infinite=False)),
        ("go infinite", Go(infinite=True)),
        ("go ponder wtime 100", Go(infinite=True, gui_clock=True)),
        ("go btime 100 winc 0", Go(infinite=False, gui_clock=True)),
        ("stop", Stop()),
        ("ponderhit", PonderHit()),
        ("quit", Quit()),
        ("", Ignored()),
        ("debug on", Ignored()),
    ],
)
def test_lines(line: str, command: GuiCommand) -> None:
    assert read_line(line, chess960=False) == command


def test_a_position_with_moves_is_the_guis_game() -> None:
    command = read_line("position startpos moves e2e4 e7e5", chess960=False)
    assert isinstance(command, SetPosition) and command.game is not None
    assert len(command.game) == 2 and not command.game.chess960


def test_castling_as_king_takes_rook_in_chess960() -> None:
    fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
    command = read_line(f"position fen {fen} moves f1g1", chess960=True)
    assert isinstance(command, SetPosition) and command.game is not None
    assert command.game.chess960 and " BQNBRRKN " in command.game.position.fen().replace("/", " ")


@pytest.mark.parametrize(
    "line",
    ["position", "position fen not a fen", "position startpos moves e2e5", "position sideways"],
)
def test_a_position_that_cannot_be_read_says_why(line: str) -> None:
    command = read_line(line, chess960=False)
    assert isinstance(command, SetPosition) and command.game is None
    assert command.problem.startswith("cannot read the position")
