"""The camera loop: capture, read the cards, and report shelf events, surviving camera faults.

It runs on its own thread, captures only while the UI waits for cards (or the console asks), and
posts ``Shelf`` events to the daemon. A failing camera is reported once, retried with back-off, and
reported again when it comes back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from firmware.console import ShelfReading
from firmware.ui.base import Shelf

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
CAPTURE_TIMEOUT = 10.0  # a capture that takes longer counts as a stalled camera (a loose cable)


class Reader(Protocol):
    """The part of ``drivers.card_reader.CardReader`` the loop uses."""

    tolerance: float

    def identify(self, frame: Any) -> Any: ...


class CameraWorker:
    """Captures frames on a thread while cards are wanted; turns readings into shelf events."""

    def __init__(
        self,
        camera: Any,
        reader: Reader,
        watcher: Any,
        post_shelf: Callable[[Shelf], None],
        post_fault: Callable[[str, str | None], None],
        cards_wanted: Callable[[], int],
        frame_interval: float = 0.05,
        capture_timeout: float | None = CAPTURE_TIMEOUT,
    ) -> None:
        self.camera = camera
        self.reader = reader
        self.watcher = watcher
        self.post_shelf = post_shelf
        self.post_fault = post_fault
        self.cards_wanted = cards_wanted
        self.frame_interval = frame_interval
        self.capture_timeout = capture_timeout
        self._stall_guard: Any = None
        self.latest = ShelfReading("empty")
        self.latest_frame: Any = None
        self._lock = threading.Lock()
        self._fresh = threading.Condition(self._lock)
        self.readings = 0
        self._demand = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = False
        self._failed = False
        self._backoff = BACKOFF_FIRST

    def start(self) -> None:
        """Start the capture thread."""
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the camera."""
        self._stop.set()
        with self._lock:
            self._fresh.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._stall_guard is not None:
            self._stall_guard.close()
        try:
            self.camera.close()
        except OSError as error:
            log.warning("closing the camera failed: %s", error)

    def read_now(self, timeout: float = 2.0) -> ShelfReading:
        """A reading of a frame captured after this call (for the console's ``scan``)."""
        with self._lock:
            if self._failed:
                return ShelfReading("no_camera")
            self._demand += 1
            wanted = self.readings + 2 if self.readings else 1
            deadline = time.monotonic() + timeout
            try:
                while self.readings < wanted and not self._stop.is_set() and not self._failed:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return ShelfReading("no_camera")
                    self._fresh.wait(remaining)
                return ShelfReading("no_camera") if self._failed else self.latest
            finally:
                self._demand -= 1

    def capture_frame(self, timeout: float = 2.0) -> Any:
        """A frame captured after this call (for card enrolment), or None when the camera fails."""
        if self.read_now(timeout).status == "no_camera":
            return None
        with self._lock:
            return self.latest_frame

    def _run(self) -> None:
        was_wanted = False
        while not self._stop.is_set():
            wanted = self.cards_wanted() > 0
            if wanted and not was_wanted:
                self.watcher.reset()  # a new scan announces the cards even if they never left
            was_wanted = wanted
            if not self._failed and not wanted and self._demand <= 0:
                self._stop.wait(self.frame_interval)
                continue
            if not self._capture_and_read():
                self._stop.wait(self._backoff)
                self._backoff = min(self._backoff * 2, BACKOFF_MAX)
                continue
            self._backoff = BACKOFF_FIRST
            self._stop.wait(self.frame_interval)

    def _capture_and_read(self) -> bool:
        try:
            if not self._started:
                self._within_timeout(self.camera.start, "start")
                self._started = True
            frame = self._within_timeout(self.camera.capture, "frame")
        except OSError as error:
            self._camera_failed(error)
            return False
        reading = self.reader.identify(frame)
        if self._failed:
            self._failed = False
            log.info("the camera is back")
            self.post_fault("camera", None)
        shelf = ShelfReading(reading.status, tuple(reading.ingredients) if reading.status == "ok" else ())
        with self._lock:
            self.latest = shelf
            self.latest_frame = frame
            self.readings += 1
            self._fresh.notify_all()
        self.post_shelf(Shelf("live", status=reading.status))
        event = self.watcher.update(reading)
        if event is not None:
            self.post_shelf(Shelf(event.kind, tuple(getattr(event, "ingredients", ()) or ())))
        return True

    def _within_timeout(self, call: Callable[[], Any], what: str) -> Any:
        """``call()``, or CameraError when the driver stalls longer than ``capture_timeout``."""
        if self.capture_timeout is None:
            return call()
        if self._stall_guard is None:
            from drivers.camera.base import CaptureTimeout

            self._stall_guard = CaptureTimeout("camera", self.capture_timeout)
        return self._stall_guard.call(call, what)

    def _camera_failed(self, error: OSError) -> None:
        if not self._failed:
            log.error("camera failed: %s; retrying", error)
            self.post_fault("camera", str(error))
        with self._lock:
            self._failed = True
            self._fresh.notify_all()
        self._started = False
        try:
            self.camera.close()
        except OSError:
            pass
