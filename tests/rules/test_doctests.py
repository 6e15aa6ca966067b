"""The examples in the rules modules' docstrings are run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import reedboard.rules

MODULES = sorted(
    f"reedboard.rules.{info.name}" for info in pkgutil.iter_modules(reedboard.rules.__path__)
)


def test_every_rules_module_is_listed() -> None:
    assert "reedboard.rules.position" in MODULES and len(MODULES) >= 11


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.failed == 0


def test_doctests_exist() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(name), verbose=False).attempted for name in MODULES
    )
    assert attempted >= 5
