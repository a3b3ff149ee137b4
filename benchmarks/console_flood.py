"""How fast ``status`` answers while console lines that read the shelf flood the daemon.

    ./dev bench console_flood [--seconds 10] [--rate 100] [--blocking]

Runs the simulator kit in this process (replay camera with two rendered cards, the real card
reader, luma's dummy display, a SQLite state directory), its loop and camera threads. Four clients
send ``scan``, ``mix``, ``sell R+`` and ``exhibit R+`` at ``--rate`` lines a second in all, while
one more asks ``status`` every 50 ms; prints the status replies' latency and how many shelf lines
were answered. ``--blocking`` answers shelf lines on the loop's thread, waiting for the camera (as
the daemon did before the loop stopped waiting), for comparison. Target: status within 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHELF_LINES = ("scan", "mix", "sell R+", "exhibit R+")
STATUS_EVERY = 0.05  # a status line every 50 ms: 20 samples a second
BENCH_PIN = "2468"  # any PIN: the configuration of this run only


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=100.0, help="shelf lines a second, all clients together")
    parser.add_argument("--blocking", action="store_true", help="answer shelf lines on the loop, waiting for the camera")
    args = parser.parse_args()

    from drivers.card_reader.shelf import EmptyShelf
    from firmware.config import load_config
    from firmware.runtime import RunOptions, build_kit
    from firmware.simulator import empty_shelf_frame

    with tempfile.TemporaryDirectory() as state:
        # the console starts locked (issue 16): the benchmark is the staff's script, unlocked by PIN
        config = load_config(None, {"storage.state_dir": state, "console.pin": BENCH_PIN})
        kit = build_kit(config, RunOptions(simulate=True, headless=True), Path(state))
        # a kit in use has learned its empty shelf (before, it names no card)
        kit.camera_worker.reader.empty_shelf = EmptyShelf(empty_shelf_frame())  # type: ignore[attr-defined]
        if args.blocking:
            kit.daemon.camera = None  # the protocol's read_shelf (camera_worker.read_now) on the loop
        assert kit.shelf is not None
        kit.shelf.lay(["fern", "toad"])
        kit.start()
        stop = threading.Event()
        loop = threading.Thread(target=kit.daemon.run, args=(stop,))
        loop.start()
        assert "error" not in kit.daemon.ask_console(f"unlock {BENCH_PIN}")
        assert kit.daemon.ask_console("restore DEMO").get("code") == "DEMO"
        ends = time.monotonic() + args.seconds
        shelf_answered: list[float] = []
        status_ms: list[float] = []
        busy = [0]

        def flood(line: str) -> None:
            interval = len(SHELF_LINES) / args.rate
            next_at = time.monotonic()
            while time.monotonic() < ends:
                sent = time.perf_counter()
                reply = kit.daemon.ask_console(line)
                kind = reply.get("error", {}).get("kind")  # type: ignore[union-attr]
                if kind == "busy":
                    busy[0] += 1
                elif kind is not None:  # a refusal answers at once and would flatter the figures
                    raise AssertionError(f"{line!r} refused: {reply}")
                shelf_answered.append((time.perf_counter() - sent) * 1000)
                next_at += interval
                time.sleep(max(0.0, next_at - time.monotonic()))

        def ask_status() -> None:
            while time.monotonic() < ends:
                sent = time.perf_counter()
                reply = kit.daemon.ask_console("status")
                status_ms.append((time.perf_counter() - sent) * 1000)
                assert reply.get("questions") is not None, reply
                time.sleep(STATUS_EVERY)

        clients = [threading.Thread(target=flood, args=(line,)) for line in SHELF_LINES]
        clients.append(threading.Thread(target=ask_status))
        for client in clients:
            client.start()
        for client in clients:
            client.join()
        stop.set()
        loop.join()
        kit.stop()

    mode = "blocking (shelf lines wait for the camera on the loop)" if args.blocking else "message passing"
    print(f"{mode}: {args.rate:.0f} shelf lines/s asked by {len(SHELF_LINES)} clients for {args.seconds:.0f} s")
    print(f"shelf lines answered: {len(shelf_answered)} ({len(shelf_answered) / args.seconds:.1f}/s),"
          f" median {statistics.median(shelf_answered):.0f} ms, p95 {pct(shelf_answered, 0.95):.0f} ms, busy {busy[0]}")
    print(f"status: {len(status_ms)} replies, median {statistics.median(status_ms):.1f} ms,"
          f" p95 {pct(status_ms, 0.95):.1f} ms, max {max(status_ms):.1f} ms (target < 50 ms)")


if __name__ == "__main__":
    main()
