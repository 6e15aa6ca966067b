"""`python hardware/build.py`: the electrical rules check gates it, and it reproduces the
committed netlist and bill of materials exactly."""

from __future__ import annotations

import csv
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from skidl import Circuit

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def normalized(text: str) -> str:
    # Dates and the generating tool's version are not part of the circuit.
    text = re.sub(r'\(date "[^"]*"\)', "(date)", text)
    return re.sub(r'\(tool "[^"]*"\)', "(tool)", text)


def test_regenerating_gives_the_committed_files(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(HARDWARE / "build.py"),
            "--out",
            str(tmp_path),
            "--no-drawings",
            "--no-pcb",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "ERC passed" in result.stdout
    for name in ("reedboard.net", "reedboard-bom.csv", "reedboard-bom.md"):
        fresh = (tmp_path / name).read_text(encoding="utf-8")
        committed = (HARDWARE / name).read_text(encoding="utf-8")
        assert normalized(fresh) == normalized(committed), f"{name}: run python hardware/build.py"


@pytest.fixture
def build(monkeypatch: pytest.MonkeyPatch, skidl_ready: None) -> ModuleType:
    monkeypatch.syspath_prepend(str(HARDWARE))
    import build as module

    return module


def test_erc_passes_on_the_circuit(build: ModuleType) -> None:
    assert build.run_erc(build.build_circuit()) == 0


def test_erc_failure_makes_build_exit_non_zero(
    build: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good_circuit = build.build_circuit

    def broken_circuit() -> Circuit:
        circuit = good_circuit()
        parts = {str(p.ref): p for p in circuit.parts}
        # Two LED outputs driving one net: an output-output conflict.
        with circuit:
            parts["LED2"]["DOUT"] += parts["LED1"]["DOUT"]
        return circuit

    monkeypatch.setattr(build, "build_circuit", broken_circuit)
    assert build.main(["--out", str(tmp_path), "--no-drawings"]) == 1
    assert "electrical rules check found" in capsys.readouterr().err
    assert not (tmp_path / "reedboard.net").exists()


def test_bom_lists_every_part_once(build: ModuleType) -> None:
    with (HARDWARE / "reedboard-bom.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == [
        "item", "quantity", "unit", "order", "price_eur", "part", "purpose", "references",
        "footprint",
    ]  # fmt: skip
    by_refs = {row["references"]: int(row["quantity"]) for row in rows if row["references"]}
    assert by_refs["SW1-SW64"] == 64
    assert by_refs["D1-D64"] == 64
    assert by_refs["LED1-LED64"] == 64
    assert by_refs["U1"] == 1
    # Every part of the netlist is on exactly one line.
    circuit = build.build_circuit()
    listed = sum(by_refs.values())
    assert listed == len(circuit.parts)
    assert len({row["item"] for row in rows}) == len(rows)
    assert all(row["part"] and row["purpose"] and row["order"] for row in rows)
