"""The picamera2 backend against a recording stand-in for the picamera2 module."""

from __future__ import annotations

import sys
import threading
import types
from typing import Any

import numpy as np
import pytest

from drivers.camera import CameraError, open_camera
from drivers.camera.picamera import PIXEL_FORMATS, PiCamera, to_bgr


class FakePicamera2:
    """Records calls like picamera2.Picamera2; frames come from ``main_frame``/``lores_frame``."""

    instances: list[FakePicamera2] = []
    # what picamera2 reads from libcamera: a v2 module (no autofocus) unless a test says otherwise
    camera_controls: dict[str, Any] = {"AwbMode": (0, 7, 0), "ExposureTime": (1, 66666, 20000)}
    sensor_modes: list[dict[str, Any]] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.calls: list[tuple[str, Any]] = [("Picamera2", camera_num)]
        self.main_frame: Any = np.zeros((4, 6, 3), dtype=np.uint8)
        self.lores_frame: Any = np.zeros((6, 4), dtype=np.uint8)
        self.fail_capture: Exception | None = None
        self.stall: threading.Event | None = None
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_video_configuration", kwargs))
        return {"kind": "video", **kwargs}

    def create_still_configuration(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("create_still_configuration", kwargs))
        return {"kind": "still", **kwargs}

    def configure(self, config: Any) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", None))

    def capture_array(self, name: str = "main") -> Any:
        self.calls.append(("capture_array", name))
        if self.stall is not None:
            self.stall.wait(5)
        if self.fail_capture is not None:
            raise self.fail_capture
        return self.main_frame if name == "main" else self.lores_frame

    def stop(self) -> None:
        self.calls.append(("stop", None))

    def close(self) -> None:
        self.calls.append(("close", None))


@pytest.fixture
def picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_rgb888_is_bgr_in_memory_and_passes_through() -> None:
    # libcamera's RGB888 stores each pixel as bytes B, G, R: a pure blue pixel is (255, 0, 0).
    blue = np.array([[[255, 0, 0]]], dtype=np.uint8)
    assert to_bgr(blue, "RGB888").tolist() == [[[255, 0, 0]]]
    # BGR888 stores R, G, B: the same blue arrives as (0, 0, 255) and is reversed to BGR.
    assert to_bgr(np.array([[[0, 0, 255]]], dtype=np.uint8), "BGR888").tolist() == [[[255, 0, 0]]]
    # The 32-bit formats carry a fourth byte that is dropped.
    assert to_bgr(np.array([[[255, 0, 0, 255]]], dtype=np.uint8), "XRGB8888").tolist() == [
        [[255, 0, 0]]]
    assert to_bgr(np.array([[[0, 0, 255, 255]]], dtype=np.uint8), "XBGR8888").tolist() == [
        [[255, 0, 0]]]
    assert set(PIXEL_FORMATS) == {"RGB888", "BGR888", "XRGB8888", "XBGR8888"}


def test_to_bgr_refuses_wrong_shapes_and_formats() -> None:
    with pytest.raises(CameraError, match="shape"):
        to_bgr(np.zeros((4, 4), dtype=np.uint8), "RGB888")
    with pytest.raises(CameraError, match="YUV420"):
        to_bgr(np.zeros((4, 4, 3), dtype=np.uint8), "YUV420")


def test_configures_main_and_lores_then_captures_main(picamera2: type[FakePicamera2]) -> None:
    camera = open_camera("picamera", size=(6, 4), lores_size=(4, 4))
    assert isinstance(camera, PiCamera)
    camera.start()
    fake = picamera2.instances[0]
    fake.main_frame = np.full((4, 6, 3), (1, 2, 3), dtype=np.uint8)
    frame = camera.capture()
    assert frame.shape == (4, 6, 3) and frame[0, 0].tolist() == [1, 2, 3]
    names = [name for name, _ in fake.calls]
    assert names == ["Picamera2", "create_video_configuration", "configure", "start",
                     "capture_array"]
    config = fake.calls[1][1]
    assert config == {"main": {"size": (6, 4), "format": "RGB888"},
                      "lores": {"size": (4, 4), "format": "YUV420"}}
    assert fake.calls[2][1]["kind"] == "video"
    assert fake.calls[4] == ("capture_array", "main")
    assert camera.capture_lores().shape == (4, 4)
    camera.close()
    assert [name for name, _ in fake.calls][-2:] == ["stop", "close"]
    camera.close()  # twice is harmless


def test_still_configuration_and_controls(picamera2: type[FakePicamera2]) -> None:
    with open_camera("picamera", configuration="still", controls={"AwbMode": 0}):
        fake = picamera2.instances[0]
        assert fake.calls[1][0] == "create_still_configuration"
        assert fake.calls[1][1]["controls"] == {"AwbMode": 0}


def test_capture_failure_is_camera_error_naming_the_camera(
        picamera2: type[FakePicamera2]) -> None:
    camera = open_camera("picamera")
    camera.start()
    picamera2.instances[0].fail_capture = RuntimeError("Device or resource busy")
    with pytest.raises(CameraError, match="picamera 0: capture failed: Device or resource busy"):
        camera.capture()
    picamera2.instances[0].fail_capture = None
    picamera2.instances[0].main_frame = np.zeros((4, 4), dtype=np.float32)  # garbage
    with pytest.raises(CameraError, match="picamera 0"):
        camera.capture()
    camera.close()


def test_stalled_capture_times_out(picamera2: type[FakePicamera2]) -> None:
    camera = open_camera("picamera", timeout=0.05)
    camera.start()
    release = threading.Event()
    picamera2.instances[0].stall = release
    try:
        with pytest.raises(CameraError, match="stalled"):
            camera.capture()
    finally:
        release.set()
    picamera2.instances[0].stall = None
    assert camera.capture().shape == (4, 6, 3)  # a fresh worker serves the next call
    camera.close()


def test_no_camera_attached(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("picamera2")

    def no_camera(camera_num: int = 0) -> None:
        raise IndexError("list index out of range")

    module.Picamera2 = no_camera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    with pytest.raises(CameraError, match="picamera 0: no camera found"):
        open_camera("picamera").start()


def test_picamera2_missing_is_camera_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        open_camera("picamera").start()


def test_capture_before_start() -> None:
    with pytest.raises(CameraError, match="not started"):
        open_camera("picamera").capture()


# picamera2's sensor_modes for the v2 module (IMX219) and the Camera Module 3 (IMX708): a mode's
# crop_limits is the part of the sensor it reads
V2_MODES = [
    {"size": (640, 480), "format": "SRGGB10_CSI2P", "crop_limits": (1000, 752, 1280, 960)},
    {"size": (1640, 1232), "format": "SRGGB10_CSI2P", "crop_limits": (0, 0, 3280, 2464)},
    {"size": (1920, 1080), "format": "SRGGB10_CSI2P", "crop_limits": (680, 692, 1920, 1080)},
    {"size": (3280, 2464), "format": "SRGGB10_CSI2P", "crop_limits": (0, 0, 3280, 2464)},
]
MODULE3_MODES = [
    {"size": (1536, 864), "format": "SRGGB10_CSI2P", "crop_limits": (768, 432, 3072, 1728)},
    {"size": (2304, 1296), "format": "SRGGB10_CSI2P", "crop_limits": (0, 0, 4608, 2592)},
    {"size": (4608, 2592), "format": "SRGGB10_CSI2P", "crop_limits": (0, 0, 4608, 2592)},
]
MODULE3_CONTROLS = {"AfMode": (0, 2, 0), "AfRange": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0),
                    "AwbMode": (0, 7, 0)}


def configured(fake: FakePicamera2) -> dict[str, Any]:
    return next(kwargs for name, kwargs in fake.calls if name == "create_video_configuration")


def test_a_camera_module_3_focuses_near_by_default(picamera2: type[FakePicamera2],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # libcamera starts its autofocus in manual mode at 1 dioptre (1 m); the shelf is ~20 cm away
    monkeypatch.setattr(FakePicamera2, "camera_controls", MODULE3_CONTROLS)
    with open_camera("picamera", size=(640, 480)):
        assert configured(picamera2.instances[0])["controls"] == {"AfMode": 2, "AfRange": 1}


def test_a_module_without_autofocus_gets_no_focus_controls(picamera2: type[FakePicamera2],
                                                           caplog: pytest.LogCaptureFixture) -> None:
    with open_camera("picamera", size=(640, 480)):
        assert "controls" not in configured(picamera2.instances[0])
    assert "no AfMode, AfRange on this camera" in caplog.text


def test_a_fixed_focus_by_lens_position(picamera2: type[FakePicamera2],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FakePicamera2, "camera_controls", MODULE3_CONTROLS)
    with open_camera("picamera", controls={"AfMode": "Manual", "LensPosition": 5}):
        assert configured(picamera2.instances[0])["controls"] == {"AfMode": 0, "LensPosition": 5.0}
    with pytest.raises(ValueError, match="LensPosition .* needs AfMode"):
        open_camera("picamera", controls={"AfMode": "Continuous", "LensPosition": 5})
    with pytest.raises(ValueError, match="unknown libcamera control 'Focus'"):
        open_camera("picamera", controls={"Focus": 5})


@pytest.mark.parametrize(("modes", "size", "raw"), [
    (V2_MODES, (640, 480), (1640, 1232)),        # not the 640x480 centre crop
    (V2_MODES, (1920, 1080), (3280, 2464)),      # not the 1920x1080 crop either
    (MODULE3_MODES, (640, 480), (2304, 1296)),   # not the 1536x864 crop
])
def test_the_raw_stream_sees_the_whole_sensor(picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch,
                                              modes: list[dict[str, Any]], size: tuple[int, int],
                                              raw: tuple[int, int]) -> None:
    monkeypatch.setattr(FakePicamera2, "sensor_modes", modes)
    with open_camera("picamera", size=size):
        config = configured(picamera2.instances[0])
        assert config["raw"] == {"size": raw, "format": "SRGGB10_CSI2P"}
        assert config["main"]["size"] == size


def test_a_sensor_that_cannot_list_its_modes_still_starts(picamera2: type[FakePicamera2],
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    def no_modes(self: FakePicamera2) -> list[dict[str, Any]]:
        raise RuntimeError("no raw formats")

    monkeypatch.setattr(FakePicamera2, "sensor_modes", property(no_modes))
    with open_camera("picamera", size=(640, 480)) as camera:
        assert "raw" not in configured(picamera2.instances[0]) and camera.capture().ndim == 3
    assert "cannot list the sensor modes" in caplog.text
