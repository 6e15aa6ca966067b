"""Checks that the board's install resolves to exactly the pinned versions.

    python -m scripts.pi_constraints            # exit 1 and say what drifted
    python -m scripts.pi_constraints --write    # pin what resolves today

The Pi installs `reedboard[pi]` (a Pi 5 `reedboard[pi5]`; a board for phone apps adds
`ble`) with `-c deploy/pi-constraints.txt`. This resolves the three extras together for an
arm64 Pi (Python 3.11, bookworm; 3.13, trixie) with uv against the package index, without
building anything, and compares what would be installed with the pins: a
dependency nobody pinned (a new requirement in pyproject.toml or in a library's new
release) or a pin that no longer resolves is reported. The 32-bit Pi resolves the same
names and versions (none of them has platform-dependent requirements); uv cannot target it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / "deploy" / "pi-constraints.txt"
# An arm64 Pi: bookworm's glibc is 2.36 (trixie's is newer, so its wheels are a superset).
PLATFORM = "aarch64-manylinux_2_36"
PYTHONS = ("3.11", "3.13")
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;#]+)")
# What uv says when it cannot reach the index at all (as opposed to a failed resolution).
UNREACHABLE = re.compile(
    r"error sending request|dns error|failed to lookup address|Connection refused|"
    r"network is unreachable|timed out|Could not connect|offline",
    re.IGNORECASE,
)


class ResolutionError(Exception):
    """The install cannot be resolved, or the index cannot be reached."""


def normalize(name: str) -> str:
    """A distribution name as the index compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins(text: str) -> dict[str, str]:
    """`name==version` lines (comments and blank lines skipped), by normalized name."""
    pins = {}
    for line in text.splitlines():
        match = PIN.match(line.strip())
        if match:
            pins[normalize(match.group(1))] = match.group(2)
    return pins


def uv() -> str:
    """The uv program next to this Python (the dev extra installs it), or on the PATH."""
    beside = Path(sys.executable).with_name("uv")
    found = str(beside) if beside.exists() else shutil.which("uv")
    if found is None:
        raise ResolutionError("uv is not installed: pip install -e '.[dev]'")
    return found


def resolve(python: str, constraints: Path | None) -> dict[str, str]:
    """What `pip install '.[pi,ble]'` and `'.[pi5,ble]'` would install on an arm64 Pi with
    this Python."""
    command = [
        uv(),
        "pip",
        "compile",
        str(ROOT / "pyproject.toml"),
        "--extra",
        "pi",
        "--extra",
        "pi5",
        "--extra",
        "ble",
        "--python-platform",
        PLATFORM,
        "--python-version",
        python,
        "--no-header",
        "--no-annotate",
        "--quiet",
    ]
    if constraints is not None:
        command += ["--constraint", str(constraints)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        said = " ".join(done.stderr.split())
        if UNREACHABLE.search(said):
            raise ResolutionError(
                f"cannot reach the package index to resolve the Pi extras: {said}"
            )
        raise ResolutionError(f"the Pi extras do not resolve for Python {python}: {said}")
    return read_pins(done.stdout)


def drift(pins: dict[str, str], resolved: dict[str, str]) -> list[str]:
    """One line per difference between the pins and a resolution made with them."""
    lines = []
    for name in sorted(resolved.keys() - pins.keys()):
        lines.append(f"{name}=={resolved[name]} would be installed but is not pinned")
    for name in sorted(pins.keys() - resolved.keys()):
        lines.append(f"{name}=={pins[name]} is pinned but no longer installed")
    for name in sorted(pins.keys() & resolved.keys()):
        if pins[name] != resolved[name]:
            lines.append(f"{name}: pinned {pins[name]}, resolved {resolved[name]}")
    return lines


def check() -> list[str]:
    """Every drift, for each Python the board runs on ([] when the pins hold)."""
    pins = read_pins(CONSTRAINTS.read_text(encoding="utf-8"))
    found = []
    for python, resolved in zip(PYTHONS, resolve_all(CONSTRAINTS), strict=True):
        found += [f"Python {python}: {line}" for line in drift(pins, resolved)]
    return found


def resolve_all(constraints: Path | None) -> list[dict[str, str]]:
    """`resolve` for each Python, side by side: each waits mostly on the index."""
    with ThreadPoolExecutor(len(PYTHONS)) as pool:
        return list(pool.map(lambda python: resolve(python, constraints), PYTHONS))


def write() -> None:
    """Pin what resolves today (the same for every Python, or it says so)."""
    resolutions = dict(zip(PYTHONS, resolve_all(None), strict=True))
    first, *others = resolutions.values()
    if any(other != first for other in others):
        raise ResolutionError(f"the Pythons resolve differently: {resolutions}")
    header = [
        line for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines() if line[:1] == "#"
    ]
    body = [f"{name}=={version}" for name, version in sorted(first.items())]
    CONSTRAINTS.write_text("\n".join([*header, *body]) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    try:
        if argv == ["--write"]:
            write()
            return 0
        if argv:
            print("usage: python -m scripts.pi_constraints [--write]", file=sys.stderr)
            return 2
        drifted = check()
    except ResolutionError as error:
        print(f"pi_constraints: {error}", file=sys.stderr)
        return 1
    for line in drifted:
        print(f"pi_constraints: {line}", file=sys.stderr)
    if drifted:
        print(
            f"pi_constraints: {CONSTRAINTS.relative_to(ROOT)} no longer matches the Pi extras; "
            "renew it with python -m scripts.pi_constraints --write and check it on a Pi",
            file=sys.stderr,
        )
        return 1
    print(f"the Pi extras resolve to the {CONSTRAINTS.relative_to(ROOT)} pins on Python {PYTHONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
