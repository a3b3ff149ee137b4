"""The ./dev entry point: a bench name it does not know lists the benchmarks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args", [[], ["nosuch"]], ids=["no name", "wrong name"])
def test_bench_without_a_known_name_lists_the_benchmarks(args: list[str]) -> None:
    done = subprocess.run([str(ROOT / "dev"), "bench", *args], capture_output=True, text=True,
                          check=False, timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    names = sorted(path.stem for path in (ROOT / "benchmarks").glob("*.py"))
    assert names
    for name in names:
        assert f"  {name} " in done.stderr, done.stderr
    assert ("no benchmark named 'nosuch'" in done.stderr) == bool(args)
