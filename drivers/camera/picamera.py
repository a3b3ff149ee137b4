"""The Raspberry Pi camera through picamera2 (libcamera).

Wiring: the camera module on the CSI ribbon connector (``cam0`` on a Pi 5), looking down into the
cauldron. picamera2 comes from Raspberry Pi OS (``apt install python3-picamera2``); the kit's venv
is made with ``--system-site-packages`` to see it. It is imported only when this backend starts.

Two streams, as in picamera2's OpenCV examples: ``main`` at full quality for reading cards, and a
small ``lores`` stream (YUV420, its first plane greyscale) for cheap motion/stability checks.

The whole field of view: left to itself, libcamera picks the sensor mode nearest ``main``'s size,
which at 640x480 is a centre crop on the v2 and HQ modules. The raw stream is asked for the smallest
sensor mode that still covers the whole sensor (binned) and is at least ``main``'s size; the ISP
scales it down. Focus: the controls of ``drivers.camera.controls`` (default: continuous autofocus,
macro range, for the Camera Module 3); those the camera does not advertise (no autofocus on the v2
and HQ modules) are left out and logged.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from drivers.camera.base import Camera, CameraError, CaptureTimeout, Frame, check_frame
from drivers.camera.controls import CAULDRON_CONTROLS, ControlValue, parse_controls

log = logging.getLogger(__name__)

# How each picamera2 pixel format lies in memory, and how to get BGR from it. libcamera names
# formats by their little-endian word, so "RGB888" is stored B, G, R: it is already BGR for OpenCV.
# This table is the one place the channel order is pinned (tests/drivers/camera/test_picamera.py).
PIXEL_FORMATS: dict[str, tuple[str, slice | list[int]]] = {
    "RGB888": ("BGR", slice(0, 3)),
    "BGR888": ("RGB", [2, 1, 0]),
    "XRGB8888": ("BGRX", slice(0, 3)),
    "XBGR8888": ("RGBX", [2, 1, 0]),
}


def to_bgr(array: Any, pixel_format: str, camera: str = "picamera") -> Frame:
    """The BGR frame for an array picamera2 captured in ``pixel_format``.

    >>> pixel = np.array([[[10, 20, 30]]], dtype=np.uint8)  # memory order of an RGB888 frame
    >>> to_bgr(pixel, "RGB888").tolist()                       # B=10, G=20, R=30: unchanged
    [[[10, 20, 30]]]
    >>> to_bgr(pixel, "BGR888").tolist()                       # memory R, G, B: reversed
    [[[30, 20, 10]]]
    """
    try:
        _, channels = PIXEL_FORMATS[pixel_format]
    except KeyError:
        raise CameraError(
            f"{camera}: pixel format {pixel_format!r} not supported; "
            f"use one of {', '.join(PIXEL_FORMATS)}") from None
    if not isinstance(array, np.ndarray) or array.ndim != 3 or array.shape[2] < 3:
        shape = getattr(array, "shape", None)
        raise CameraError(f"{camera}: {pixel_format} frame has shape {shape}, expected HxWx3/4")
    return check_frame(np.ascontiguousarray(array[:, :, channels]), camera)


class PiCamera(Camera):
    """The Pi camera module via picamera2, ``main`` in ``pixel_format`` plus a YUV420 ``lores``.

    Options: ``size`` of ``main`` (default 1640x1232, the full field of a v2 module binned),
    ``lores_size`` (default 320x240), ``pixel_format`` (default ``RGB888``, i.e. BGR in memory),
    ``configuration`` ``"video"`` (default: a running stream, fast to capture) or ``"still"``,
    ``camera_num`` (default 0), ``controls`` (libcamera controls by name, checked by
    ``drivers.camera.controls``; default ``CAULDRON_CONTROLS``), ``full_field`` (default True: a
    sensor mode that sees the whole sensor), ``timeout`` seconds before a capture counts as stalled
    (default 5).
    """

    def __init__(self, *, size: tuple[int, int] = (1640, 1232),
                 lores_size: tuple[int, int] = (320, 240), pixel_format: str = "RGB888",
                 configuration: str = "video", camera_num: int = 0,
                 controls: Mapping[str, object] | None = None, full_field: bool = True,
                 timeout: float | None = 5.0, name: str | None = None) -> None:
        if configuration not in ("video", "still"):
            raise ValueError(f"picamera configuration {configuration!r}: use 'video' or 'still'")
        if pixel_format not in PIXEL_FORMATS:
            raise ValueError(f"picamera pixel format {pixel_format!r}: use one of "
                             f"{', '.join(PIXEL_FORMATS)}")
        self.name = name or f"picamera {camera_num}"
        self.size = tuple(size)
        self.lores_size = tuple(lores_size)
        self.pixel_format = pixel_format
        self.configuration = configuration
        self.camera_num = camera_num
        self.controls = parse_controls(CAULDRON_CONTROLS if controls is None else controls)
        self.full_field = full_field
        self.raw_mode: dict[str, Any] | None = None  # the sensor mode chosen at the last start
        self._timeout = CaptureTimeout(self.name, timeout)
        self._picam2: Any = None

    def start(self) -> None:
        if self._picam2 is not None:
            return
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError as exc:
            raise CameraError(
                f"{self.name}: picamera2 is not installed (apt install python3-picamera2, and a "
                f"venv with --system-site-packages): {exc}") from exc
        try:
            picam2 = picamera2.Picamera2(self.camera_num)
        except Exception as exc:  # IndexError/RuntimeError when no camera is attached
            raise CameraError(f"{self.name}: no camera found ({exc})") from exc
        try:
            create = (picam2.create_video_configuration if self.configuration == "video"
                      else picam2.create_still_configuration)
            streams: dict[str, Any] = {
                "main": {"size": self.size, "format": self.pixel_format},
                "lores": {"size": self.lores_size, "format": "YUV420"},
            }
            if self.full_field:
                self.raw_mode = full_field_mode(_sensor_modes(picam2, self.name), self.size)
                if self.raw_mode is not None:
                    streams["raw"] = self.raw_mode
                    log.info("%s: sensor mode %dx%d (the whole field, scaled to %dx%d)", self.name,
                             *self.raw_mode["size"], *self.size)
            controls = self._advertised(picam2.camera_controls)
            if controls:
                streams["controls"] = controls
            config = create(**streams)
            picam2.configure(config)
            picam2.start()
        except Exception as exc:
            _close_quietly(picam2)
            raise CameraError(f"{self.name}: cannot start: {exc}") from exc
        self._picam2 = picam2

    def _advertised(self, advertised: Mapping[str, Any]) -> dict[str, ControlValue]:
        """The configured controls this camera offers; the others are logged and left out."""
        missing = sorted(set(self.controls) - set(advertised))
        if missing:
            log.info("%s: no %s on this camera (no autofocus on the v2 and HQ modules); left out",
                     self.name, ", ".join(missing))
        return {name: value for name, value in self.controls.items() if name in advertised}

    def _running(self) -> Any:
        if self._picam2 is None:
            raise CameraError(f"{self.name}: not started")
        return self._picam2

    def capture(self) -> Frame:
        picam2 = self._running()
        try:
            array = self._timeout.call(lambda: picam2.capture_array("main"), "frame")
        except CameraError:
            raise
        except Exception as exc:
            raise CameraError(f"{self.name}: capture failed: {exc}") from exc
        return to_bgr(array, self.pixel_format, self.name)

    def capture_lores(self) -> np.ndarray:
        """The small stream as a greyscale (Y plane) uint8 array of ``lores_size``."""
        picam2 = self._running()
        try:
            array = self._timeout.call(lambda: picam2.capture_array("lores"), "lores frame")
        except CameraError:
            raise
        except Exception as exc:
            raise CameraError(f"{self.name}: lores capture failed: {exc}") from exc
        height = self.lores_size[1]
        if not isinstance(array, np.ndarray) or array.ndim != 2 or array.shape[0] < height:
            raise CameraError(f"{self.name}: lores frame has shape {getattr(array, 'shape', None)}")
        return np.ascontiguousarray(array[:height, : self.lores_size[0]])

    def close(self) -> None:
        self._timeout.close()
        picam2, self._picam2 = self._picam2, None
        if picam2 is not None:
            _close_quietly(picam2)


def full_field_mode(modes: Sequence[Mapping[str, Any]], size: tuple[int, ...]) -> dict[str, Any] | None:
    """The raw stream for the smallest sensor mode that sees the whole sensor and is at least
    ``size``, or the largest whole-sensor mode when none is that large; None without modes.

    A mode's ``crop_limits`` (x, y, width, height) is the part of the sensor it reads (picamera2's
    ``sensor_modes``); the whole sensor is the largest of them.

    >>> v2 = [{"size": (640, 480), "format": "SRGGB10_CSI2P", "crop_limits": (1000, 752, 1280, 960)},
    ...       {"size": (1640, 1232), "format": "SRGGB10_CSI2P", "crop_limits": (0, 0, 3280, 2464)},
    ...       {"size": (3280, 2464), "format": "SRGGB10_CSI2P", "crop_limits": (0, 0, 3280, 2464)}]
    >>> full_field_mode(v2, (640, 480))
    {'size': (1640, 1232), 'format': 'SRGGB10_CSI2P'}
    """
    sized = [mode for mode in modes if "size" in mode and "crop_limits" in mode]
    if not sized:
        return None

    def seen(mode: Mapping[str, Any]) -> int:
        _, _, width, height = mode["crop_limits"]
        return int(width) * int(height)

    whole = max(seen(mode) for mode in sized)
    full = [mode for mode in sized if seen(mode) == whole]
    large_enough = [mode for mode in full if mode["size"][0] >= size[0] and mode["size"][1] >= size[1]]
    area = lambda mode: mode["size"][0] * mode["size"][1]  # noqa: E731
    chosen = min(large_enough, key=area) if large_enough else max(full, key=area)
    pixel_format = chosen.get("format")
    raw: dict[str, Any] = {"size": tuple(chosen["size"])}
    if pixel_format is not None:  # picamera2 gives a SensorFormat; its .format is the name
        raw["format"] = pixel_format if isinstance(pixel_format, str) else str(pixel_format.format)
    return raw


def _sensor_modes(picam2: Any, camera: str) -> Sequence[Mapping[str, Any]]:
    """picamera2's ``sensor_modes`` (it configures the camera once per mode to read them); none when
    the sensor cannot say: libcamera then picks the mode, as before."""
    try:
        modes = picam2.sensor_modes
    except Exception as error:  # an unusual sensor or an older picamera2
        log.warning("%s: cannot list the sensor modes (%s); libcamera chooses", camera, error)
        return []
    return list(modes or [])


def _close_quietly(picam2: Any, timeout: float = 5.0) -> None:
    """Stop and close, giving up after ``timeout`` seconds: a stalled camera can hang in stop()."""

    def close() -> None:
        for method in ("stop", "close"):
            try:
                getattr(picam2, method)()
            except Exception:  # closing a camera that is already gone
                pass

    thread = threading.Thread(target=close, name="picamera-close", daemon=True)
    thread.start()
    thread.join(timeout)
