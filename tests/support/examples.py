"""How many examples a Hypothesis test that sets its own count draws: the count scaled as
the chosen profile (`tests/conftest.py`) scales Hypothesis's default of 100, so that
`pytest --hypothesis-profile=deep` searches these tests ten times deeper too."""

from __future__ import annotations

from hypothesis import settings

HYPOTHESIS_DEFAULT = 100  # the examples of Hypothesis's own default profile


def examples(count: int) -> int:
    """`count` in the suite's run (profile `ci`); ten times it under `deep`."""
    chosen = settings.default
    assert chosen is not None, "a Hypothesis profile is loaded by then (tests/conftest.py)"
    return max(1, count * chosen.max_examples // HYPOTHESIS_DEFAULT)
