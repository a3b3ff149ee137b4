"""The serial console's transport: lines of text over any pyserial port or URL.

``open_console(url)`` opens it with ``serial.serial_for_url``, so a real port (``/dev/ttyAMA0``,
``/dev/serial0``), the USB gadget port (``/dev/ttyGS0``), a pty path (the simulator) and
``loop://`` (tests) all work. Wiring for a real port: the Pi's UART on GPIO14 (TXD, pin 8) and
GPIO15 (RXD, pin 10), ground on pin 6, 3.3 V levels, 115200 8N1, with the login console disabled.
Only lines travel here; the command language and its JSON replies are the firmware's.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_BAUDRATE = 115200
MAX_LINE_BYTES = 512
READ_POLL = 0.05  # the port's read timeout: how late read_line may notice its deadline
# A write waits at most this long for room in the port's buffer (a host that stopped reading): then
# the line is given up (ConsoleError) and the console thread goes on.
WRITE_TIMEOUT = 2.0
#: A partial line idle this long is dropped: a bare line end later must not complete it (a
#: terminal sends each key as typed; a person pauses a second, not two).
PARTIAL_LINE_IDLE = 2.0


class ConsoleError(OSError):
    """The port failed: it cannot be opened, or it vanished (a USB cable pulled)."""


class LineTooLong(ValueError):
    """A line exceeded the limit; its start is kept in ``prefix``, the rest is being dropped."""

    kind = "line_too_long"

    def __init__(self, limit: int, prefix: str) -> None:
        super().__init__(f"line longer than {limit} bytes (starting {prefix[:40]!r})")
        self.limit = limit
        self.prefix = prefix


class PartialLineDropped(ValueError):
    """A partial line stayed without its end for ``idle`` seconds and was dropped."""

    kind = "partial_line_dropped"

    def __init__(self, idle: float, prefix: str) -> None:
        super().__init__(f"a partial line without a line end for {idle:g} s was dropped"
                         f" (starting {prefix[:40]!r})")
        self.prefix = prefix


class LineChannel:
    """Lines in and out over an open pyserial port; reads never block longer than asked.

    Incoming lines end at LF (a CR before it, or a lone CR from a terminal's Enter, also ends a
    line and is dropped); bytes are decoded as UTF-8 with invalid sequences replaced. A line longer
    than ``max_line`` bytes raises ``LineTooLong`` once, as soon as it is detected, and the rest
    of that line is dropped as it arrives: memory stays bounded whatever the other end sends.
    A partial line that gets no byte for ``partial_idle`` seconds raises ``PartialLineDropped``
    and is forgotten.
    Outgoing lines end with ``newline`` (default CR LF, which every terminal shows right) and are
    handed to the port's buffer, never drained: pyserial's ``flush()`` is ``tcdrain``, which has no
    timeout and on the USB gadget port (``/dev/ttyGS0``) waits until a USB host connects. A port
    without a write timeout gets ``WRITE_TIMEOUT``, so a full buffer cannot hang the writer either.
    ``read_line`` is for one reader thread; ``write_line`` may be called from others.
    """

    def __init__(self, port: Any, *, name: str | None = None, max_line: int = MAX_LINE_BYTES,
                 newline: str = "\r\n", partial_idle: float = PARTIAL_LINE_IDLE) -> None:
        self.port = port
        self.partial_idle = partial_idle
        self._last_byte = time.monotonic()
        if not getattr(port, "timeout", None):  # None would block reads forever, 0 would spin
            port.timeout = READ_POLL
        if getattr(port, "write_timeout", WRITE_TIMEOUT) is None:
            port.write_timeout = WRITE_TIMEOUT
        self.name = name or str(getattr(port, "port", None) or "console")
        self.max_line = max_line
        self.newline = newline
        self._buffer = bytearray()
        self._discarding = False
        self._after_cr = False
        self._write_lock = threading.Lock()
        self._closed = False

    def _fail(self, what: str, exc: BaseException) -> ConsoleError:
        return ConsoleError(f"console {self.name}: {what} failed: {exc}")

    def _take_line(self) -> str | None:
        """A complete line from the buffer, or None; raises LineTooLong for an overlong one."""
        while True:
            if self._after_cr and self._buffer[:1] == b"\n":
                del self._buffer[:1]  # the LF of a CR LF pair
            self._after_cr = False
            cut = -1
            for i, byte in enumerate(self._buffer):
                if byte in (0x0A, 0x0D):
                    cut = i
                    break
            if cut < 0:
                if self._discarding:
                    self._buffer.clear()
                elif len(self._buffer) > self.max_line:
                    prefix = bytes(self._buffer[: self.max_line])
                    self._buffer.clear()
                    self._discarding = True
                    raise LineTooLong(self.max_line, prefix.decode("utf-8", errors="replace"))
                return None
            raw = bytes(self._buffer[:cut])
            self._after_cr = self._buffer[cut] == 0x0D
            del self._buffer[: cut + 1]
            if self._discarding:
                self._discarding = False
                continue
            if len(raw) > self.max_line:
                raise LineTooLong(self.max_line, raw[: self.max_line].decode("utf-8", "replace"))
            return raw.decode("utf-8", errors="replace")

    def read_line(self, timeout: float | None = None) -> str | None:
        """The next line without its end, or None if none completed within ``timeout`` seconds
        (None: wait as long as it takes; the wait may overrun by the port's own read timeout,
        0.05 s from ``open_console``). ``LineTooLong`` for an overlong line, ``ConsoleError``
        if the port vanished."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._buffer and not self._discarding and time.monotonic() - self._last_byte > self.partial_idle:
                prefix = bytes(self._buffer).decode("utf-8", errors="replace")
                self._buffer.clear()
                raise PartialLineDropped(self.partial_idle, prefix)
            if self._closed:
                raise ConsoleError(f"console {self.name}: closed")
            try:
                waiting = self.port.in_waiting
                if waiting:
                    data = self.port.read(min(waiting, 4096))
                elif deadline is not None and time.monotonic() >= deadline:
                    return None
                else:
                    data = self.port.read(1)  # waits at most the port's short timeout
            except Exception as exc:  # serial.SerialException is an OSError; others from pty
                raise self._fail("read", exc) from exc
            if data:
                self._last_byte = time.monotonic()
            self._buffer += data

    def write_line(self, text: str) -> None:
        """Send ``text`` and a line end; ``ConsoleError`` if the port vanished or is stuck."""
        if "\n" in text or "\r" in text:
            raise ValueError(f"console {self.name}: a line to send contains a line break: "
                             f"{text[:40]!r}")
        data = (text + self.newline).encode("utf-8", errors="replace")
        with self._write_lock:
            if self._closed:
                raise ConsoleError(f"console {self.name}: closed")
            try:
                self.port.write(data)  # no flush(): that is tcdrain, unbounded
            except Exception as exc:  # SerialTimeoutException, SerialException, OSError
                raise self._fail("write", exc) from exc

    def close(self) -> None:
        """Close the port; safe to call twice, even when the port is already gone."""
        self._closed = True
        try:
            self.port.close()
        except Exception as exc:
            log.warning("console %s: close failed: %s", self.name, exc)

    def __enter__(self) -> LineChannel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<LineChannel {self.name!r}>"


def open_console(url: str, baudrate: int = DEFAULT_BAUDRATE, *, max_line: int = MAX_LINE_BYTES,
                 write_timeout: float = WRITE_TIMEOUT, newline: str = "\r\n") -> LineChannel:
    """A ``LineChannel`` on ``url`` (a port path or a pyserial URL such as ``loop://``).

    ``write_timeout`` keeps a host that stopped reading from blocking the kit. ``ConsoleError``
    names the port when it cannot be opened; ``ValueError`` an unknown URL scheme or baud rate.
    """
    import serial  # type: ignore[import-untyped]

    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=READ_POLL,
                                     write_timeout=write_timeout)
    except ValueError as exc:  # an unknown URL scheme or a bad baud rate: configuration
        raise ValueError(f"console {url}: {exc}") from exc
    except (serial.SerialException, OSError) as exc:
        raise ConsoleError(f"console {url}: cannot open: {exc}") from exc
    return LineChannel(port, name=url, max_line=max_line, newline=newline)


__all__ = ["ConsoleError", "DEFAULT_BAUDRATE", "LineChannel", "LineTooLong", "MAX_LINE_BYTES",
           "PARTIAL_LINE_IDLE", "PartialLineDropped", "WRITE_TIMEOUT", "open_console"]
