"""A late engine is hung only if it sleeps past its time or spent it all on the CPU; one
still waiting for the CPU (SCHED_IDLE on a busy machine) is starved, and waited for."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from reedboard.opponents.engine_cpu import Usage, cpu_s, hung, usage


def test_within_its_time_an_engine_is_never_hung() -> None:
    assert not hung(4.9, 5.0, 0.0, Usage(0.0, runnable=False))


def test_past_its_time_an_engine_asleep_at_two_looks_with_no_cpu_between_is_hung() -> None:
    asleep = Usage(1.2, runnable=False)
    assert hung(6.0, 5.0, 1.0, asleep, last=asleep)


def test_an_engine_asleep_at_one_look_only_is_not_yet_hung() -> None:
    # A moment's sleep (a lock handed between threads, its answer just written) is no hang.
    assert not hung(5.0, 5.0, 1.0, Usage(1.2, runnable=False))
    assert not hung(6.0, 5.0, 1.0, Usage(1.2, runnable=False), last=Usage(1.1, runnable=True))
    # Asleep at both looks, but it ran between them: not hung either.
    assert not hung(6.0, 5.0, 1.0, Usage(1.3, runnable=False), last=Usage(1.2, runnable=False))


def test_past_its_time_an_engine_waiting_for_the_cpu_is_starved_not_hung() -> None:
    assert not hung(60.0, 5.0, 1.0, Usage(1.2, runnable=True))


def test_an_engine_that_had_all_its_time_on_the_cpu_is_hung_though_runnable() -> None:
    assert hung(6.0, 5.0, 1.0, Usage(6.0, runnable=True))


def test_without_an_account_of_its_cpu_its_wall_time_decides() -> None:
    assert hung(5.0, 5.0, None, None) and not hung(4.0, 5.0, None, None)


def test_a_process_cpu_time_and_state_are_read() -> None:
    spinning = (
        "import time\nend = time.process_time() + 0.1\nwhile time.process_time() < end: pass\n"
    )
    busy = subprocess.Popen([sys.executable, "-c", spinning + "input()"], stdin=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        seen_running = False
        while (now := usage(busy.pid)) is not None and (now.runnable or now.cpu_s < 0.09):
            seen_running = seen_running or now.runnable
            assert time.monotonic() < deadline
            time.sleep(0.005)  # polling its state, not timing it: the CPU is the child's
        # It spun on the CPU, then waits for its input: asleep, its CPU time counted.
        assert now is not None and seen_running and now.cpu_s >= 0.09
    finally:
        busy.kill()
        busy.wait()
    assert usage(busy.pid) is None and cpu_s(os.getpid()) is not None
