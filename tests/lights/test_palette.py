"""The palette: every role has a look, and roles lit together stay apart without hue."""

from __future__ import annotations

import itertools

import pytest
from reedboard.lights.palette import (
    PALETTE,
    TOGETHER,
    Look,
    distinguishable,
    luminance,
)
from reedboard.lights.roles import EFFECTS, ROLES, Role

PAIRS = sorted(
    {tuple(sorted(pair)) for group in TOGETHER for pair in itertools.combinations(group, 2)}
)


def test_every_role_has_a_look_with_a_known_effect() -> None:
    assert set(PALETTE) == set(ROLES)
    assert all(look.effect in EFFECTS for look in PALETTE.values())


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_roles_lit_together_differ_in_effect_or_lightness(a: Role, b: Role) -> None:
    assert distinguishable(PALETTE[a], PALETTE[b])


def test_red_and_green_never_differ_by_hue_alone() -> None:
    reddish = [r for r, look in PALETTE.items() if look.colour[0] > 200 > look.colour[1]]
    greenish = [r for r, look in PALETTE.items() if look.colour[1] > 200 > look.colour[0]]
    assert reddish and greenish
    for a, b in itertools.product(reddish, greenish):
        assert distinguishable(PALETTE[a], PALETTE[b]), (a, b)


def test_capture_and_target_differ_by_effect_and_missing_and_extra_too() -> None:
    assert PALETTE["capture"].effect != PALETTE["target"].effect
    assert PALETTE["missing"].effect != PALETTE["extra"].effect


def test_distinguishable_needs_an_effect_or_a_clear_lightness_gap() -> None:
    assert not distinguishable(Look((200, 0, 0), "blink"), Look((0, 90, 0), "blink"))
    assert distinguishable(Look((200, 0, 0), "blink"), Look((0, 90, 0), "pulse"))
    assert distinguishable(Look((255, 255, 255), "steady"), Look((0, 0, 255), "steady"))


def test_luminance_spans_black_to_white() -> None:
    assert luminance((0, 0, 0)) == 0
    assert luminance((255, 255, 255)) == pytest.approx(1.0)
    assert luminance((0, 255, 0)) > luminance((255, 0, 0)) > luminance((0, 0, 255))
