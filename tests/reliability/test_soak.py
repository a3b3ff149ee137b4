"""Promise 5, it keeps going: the simulator kit (replay camera, real card reader, SQLite store, the
daemon loop) through thousands of scripted scans and menu moves, with no growth in memory or open
files beyond a small bound and no slowdown. The figures are printed (run with -s); the bounds are
loose on purpose: this is not a benchmark."""

from __future__ import annotations

import gc
import logging
import os
import random
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from firmware.script import play_script
from tests.reliability.helpers import make_kit

INGREDIENTS = ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather")


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cycle(rng: random.Random) -> list[str]:
    """One experiment scanned from the shelf, then menu moves back to the same line."""
    first, second = rng.sample(INGREDIENTS, 2)
    return [
        "press ok",
        "expect ScanPromptView",
        f"shelf {first} {second}",
        "press ok",
        "expect PotionView",
        "press ok",
        "shelf clear",
        "press down", "press down", "press down", "press up", "press up", "press up",
        "expect MenuView selected=0",
    ]


def play(kit: object, command: str, misreads: list[str]) -> None:
    """One script command; a pair the reader could not settle on is laid again (counted)."""
    play_script(kit, command)
    if not command.startswith("shelf ") or command == "shelf clear":
        return
    for _ in range(3):
        if type(kit.daemon.ui.view()).__name__ == "ScanConfirmView":  # type: ignore[attr-defined]
            return
        misreads.append(command)
        play_script(kit, "shelf clear")
        play_script(kit, command)
    play_script(kit, "expect ScanConfirmView")


def soak(tmp_path: Path, cycles: int, seed: int = 5) -> dict[str, float]:
    rng = random.Random(seed)
    kit = make_kit(tmp_path / "state")
    kit.start()
    step_times: list[float] = []
    misreads: list[str] = []
    figures: dict[str, float] = {}
    try:
        kit.daemon.protocol.handle("new")
        kit.daemon.drain()
        warm = max(1, cycles // 10)
        for number in range(cycles):
            if number == warm:
                tracemalloc.start()
            if number == 2 * warm:  # traced from the warm-up on; measured from here, in steady state
                gc.collect()
                figures.update(fds_start=open_fds(), threads_start=threading.active_count(),
                               rss_start=rss_mb(), traced_start=tracemalloc.get_traced_memory()[0])
                baseline = tracemalloc.take_snapshot()
            if number % 100 == 99:  # a fresh game now and then: a game's own log may grow
                assert "code" in kit.daemon.protocol.handle("new")
                kit.daemon.drain()
            for command in cycle(rng):
                started = time.perf_counter()
                play(kit, command, misreads)
                step_times.append(time.perf_counter() - started)
        gc.collect()
        figures.update(fds_end=open_fds(), threads_end=threading.active_count(), rss_end=rss_mb(),
                       traced_end=tracemalloc.get_traced_memory()[0])
        snapshot = tracemalloc.take_snapshot()
        tracemalloc.stop()
        own = [tracemalloc.Filter(False, __file__)]  # the test's own list of step times
        growth = snapshot.filter_traces(own).compare_to(baseline.filter_traces(own), "lineno")
        figures["kit_growth_kb"] = sum(stat.size_diff for stat in growth) / 1024
        print("\n".join(str(stat) for stat in growth[:8]))
        assert kit.session.status()["storage"] == "disk"
    finally:
        if tracemalloc.is_tracing():
            tracemalloc.stop()
        kit.stop()
    window = min(1000, len(step_times) // 3)
    first, last = step_times[:window], step_times[-window:]
    figures.update(steps=len(step_times), scans=cycles, misreads=len(misreads), first_ms=1000 * sum(first) / window,
                   last_ms=1000 * sum(last) / window)
    figures["slowdown"] = figures["last_ms"] / figures["first_ms"]
    figures["traced_growth_kb"] = (figures["traced_end"] - figures["traced_start"]) / 1024
    print("soak:", {key: round(value, 2) for key, value in figures.items()}, "misread:", misreads[:10])
    return figures


def check(figures: dict[str, float], memory_kb: float) -> None:
    assert figures["fds_end"] - figures["fds_start"] <= 3, figures
    assert figures["threads_end"] - figures["threads_start"] <= 2, figures
    assert figures["kit_growth_kb"] < memory_kb, figures
    assert figures["rss_end"] - figures["rss_start"] < 64, figures
    assert figures["slowdown"] < 3.0, figures
    assert figures["misreads"] <= max(2, figures["scans"] / 50), figures


def test_a_short_run_leaks_no_files_or_threads(tmp_path: Path) -> None:
    figures = soak(tmp_path, cycles=6)
    assert figures["fds_end"] - figures["fds_start"] <= 3, figures
    assert figures["threads_end"] - figures["threads_start"] <= 2, figures


@pytest.mark.slow
def test_thousands_of_scans_and_menu_moves(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)  # the test harness would keep every INFO record it captured
    check(soak(tmp_path, cycles=int(os.environ.get("LABKIT_SOAK_CYCLES", "700"))), memory_kb=1024)
