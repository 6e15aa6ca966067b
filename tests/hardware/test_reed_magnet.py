"""The reed and magnet model's physics, and what it says about the reference build."""

from __future__ import annotations

import math

import pytest
from board_geometry import BoardParameters
from reed_magnet import (
    MU0,
    DiscMagnet,
    ReedSwitch,
    ReedUnderSquare,
    best_reed_x,
    field,
    potential,
)
from reed_plot import findings, third_along

M = DiscMagnet().moment
ORIGIN = (0.0, 0.0, 0.0)


def test_moment_is_remanence_times_volume_over_mu0() -> None:
    magnet = DiscMagnet(diameter_mm=10.0, thickness_mm=2.0, remanence_t=1.2)
    volume = math.pi * 0.005**2 * 0.002
    assert magnet.moment == pytest.approx(1.2 * volume / MU0)
    assert magnet.moment == pytest.approx(0.150, abs=0.001)


def test_field_is_minus_the_gradient_of_the_potential() -> None:
    at = (3.0, -2.0, 7.0)
    point = (1.0, 4.0, -1.5)
    h = 1e-4  # mm
    for axis in range(3):
        plus = list(point)
        minus = list(point)
        plus[axis] += h
        minus[axis] -= h
        gradient = (
            potential((plus[0], plus[1], plus[2]), at, M)
            - potential((minus[0], minus[1], minus[2]), at, M)
        ) / (2 * h / 1e3)
        assert field(point, at, M)[axis] == pytest.approx(-gradient, rel=1e-5)


def test_field_falls_off_as_the_cube_of_distance() -> None:
    for direction in ((0.0, 0.0, -1.0), (1.0, 0.0, 0.0), (0.6, 0.0, -0.8)):
        near = field(tuple(10 * d for d in direction), ORIGIN, M)  # type: ignore[arg-type]
        far = field(tuple(20 * d for d in direction), ORIGIN, M)  # type: ignore[arg-type]
        assert math.dist(near, ORIGIN) / math.dist(far, ORIGIN) == pytest.approx(8.0)


def test_on_axis_field_is_twice_the_equatorial_field() -> None:
    below = field((0.0, 0.0, -10.0), ORIGIN, M)
    beside = field((10.0, 0.0, 0.0), ORIGIN, M)
    assert abs(below[2]) == pytest.approx(2 * abs(beside[2]))
    assert below[0] == below[1] == 0.0


def test_mmf_is_symmetric_across_the_reed_and_zero_over_its_middle() -> None:
    model = ReedUnderSquare(reed_x=-8.0)
    for x, y in ((3.0, 4.0), (-12.0, 7.5), (20.0, 1.0)):
        assert model.mmf(x, y) == pytest.approx(model.mmf(x, -y))
        # Mirror about the reed's middle: the same pull.
        assert model.mmf(x, y) == pytest.approx(model.mmf(2 * model.reed_x - x, y))
    for y in (0.0, 3.0, 10.0):
        assert model.mmf(model.reed_x, y) == pytest.approx(0.0, abs=1e-9)  # the dead zone


def test_the_ampere_turn_conversion() -> None:
    reed = ReedSwitch(glass_mm=14.0, coil_mm=14.0)
    assert reed.pull_in_field(15.0) == pytest.approx(15.0 / 0.014)
    assert reed.pull_in_flux_density_mt(15.0) == pytest.approx(1.346, abs=0.001)


def test_the_reference_build_closes_where_pieces_stand_and_never_from_a_neighbour() -> None:
    p = BoardParameters()
    found = findings(p)
    reed = p.reed
    # The least sensitive reed of the band closes with a margin of 2 for what the model
    # leaves out; the most sensitive never closes under a neighbouring piece, margin 2.
    assert found.weakest_rule_at >= 2 * reed.pull_in_max_at
    assert found.strongest_neighbour_at <= reed.pull_in_min_at / 2


def test_a_third_along_leaves_the_dead_zone_where_pieces_stand() -> None:
    p = BoardParameters()
    old = third_along(p)
    assert abs(old.reed_x) == pytest.approx(14.0 / 2 - 14.0 / 3)  # 2.3 mm off centre
    assert findings(p).weakest_third_at < p.reed.pull_in_min_at
    assert old.mmf(old.reed_x, 0.0) == pytest.approx(0.0, abs=1e-9)


def test_the_placement_rule_is_what_the_model_finds_best() -> None:
    p = BoardParameters()
    assert best_reed_x(p.reed_model(), p.play_mm) == p.reed_x_mm
    # The dead zone lies outside the zone where pieces stand.
    assert abs(p.reed_x_mm) > p.play_mm


def test_the_bands_chosen_from_the_model_with_the_leads_and_both_margins_hold() -> None:
    from reed_magnet import MARGIN_WANTED, band_margins, choose_band

    p = BoardParameters()
    reach = p.square_mm / 2 - p.largest_base_mm / 4
    chosen = choose_band(p.reed_model(), p.square_mm, p.play_mm, reach)
    # The BOM's band is the model's choice, and both margins are at least 2.
    assert chosen.band == (p.reed.pull_in_min_at, p.reed.pull_in_max_at) == (15.0, 20.0)
    assert chosen.own_margin >= MARGIN_WANTED and chosen.neighbour_margin >= MARGIN_WANTED
    # The leads matter: 10-15 AT looked fine on the glass alone, but with 2 mm of kept
    # lead a neighbour's piece pulls more and its most sensitive reed keeps under 2.
    old = band_margins(p.reed_model(), (10.0, 15.0), p.square_mm, p.play_mm, reach)
    assert old.neighbour_margin < MARGIN_WANTED


def test_the_guide_states_the_models_band_and_margins() -> None:
    from pathlib import Path

    from reed_magnet import choose_band

    p = BoardParameters()
    chosen = choose_band(
        p.reed_model(), p.square_mm, p.play_mm, p.square_mm / 2 - p.largest_base_mm / 4
    )
    guide = (Path(__file__).resolve().parents[2] / "hardware" / "README.md").read_text("utf-8")
    low, high = chosen.band
    assert f"**{low:g}-{high:g} AT**" in guide
    assert f"margin of {chosen.own_margin:.1f} ({chosen.weakest_own_at:.1f} / {high:g})" in guide
    assert (
        f"margin of {chosen.neighbour_margin:.1f} ({low:g} / {chosen.strongest_neighbour_at:.1f})"
        in guide
    )


def test_the_plot_shows_both_margins_of_the_boms_band_with_the_leads() -> None:
    from pathlib import Path

    from reed_magnet import band_margins

    p = BoardParameters()
    reach = p.square_mm / 2 - p.largest_base_mm / 4
    band = (p.reed.pull_in_min_at, p.reed.pull_in_max_at)
    m = band_margins(p.reed_model(), band, p.square_mm, p.play_mm, reach)
    svg = (Path(__file__).resolve().parents[2] / "hardware" / "reed-magnet.svg").read_text()
    assert (
        f"closes with a margin of {m.own_margin:.1f} ({m.weakest_own_at:.1f} / {band[1]:g} AT)"
        in svg
    )
    assert (
        f"neighbour with {m.neighbour_margin:.1f} ({band[0]:g} / {m.strongest_neighbour_at:.1f} AT)"
        in svg
    )
