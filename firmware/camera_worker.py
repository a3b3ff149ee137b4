"""The camera loop: capture, read the cards, and report shelf events, surviving camera faults.

It runs on its own thread and owns the camera, the card reader (its tolerance and its empty shelf)
and the shelf watcher. Other threads never touch them: they send messages (``want_cards``,
``use_reader``, ``set_tolerance``, ``use_empty_shelf``, ``request_reading``) that the thread applies
between frames. It captures only while cards are wanted or a reading is asked for, posts
``Shelf`` events to the daemon, and saves the empty shelf it reads with (``shelf_saver``,
``firmware.shelf_file``). A failing camera is reported once, retried with back-off, and
reported again when it comes back.

A reader that tells cards from the empty shelf answers nothing while it holds none: the frames
read ``unlearned`` (``learning`` while its keeper sees the shelf empty and may capture it), never a
card. Read without the shelf, the stages leave a card out now and then (a dark card, one face
down, one under a hand) and read an empty stone or striped table ``unsure``, so its keeper never
captures that table: the player is asked to clear the shelf and press ok once
(``firmware.ui.steps.ScanStep``); the shelf is then saved across restarts.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from firmware.console import ShelfReading
from firmware.ui.base import Shelf

if TYPE_CHECKING:
    from firmware.shelf_file import ShelfSaver

log = logging.getLogger(__name__)

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
CAPTURE_TIMEOUT = 10.0  # a capture that takes longer counts as a stalled camera (a loose cable)
READ_TIMEOUT = 2.0  # a reading asked for that takes longer is answered "no camera" (as a stalled camera)


class Reader(Protocol):
    """The part of ``drivers.card_reader.CardReader`` the loop uses."""

    tolerance: float

    def identify(self, frame: Any) -> Any: ...


class Watcher(Protocol):
    """The part of ``drivers.card_reader.ShelfWatcher`` the loop uses."""

    required_frames: int

    def reset(self) -> None: ...

    def update(self, reading: Any) -> Any: ...


class Camera(Protocol):
    """The part of a ``drivers.camera`` backend the loop uses."""

    def start(self) -> None: ...

    def capture(self) -> Any: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Reading:
    """The answer to ``request_reading``: the shelf as read from ``frame``, a frame captured after
    the request (``frame`` None and status ``no_camera`` when the camera failed)."""

    shelf: ShelfReading
    frame: Any = None
    cards: tuple[Any, ...] = ()


NO_CAMERA = Reading(ShelfReading("no_camera"))


def shelf_unlearned(reader: Reader, frame: Any) -> bool:
    """Whether ``reader`` tells cards from an empty shelf (``CardReader.empty_shelf``) and holds none
    for ``frame``: none yet, or one of another size (saved in another camera mode: never compared).
    Its readings are then not given; a reader without the attribute reads alone, and a frame that
    is no colour image (a broken camera's) is left to the reader, which reads it ``unsure``."""
    if not hasattr(reader, "empty_shelf"):
        return False
    shelf = getattr(reader, "empty_shelf")
    if shelf is None:
        return True
    return len(getattr(frame, "shape", ())) == 3 and not shelf.fits(frame)


def unlearned_status(reader: Reader, read_empty: bool) -> str:
    """The live status of a frame read while ``shelf_unlearned``: ``learning`` when the
    stages read it ``empty`` and the reader's keeper captures such frames, else ``unlearned``."""
    return "learning" if read_empty and getattr(reader, "shelf_keeper", None) is not None else "unlearned"


@dataclass(frozen=True)
class _WantCards:
    count: int


@dataclass(frozen=True)
class _UseReader:
    reader: Reader


@dataclass(frozen=True)
class _UseEmptyShelf:
    frame: Any


@dataclass(frozen=True)
class _SetTolerance:
    tolerance: float


@dataclass(frozen=True)
class _ReadingWanted:
    reply: Callable[[Reading], None]


class _Stop:
    pass


class CameraWorker:
    """Captures frames on a thread while cards are wanted; turns readings into shelf events."""

    def __init__(
        self,
        camera: Camera,
        reader: Reader,
        watcher: Watcher,
        post_shelf: Callable[[Shelf], None],
        post_fault: Callable[[str, str | None], None],
        frame_interval: float = 0.05,
        capture_timeout: float | None = CAPTURE_TIMEOUT,
        shelf_saver: ShelfSaver | None = None,
    ) -> None:
        self.camera = camera
        self.post_shelf = post_shelf
        self.post_fault = post_fault
        self.frame_interval = frame_interval
        self.capture_timeout = capture_timeout
        self._inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        # owned by the camera thread (before start: by whoever builds the worker)
        self._reader = reader
        self._watcher = watcher
        self._shelf_saver = shelf_saver
        self._wanted = 0
        self._asked: list[Callable[[Reading], None]] = []
        self._stall_guard: Any = None
        self._stopping = False
        self._started = False
        self._failed = False
        self._backoff = BACKOFF_FIRST
        self.readings = 0
        self.latest = ShelfReading("empty")  # the last frame's reading, replaced whole (to look at)

    @property
    def reader(self) -> Reader:
        """The reader in use, to look at (change it with ``use_reader``, ``set_tolerance``)."""
        return self._reader

    @property
    def frames_to_settle(self) -> int:
        """How many equal readings make the shelf stable."""
        return self._watcher.required_frames

    # --- messages (any thread) -----------------------------------------------------------------

    def want_cards(self, count: int) -> None:
        """The screen now waits for ``count`` cards (0: the camera may rest)."""
        self._inbox.put(_WantCards(count))

    def use_reader(self, reader: Reader) -> None:
        """Read with ``reader`` from the next frame on (at the tolerance in force)."""
        self._inbox.put(_UseReader(reader))

    def set_tolerance(self, tolerance: float) -> None:
        """Read with this tolerance from the next frame on."""
        self._inbox.put(_SetTolerance(tolerance))

    def use_empty_shelf(self, frame: Any) -> None:
        """Compare the frames with ``frame``, of the empty shelf, from the next frame on."""
        self._inbox.put(_UseEmptyShelf(frame))

    def request_reading(self, reply: Callable[[Reading], None]) -> None:
        """Have ``reply`` called (on the camera thread) with the reading of a frame captured after
        this call; ``reply`` must only hand the reading on (post it to its owner's queue)."""
        self._inbox.put(_ReadingWanted(reply))

    def read_now(self, timeout: float = READ_TIMEOUT) -> ShelfReading:
        """A reading of a frame captured after this call, waited for (never on the daemon's loop)."""
        return self.wait_reading(timeout).shelf

    def wait_reading(self, timeout: float = READ_TIMEOUT) -> Reading:
        """``request_reading``, waited for up to ``timeout`` (then: no camera)."""
        answers: queue.SimpleQueue[Reading] = queue.SimpleQueue()
        self.request_reading(answers.put)
        try:
            return answers.get(timeout=timeout)
        except queue.Empty:
            return NO_CAMERA

    def capture_frame(self, timeout: float = READ_TIMEOUT) -> Any:
        """A frame captured after this call (for card enrolment), or None when the camera fails."""
        return self.wait_reading(timeout).frame

    def start(self) -> None:
        """Start the capture thread."""
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the camera."""
        self._inbox.put(_Stop())
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._stall_guard is not None:
            self._stall_guard.close()
        try:
            self.camera.close()
        except OSError as error:
            log.warning("closing the camera failed: %s", error)

    # --- the camera thread ---------------------------------------------------------------------

    def _run(self) -> None:
        pause = 0.0
        while True:
            self._take_messages(pause)
            if self._stopping:
                break
            if not self._failed and self._wanted <= 0 and not self._asked:
                pause = self.frame_interval
                continue
            if self._capture_and_read():
                self._backoff = BACKOFF_FIRST
                pause = self.frame_interval
            else:
                pause = self._backoff
                self._backoff = min(self._backoff * 2, BACKOFF_MAX)
        self._answer(NO_CAMERA)

    def _take_messages(self, pause: float) -> None:
        """Apply every message waiting; wait up to ``pause`` for the first (a message ends the pause)."""
        try:
            message = self._inbox.get(timeout=pause) if pause > 0 else self._inbox.get_nowait()
            while True:
                self._apply(message)
                message = self._inbox.get_nowait()
        except queue.Empty:
            return

    def _apply(self, message: object) -> None:
        if isinstance(message, _WantCards):
            if message.count > 0 and self._wanted <= 0:
                self._watcher.reset()  # a new scan announces the cards even if they never left
            self._wanted = message.count
        elif isinstance(message, _UseReader):
            message.reader.tolerance = self._reader.tolerance
            for kept in ("empty_shelf", "shelf_keeper"):       # the shelf is the same with new faces
                if hasattr(self._reader, kept) and hasattr(message.reader, kept):
                    setattr(message.reader, kept, getattr(self._reader, kept))
            self._reader = message.reader
        elif isinstance(message, _SetTolerance):
            self._reader.tolerance = message.tolerance
        elif isinstance(message, _UseEmptyShelf):
            from drivers.card_reader.shelf import EmptyShelf

            if hasattr(self._reader, "empty_shelf"):
                self._reader.empty_shelf = EmptyShelf(message.frame)
                if self._shelf_saver is not None:
                    self._shelf_saver.update(self._reader.empty_shelf, at_once=True)
        elif isinstance(message, _ReadingWanted):
            if self._failed:
                message.reply(NO_CAMERA)
            else:
                self._asked.append(message.reply)
        elif isinstance(message, _Stop):
            self._stopping = True

    def _answer(self, reading: Reading) -> None:
        asked, self._asked = self._asked, []
        for reply in asked:
            reply(reading)

    def _capture_and_read(self) -> bool:
        asked, self._asked = self._asked, []  # asked before this capture: answered by its frame
        try:
            if not self._started:
                self._within_timeout(self.camera.start, "start")
                self._started = True
            frame = self._within_timeout(self.camera.capture, "frame")
        except OSError as error:
            self._asked = asked + self._asked
            self._camera_failed(error)
            return False
        reading = self._reader.identify(frame)
        if self._shelf_saver is not None:               # the keeper may have captured the shelf
            self._shelf_saver.update(getattr(self._reader, "empty_shelf", None))
        if self._failed:
            self._failed = False
            log.info("the camera is back")
            self.post_fault("camera", None)
        self.readings += 1
        if shelf_unlearned(self._reader, frame):
            self._answer_unlearned(asked, frame, reading)
            return True
        shelf = ShelfReading(reading.status, tuple(reading.ingredients) if reading.status == "ok" else ())
        self.latest = shelf
        for reply in asked:
            reply(Reading(shelf, frame, tuple(reading.cards)))
        self.post_shelf(Shelf("live", status="face_down" if reading.face_down else reading.status))
        event = self._watcher.update(reading)
        if event is not None:
            self.post_shelf(Shelf(event.kind, tuple(getattr(event, "ingredients", ()) or ()),
                                  "face_down" if event.face_down else ""))
        return True

    def _answer_unlearned(self, asked: list[Callable[[Reading], None]], frame: Any, reading: Any) -> None:
        """No card of ``reading`` is told (the shelf is not learned): the status says so, and the
        watcher starts afresh, so the cards are announced once it is learned. The cards go only to
        those who asked for this frame's reading (the enrolment and the shelf's capture look at them)."""
        shelf = ShelfReading("unlearned")
        self.latest = shelf
        for reply in asked:
            reply(Reading(shelf, frame, tuple(reading.cards)))
        self.post_shelf(Shelf("live", status=unlearned_status(self._reader, reading.status == "empty")))
        self._watcher.reset()

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
        self._failed = True
        self._answer(NO_CAMERA)
        self._started = False
        try:
            self.camera.close()
        except OSError:
            pass
