"""Cameras: ``open_camera(name, **options)`` picks a backend by name; ``open_configured_camera``
takes the kit's :class:`CameraSettings` and gives each backend the part it uses.

Backends: ``picamera`` (picamera2 on a Raspberry Pi), ``webcam`` (OpenCV ``VideoCapture``), ``any``
(the first of the two that starts: what ``auto`` opens on a Raspberry Pi),
``replay`` (image files and a simulated shelf; alias ``fake``), ``disabled``. Each imports its
library only when chosen. All return BGR uint8 frames and raise ``CameraError`` (an ``OSError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.camera.base import Camera, CameraDisabled, CameraError, Frame, check_frame
from drivers.platform import check_backend_name

__all__ = ["Camera", "CameraDisabled", "CameraError", "CameraSettings", "Frame", "check_frame",
           "open_camera", "open_configured_camera"]


@dataclass(frozen=True)
class CameraSettings:
    """The camera as configured: each backend takes what applies to it."""

    size: tuple[int, int] = (640, 480)
    controls: Mapping[str, object] = field(default_factory=dict)
    device: int | str = 0
    replay_dir: Path | str | None = None

    def options_for(self, backend: str) -> dict[str, Any]:
        """The constructor options of ``backend`` (a resolved name) from these settings.

        >>> CameraSettings(size=(320, 240), device="/dev/video2").options_for("webcam")
        {'device': '/dev/video2', 'size': (320, 240)}
        """
        picamera = {"size": self.size, "controls": self.controls}
        webcam = {"device": self.device, "size": self.size}
        if backend == "picamera":
            return picamera
        if backend == "webcam":
            return webcam
        if backend == "any":
            return {"picamera": picamera, "webcam": webcam}
        if backend == "replay":
            replay: dict[str, Any] = {"background_size": self.size}
            if self.replay_dir is not None:
                replay["frames"] = self.replay_dir
            return replay
        return {}


def open_configured_camera(name: str, settings: CameraSettings) -> Camera:
    """The camera backend ``name`` opened with what ``settings`` say of it."""
    return open_camera(name, **settings.options_for(check_backend_name("camera", name)))


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
