"""Parts at start and stop: a late part is opened again, a library's surprise never crashes the kit,
stopping stays under the unit's TimeoutStopSec=, and an error stays on the panel at exit."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from luma.core.device import dummy  # type: ignore[import-untyped]

import drivers.display
import drivers.led
from drivers.display import Display, DisplayError
from drivers.led import FakeLed, LedError
from firmware import reopen
from firmware.config import load_config
from firmware.reopen import PartReopener
from firmware.runtime import EXIT_GRACE_SECONDS, SHUTDOWN_SECONDS, Kit, RunOptions, build_kit

WAIT = 10.0  # generous: the loop and the reopener on a loaded CI machine


def make_kit(state: Path, **overrides: object) -> Kit:
    config = load_config(None, {"storage.state_dir": str(state), **overrides})
    return build_kit(config, RunOptions(simulate=True, headless=True), state)


def turn_until(kit: Kit, condition: Any) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        kit.daemon.step(0.02)


class RecordingDummy(dummy):  # type: ignore[misc]
    """luma's dummy device, recording what luma's cleanup does to the panel."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.calls: list[str] = []

    def hide(self) -> None:
        self.calls.append("hide")

    def clear(self) -> None:
        self.calls.append("clear")
        super().clear()


# --- a part that is late at start ------------------------------------------------------------------

def test_a_display_missing_at_start_is_opened_when_it_appears_and_shows_the_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expected_errors: Any) -> None:
    expected_errors.expect("display unavailable")
    monkeypatch.setattr(reopen, "BACKOFF_FIRST", 0.05)
    real_open = drivers.display.open_display
    present = threading.Event()  # /dev/i2c-1 appears

    def open_display(name: str = "luma", **options: Any) -> Display:
        if name != "disabled" and not present.is_set():
            raise DisplayError("ssd1306 128x64 on I2C bus 1 at 0x3C: cannot open: [Errno 2] /dev/i2c-1")
        return real_open(name, **options)

    monkeypatch.setattr(drivers.display, "open_display", open_display)
    kit = make_kit(tmp_path / "state")
    disabled = kit.daemon.display
    assert disabled.device is None and "display" in [family for family, _ in kit.parts.problems]
    kit.start()
    try:
        kit.daemon.drain()
        present.set()
        turn_until(kit, lambda: kit.daemon.display is not disabled and kit.daemon.display.last_image is not None)
        assert kit.parts.display is kit.daemon.display and kit.daemon.display.device is not None
        assert disabled._closed
    finally:
        kit.stop()


def test_a_led_missing_at_start_is_opened_and_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   expected_errors: Any) -> None:
    expected_errors.expect("led unavailable")
    monkeypatch.setattr(reopen, "BACKOFF_FIRST", 0.05)
    tries = []

    def open_led(name: str, **options: Any) -> Any:
        if name == "disabled":
            return drivers.led.DisabledLed()
        tries.append(name)
        if len(tries) < 3:
            raise LedError("led on GPIO 18: cannot use the pin: busy")
        return FakeLed()

    monkeypatch.setattr(drivers.led, "open_led", open_led)
    kit = make_kit(tmp_path / "state")
    kit.start()
    try:
        turn_until(kit, lambda: isinstance(kit.daemon.led, FakeLed))
        assert kit.parts.led is kit.daemon.led and len(tries) == 3
    finally:
        kit.stop()


def test_the_reopener_backs_off_and_gives_up_on_a_refused_configuration(expected_errors: Any) -> None:
    expected_errors.expect("led cannot be opened")
    delivered: list[tuple[str, object]] = []
    calls: dict[str, list[float]] = {"display": [], "led": []}
    done = threading.Event()

    def display() -> object:
        calls["display"].append(time.monotonic())
        if len(calls["display"]) < 4:
            raise OSError("not yet")
        done.set()
        return "panel"

    def led() -> object:
        calls["led"].append(time.monotonic())
        raise ValueError("pin 99 does not exist")

    reopener = PartReopener({"display": display, "led": led}, lambda f, p: delivered.append((f, p)),
                            first=0.02, maximum=0.2)
    reopener.start()
    assert done.wait(WAIT)
    reopener.stop(WAIT)
    assert delivered == [("display", "panel")] and reopener.pending == []
    assert len(calls["led"]) == 1  # a configuration error is not tried again
    gaps = [b - a for a, b in zip(calls["display"], calls["display"][1:])]
    assert gaps[0] < gaps[-1], gaps  # each wait longer than the one before


# --- whatever a driver's library raises, the kit starts ----------------------------------------

def test_a_library_error_in_a_drivers_constructor_disables_the_part_instead_of_crashing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expected_errors: Any) -> None:
    expected_errors.expect("led unavailable")

    def open_led(name: str, **options: Any) -> Any:
        if name == "disabled":
            return drivers.led.DisabledLed()
        raise RuntimeError("lgpio: unexpected chip state")

    monkeypatch.setattr(drivers.led, "open_led", open_led)
    kit = make_kit(tmp_path / "state")
    try:
        assert isinstance(kit.parts.led, drivers.led.DisabledLed)
        assert ("led", "RuntimeError: lgpio: unexpected chip state") in kit.parts.problems
        assert kit.reopener is None  # not a part that is late: nothing to try again
    finally:
        kit.stop()


def test_an_old_luma_core_is_named_and_the_kit_starts_without_a_display(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expected_errors: Any) -> None:
    # luma.core 2.5.1's create_parser(description): the keyword arguments the kit passes are new in 2.5.2
    expected_errors.expect("luma.core")
    from luma.core import cmdline  # type: ignore[import-untyped]

    def create_parser(description: str) -> Any:
        raise AssertionError("not reached")

    monkeypatch.setattr(cmdline, "create_parser", create_parser)
    with pytest.raises(ValueError, match=r"luma.core .* too old, the kit needs 2.5.2"):
        drivers.display.parse_luma_args(["--display", "ssd1306"])
    kit = make_kit(tmp_path / "state")
    try:
        assert kit.daemon.display.device is None and kit.daemon.display.size == (128, 64)
        assert any(family == "display" and "2.5.2" in problem for family, problem in kit.parts.problems)
    finally:
        kit.stop()


def test_setup_requires_the_luma_core_whose_create_parser_the_kit_calls() -> None:
    import ast
    import inspect

    from luma.core import cmdline

    setup = Path(__file__).resolve().parents[2] / "setup.py"
    requirements = [node.value for node in ast.walk(ast.parse(setup.read_text(encoding="utf-8")))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("luma.core")]
    assert requirements == ["luma.core>=2.5.2"]  # create_parser(parser=, autocomplete=) is new in 2.5.2
    assert {"parser", "autocomplete"} <= set(inspect.signature(cmdline.create_parser).parameters)


# --- stopping ----------------------------------------------------------------------------------

def test_stopping_is_bounded_even_when_a_part_hangs_while_closing(tmp_path: Path, expected_errors: Any) -> None:
    expected_errors.expect("did not close within")
    kit = make_kit(tmp_path / "state")
    kit.start()
    released = threading.Event()

    class HangingLed(FakeLed):
        def close(self) -> None:
            released.wait(60)  # a GPIO library stuck in a kernel call

    kit.parts.led = HangingLed()
    started = time.monotonic()
    try:
        kit.stop(budget=0.5)
        assert time.monotonic() - started < 5.0
    finally:
        released.set()


def test_the_shutdown_budget_is_below_the_units_stop_timeout() -> None:
    from tests.systemd.test_unit import UNIT, one, parse_unit

    timeout = float(one(parse_unit(UNIT.read_text(encoding="utf-8")), "Service", "TimeoutStopSec"))
    # the loop's last turn (0.1 s), the store's close and the interpreter's exit take the rest
    assert SHUTDOWN_SECONDS + EXIT_GRACE_SECONDS + 2 <= timeout


# --- the last message stays on the panel --------------------------------------------------------

def test_luma_switches_the_panel_off_on_close_unless_told_to_keep_the_image() -> None:
    plain = RecordingDummy(width=128, height=64, mode="1")
    Display(plain, name="panel").close()
    assert "hide" in plain.calls
    kept = RecordingDummy(width=128, height=64, mode="1")
    Display(kept, name="panel").close(keep_image=True)
    assert kept.calls == [] and kept.persist is True  # luma's own exit hook then leaves it lit too


def test_a_kit_stopping_on_a_fault_leaves_the_message_on_the_panel(tmp_path: Path) -> None:
    kit = make_kit(tmp_path / "state")
    device = RecordingDummy(width=128, height=64, mode="1")
    kit.daemon.display = kit.parts.display = Display(device, name="panel")
    kit.start()
    kit.stop(fault="Kit stopped: RuntimeError: boom")
    assert device.calls == [] and device.persist is True
    assert device.image.getbbox() is not None  # something is drawn: the message


def test_a_configuration_error_before_the_display_opened_is_left_on_the_panel(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import drivers.platform
    from firmware.daemon_cli import main

    device = RecordingDummy(width=128, height=64, mode="1")
    opened: list[str] = []

    def open_display(name: str = "luma", **options: Any) -> Display:
        opened.append(name)
        return Display(device, name="panel")

    monkeypatch.setattr(drivers.platform, "is_raspberry_pi", lambda *args: True)
    monkeypatch.setattr(drivers.display, "open_display", open_display)
    bad = tmp_path / "labkit.toml"
    bad.write_text("[camera]\nfps = 30\n", encoding="utf-8")
    assert main(["run", "--config", str(bad)]) == 2
    assert "unknown key [camera] fps" in capsys.readouterr().out
    assert opened == ["luma"] and device.persist is True and device.calls == []
    assert device.image.getbbox() is not None


def test_a_camera_call_stalled_in_its_driver_does_not_hold_the_exit() -> None:
    # Python joins concurrent.futures' workers at exit: a capture stalled in the driver (abandoned by
    # CaptureTimeout) would keep the process alive until systemd's SIGKILL
    import subprocess
    import sys

    code = ("import threading\n"
            "from drivers.camera.base import CaptureTimeout, CameraError\n"
            "from firmware.runtime import exit_past_stuck_threads\n"
            "guard = CaptureTimeout('picamera 0', 0.1)\n"
            "try:\n"
            "    guard.call(lambda: threading.Event().wait(), 'frame')\n"
            "except CameraError:\n"
            "    pass\n"
            "guard.close()\n"
            "exit_past_stuck_threads(3, grace=0.2)\n")
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 3, result.stderr
    assert "threads stuck in a driver (picamera 0-capture_0)" in result.stderr


def test_no_thread_stuck_means_an_ordinary_exit() -> None:
    from firmware.runtime import exit_past_stuck_threads

    exits: list[int] = []
    exit_past_stuck_threads(0, grace=0.1, exit=exits.append)
    assert exits == []
