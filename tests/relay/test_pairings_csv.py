"""A CSV of pairings is checked: a value that cannot be what its column says, a header
the relay does not read, a board paired twice are refused, naming the line and column."""

from __future__ import annotations

import pytest
from reedboard_relay.pairing import Pairing
from reedboard_relay.pairings_csv import PairingsError, csv_pairings

HEADER = "board,round,board_number,white,black,white_elo,black_elo,white_title,white_fide_id\n"


def test_a_good_file_is_read_whatever_the_case_of_its_header() -> None:
    table = csv_pairings("Board,Round,White,Black,White_Elo\r\n\r\nb1,1.2,Ann,Bob,2100\r\n")
    assert table == {"b1": Pairing(round="1.2", white="Ann", black="Bob", white_elo="2100")}


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("b1,1,1,Ann,Bob,28x0,,,", "line 2, column white_elo: '28x0' is not a rating"),
        ("b1,1,1,Ann,Bob,,-5,,", "line 2, column black_elo: '-5' is not a rating"),
        ("b1,1,1,Ann,Bob,,,GMX,", "line 2, column white_title: 'GMX' is not a title"),
        ("b1,1,1,Ann,Bob,,,,12a", "line 2, column white_fide_id: '12a' is not a FIDE id"),
        ("b1,1,0,Ann,Bob,,,,", "line 2, column board_number: '0' is not a board number"),
        ("b1,one,1,Ann,Bob,,,,", "line 2, column round: 'one' is not a round"),
        (",1,1,Ann,Bob,,,,", "line 2, column board: empty"),
        ("b1,1,1,Ann,Bob,,,,,extra", "line 2: 10 fields, the header names 9"),
    ],
)
def test_a_wrong_value_names_its_line_and_column(row: str, said: str) -> None:
    with pytest.raises(PairingsError) as refused:
        csv_pairings(HEADER + row + "\n")
    assert str(refused.value).startswith(said), refused.value


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("board,round,board_number\nb1,1,1\n", "line 1: no column white or black"),
        ("board;white;black\nb1;Ann;Bob\n", "line 1, column 1: 'board;white;black' is not a column"),
        ("board,whte,black\nb1,Ann,Bob\n", "line 1, column 2: 'whte' is not a column"),
        ("board,white,black,white\nb1,A,B,C\n", "line 1, column 4: white is named twice"),
        ("\n\n", "no header"),
        ("board,white,black\nb1,A,B\nb2,C,D\nb1,E,F\n", "line 4, column board: b1 is paired already on line 2"),
    ],
)  # fmt: skip
def test_a_file_the_relay_cannot_read_is_refused(text: str, said: str) -> None:
    with pytest.raises(PairingsError) as refused:
        csv_pairings(text)
    assert str(refused.value).startswith(said), refused.value
