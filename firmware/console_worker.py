"""The serial console loop: read a line, have the daemon answer it, write one JSON line back.

Runs on its own thread. The daemon answers on its own thread (through ``ask``), so the console and
the buttons never race on the game. A vanished port is reported, retried with back-off, reopened.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.questions import PlainData

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
READ_TIMEOUT = 0.2
#: Lines answered per second, sustained, and in a burst: a person or a script stays far below,
#: a flood is slowed to this pace (its lines wait in the port's buffer, never in memory here).
RATE_PER_SECOND = 20.0
RATE_BURST = 40
#: The longest reply sent; a history page (50 entries) is about 4 KB, a reveal under 400 bytes.
MAX_REPLY_CHARS = 16 * 1024
#: After a wrong PIN the next line waits this long, doubling with each wrong PIN up to the cap.
PIN_DELAY_FIRST = 1.0
PIN_DELAY_MAX = 60.0


class RateLimit:
    """A token bucket: ``wait_time()`` says how long the next line must wait (0: go)."""

    def __init__(self, per_second: float = RATE_PER_SECOND, burst: int = RATE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second, self.burst, self.clock = per_second, burst, clock
        self.tokens = float(burst)
        self.updated = clock()

    def wait_time(self) -> float:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.updated) * self.per_second)
        self.updated = now
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.per_second

    def take(self) -> None:
        self.tokens -= 1.0


class ConsoleWorker:
    """Serves one console port: ``open_channel()`` gives a line channel (see ``drivers.console``)."""

    def __init__(
        self,
        open_channel: Callable[[], Any],
        ask: Callable[[str], PlainData],
        post_fault: Callable[[str, str | None], None],
        too_long_error: type[BaseException] | tuple[type[BaseException], ...] | None = None,
        rate: RateLimit | None = None,
    ) -> None:
        self.open_channel = open_channel
        self.ask = ask
        self.post_fault = post_fault
        self.too_long_error = too_long_error
        self.rate = rate or RateLimit()
        self.pin_delay = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._channel: Any = None
        self._failed = False
        self._notices: queue.SimpleQueue[PlainData] = queue.SimpleQueue()
        self.connected = threading.Event()

    def notify(self, notice: PlainData) -> None:
        """Send an unsolicited line (e.g. the display failed) after the current read."""
        self._notices.put(notice)

    def start(self) -> None:
        """Start serving on a thread."""
        self._thread = threading.Thread(target=self._run, name="console", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop serving and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._close()

    def _run(self) -> None:
        backoff = BACKOFF_FIRST
        while not self._stop.is_set():
            try:
                if self._channel is None:
                    self._channel = self.open_channel()
                    self.connected.set()
                    if self._failed:
                        self._failed = False
                        log.info("the console port is back")
                        self.post_fault("console", None)
                self._serve_one()
                backoff = BACKOFF_FIRST
            except OSError as error:
                if not self._failed:
                    self._failed = True
                    log.error("console port failed: %s; retrying", error)
                    self.post_fault("console", str(error))
                self._close()
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)

    def _serve_one(self) -> None:
        while not self._notices.empty():
            self._reply(self._notices.get())
        try:
            line = self._channel.read_line(READ_TIMEOUT)
        except Exception as error:
            if self.too_long_error is not None and isinstance(error, self.too_long_error):
                kind = getattr(error, "kind", "line_too_long")
                self._reply({"error": {"kind": kind, "message": str(error)}})
                return
            raise
        if line is None:
            return
        if not line.strip(" \t"):
            return
        self._pace()
        reply = self.ask(line)
        self._reply(reply)
        self._after_pin(reply)

    def _pace(self) -> None:
        """Wait for the rate limit (on this thread: the daemon's loop never waits for it)."""
        wait = self.rate.wait_time()
        while wait > 0 and not self._stop.is_set():
            self._stop.wait(wait)
            wait = self.rate.wait_time()
        self.rate.take()

    def _after_pin(self, reply: PlainData) -> None:
        """A wrong PIN slows the next try: a delay doubling up to PIN_DELAY_MAX; a right one resets it."""
        error = reply.get("error")
        if isinstance(error, dict) and error.get("kind") == "wrong_pin":
            self.pin_delay = min(max(self.pin_delay * 2, PIN_DELAY_FIRST), PIN_DELAY_MAX)
            log.warning("console: wrong PIN; the next line waits %.0f s", self.pin_delay)
            self._stop.wait(self.pin_delay)
        elif reply.get("console") == "unlocked":
            self.pin_delay = 0.0

    def _reply(self, reply: PlainData) -> None:
        text = json.dumps(reply, ensure_ascii=False)
        if len(text) > MAX_REPLY_CHARS:
            log.warning("console: a %d-character reply withheld", len(text))
            text = json.dumps({"error": {"kind": "reply_too_long", "message":
                                         f"the reply is longer than {MAX_REPLY_CHARS} characters;"
                                         " ask for less (history FROM pages)"}})
        self._channel.write_line(text)

    def _close(self) -> None:
        self.connected.clear()
        channel, self._channel = self._channel, None
        if channel is not None:
            try:
                channel.close()
            except OSError:
                pass
