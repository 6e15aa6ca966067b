"""What the reader waits for is one typed state, and `waiting.TRANSITIONS` is the whole of
how it goes from one to another: every change of state in the package goes through
`waiting.enter`, which refuses a change the table does not name."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest
from reedboard.reader import waiting
from reedboard.reader.waiting import (
    TRANSITIONS,
    AmendDue,
    KnockedCapture,
    PutBack,
    Sweep,
    enter,
)

READER = Path(waiting.__file__).parent


def _assignments() -> list[tuple[str, int, ast.expr | None]]:
    """Every assignment to an attribute `waiting` in the reader package: (file, line,
    value)."""
    found: list[tuple[str, int, ast.expr | None]] = []
    for path in sorted(READER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr]
            value: ast.expr | None
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign):
                targets, value = [node.target], node.value
            else:
                continue
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "waiting":
                    found.append((path.name, node.lineno, value))
    return found


def test_every_change_of_state_goes_through_enter() -> None:
    assignments = _assignments()
    assert assignments  # the check sees the reader's assignments
    bypasses = [
        f"{name}:{line}"
        for name, line, value in assignments
        if not (isinstance(value, ast.Call) and ast.unparse(value.func) == "enter")
        # A new episode forgets what it waited for: no transition (Reader.new_episode).
        and not (name == "move_reader.py" and isinstance(value, ast.Constant))
    ]
    assert not bypasses, f"the waiting state set without waiting.enter: {bypasses}"


def test_every_state_is_entered_and_left_in_the_table() -> None:
    states = set(typing.get_args(waiting.Waiting))
    entered = {target for _source, target, _on, _where in TRANSITIONS if target is not None}
    left = {source for source, _target, _on, _where in TRANSITIONS if source is not None}
    assert entered == states
    assert left == states


def test_enter_refuses_a_change_the_table_does_not_name() -> None:
    knocked = KnockedCapture(12)
    assert enter(None, knocked) is knocked
    assert enter(knocked, None) is None
    assert enter(Sweep(100), Sweep(200)) == Sweep(200)  # staying in a state
    with pytest.raises(AssertionError, match="cannot wait for"):
        enter(knocked, Sweep(100))
    with pytest.raises(AssertionError, match="cannot wait for"):
        enter(PutBack(10), AmendDue(12, 60))
