"""The empty shelf kept across restarts, in ``<state_dir>/empty_shelf.png``.

The kit compares every frame with its shelf captured empty (``drivers.card_reader.shelf``). The
camera thread, which owns the reader and its shelf, saves the shelf it reads with
(:class:`ShelfSaver`), and the kit starts with it (:func:`load_shelf`): a kit restarted at a café
reads with its shelf from the first frame, where its keeper would wait for the shelf to lie
empty and still. A shelf from another camera mode is never compared (``EmptyShelf.changes``);
a stale one is replaced as soon as the keeper or the settings capture the shelf again.

The file is a PNG of the captured frame, written under another name and renamed into place, mode
0600 like the game's database. It holds the camera's frame only, which no change of the code
reads differently (what the reader derives from it is derived again at each start), so it
carries no schema version. An unreadable file is named in the log and left as it is; writing
that fails is logged once until a write succeeds, and never stops the camera loop.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from drivers.card_reader.shelf import EmptyShelf

log = logging.getLogger(__name__)

SHELF_FILE = "empty_shelf.png"
#: while the shelf lies empty the keeper captures it anew every few seconds; it is written at
#: most this often (seconds): an SD card wears with writes, and a restart then starts from a shelf
#: at most ten minutes old, which the keeper refreshes once the shelf lies empty and still
SAVE_INTERVAL = 600.0


def load_shelf(path: Path) -> EmptyShelf | None:
    """The empty shelf saved at ``path``, or None: none saved, or an unreadable file (logged)."""
    if not path.exists():
        return None
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        log.warning("the saved empty shelf %s is not an image; the shelf will be captured again", path)
        return None
    log.info("empty shelf from %s (%dx%d)", path, frame.shape[1], frame.shape[0])
    return EmptyShelf(frame)


class ShelfSaver:
    """Writes the reader's empty shelf to ``path`` when it changes: at once when the user captured
    it, else at most once every ``interval`` seconds. Owned by the camera thread."""

    def __init__(self, path: Path, saved: EmptyShelf | None = None, interval: float = SAVE_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or interval < 0:
            raise ValueError(f"interval must be a number of seconds, not {interval!r}")
        self.path = path
        self.interval = float(interval)
        self._clock = clock
        self._saved = saved
        self._written_at: float | None = None
        self._failing = False

    def update(self, shelf: EmptyShelf | None, at_once: bool = False) -> bool:
        """Save ``shelf`` if it is new and due (``at_once``: the user captured it); whether it was written."""
        if shelf is None or shelf is self._saved:
            return False
        now = self._clock()
        if not at_once and self._written_at is not None and now - self._written_at < self.interval:
            return False
        self._written_at = now
        if not self._write(shelf.frame):
            return False
        self._saved = shelf
        return True

    def _write(self, frame: np.ndarray) -> bool:
        ok, encoded = cv2.imencode(".png", frame)
        partial = self.path.with_name(self.path.name + ".partial")
        try:
            if not ok:
                raise OSError(f"cannot encode a {frame.shape} frame as PNG")
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(encoded.tobytes())
                file.flush()
                os.fsync(file.fileno())
            os.replace(partial, self.path)
        except OSError as error:
            if not self._failing:
                log.warning("cannot save the empty shelf to %s: %s", self.path, error)
            self._failing = True
            return False
        if self._failing:
            log.info("the empty shelf is saved to %s again", self.path)
        self._failing = False
        return True
