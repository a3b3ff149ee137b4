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
    return ConsoleProtocol(GameSession(MemoryStore()), lambda: ShelfReading("empty"))


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
