"""The ``any`` camera (what ``auto`` opens on a Raspberry Pi): the camera module, else a USB webcam.

Wiring: a camera module on the CSI ribbon, or a UVC webcam on a USB port (``/dev/video0``). Each
``start()`` tries the camera module first (picamera2), then the webcam; the first that starts is
used until ``close()``. The camera worker calls ``start()`` again after a failure, so a webcam
plugged in later is found too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drivers.camera.base import Camera, CameraError, Frame


class AnyCamera(Camera):
    """The first of its candidate cameras that starts; CameraError naming every attempt otherwise.

    Options: ``picamera`` (options of the ``picamera`` backend), ``webcam`` (options of the
    ``webcam`` backend). ``candidates`` replaces the two, for tests: (name, make camera) pairs.
    """

    def __init__(self, *, picamera: dict[str, Any] | None = None, webcam: dict[str, Any] | None = None,
                 candidates: list[tuple[str, Callable[[], Camera]]] | None = None) -> None:
        if candidates is None:
            candidates = [("camera module", lambda: _picamera(picamera or {})),
                          ("USB webcam", lambda: _webcam(webcam or {}))]
        self.candidates = list(candidates)
        self.name = "camera (module or USB webcam)"
        self.chosen: Camera | None = None

    def start(self) -> None:
        if self.chosen is not None:
            return
        problems = []
        for label, make in self.candidates:
            camera = make()
            try:
                camera.start()
            except CameraError as error:
                problems.append(f"{label}: {error}")
                camera.close()
                continue
            self.chosen = camera
            self.name = camera.name
            return
        raise CameraError("no camera found: " + "; ".join(problems))

    def capture(self) -> Frame:
        if self.chosen is None:
            raise CameraError(f"{self.name}: not started")
        return self.chosen.capture()

    def close(self) -> None:
        camera, self.chosen = self.chosen, None
        if camera is not None:
            camera.close()


def _picamera(options: dict[str, Any]) -> Camera:
    from drivers.camera.picamera import PiCamera

    return PiCamera(**options)


def _webcam(options: dict[str, Any]) -> Camera:
    from drivers.camera.webcam import Webcam

    return Webcam(**options)
