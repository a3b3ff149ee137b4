"""The ``disabled`` camera: the kit has none; every capture says so."""

from __future__ import annotations

from drivers.camera.base import Camera, CameraDisabled, Frame


class DisabledCamera(Camera):
    """A camera that is not there: ``capture()`` raises ``CameraDisabled``."""

    def __init__(self, name: str = "camera (disabled)") -> None:
        self.name = name

    def start(self) -> None:
        pass

    def capture(self) -> Frame:
        raise CameraDisabled(f"{self.name}: the camera is disabled in the configuration")

    def close(self) -> None:
        pass
