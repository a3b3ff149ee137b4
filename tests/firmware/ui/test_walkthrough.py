"""The scripted walkthrough of every flow plays through the simulator (``labkit run --simulate``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / "firmware" / "scripts" / "walkthrough.txt"


def test_the_walkthrough_of_every_flow_plays_in_the_simulator(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "run", "--simulate", "--headless",
         "--state-dir", str(tmp_path / "state"), "--script", str(SCRIPT)],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[3],
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert " ERROR " not in result.stderr, result.stderr[-2000:]
    for flow in ("experiment", "sell", "debunk", "exhibition", "golem test", "golem animate",
                 "library", "history", "reveal", "settings", "restored a game", "new game"):
        assert f"ui: {flow}" in result.stderr
