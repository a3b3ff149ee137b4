"""Cameras: ``open_camera(name, **options)`` picks a backend by name.

Backends: ``picamera`` (picamera2 on a Raspberry Pi), ``webcam`` (OpenCV ``VideoCapture``), ``any``
(the first of the two that starts: what ``auto`` opens on a Raspberry Pi),
``replay`` (image files and a simulated shelf; alias ``fake``), ``disabled``. Each imports its
library only when chosen. All return BGR uint8 frames and raise ``CameraError`` (an ``OSError``).
"""

from __future__ import annotations

from typing import Any

from drivers.camera.base import Camera, CameraDisabled, CameraError, Frame, check_frame
from drivers.platform import check_backend_name

__all__ = ["Camera", "CameraDisabled", "CameraError", "Frame", "check_frame", "open_camera"]


def open_camera(name: str, **options: Any) -> Camera:
    """A camera backend by name, not yet started; options go to the backend's constructor.

    >>> camera = open_camera("fake", background_size=(4, 2))
    >>> camera.start(); camera.capture().shape
    (2, 4, 3)
    """
    backend = check_backend_name("camera", name)
    if backend == "picamera":
        from drivers.camera.picamera import PiCamera

        return PiCamera(**options)
    if backend == "webcam":
        from drivers.camera.webcam import Webcam

        return Webcam(**options)
    if backend == "any":
        from drivers.camera.auto import AnyCamera

        return AnyCamera(**options)
    if backend == "replay":
        from drivers.camera.replay import ReplayCamera

        return ReplayCamera(**options)
    from drivers.camera.disabled import DisabledCamera

    return DisabledCamera(**options)
