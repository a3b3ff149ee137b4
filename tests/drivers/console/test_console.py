"""The console transport over loop:// and a real pty."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.console import WRITE_TIMEOUT, ConsoleError, LineChannel, LineTooLong, open_console


class ChunkPort:
    """A port that hands out given chunks of bytes, then nothing."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)
        self.timeout: float | None = 0.1
        self.written = b""

    @property
    def in_waiting(self) -> int:
        return len(self.chunks[0]) if self.chunks else 0

    def read(self, size: int) -> bytes:
        if not self.chunks:
            return b""
        chunk = self.chunks[0]
        data, rest = chunk[:size], chunk[size:]
        if rest:
            self.chunks[0] = rest
        else:
            self.chunks.pop(0)
        return data

    def close(self) -> None:
        pass


@pytest.fixture
def loop() -> Iterator[LineChannel]:
    channel = open_console("loop://")
    yield channel
    channel.close()


def test_loop_round_trip(loop: LineChannel) -> None:
    loop.write_line("status")
    loop.write_line('mix {"a": "wörld"}')
    assert loop.read_line(timeout=1) == "status"
    assert loop.read_line(timeout=1) == 'mix {"a": "wörld"}'
    assert loop.read_line(timeout=0) is None
    assert loop.read_line(timeout=0.01) is None


def test_line_ends_crlf_lf_and_lone_cr(loop: LineChannel) -> None:
    loop.port.write(b"one\r\ntwo\nthree\rfour\r\n\r\nfive")
    assert [loop.read_line(1) for _ in range(5)] == ["one", "two", "three", "four", ""]
    assert loop.read_line(0.01) is None  # "five" has no end yet
    loop.port.write(b"\n")
    assert loop.read_line(1) == "five"


def test_invalid_utf8_is_replaced(loop: LineChannel) -> None:
    loop.port.write(b"caf\xc3\xa9 \xff\xfe ok\n")
    assert loop.read_line(1) == "café \ufffd\ufffd ok"


def test_overlong_line_raises_once_and_the_next_line_is_fine() -> None:
    channel = LineChannel(ChunkPort([b"x" * 600, b"y" * 600, b"\nnext\n"]), max_line=512)
    with pytest.raises(LineTooLong, match="longer than 512 bytes") as caught:
        channel.read_line(0)
    assert caught.value.prefix == "x" * 512
    assert channel.read_line(0) == "next"
    assert len(channel._buffer) == 0


def test_overlong_complete_line_in_one_chunk() -> None:
    channel = LineChannel(ChunkPort([b"a" * 20 + b"\nok\n"]), max_line=10)
    with pytest.raises(LineTooLong):
        channel.read_line(0)
    assert channel.read_line(0) == "ok"
    assert isinstance(LineTooLong(1, ""), ValueError)


def test_flood_without_line_ends_stays_bounded() -> None:
    channel = LineChannel(ChunkPort([b"z" * 4096] * 50), max_line=512)
    with pytest.raises(LineTooLong):
        channel.read_line(0)
    assert channel.read_line(0) is None
    assert len(channel._buffer) <= 4096 + 512


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_any_bytes_give_lines_or_line_too_long(chunks: list[bytes]) -> None:
    channel = LineChannel(ChunkPort(chunks), max_line=64)
    for _ in range(sum(len(c) for c in chunks) + 2):
        try:
            line = channel.read_line(0)
        except LineTooLong:
            continue
        if line is None:
            break
        assert "\n" not in line and "\r" not in line
        assert len(line) <= 64
        assert len(channel._buffer) <= 300 + 64 + 1


def test_a_port_without_timeout_gets_a_short_one() -> None:
    port = ChunkPort([])
    port.timeout = None
    LineChannel(port)
    assert port.timeout == 0.05


def test_write_refuses_embedded_line_breaks(loop: LineChannel) -> None:
    with pytest.raises(ValueError, match="line break"):
        loop.write_line("a\nb")


def test_pty_round_trip_and_the_port_vanishing() -> None:
    master, slave = os.openpty()
    path = os.ttyname(slave)
    channel = open_console(path)
    try:
        os.write(master, b"new golem master\r\n")
        assert channel.read_line(timeout=5) == "new golem master"
        channel.write_line('{"ok": true}')
        received = b""
        while not received.endswith(b"\r\n"):
            received += os.read(master, 100)
        assert received.endswith(b'{"ok": true}\r\n')
        os.close(master)
        master = -1
        with pytest.raises(ConsoleError, match=f"console {path}: read failed"):
            channel.read_line(timeout=5)
        assert isinstance(ConsoleError("x"), OSError)
    finally:
        channel.close()
        channel.close()
        if master >= 0:
            os.close(master)
        os.close(slave)


def test_read_after_close(loop: LineChannel) -> None:
    loop.close()
    with pytest.raises(ConsoleError, match="closed"):
        loop.read_line(0)
    with pytest.raises(ConsoleError, match="closed"):
        loop.write_line("x")


def test_open_errors_name_the_port(tmp_path: os.PathLike[str]) -> None:
    with pytest.raises(ConsoleError, match="console /nonexistent/tty: cannot open"):
        open_console("/nonexistent/tty")
    with pytest.raises(ValueError, match="console bogus://x"):
        open_console("bogus://x")


class DrainlessPort(ChunkPort):
    """A port like /dev/ttyGS0 with no USB host: writes land in the buffer, tcdrain never returns."""

    def __init__(self) -> None:
        super().__init__([])
        self.write_timeout: float | None = None
        self.drained = False

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def flush(self) -> None:  # pyserial's flush() is termios.tcdrain()
        self.drained = True
        threading.Event().wait()


def test_a_line_is_written_without_waiting_for_the_host_to_drain_it() -> None:
    port = DrainlessPort()
    channel = LineChannel(port)
    writer = threading.Thread(target=channel.write_line, args=('{"ok": true}',), daemon=True)
    writer.start()
    writer.join(5)
    assert not writer.is_alive() and not port.drained
    assert port.written == b'{"ok": true}\r\n'
    assert port.write_timeout == WRITE_TIMEOUT  # a full buffer is bounded too


def test_a_real_port_nobody_reads_gives_up_a_line_instead_of_hanging() -> None:
    master, slave = os.openpty()
    channel = open_console(os.ttyname(slave), write_timeout=0.2)
    started = time.monotonic()
    try:
        with pytest.raises(ConsoleError, match="write failed"):
            for _ in range(100_000):  # the pty's buffer fills: nobody reads the other end
                channel.write_line("x" * 200)
        assert time.monotonic() - started < 30
    finally:
        channel.close()
        os.close(master)
        os.close(slave)
