"""A USB webcam (or a video file) through OpenCV's ``VideoCapture``.

Wiring: any UVC webcam on a USB port (``/dev/video0`` is index 0). ``device`` may also be a path or
URL OpenCV can open, such as a video file, which is how the tests use it.
"""

from __future__ import annotations

from typing import Any

from drivers.camera.base import Camera, CameraError, CaptureTimeout, Frame, check_frame


class Webcam(Camera):
    """A camera read with ``cv2.VideoCapture(device)``: a device index, a path or a URL.

    Options: ``device`` (default 0), ``size`` (width, height) asked of the driver (default: the
    driver's), ``timeout`` seconds before a read counts as stalled (default 5).
    """

    def __init__(self, *, device: int | str = 0, size: tuple[int, int] | None = None,
                 timeout: float | None = 5.0, name: str | None = None) -> None:
        if isinstance(device, str) and device.strip().isdigit():
            device = int(device)  # "0" from a configuration file means /dev/video0, not a file
        self.device = device
        self.size = size
        self.name = name or f"webcam {device}"
        self._timeout = CaptureTimeout(self.name, timeout)
        self._capture: Any = None

    def start(self) -> None:
        if self._capture is not None:
            return
        import cv2

        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"{self.name}: cannot open (no such device or file, or it is busy)")
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def capture(self) -> Frame:
        capture = self._capture
        if capture is None:
            raise CameraError(f"{self.name}: not started")
        try:
            ok, frame = self._timeout.call(capture.read, "frame")
        except CameraError:
            raise
        except Exception as exc:  # cv2.error
            raise CameraError(f"{self.name}: read failed: {exc}") from exc
        if not ok or frame is None:
            raise CameraError(f"{self.name}: returned no frame (unplugged, or end of file)")
        if frame.ndim == 2:  # a greyscale source
            import cv2

            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        return check_frame(frame, self.name)

    def close(self) -> None:
        self._timeout.close()
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()
