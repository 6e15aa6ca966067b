"""Every error the project raises is a `ReedboardError` (firmware/reedboard/errors.py), so a
caller can catch the project's errors as one. Read from the sources, not imported: the
hardware adapters cannot be imported on a PC.

Exempt: `Stopped`, which is no error (a stop asked for) and must pass every `except
Exception`. A class a module raises and catches itself is no exception: it too is one
of the hierarchy."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    ROOT / "firmware" / "reedboard",
    ROOT / "host" / "reedboard_host",
    ROOT / "host" / "reedboard_relay",
)
ROOT_ERROR = "ReedboardError"
NOT_ERRORS = {"Stopped"}
BUILTIN_EXCEPTIONS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}


def class_bases(source: str) -> dict[str, list[str]]:
    """Each class `source` defines at its top level, with the names of its bases."""
    found: dict[str, list[str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            found[node.name] = [ast.unparse(base).split(".")[-1] for base in node.bases]
    return found


def outside_the_hierarchy(classes: dict[str, tuple[str, list[str]]]) -> list[str]:
    """The exception classes of `classes` (name -> where, bases) that do not descend from
    `ROOT_ERROR`, but the exempt ones, each with where it is defined."""

    def ancestry(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        if name in seen or name not in classes:
            return {name}
        bases = classes[name][1]
        return {name}.union(*(ancestry(base, seen | {name}) for base in bases))

    offenders = []
    for name, (where, _bases) in sorted(classes.items()):
        ancestors = ancestry(name)
        is_exception = bool(ancestors & BUILTIN_EXCEPTIONS) or ROOT_ERROR in ancestors
        if not is_exception or ROOT_ERROR in ancestors or name == ROOT_ERROR:
            continue
        if name in NOT_ERRORS:
            continue
        offenders.append(f"{where}: {name}")
    return offenders


def project_classes() -> dict[str, tuple[str, list[str]]]:
    classes: dict[str, tuple[str, list[str]]] = {}
    for package in PACKAGES:
        for path in sorted(package.rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for name, bases in class_bases(path.read_text(encoding="utf-8")).items():
                classes.setdefault(name, (where, bases))
    return classes


def test_every_error_is_a_reedboard_error() -> None:
    classes = project_classes()
    assert "LinkError" in classes and "HostError" in classes  # the check sees the packages
    offenders = outside_the_hierarchy(classes)
    assert not offenders, "errors outside ReedboardError's hierarchy:\n" + "\n".join(offenders)


def test_the_check_finds_an_error_outside_the_hierarchy() -> None:
    source = (
        "class ReedboardError(Exception): pass\n"
        "class Good(ReedboardError, ValueError): pass\n"
        "class Bad(ValueError): pass\n"
        "class AlsoBad(Bad): pass\n"
        "class _Private(Exception): pass\n"
        "class NotAnError: pass\n"
    )
    classes = {name: ("x.py", bases) for name, bases in class_bases(source).items()}
    assert outside_the_hierarchy(classes) == ["x.py: AlsoBad", "x.py: Bad", "x.py: _Private"]
