"""The camera interface: start, capture a BGR frame, close."""

from __future__ import annotations

import abc
import concurrent.futures
import threading
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

import numpy as np
import numpy.typing as npt

Frame = npt.NDArray[np.uint8]
"""A camera frame: BGR, uint8, shape (height, width, 3), as OpenCV expects."""

T = TypeVar("T")


class CameraError(OSError):
    """The camera failed: missing, gone, stalled or returning garbage. Names the camera."""


class CameraDisabled(CameraError):
    """The configuration has no camera (backend ``disabled``)."""


class Camera(abc.ABC):
    """A camera: ``start()``, then ``capture()`` frames, then ``close()``.

    ``capture()`` returns a BGR uint8 array of shape (height, width, 3); any failure raises
    ``CameraError`` with the camera's ``name`` in its message. After an error the caller may
    ``close()`` and ``start()`` again to retry.
    """

    name: str = "camera"

    @abc.abstractmethod
    def start(self) -> None:
        """Open and start the camera; CameraError when it cannot."""

    @abc.abstractmethod
    def capture(self) -> Frame:
        """The current frame, BGR uint8 HxWx3; CameraError on failure."""

    @abc.abstractmethod
    def close(self) -> None:
        """Release the camera; safe to call twice."""

    def __enter__(self) -> Camera:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def check_frame(frame: object, camera: str) -> Frame:
    """``frame`` if it is a BGR uint8 HxWx3 array, else CameraError saying what is wrong."""
    if not isinstance(frame, np.ndarray):
        raise CameraError(f"{camera}: returned {type(frame).__name__}, not an image array")
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        raise CameraError(
            f"{camera}: returned a {frame.dtype} array of shape {frame.shape}, "
            "expected uint8 (height, width, 3)")
    return frame


class CaptureTimeout:
    """Runs blocking capture calls on one worker thread, giving up after ``timeout`` seconds.

    A driver that stalls (a loose ribbon cable) then raises CameraError instead of hanging the
    daemon; the stalled worker is abandoned and a fresh one serves the next call.
    """

    def __init__(self, camera: str, timeout: float | None) -> None:
        self.camera = camera
        self.timeout = timeout
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def call(self, function: Callable[[], T], what: str) -> T:
        if self.timeout is None:
            return function()
        with self._lock:
            if self._pool is None:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix=f"{self.camera}-capture")
            pool = self._pool
        future = pool.submit(function)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            with self._lock:
                self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise CameraError(
                f"{self.camera}: stalled, no {what} within {self.timeout:g} s") from None

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
