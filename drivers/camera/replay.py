"""The ``replay`` camera: image files instead of a lens, for tests and the simulator.

Two ways to feed it, which combine: a sequence of frames (image paths, a directory of images in
name order, or arrays) served one per capture, in order or looping; and a *shelf*, which the
simulator sets to what the player put on it (``show(...)``) and empties (``clear()``). While the
shelf holds something, every capture returns it; an empty shelf with no sequence returns a blank
``background`` frame (an empty cauldron).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Union

import numpy as np

from drivers.camera.base import Camera, CameraError, Frame, check_frame

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")

FrameSource = Union[str, "os.PathLike[str]", np.ndarray]


def load_image(path: str | os.PathLike[str], camera: str = "replay") -> Frame:
    """The BGR frame stored in an image file; CameraError naming the file if it cannot be read."""
    import cv2

    frame = cv2.imread(os.fspath(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise CameraError(f"{camera}: cannot read image {os.fspath(path)!r}")
    return check_frame(frame, camera)


def list_images(directory: str | os.PathLike[str]) -> list[Path]:
    """The image files directly in ``directory``, sorted by name."""
    folder = Path(directory)
    if not folder.is_dir():
        raise CameraError(f"replay: {os.fspath(directory)!r} is not a directory")
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


class ReplayCamera(Camera):
    """Serves image files (or arrays) as camera frames; thread-safe.

    Options: ``frames`` (a directory, or an iterable of paths/arrays; default, or "", none), ``loop``
    (start again after the last frame, default True; otherwise the camera raises CameraError when
    the sequence is exhausted), ``background_size`` (width, height of the empty-shelf frame,
    default 640x480) and ``background`` (its BGR colour, default a dark grey).
    """

    def __init__(self, frames: str | os.PathLike[str] | Iterable[FrameSource] | None = None, *,
                 loop: bool = True, background_size: tuple[int, int] = (640, 480),
                 background: tuple[int, int, int] = (40, 40, 40), name: str = "replay") -> None:
        self.name = name
        self.loop = loop
        if frames is None or frames == "":
            self._sources: list[FrameSource] = []
        elif isinstance(frames, (str, os.PathLike)):
            self._sources = list(list_images(frames))
            if not self._sources:
                raise CameraError(f"{name}: no images in {os.fspath(frames)!r}")
        else:
            self._sources = list(frames)
        width, height = background_size
        self._background = np.empty((height, width, 3), dtype=np.uint8)
        self._background[:] = background
        self._index = 0
        self._shelf: Frame | None = None
        self._started = False
        self._lock = threading.Lock()

    def _frame(self, source: FrameSource) -> Frame:
        if isinstance(source, np.ndarray):
            return check_frame(source, self.name).copy()
        return load_image(source, self.name)

    def show(self, frame_or_path: FrameSource) -> None:
        """Put a frame (a BGR array or an image file) on the shelf; captures return it."""
        frame = self._frame(frame_or_path)
        with self._lock:
            self._shelf = frame

    def clear(self) -> None:
        """Empty the shelf."""
        with self._lock:
            self._shelf = None

    @property
    def shelf(self) -> Frame | None:
        """What lies on the shelf, or None."""
        with self._lock:
            return None if self._shelf is None else self._shelf.copy()

    def start(self) -> None:
        self._started = True

    def capture(self) -> Frame:
        with self._lock:
            if not self._started:
                raise CameraError(f"{self.name}: not started")
            if self._shelf is not None:
                return self._shelf.copy()
            if not self._sources:
                return self._background.copy()
            if self._index >= len(self._sources):
                if not self.loop:
                    raise CameraError(
                        f"{self.name}: replay exhausted after {len(self._sources)} frames")
                self._index = 0
            source = self._sources[self._index]
            self._index += 1
        return self._frame(source)

    def close(self) -> None:
        self._started = False
