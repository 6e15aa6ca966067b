"""The one command that checks everything: ruff, mypy, then the test suite.

Run it as `python -m scripts.check` from the repository's top folder (inside the venv).
Extra arguments go to pytest. The suite runs in four pytest-xdist workers unless the
arguments choose (`-n 0` runs it in one process).
"""

from __future__ import annotations

import os
import subprocess
import sys


def run(step: str, command: list[str], env: dict[str, str] | None = None) -> int:
    print(f"== {step}: {' '.join(command)}", flush=True)
    return subprocess.run(command, check=False, env=env).returncode


def with_bytecode() -> dict[str, str]:
    """This environment, less PYTHONDONTWRITEBYTECODE (which some machines and containers
    set): without the cached bytecode, every worker rewrites the asserts of all the test
    modules each run (about 9 s of CPU a worker), and every program a test starts compiles
    the reedboard modules it imports anew. The caches go to `__pycache__/`, which git
    ignores."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


# Most of the suite's wall time is waiting (programs starting, ptys, sockets, the browser,
# the broker), not CPU: more workers than this machine's two cores still pay.
WORKERS = "4"


def with_workers(pytest_args: list[str]) -> list[str]:
    """The arguments with `-n 4` added, unless they already say how to run in parallel."""
    chosen = any(
        arg.startswith(("-n", "--numprocesses")) or arg.endswith("no:xdist") for arg in pytest_args
    )
    return pytest_args if chosen else ["-n", WORKERS, *pytest_args]


def main(pytest_args: list[str]) -> int:
    python = sys.executable
    failed = []
    if run("ruff", [python, "-m", "ruff", "check", "."]):
        failed.append("ruff")
    if run("ruff format", [python, "-m", "ruff", "format", "--check", "."]):
        failed.append("ruff format")
    if run("mypy", [python, "-m", "mypy"]):
        failed.append("mypy")
    if run("pytest", [python, "-m", "pytest", *with_workers(pytest_args)], with_bytecode()):
        failed.append("pytest")
    if failed:
        print(f"FAILED: {', '.join(failed)}", flush=True)
        return 1
    print("all checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
