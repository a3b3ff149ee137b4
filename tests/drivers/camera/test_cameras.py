"""The webcam, replay and disabled cameras, and the backend factory."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from drivers.camera import CameraDisabled, CameraError, open_camera
from drivers.camera.replay import ReplayCamera


def solid(bgr: tuple[int, int, int], size: tuple[int, int] = (8, 6)) -> np.ndarray:
    frame = np.empty((size[1], size[0], 3), dtype=np.uint8)
    frame[:] = bgr
    return frame


@pytest.fixture
def image_dir(tmp_path: Path) -> Path:
    for name, colour in [("b.png", (0, 255, 0)), ("a.png", (255, 0, 0)), ("c.png", (0, 0, 255))]:
        cv2.imwrite(str(tmp_path / name), solid(colour))
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_unknown_backend_names_it_and_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown camera backend 'kinect'; valid: picamera, "
                                         r"webcam, any, replay, fake, picamera2, disabled"):
        open_camera("kinect")


def test_factory_imports_no_camera_library() -> None:
    code = ("import sys, drivers.camera as c; c.open_camera('disabled'); c.open_camera('picamera');"
            "assert 'cv2' not in sys.modules and 'picamera2' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[3])


def test_replay_serves_a_directory_in_name_order_and_loops(image_dir: Path) -> None:
    camera = open_camera("replay", frames=image_dir)
    camera.start()
    colours = [tuple(camera.capture()[0, 0].tolist()) for _ in range(4)]
    assert colours == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 0, 0)]


def test_replay_without_loop_is_exhausted(image_dir: Path) -> None:
    camera = open_camera("replay", frames=[image_dir / "a.png", solid((1, 2, 3))], loop=False)
    camera.start()
    assert camera.capture()[0, 0].tolist() == [255, 0, 0]
    assert camera.capture()[0, 0].tolist() == [1, 2, 3]
    with pytest.raises(CameraError, match="replay exhausted after 2 frames"):
        camera.capture()


def test_replay_shelf_shows_and_clears(image_dir: Path) -> None:
    camera = ReplayCamera(background_size=(5, 3), background=(9, 9, 9))
    with camera:
        assert camera.capture().shape == (3, 5, 3) and camera.capture()[0, 0].tolist() == [9, 9, 9]
        camera.show(image_dir / "c.png")
        assert camera.capture()[0, 0].tolist() == [0, 0, 255]
        assert camera.capture()[0, 0].tolist() == [0, 0, 255]  # stays until changed
        camera.show(solid((7, 7, 7)))
        assert camera.shelf is not None and camera.capture()[0, 0].tolist() == [7, 7, 7]
        camera.clear()
        assert camera.shelf is None and camera.capture()[0, 0].tolist() == [9, 9, 9]


def test_replay_empty_frames_setting_means_none() -> None:
    camera = ReplayCamera("", background_size=(2, 2))
    camera.start()
    assert camera.capture().shape == (2, 2, 3)


def test_replay_returns_copies(image_dir: Path) -> None:
    camera = ReplayCamera()
    camera.start()
    camera.show(solid((1, 1, 1)))
    camera.capture()[:] = 0
    assert camera.capture()[0, 0].tolist() == [1, 1, 1]


def test_replay_bad_input_names_it(tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(b"\x89PNG truncated")
    camera = ReplayCamera()
    camera.start()
    with pytest.raises(CameraError, match="broken.png"):
        camera.show(tmp_path / "broken.png")
    with pytest.raises(CameraError, match="shape"):
        camera.show(np.zeros((3, 3), dtype=np.uint8))
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="no images"):
        ReplayCamera(tmp_path / "empty")
    with pytest.raises(CameraError, match="not a directory"):
        ReplayCamera(tmp_path / "missing")


def test_replay_capture_before_start() -> None:
    with pytest.raises(CameraError, match="replay: not started"):
        ReplayCamera().capture()


def test_disabled_camera_says_so() -> None:
    camera = open_camera("disabled")
    camera.start()
    with pytest.raises(CameraDisabled, match="disabled in the configuration"):
        camera.capture()
    assert isinstance(CameraDisabled("x"), OSError)
    camera.close()


def test_webcam_reads_a_video_file(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 24))
    assert writer.isOpened()
    for value in (0, 255):
        writer.write(solid((value, value, value), (32, 24)))
    writer.release()
    camera = open_camera("webcam", device=str(path))
    with camera:
        first, second = camera.capture(), camera.capture()
        assert first.shape == (24, 32, 3) and first.dtype == np.uint8
        assert first.mean() < 30 and second.mean() > 220
        with pytest.raises(CameraError, match=r"webcam .*clip.avi: returned no frame"):
            camera.capture()


def test_webcam_index_from_a_configuration_string() -> None:
    assert open_camera("webcam", device="0").device == 0
    assert open_camera("webcam", device="/dev/video2").device == "/dev/video2"


def test_webcam_missing_device(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="cannot open"):
        open_camera("webcam", device=str(tmp_path / "nothing.avi")).start()


def test_webcam_stall_times_out() -> None:
    release = threading.Event()

    class Stuck:
        def read(self) -> tuple[bool, None]:
            release.wait(5)
            return False, None

        def release(self) -> None:
            pass

    camera = open_camera("webcam", timeout=0.05)
    camera._capture = Stuck()  # type: ignore[attr-defined]
    try:
        with pytest.raises(CameraError, match="stalled"):
            camera.capture()
    finally:
        release.set()
    camera.close()


def test_auto_on_a_pi_opens_a_usb_webcam_when_there_is_no_camera_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from drivers.platform import choose_backend

    monkeypatch.setitem(sys.modules, "picamera2", None)  # no camera module stack (or none attached)
    path = tmp_path / "webcam.avi"  # the webcam: OpenCV's VideoCapture, as for /dev/video0
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (32, 24))
    writer.write(solid((200, 200, 200), (32, 24)))
    writer.release()
    name = choose_backend("camera", "auto", simulate=False, on_pi=True)
    camera = open_camera(name, picamera={"size": (32, 24)}, webcam={"device": str(path)})
    with camera:
        assert camera.capture().mean() > 150
        assert camera.name == f"webcam {path}"


def test_auto_camera_prefers_the_module_and_names_every_attempt_when_none_starts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from drivers.camera.auto import AnyCamera

    module = ReplayCamera(name="module")
    camera = AnyCamera(candidates=[("camera module", lambda: module),
                                   ("USB webcam", lambda: open_camera("webcam", device=str(tmp_path / "no")))])
    camera.start()
    assert camera.chosen is module
    camera.close()
    monkeypatch.setitem(sys.modules, "picamera2", None)
    nothing = open_camera("any", webcam={"device": str(tmp_path / "none.avi")})
    with pytest.raises(CameraError, match=r"no camera found: camera module: .*picamera2 is not installed.*; "
                                          r"USB webcam: .*cannot open"):
        nothing.start()
