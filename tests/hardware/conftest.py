"""The hardware scripts import each other by module name, as `python hardware/build.py`
runs them: put their folder on the path for these tests."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
if str(HARDWARE) not in sys.path:
    sys.path.insert(0, str(HARDWARE))


@pytest.fixture(scope="session")
def skidl_ready() -> Iterator[None]:
    """SKiDL imported, for the tests that build the circuit, and only for them: it brings
    matplotlib and numpy, most of a test process's collection otherwise.

    SKiDL opens its log files in the working folder when it is first imported, and deletes
    them by that relative name once a circuit turns files off: test processes running side
    by side in one checkout deleted each other's files (FileNotFoundError) or left them
    behind. Import it once, in a folder of this process's own, with its files off before
    the test runs."""
    if "skidl" not in sys.modules:
        here = os.getcwd()
        with tempfile.TemporaryDirectory(prefix="skidl-") as folder:
            os.chdir(folder)
            try:
                import build  # noqa: F401  (names KiCad's libraries for SKiDL, then imports it)
                from skidl.logger import stop_log_file_output

                stop_log_file_output()
            finally:
                os.chdir(here)
        _trace_cheaply()
    yield


def _skidl_trace() -> list[tuple[str, str]]:
    """What `skidl.scriptinfo.get_skidl_trace` returns, the (file, line) of each caller
    outside SKiDL from the outermost in, read from the frames themselves. SKiDL's own asks
    `inspect.stack()` for every part and net, which reads each frame's source and searches
    every loaded module for its file: 86 % of building the circuit, and more in a test
    process, which has loaded many more modules (6 s a circuit)."""
    frame: FrameType | None = sys._getframe(1)
    calls: list[tuple[str, str]] = []
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_SKIDL_FOLDER[0]):
            calls.append((os.path.abspath(filename), str(frame.f_lineno)))
        frame = frame.f_back
    calls.reverse()
    return calls


# SKiDL's own folder, once it is imported.
_SKIDL_FOLDER = [""]


def _trace_cheaply() -> None:
    import skidl.circuit
    import skidl.logger
    import skidl.node

    _SKIDL_FOLDER[0] = os.path.dirname(sys.modules["skidl.scriptinfo"].__file__ or "")
    for module in (skidl.circuit, skidl.logger, skidl.node):
        assert module.get_skidl_trace.__module__ == "skidl.scriptinfo", module.__name__
        module.get_skidl_trace = _skidl_trace
