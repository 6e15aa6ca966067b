"""The relay run with its event loop's turns timed: how long the loop was kept from
reading a board's message.

    python bench/relay_turns.py OUT.json reedboard-relay ARGS...

Runs the relay's own `main` in this process after wrapping two of asyncio's own
methods: each callback the loop runs (`Handle._run`) is timed, in the thread's CPU time
and the wall clock, and a turn is everything the loop ran between two of its waits on
the selector. At exit (the relay ends on SIGTERM with 0) writes OUT.json: the turns'
count, their CPU time's median, p99, p99.9 and longest, the same for the wall clock,
the twenty longest callbacks by CPU time with what they were and when, each
second's longest turn, and the time Python's garbage collector took, by generation. CPU time says what a
turn asked of the relay whatever the load; the wall clock what a board's message waited.
`bench/relay.py` runs the relay so when RELAY_TURNS=FILE is set; RELAY_CPU_PROFILE=FILE
then also profiles it (cProfile, in the thread's CPU time, so the load does not swell
what waited for a core)."""

from __future__ import annotations

import asyncio
import atexit
import cProfile
import gc
import heapq
import importlib
import json
import os
import selectors
import sys
import time
from pathlib import Path
from typing import Any

TOP = 20
# The relay's own steps that may make a turn long, each timed apart (count, CPU in all,
# longest CPU and wall).
WATCHED = (
    "reedboard_relay.store:RelayStore.commit",
    "reedboard_relay.store:RelayStore.keep_snapshots",
    "reedboard_relay.service:RelayService._commit",
    "reedboard_relay.service:RelayService._tell_changed",
    "reedboard_relay.service:RelayService._ask_again",
    "reedboard_relay.boards:Boards.keep_snapshots",
    "reedboard_relay.public_bodies:KeptParts.read",
    "reedboard_relay.event_stream:EventStream.turn",
    "reedboard_relay.event_stream:EventStream.join",
    "reedboard_relay.web:RelayWeb.fragments",
    "reedboard_relay.web:RelayWeb.changed",
    "reedboard_relay.mqtt_loop:MqttOnLoop._readable",
    "paho.mqtt.client:Client.loop_read",
)


def watch(name: str, steps: dict[str, list[float]]) -> None:
    module_name, qualified = name.split(":")
    owner: Any = importlib.import_module(module_name)
    *path, method = qualified.split(".")
    for part in path:
        owner = getattr(owner, part)
    plain = getattr(owner, method)
    figures = steps.setdefault(qualified, [0, 0.0, 0.0, 0.0])

    def timed(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.thread_time(), time.perf_counter()
        try:
            return plain(*args, **kwargs)
        finally:
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
            figures[0] += 1
            figures[1] += cpu
            figures[2] = max(figures[2], cpu)
            figures[3] = max(figures[3], wall)

    setattr(owner, method, timed)


class TurnTimer:
    def __init__(self) -> None:
        self.turn_cpu = 0.0  # this turn's callbacks so far
        self.turn_wall = 0.0
        self.turns_cpu: list[float] = []
        self.turns_wall: list[float] = []
        self.longest: list[tuple[float, float, str, float]] = []  # (cpu, wall, what, at)
        self.began = time.perf_counter()
        self.per_second: dict[int, tuple[float, float]] = {}  # longest turn's (cpu, wall)
        self.steps: dict[str, list[float]] = {}  # WATCHED: count, CPU, longest CPU, wall
        # Python's collector, by generation: count, wall time in all, longest.
        self.collections: dict[int, list[float]] = {}
        self._collecting = 0.0

    def collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = time.perf_counter()
            return
        took = time.perf_counter() - self._collecting
        figures = self.collections.setdefault(info["generation"], [0, 0.0, 0.0])
        figures[0] += 1
        figures[1] += took
        figures[2] = max(figures[2], took)

    def ran(self, cpu: float, wall: float, what: object) -> None:
        self.turn_cpu += cpu
        self.turn_wall += wall
        if len(self.longest) < TOP or cpu > self.longest[0][0]:
            entry = (cpu, wall, repr(what)[:200], time.perf_counter() - self.began)
            if len(self.longest) < TOP:
                heapq.heappush(self.longest, entry)
            else:
                heapq.heapreplace(self.longest, entry)

    def waited(self) -> None:
        if self.turn_cpu or self.turn_wall:
            self.turns_cpu.append(self.turn_cpu)
            self.turns_wall.append(self.turn_wall)
            second = int(time.perf_counter() - self.began)
            cpu, wall = self.per_second.get(second, (0.0, 0.0))
            self.per_second[second] = (max(cpu, self.turn_cpu), max(wall, self.turn_wall))
        self.turn_cpu = self.turn_wall = 0.0

    def said(self) -> dict[str, Any]:
        def spread(values: list[float]) -> dict[str, float]:
            ordered = sorted(values) or [0.0]

            def at(q: float) -> float:
                return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000, 3)

            return {"median_ms": at(0.5), "p99_ms": at(0.99), "p999_ms": at(0.999),
                    "longest_ms": round(ordered[-1] * 1000, 3),
                    "total_s": round(sum(values), 3)}  # fmt: skip

        return {
            "turns": len(self.turns_cpu),
            "cpu": spread(self.turns_cpu),
            "wall": spread(self.turns_wall),
            "longest_callbacks": [
                {
                    "cpu_ms": round(c * 1000, 3),
                    "wall_ms": round(w * 1000, 3),
                    "what": what,
                    "at_s": round(at, 1),
                }
                for c, w, what, at in sorted(self.longest, reverse=True)
            ],
            "steps": {name: _step(*figures) for name, figures in self.steps.items()},
            "collections": {
                str(g): {"count": int(n), "wall_s": round(t, 3), "longest_ms": round(m * 1000, 2)}
                for g, (n, t, m) in sorted(self.collections.items())
            },
            # Each second since the relay started: its longest turn's CPU and wall ms.
            "longest_per_second": {
                s: [round(c * 1000, 1), round(w * 1000, 1)]
                for s, (c, w) in sorted(self.per_second.items())
            },
        }


def _step(count: float, cpu: float, longest_cpu: float, longest_wall: float) -> dict[str, float]:
    return {"count": int(count), "cpu_s": round(cpu, 3),
            "longest_cpu_ms": round(longest_cpu * 1000, 2),
            "longest_wall_ms": round(longest_wall * 1000, 2)}  # fmt: skip


def install(timer: TurnTimer) -> None:
    handle_run = asyncio.events.Handle._run

    def timed_run(self: asyncio.events.Handle) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        try:
            handle_run(self)
        finally:
            timer.ran(
                time.thread_time() - cpu,
                time.perf_counter() - wall,
                getattr(self, "_callback", None),
            )

    asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]
    for kind in (selectors.EpollSelector, selectors.PollSelector, selectors.SelectSelector):
        select = kind.select

        def timed_select(self: Any, timeout: float | None = None, _select: Any = select) -> Any:
            timer.waited()
            return _select(self, timeout)

        kind.select = timed_select  # type: ignore[method-assign]


def main() -> int:
    out = Path(sys.argv[1])
    sys.argv = sys.argv[2:]
    timer = TurnTimer()
    install(timer)
    gc.callbacks.append(timer.collected)
    for name in WATCHED:
        watch(name, timer.steps)

    def said_anyway() -> None:  # the relay ended without returning from its main
        out.write_text(json.dumps(timer.said(), indent=1))

    atexit.register(said_anyway)
    from reedboard_relay.cli import main as relay_main

    profiled = os.environ.get("RELAY_CPU_PROFILE")  # a file: cProfile, in CPU time
    profile = cProfile.Profile(time.thread_time) if profiled else None
    if profile is not None:
        profile.enable()
    try:
        code = relay_main()
    finally:
        if profile is not None and profiled:
            profile.disable()
            profile.dump_stats(profiled)
    atexit.unregister(said_anyway)
    said = timer.said()
    # What one full pass finds unreachable at the end (everything unfrozen first): the
    # garbage cycles held since the relay's last sweep, or its collector's last pass.
    gc.unfreeze()
    said["unreachable_at_end"] = gc.collect()
    out.write_text(json.dumps(said, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
