"""FIDE's Tournament Report File as the relay's pairings: the round's games numbered as
pairing programs publish them, on the boards they are played on, into the PGN's tags."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from reedboard.rules.game import Game
from reedboard_host.mirror import MirroredGame
from reedboard_relay.cli import parser
from reedboard_relay.pairing import Pairing
from reedboard_relay.pairings import Pairings
from reedboard_relay.pairings_trf import TrfError, looks_like_trf, read_trf, trf_pairings
from reedboard_relay.pgn import board_pgn

# Seven players, three rounds, the third paired and not yet played. Round 1: player 7 has
# the pairing-allocated bye (U). Round 2: player 2 forfeits to player 1 (- / +), player 5
# has a bye written as a forfeit win against nobody (0000 - +). Round 3: player 3 takes a
# half-point bye (H). Titles as FIDE's words (GM, WGM, FM) and as its letter code (m: IM).
SPRING_OPEN = """\
012 Spring Open 2026
022 Leiden
032 NED
042 2026/03/14
052 2026/03/15
062 7
092 Individual: Swiss-System
102 Jansen, Pieter
132                                                                                        26/03/14  26/03/14  26/03/15
### SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR  1111 1 1  2222 2 2  3333 3 3
001    1 mGM  Okafor, Daniel                    2598 NGR     8500123 1990/04/02  2.0    1  0004 w 1  0002 b +  0007 b
001    2 wWGM Lindqvist, Astrid                 2410 SWE     1700456 1995/11/20  1.0    5  0005 b 1  0001 w -  0004 b
001    3 mm   Petrov, Ivan                      2385 BUL     2900111 1988/01/15  0.5    7  0006 w =  0007 b 0  0000 - H
001    4 wFM  Garcia Lopez, Maria               2250 ESP     2200987 2001/06/30  0.5    6  0001 b 0  0006 b =  0002 w
001    5 m    Brown, Tom                        1980 ENG      400222 1979/03/03  1.0    4  0002 w 0  0000 - +  0006 w
001    6 m    Müller, Jörg                      1875 GER    24601234 2005/09/09  1.0    3  0003 b =  0004 w =  0005 b
001    7 m    Novak, Jan                             CZE           0 2010/12/01  2.0    2  0000 - U  0003 w 1  0001 w
"""


def games(table: dict[str, Pairing]) -> dict[str, tuple[str, str, str]]:
    return {board: (p.round, p.white, p.black) for board, p in table.items()}


def test_the_file_is_told_by_its_content_not_its_name() -> None:
    assert looks_like_trf(SPRING_OPEN)
    assert looks_like_trf("\n\n### a comment first\n001    1 m    A, B\n")
    assert not looks_like_trf("board,round,board_number,white,black\nb1,1,1,Ann,Bob\n")
    assert not looks_like_trf("")


def test_the_players_their_titles_ratings_and_rounds_are_read() -> None:
    tournament = read_trf(SPRING_OPEN)
    assert tournament.name == "Spring Open 2026"
    okafor, petrov, novak = (tournament.players[n] for n in (1, 3, 7))
    assert (okafor.name, okafor.title, okafor.rating, okafor.fide_id) == (
        "Okafor, Daniel", "GM", "2598", "8500123")  # fmt: skip
    assert petrov.title == "IM"  # the letter code
    assert (novak.title, novak.rating, novak.fide_id) == ("", "", "")  # unrated, no id
    assert tournament.players[2].title == "WGM"
    assert [r.result for r in okafor.rounds] == ["1", "+", " "]
    assert tournament.paired_rounds() == [1, 2, 3]


def test_the_last_paired_round_is_numbered_by_score_then_their_sum_then_starting_rank() -> None:
    table = trf_pairings(SPRING_OPEN)
    # Before round 3: Novak 2, Okafor 2 / Brown 1, Müller 1 / Garcia Lopez 0.5,
    # Lindqvist 1. Board 2 before board 3: equal top scores, a higher sum, although
    # Lindqvist's starting rank (2) is better than Brown's (5). Petrov's bye: no board.
    assert games(table) == {
        "1": ("3.1", "Novak, Jan", "Okafor, Daniel"),
        "2": ("3.2", "Brown, Tom", "Müller, Jörg"),
        "3": ("3.3", "Garcia Lopez, Maria", "Lindqvist, Astrid"),
    }


def test_an_earlier_round_and_the_boards_that_play_it() -> None:
    table = trf_pairings(SPRING_OPEN, round_=1, boards=["hall-a", "hall-b", "hall-c"])
    # All on 0 points: by starting rank. Novak's bye (U) has no board.
    assert games(table) == {
        "hall-a": ("1.1", "Okafor, Daniel", "Garcia Lopez, Maria"),
        "hall-b": ("1.2", "Brown, Tom", "Lindqvist, Astrid"),
        "hall-c": ("1.3", "Petrov, Ivan", "Müller, Jörg"),
    }
    # Round 2: the forfeited game keeps its board (the boards were numbered before
    # Lindqvist failed to come); Brown's bye written as `0000 - +` has none.
    assert games(trf_pairings(SPRING_OPEN, round_=2)) == {
        "1": ("2.1", "Lindqvist, Astrid", "Okafor, Daniel"),
        "2": ("2.2", "Novak, Jan", "Petrov, Ivan"),
        "3": ("2.3", "Müller, Jörg", "Garcia Lopez, Maria"),
    }


def test_a_pairing_goes_into_the_pgns_tags() -> None:
    pairing = trf_pairings(SPRING_OPEN, boards=["b1", "b2", "b3"])["b3"]
    game = Game()
    for uci in ("d2d4", "g8f6"):
        game.push_uci(uci)
    text = board_pgn("b3", MirroredGame(game), pairing)
    for tag in ('[Event "Spring Open 2026"]', '[Round "3.3"]', '[Board "3"]',
                '[White "Garcia Lopez, Maria"]', '[Black "Lindqvist, Astrid"]',
                '[WhiteElo "2250"]', '[BlackElo "2410"]', '[WhiteTitle "FM"]',
                '[BlackTitle "WGM"]', '[WhiteFideId "2200987"]',
                '[BlackFideId "1700456"]'):  # fmt: skip
        assert tag in text
    assert text.rstrip().endswith("1. d4 Nf6 *")


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (("Okafor, Daniel                    2598", "Okafor, Daniel                    25x8"),
         "line 11, rating (columns 49-52): '25x8' is not a number"),
        (("001    7 m", "001    6 m"), "line 17, starting rank (columns 5-8): 6 is also"),
        (("0007 b\n", "0009 b\n"),
         "line 11, round 3 opponent (columns 112-115): no player has starting rank 9"),
        (("0002 w 0", "0002 x 0"), "line 15, round 1 colour (column 97): 'x' is not w"),
        (("0006 w =", "0006 w ?"), "line 13, round 1 result (column 99): '?' is not a"),
        (("0005 b 1", "0003 b 1"), "line 12, round 1 opponent (columns 92-95): plays 3 with b"),
    ],
)  # fmt: skip
def test_a_malformed_file_names_the_line_and_the_field(change: tuple[str, str], named: str) -> None:
    broken = SPRING_OPEN.replace(*change, 1)
    assert broken != SPRING_OPEN
    with pytest.raises(TrfError) as caught:
        trf_pairings(broken)
    assert named in str(caught.value)


def test_a_round_without_pairings_or_too_few_boards_is_said() -> None:
    with pytest.raises(TrfError, match=r"round 4 has no pairings \(rounds paired: 1, 2, 3\)"):
        trf_pairings(SPRING_OPEN, round_=4)
    with pytest.raises(TrfError, match="round 3 has 3 games and --boards names 2 boards"):
        trf_pairings(SPRING_OPEN, boards=["b1", "b2"])
    with pytest.raises(TrfError, match="no player lines"):
        trf_pairings("012 Empty Open\n")


def test_the_relay_reads_a_trf_again_when_it_changes_and_keeps_it_when_it_breaks(
    tmp_path: Path,
) -> None:
    path = tmp_path / "pairings.txt"  # no telling extension: the content decides
    path.write_bytes(SPRING_OPEN.encode("cp1252"))  # as pairing programs on Windows write
    pairings = Pairings(str(path), check_every_s=0, boards=["b1", "b2", "b3"])
    assert pairings.get("b2").black == "Müller, Jörg"
    assert pairings.problem is None

    # Round 4 is paired: the relay shows it without being told.
    fourth = {1: "0005 w", 2: "0003 b", 3: "0002 w", 4: "0000 - U", 5: "0001 b",
              6: "0007 w", 7: "0006 b"}  # fmt: skip
    lines = [
        f"{line}{' ' * (119 - len(line))}  {fourth[int(line[4:8])]}"
        if line.startswith("001") else line
        for line in SPRING_OPEN.splitlines()
    ]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.utime(path, (1, 1))  # a different time, however fast the test wrote it
    assert games({b: pairings.get(b) for b in ("b1", "b2", "b3")}) == {
        "b1": ("4.1", "Okafor, Daniel", "Brown, Tom"),
        "b2": ("4.2", "Müller, Jörg", "Novak, Jan"),
        "b3": ("4.3", "Petrov, Ivan", "Lindqvist, Astrid"),
    }

    path.write_text(SPRING_OPEN.replace("2598 NGR", "25 8 NGR"), encoding="utf-8")
    os.utime(path, (2, 2))
    assert pairings.get("b1").black == "Brown, Tom"  # the last good pairings stay
    assert pairings.problem is not None
    assert "pairings.txt: line 11, rating (columns 49-52): '25 8' is not" in pairings.problem


def test_the_relays_round_and_boards_options_are_checked() -> None:
    args = parser().parse_args(["--mqtt", "mqtt://x", "--round", "2", "--boards", "b1, b2"])
    assert (args.round, args.boards) == (2, ("b1", "b2"))
    assert parser().parse_args(["--mqtt", "mqtt://x"]).boards == ()
    for wrong in (["--round", "0"], ["--boards", "b1,,b2"], ["--boards", "b1,b1"]):
        with pytest.raises(SystemExit):
            parser().parse_args(["--mqtt", "mqtt://x", *wrong])
