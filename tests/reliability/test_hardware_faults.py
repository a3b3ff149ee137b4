"""Promise 2, hardware faults are survived: the whole simulator kit (real daemon loop, camera worker,
card reader, console worker, buttons) with a camera that vanishes, stalls or sends garbage, a display
that raises I/O errors, a button stuck down or bouncing, and a serial port that vanishes. Each time
the kit keeps running, says what is wrong on the screen (the console when the screen is the broken
part), retries with back-off, and recovers by itself when the part comes back."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from drivers.camera.base import CameraError
from drivers.display import DisplayError
from firmware import camera_worker as camera_worker_module
from firmware import daemon as daemon_module
from firmware.runtime import Kit
from firmware.ui.base import ButtonPress
from tests.reliability.helpers import Pty, make_kit, running, screen_text, wait_for

CAMERA_MISSING = "Camera not found"


class FaultyCamera:
    """Wraps the simulator's replay camera: ``mode`` ok, gone, stall or garbage."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.mode = "ok"
        self.failures = 0
        self.unstall = threading.Event()
        self.rng = np.random.default_rng(7)

    def start(self) -> None:
        if self.mode == "gone":
            self.failures += 1
            raise CameraError("picamera: no camera found (is the ribbon cable in?)")
        self.inner.start()

    def capture(self) -> Any:
        if self.mode == "gone":
            self.failures += 1
            raise CameraError("picamera: the camera vanished")
        if self.mode == "stall":
            self.unstall.wait(30)
        if self.mode == "garbage":
            kind = int(self.rng.integers(4))
            if kind == 0:
                return self.rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
            if kind == 1:
                return np.zeros((480, 640), np.uint8)
            if kind == 2:
                return np.zeros((0, 0, 3), np.uint8)
            return None
        return self.inner.capture()

    def close(self) -> None:
        self.inner.close()


class FlakyDisplay:
    """Wraps the kit's display: raises the I/O error of a loose I2C cable while ``broken``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.size = inner.size
        self.broken = False
        self.failures = 0

    def contrast(self, level: int) -> None:
        if self.broken:
            self.failures += 1
            raise DisplayError("ssd1306 128x64 on I2C bus 1 at 0x3C: contrast failed: [Errno 121] Remote I/O error")
        self.inner.contrast(level)

    def show(self, image: Any) -> None:
        if self.broken:
            self.failures += 1
            raise DisplayError("ssd1306 128x64 on I2C bus 1 at 0x3C: display failed: [Errno 121] Remote I/O error")
        self.inner.show(image)

    def close(self) -> None:
        self.inner.close()


def tap(kit: Kit, button: str) -> None:
    kit.daemon.post_button(ButtonPress(button, "press"))
    kit.daemon.post_button(ButtonPress(button, "release"))


def below(kit: Kit, selected: int, steps: int = 1) -> bool:
    """Whether the menu's highlight is ``steps`` lines below ``selected`` (the menu wraps round)."""
    view = kit.daemon.ui.view()
    return getattr(view, "selected", None) == (selected + steps) % len(view.items)


def shows(kit: Kit, text: str) -> bool:
    return text in screen_text(kit)


@pytest.fixture
def camera_kit(tmp_path: Path) -> Iterator[tuple[Kit, FaultyCamera]]:
    kit = make_kit(tmp_path / "state")
    camera = FaultyCamera(kit.parts.camera)
    kit.camera_worker.camera = camera
    with running(kit):
        assert kit.daemon.ask_console("restore DEMO")["code"] == "DEMO"
        tap(kit, "ok")  # experiment: the scan prompt
        wait_for(lambda: shows(kit, "ScanPromptView"), what="the scan prompt")
        yield kit, camera


def scan_reads(kit: Kit, cards: list[str]) -> bool:
    kit.shelf.lay(cards)
    reply = kit.daemon.ask_console("scan")
    return reply["status"] == "ok" and sorted(reply["ingredients"]) == sorted(cards)


def test_a_camera_vanishing_mid_scan_is_said_retried_and_recovered(camera_kit, expected_errors) -> None:
    expected_errors.expect("camera failed")
    kit, camera = camera_kit
    kit.shelf.lay(["fern", "toad"])
    wait_for(lambda: shows(kit, "ScanConfirmView"), what="the cards read")
    tap(kit, "back")  # rescan: the camera goes while the kit looks
    camera.mode = "gone"
    wait_for(lambda: shows(kit, CAMERA_MISSING), what="the camera message on the screen")
    assert kit.daemon.ask_console("scan") == {"status": "no_camera", "ingredients": []}
    assert kit.daemon.ask_console("mix") ["error"]["kind"] == "no_camera"
    tap(kit, "ok")  # the flow goes on by hand: the ingredient picker instead of the shelf
    wait_for(lambda: shows(kit, "IngredientPickerView"), what="the picker instead of the scan")
    wait_for(lambda: camera.failures >= 3, what="retries")
    assert kit.camera_worker._backoff > camera_worker_module.BACKOFF_FIRST, "no back-off"
    assert kit.daemon.ask_console("mix fern toad").get("potion")  # the game goes on meanwhile
    camera.mode = "ok"
    wait_for(lambda: kit.daemon.ui.camera_fault is None, timeout=20, what="the camera back")
    wait_for(lambda: scan_reads(kit, ["root", "claw"]), what="a scan after the camera came back")


def test_a_camera_sending_garbage_reads_unsure_and_the_kit_goes_on(camera_kit, caplog) -> None:
    kit, camera = camera_kit
    before = kit.camera_worker.readings
    camera.mode = "garbage"
    wait_for(lambda: kit.camera_worker.readings >= before + 8, what="garbage frames read")
    assert kit.camera_worker.latest.status in ("unsure", "empty")
    assert kit.daemon.ask_console("mix")["error"]["kind"] in ("shelf_unsure", "shelf_empty")
    assert kit.camera_worker._thread.is_alive() and shows(kit, "ScanPromptView")
    camera.mode = "ok"
    wait_for(lambda: scan_reads(kit, ["fern", "toad"]), what="a scan after the garbage")
    wait_for(lambda: shows(kit, "ScanConfirmView"), what="the cards read")


def test_a_stalled_camera_is_said_and_recovers(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("camera failed: camera: stalled")
    kit = make_kit(tmp_path / "state")
    camera = FaultyCamera(kit.parts.camera)
    kit.camera_worker.camera = camera
    kit.camera_worker.capture_timeout = 0.5
    with running(kit):
        kit.daemon.ask_console("restore DEMO")
        tap(kit, "ok")
        wait_for(lambda: shows(kit, "ScanPromptView"), what="the scan prompt")
        camera.mode = "stall"
        wait_for(lambda: shows(kit, CAMERA_MISSING), what="the camera message on the screen")
        assert kit.daemon.ask_console("status")["code"] == "DEMO"  # the loop is not stuck behind it
        camera.mode = "ok"
        camera.unstall.set()
        wait_for(lambda: kit.daemon.ui.camera_fault is None, timeout=20, what="the camera back")
        wait_for(lambda: scan_reads(kit, ["mushroom", "toad"]), what="a scan after the stall")


def test_a_display_raising_io_errors_is_said_on_the_console_retried_and_recovered(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("display failed")
    pty = Pty()
    kit = make_kit(tmp_path / "state", **{"console.url": pty.path})
    display = FlakyDisplay(kit.daemon.display)
    kit.daemon.display = display
    try:
        with running(kit):
            assert kit.console_worker.connected.wait(10)
            assert pty.ask("restore DEMO")["code"] == "DEMO"
            display.broken = True
            tap(kit, "down")
            pty.send(b"status\n")  # the console keeps answering, and says what is wrong
            replies = [pty.reply(skip_notices=False), pty.reply(skip_notices=False)]
            notices = [reply["notice"] for reply in replies if reply and "notice" in reply]
            assert len(notices) == 1 and notices[0]["part"] == "display", replies
            assert "Remote I/O error" in notices[0]["message"]
            assert any(reply and reply.get("code") == "DEMO" for reply in replies), replies
            tap(kit, "down")
            assert pty.ask("mix mushroom toad") == {"potion": "R+"}
            wait_for(lambda: display.failures >= 3, what="retries")  # nothing new to draw: it retries anyway
            assert kit.daemon._display_backoff > daemon_module.DISPLAY_RETRY_FIRST, "no back-off"
            display.broken = False
            wait_for(lambda: kit.daemon._display_failed_at is None, timeout=30, what="the display back")
            pty.send(b"status\n")
            replies = [pty.reply(skip_notices=False), pty.reply(skip_notices=False)]
            assert {"notice": {"part": "display", "message": None}} in replies, replies
            assert any(reply and reply.get("questions") == 1 for reply in replies), replies
            wait_for(lambda: kit.daemon.shown == kit.daemon.ui.view(), what="the current screen drawn")
            assert "MenuView" in screen_text(kit) and "selected=2" not in screen_text(kit)
    finally:
        pty.close()


def test_a_button_stuck_down_is_said_and_the_others_still_work(tmp_path: Path) -> None:
    kit = make_kit(tmp_path / "state")
    kit.parts.buttons.stuck_after = 0.3
    with running(kit):
        kit.daemon.ask_console("restore DEMO")
        kit.parts.buttons.press("up")  # and it stays down
        wait_for(lambda: shows(kit, "stuck"), what="the stuck button on the screen")
        assert "up button" in screen_text(kit)
        kit.parts.buttons.tap("back")  # the message goes away with another button
        wait_for(lambda: shows(kit, "MenuView"), what="the menu again")
        selected = kit.daemon.ui.view().selected
        kit.parts.buttons.tap("down")
        wait_for(lambda: below(kit, selected), what="down moves the menu")
        kit.parts.buttons.release("up")
        wait_for(lambda: "up" not in kit.daemon._stuck, what="the release noticed")
        kit.parts.buttons.tap("up")
        wait_for(lambda: below(kit, selected, 0), what="up works again")


def test_a_bouncing_button_gives_one_press(tmp_path: Path) -> None:
    kit = make_kit(tmp_path / "state", **{"buttons.backend": "gpio", "buttons.pin_factory": "mock",
                                          "buttons.bounce_seconds": 0.2})
    assert type(kit.parts.buttons).__name__ == "GpioButtons"
    pin = kit.parts.buttons._devices["down"].pin
    with running(kit):
        kit.daemon.ask_console("restore DEMO")
        wait_for(lambda: shows(kit, "MenuView"), what="the menu")
        selected = kit.daemon.ui.view().selected
        for _ in range(20):  # a contact chattering far inside the debounce window
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        wait_for(lambda: below(kit, selected), what="one step down")
        time.sleep(0.3)  # the window ends: the contact is read again, and it is still down
        pin.drive_high()
        time.sleep(0.3)
        kit.daemon.ask_console("status")  # let the loop handle what is queued
        assert below(kit, selected), "a bounce counted as a second press"


def test_a_vanished_serial_port_is_retried_and_reopened_while_the_buttons_go_on(tmp_path: Path, expected_errors, caplog) -> None:
    expected_errors.expect("console port failed")
    link = tmp_path / "ttyKIT"
    first = Pty()
    link.symlink_to(first.path)
    kit = make_kit(tmp_path / "state", **{"console.url": str(link)})
    second: Pty | None = None
    try:
        with running(kit):
            assert kit.console_worker.connected.wait(10)
            assert first.ask("restore DEMO")["code"] == "DEMO"
            link.unlink()  # the USB cable is pulled: the port goes, and its device node
            first.close()
            wait_for(lambda: "console port failed" in caplog.text, what="the failure noticed")
            selected = kit.daemon.ui.view().selected
            tap(kit, "down")  # the table plays on with the buttons
            wait_for(lambda: below(kit, selected), what="the buttons")
            assert kit.daemon.ask_console("mix mushroom toad") == {"potion": "R+"}
            second = Pty()
            link.symlink_to(second.path)  # plugged in again
            wait_for(lambda: kit.console_worker.connected.is_set(), timeout=30, what="the port reopened")
            deadline = time.monotonic() + 10
            while True:  # the reopening may flush a line sent too early
                second.send(b"status\n")
                reply = second.reply(1.0)
                if reply is not None or time.monotonic() > deadline:
                    break
            assert reply is not None and reply["code"] == "DEMO" and reply["questions"] == 1
            assert "the console port is back" in caplog.text
            assert kit.daemon.ui.view() is not None
    finally:
        first.close()
        if second is not None:
            second.close()
