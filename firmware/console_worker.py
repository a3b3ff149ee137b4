"""The serial console loop: read a line, have the daemon answer it, write one JSON line back.

Runs on its own thread. The daemon answers on its own thread (through ``ask``), so the console and
the buttons never race on the game. A vanished port is reported, retried with back-off, reopened.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from engine.questions import PlainData

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
READ_TIMEOUT = 0.2


class ConsoleWorker:
    """Serves one console port: ``open_channel()`` gives a line channel (see ``drivers.console``)."""

    def __init__(
        self,
        open_channel: Callable[[], Any],
        ask: Callable[[str], PlainData],
        post_fault: Callable[[str, str | None], None],
        too_long_error: type[BaseException] | None = None,
    ) -> None:
        self.open_channel = open_channel
        self.ask = ask
        self.post_fault = post_fault
        self.too_long_error = too_long_error
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
                self._reply({"error": {"kind": "line_too_long", "message": str(error)}})
                return
            raise
        if line is None:
            return
        if not line.strip():
            return
        self._reply(self.ask(line))

    def _reply(self, reply: PlainData) -> None:
        self._channel.write_line(json.dumps(reply, ensure_ascii=False))

    def _close(self) -> None:
        self.connected.clear()
        channel, self._channel = self._channel, None
        if channel is not None:
            try:
                channel.close()
            except OSError:
                pass
