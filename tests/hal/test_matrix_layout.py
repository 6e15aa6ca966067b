from __future__ import annotations

import pytest
from reedboard.errors import ConfigError
from reedboard.hal.matrix_layout import MatrixLayout, all_layouts
from reedboard.rules.squares import parse_square


def test_default_layout_puts_a1_on_row1_col1_and_ranks_on_rows() -> None:
    layout = MatrixLayout()
    assert layout.cell_of(parse_square("a1")) == (0, 0)
    assert layout.cell_of(parse_square("h1")) == (0, 7)
    assert layout.cell_of(parse_square("a8")) == (7, 0)
    assert layout.cell_of(parse_square("e4")) == (3, 4)


@pytest.mark.parametrize(
    ("a1", "rows_are", "a1_cell", "h1_cell"),
    [
        ("R1C1", "ranks", (0, 0), (0, 7)),
        ("R1C8", "ranks", (0, 7), (0, 0)),
        ("R8C1", "ranks", (7, 0), (7, 7)),
        ("R8C8", "ranks", (7, 7), (7, 0)),
        ("R1C1", "files", (0, 0), (7, 0)),
        ("R1C8", "files", (0, 7), (7, 7)),
        ("R8C1", "files", (7, 0), (0, 0)),
        ("R8C8", "files", (7, 7), (0, 7)),
    ],
)
def test_every_orientation_places_the_corners(
    a1: str, rows_are: str, a1_cell: tuple[int, int], h1_cell: tuple[int, int]
) -> None:
    layout = MatrixLayout(a1, rows_are)  # type: ignore[arg-type]
    assert layout.cell_of(parse_square("a1")) == a1_cell
    assert layout.cell_of(parse_square("h1")) == h1_cell


@pytest.mark.parametrize("layout", all_layouts(), ids=repr)
def test_layout_is_a_bijection_and_square_at_inverts_it(layout: MatrixLayout) -> None:
    cells = {layout.cell_of(sq) for sq in range(64)}
    assert len(cells) == 64
    for sq in range(64):
        assert layout.square_at(*layout.cell_of(sq)) == sq
    for line in range(8):
        assert all(layout.cell_of(sq)[0] == line for sq in layout.squares_on_row(line))
        assert all(layout.cell_of(sq)[1] == line for sq in layout.squares_on_column(line))


def test_eight_distinct_orientations() -> None:
    maps = {tuple(layout.cell_of(sq) for sq in range(64)) for layout in all_layouts()}
    assert len(maps) == 8


def test_bad_orientation_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="a1 corner"):
        MatrixLayout("R2C1")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="rows_are"):
        MatrixLayout("R1C1", "diagonals")  # type: ignore[arg-type]
