"""The serial console end to end: a real pty and pyserial's loop://, one JSON reply per line."""

from __future__ import annotations

import json
import os
import select
import time
import tty

import pytest

from drivers.console import LineTooLong, open_console
from firmware.console import ConsoleProtocol, ShelfReading
from firmware.console_worker import ConsoleWorker
from firmware.session import GameSession
from firmware.store import MemoryStore


def protocol() -> ConsoleProtocol:
    """A console unlocked with its PIN (the lock itself: test_console_lock.py)."""
    console = ConsoleProtocol(GameSession(MemoryStore()), lambda: ShelfReading("empty"), pin="4711")
    console.handle("unlock 4711")
    return console


class Pty:
    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a serial line does not echo, even before the kit opens it
        self.path = os.ttyname(self.slave)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def reply(self, timeout: float = 5.0) -> dict[str, object]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no reply; got {self.buffer!r}"
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                self.buffer += os.read(self.master, 4096)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line.decode())

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty() -> Pty:
    terminal = Pty()
    yield terminal
    terminal.close()


def test_a_game_over_a_real_pty(pty: Pty) -> None:
    console = protocol()
    worker = ConsoleWorker(lambda: open_console(pty.path), console.handle, lambda part, message: None, LineTooLong)
    worker.start()
    try:
        assert worker.connected.wait(5)  # opening a port flushes what arrived before
        pty.send(b"restore DEMO\r\n")
        assert pty.reply() == {"code": "DEMO", "golem": False}
        pty.send(b"mix mushroom toad\n")
        assert pty.reply() == {"potion": "R+"}
        pty.send(b"\xff\xfe\x00 nonsense\n")
        assert pty.reply()["error"]["kind"] == "bad_command"  # type: ignore[index]
        pty.send(b"x" * 2000 + b"\nstatus\n")
        assert pty.reply()["error"]["kind"] == "line_too_long"  # type: ignore[index]
        assert pty.reply()["code"] == "DEMO"
        worker.notify({"notice": {"part": "display", "message": "gone"}})
        pty.send(b"history\n")
        lines = [pty.reply(), pty.reply()]  # a notice goes out between reads: before or after
        assert {"notice": {"part": "display", "message": "gone"}} in lines
        assert [len(line["history"]) for line in lines if "history" in line] == [1]  # type: ignore[arg-type]
    finally:
        worker.stop()


def test_loop_url_round_trip() -> None:
    channel = open_console("loop://")
    channel.write_line("help")
    assert channel.read_line(1.0) == "help"
    assert "commands" in protocol().handle(channel.read_line(0.1) or "help")
    channel.close()


def test_a_vanished_port_is_reported_and_reopened(expected_errors) -> None:
    expected_errors.expect("console port failed")
    faults: list[tuple[str, str | None]] = []
    attempts = {"count": 0}
    pty = Pty()

    def opener():  # type: ignore[no-untyped-def]
        attempts["count"] += 1
        if attempts["count"] <= 2:
            raise OSError(2, "No such file or directory: '/dev/ttyGS0'")
        return open_console(pty.path)

    console = protocol()
    worker = ConsoleWorker(opener, console.handle, lambda part, message: faults.append((part, message)), LineTooLong)
    worker.start()
    try:
        assert worker.connected.wait(10)
        pty.send(b"restore DEMO\n")
        assert pty.reply(timeout=10) == {"code": "DEMO", "golem": False}
        assert faults[0][0] == "console" and "ttyGS0" in str(faults[0][1])
        assert faults[-1] == ("console", None)
        assert len(faults) == 2
    finally:
        worker.stop()
        pty.close()


def test_a_partial_line_is_dropped_after_the_idle_time_and_a_late_newline_completes_nothing(pty: Pty) -> None:
    from drivers.console import PartialLineDropped

    console = protocol()
    console.handle("restore DEMO")
    worker = ConsoleWorker(lambda: open_console(pty.path), console.handle, lambda part, message: None,
                           (LineTooLong, PartialLineDropped))
    worker.start()
    try:
        assert worker.connected.wait(5)
        pty.send(b"new golem")
        reply = pty.reply(timeout=10)
        assert reply["error"]["kind"] == "partial_line_dropped" and "new golem" in reply["error"]["message"]  # type: ignore[index]
        pty.send(b"\nstatus\n")  # the bare line end completes nothing: the next reply is the status's
        assert pty.reply()["code"] == "DEMO"
        assert console.session.game is not None and console.session.game.code == "DEMO"
    finally:
        worker.stop()


def test_a_flood_is_paced_by_the_rate_limit() -> None:
    from firmware.console_worker import RateLimit

    now = [0.0]
    rate = RateLimit(per_second=10, burst=3, clock=lambda: now[0])
    waits = []
    for _ in range(5):
        waits.append(rate.wait_time())
        if waits[-1] == 0:
            rate.take()
    assert waits[:3] == [0.0, 0.0, 0.0] and waits[3] == pytest.approx(0.1)
    now[0] += 0.1
    assert rate.wait_time() == 0.0


def test_a_wrong_pin_slows_the_next_line_more_each_time(pty: Pty) -> None:
    from firmware.console_worker import PIN_DELAY_FIRST

    console = ConsoleProtocol(GameSession(MemoryStore()), lambda: ShelfReading("empty"), pin="4711")
    worker = ConsoleWorker(lambda: open_console(pty.path), console.handle, lambda part, message: None, LineTooLong)
    worker.start()
    try:
        assert worker.connected.wait(5)
        times = []
        for pin in ("0000", "1111", "4711"):
            pty.send(f"unlock {pin}\n".encode())
            times.append(time.monotonic())
            pty.reply(timeout=10)
        pty.send(b"help\n")
        pty.reply(timeout=10)
        answered = time.monotonic()
        # the second try waited the first delay, the third twice that
        assert times[1] - times[0] < 1 and answered - times[0] >= 3 * PIN_DELAY_FIRST
        assert worker.pin_delay == 0.0 and console.gate.state() == "unlocked"
    finally:
        worker.stop()


def test_a_reply_over_the_cap_is_replaced_by_an_error(pty: Pty) -> None:
    from firmware.console_worker import MAX_REPLY_CHARS

    worker = ConsoleWorker(lambda: open_console(pty.path),
                           lambda line: {"history": ["x" * MAX_REPLY_CHARS]}, lambda part, message: None)
    worker.start()
    try:
        assert worker.connected.wait(5)
        pty.send(b"history\n")
        assert pty.reply()["error"]["kind"] == "reply_too_long"  # type: ignore[index]
    finally:
        worker.stop()
