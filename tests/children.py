"""Programs a test starts (`reedboard run`, `reedboard-host ...`), stopped whatever happens.

`child(command)` starts one and, when its block ends (passed, failed, timed out), asks it to
end with a signal and kills it if it has not within a grace time, then closes its pipes: no
test leaves a program behind holding a pty or a port. `stop(process)` does the asking and
killing and returns the exit status, for a test that checks how the program ended."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from collections.abc import Iterator, Sequence
from typing import Any

GRACE_S = 10.0


def stop(
    process: subprocess.Popen[Any], sig: int = signal.SIGTERM, grace_s: float = GRACE_S
) -> int:
    """Ask `process` to end with `sig`, kill it if it is still there after `grace_s`;
    returns its exit status (negative: the signal that ended it). Harmless when it has
    already ended."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        try:
            process.wait(grace_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


@contextlib.contextmanager
def child(
    command: Sequence[str],
    *,
    sig: int = signal.SIGTERM,
    grace_s: float = GRACE_S,
    **popen: Any,
) -> Iterator[subprocess.Popen[Any]]:
    """`command` running for the block; stopped (then killed if need be) when it ends."""
    process = subprocess.Popen(list(command), **popen)
    try:
        yield process
    finally:
        stop(process, sig, grace_s)
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
