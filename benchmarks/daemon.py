"""Daemon figures: cold start to the ready screen, resident memory, button and card latency.

    ./dev bench daemon [--presses 200] [--scans 20]

Runs the real simulator kit (replay camera with rendered cards, the real card reader, luma's dummy
display, a SQLite state directory) in a child process, so the cold start includes Python's start
and every import. Prints the figures; the README quotes them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH_PIN = "2468"  # any PIN: the configuration of this run only
#: a screen the run waits for that takes longer than this stops it with the screen named (a
#: benchmark that hangs measures nothing: this one hung on the locked console, issue 16)
SCREEN_TIMEOUT = 30.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def wait_until(condition: Callable[[], bool], what: str, pause: float) -> None:
    """Poll ``condition`` every ``pause`` s; stop the run naming ``what`` after ``SCREEN_TIMEOUT``."""
    deadline = time.monotonic() + SCREEN_TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"daemon benchmark: {what} not within {SCREEN_TIMEOUT:.0f} s")
        time.sleep(pause)


def tap(kit: object, button: str) -> None:
    from firmware.ui.base import ButtonPress

    kit.daemon.post_button(ButtonPress(button, "press"))  # type: ignore[attr-defined]
    kit.daemon.post_button(ButtonPress(button, "release"))  # type: ignore[attr-defined]


def go_home(kit: object) -> None:
    from firmware.ui.base import ButtonPress

    for kind in ("press", "hold", "release"):
        kit.daemon.post_button(ButtonPress("back", kind))  # type: ignore[attr-defined]


def learn_the_empty_shelf(kit: object) -> None:
    """A kit in use has learned its empty shelf (a new one names no card before it has)."""
    from drivers.card_reader.shelf import EmptyShelf
    from firmware.simulator import empty_shelf_frame

    kit.camera_worker.reader.empty_shelf = EmptyShelf(empty_shelf_frame())  # type: ignore[attr-defined]


def child(state_dir: str, presses: int, scans: int, started: float) -> None:
    sys.path.insert(0, str(ROOT))
    from firmware.config import load_config
    from firmware.runtime import RunOptions, build_kit

    # the console starts locked (issue 16): the benchmark is the staff's script, unlocked by PIN
    config = load_config(None, {"storage.state_dir": state_dir, "console.pin": BENCH_PIN})
    kit = build_kit(config, RunOptions(simulate=True, headless=True), Path(state_dir))
    learn_the_empty_shelf(kit)
    shown: list[float] = []
    display = kit.daemon.display
    original_show = display.show

    def timed_show(image: object) -> None:
        original_show(image)
        shown.append(time.perf_counter())

    display.show = timed_show  # type: ignore[method-assign]
    for line in (f"unlock {BENCH_PIN}", "restore DEMO"):   # before the loop runs: no notice on the screen
        reply = kit.daemon.protocol.handle(line)
        if "error" in reply:
            raise SystemExit(f"daemon benchmark: {line.split()[0]!r} refused: {reply['error']}")
    kit.daemon.protocol.gate.take_events()
    ready = threading.Event()
    kit.daemon.on_ready = ready.set
    kit.start()
    stop = threading.Event()
    loop = threading.Thread(target=kit.daemon.run, args=(stop,))
    loop.start()
    ready.wait(30)
    cold_start = time.time() - started

    button_ms = []
    for number in range(presses):
        before = len(shown)
        posted = time.perf_counter()
        tap(kit, "up" if number % 2 else "down")
        wait_until(lambda: len(shown) > before, "a screen drawn after a button press", 0.0005)
        button_ms.append((shown[-1] - posted) * 1000)

    card_ms, stable_ms = [], []
    go_home(kit)
    for number in range(scans):
        kit.shelf.clear()
        time.sleep(0.2)
        tap(kit, "ok")  # experiment: lay two cards
        time.sleep(0.2)
        before = len(shown)
        laid = time.perf_counter()
        kit.shelf.lay(["mushroom", "toad"] if number % 2 else ["fern", "claw"])
        wait_until(lambda: type(kit.daemon.ui.view()).__name__ == "ScanConfirmView", "the cards' check screen",
                   0.001)
        wait_until(lambda: len(shown) > before, "a screen drawn after the cards", 0.001)
        card_ms.append((shown[-1] - laid) * 1000)
        stable_ms.append(kit.daemon.last_shelf_latency_ms)
        go_home(kit)
        time.sleep(0.1)
    memory = rss_mb()
    stop.set()
    loop.join()
    kit.stop()
    print(json.dumps({
        "cold_start_s": cold_start,
        "rss_mb": memory,
        "button_ms": button_ms,
        "card_ms": card_ms,
        "stable_to_screen_ms": [value for value in stable_ms if value is not None],
    }))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--scans", type=int, default=20)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.presses, args.scans, float(args.child[1]))
        return
    with tempfile.TemporaryDirectory() as state:
        started = time.time()
        done = subprocess.run(
            [sys.executable, __file__, "--presses", str(args.presses), "--scans", str(args.scans),
             "--child", state, str(started)],
            capture_output=True, text=True, check=True,
        )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"cold start to the ready screen: {figures['cold_start_s']:.2f} s (target < 2 s)")
    print(f"resident memory after the run:  {figures['rss_mb']:.0f} MB (target < 150 MB)")
    for label, key, target in (("button press to screen", "button_ms", 50),
                               ("stable card pair to screen", "stable_to_screen_ms", 300),
                               ("cards laid to screen (incl. reading)", "card_ms", None)):
        values = figures[key]
        if not values:
            continue
        goal = f" (target < {target} ms)" if target else ""
        print(f"{label}: median {statistics.median(values):.1f} ms, p95 {pct(values, 0.95):.1f} ms,"
              f" max {max(values):.1f} ms over {len(values)}{goal}")


if __name__ == "__main__":
    main()
