"""The tests' own guard: a program a test starts is gone when the test ends, even when the
program ignores being asked to stop and even when the test hangs until its time limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.children import child, stop

pytestmark = pytest.mark.timeout(60)  # a few short programs and one hung test of 3 s

TESTS = Path(__file__).resolve().parent
# A program that ignores SIGTERM and SIGINT, says its pid, and would run for ten minutes.
STUBBORN = (
    "import os, signal, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
    "print(os.getpid(), flush=True)\n"
    "time.sleep(600)\n"
)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_stop_kills_a_program_that_ignores_the_signal() -> None:
    with child([sys.executable, "-c", STUBBORN], stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        pid = int(process.stdout.readline())
        assert stop(process, grace_s=0.5) == -signal.SIGKILL
    assert gone(pid)


def test_a_program_that_ends_when_asked_gives_its_own_status() -> None:
    with child([sys.executable, "-c", "import time; time.sleep(600)"]) as process:
        assert stop(process) == -signal.SIGTERM


def test_a_test_that_hangs_fails_at_its_time_limit_and_leaves_no_program(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "pid"
    (tmp_path / "test_hangs.py").write_text(
        textwrap.dedent(
            f"""
            import subprocess, sys, time
            from children import child

            def test_hangs():
                with child([sys.executable, "-c", {STUBBORN!r}], stdout=subprocess.PIPE,
                           text=True, grace_s=0.5) as process:
                    open({str(pid_file)!r}, "w").write(process.stdout.readline())
                    time.sleep(600)
            """
        )
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "3",
         "-o", "addopts=", "--rootdir", str(tmp_path), str(tmp_path / "test_hangs.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])},
    )  # fmt: skip
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Timeout" in result.stdout
    pid = int(pid_file.read_text())
    assert gone(pid), f"the hung test's program {pid} is still running"


def test_every_test_has_a_time_limit(pytestconfig: pytest.Config) -> None:
    assert float(pytestconfig.getini("timeout")) > 0
    assert pytestconfig.getini("timeout_method") == "signal"  # finalizers run on a timeout
