"""Each driver family takes the kit's settings and gives its chosen backend the part it uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.buttons import ButtonEvent, ButtonSettings, QueueButtons, open_configured_buttons
from drivers.camera import CameraSettings, open_configured_camera
from drivers.led import DisabledLed, FakeLed, open_configured_led

CAMERA = CameraSettings(size=(320, 240), controls={"AfMode": "Manual"}, device="/dev/video2",
                        replay_dir=None)


@pytest.mark.parametrize(("backend", "options"), [
    ("picamera", {"size": (320, 240), "controls": {"AfMode": "Manual"}}),
    ("webcam", {"device": "/dev/video2", "size": (320, 240)}),
    ("any", {"picamera": {"size": (320, 240), "controls": {"AfMode": "Manual"}},
             "webcam": {"device": "/dev/video2", "size": (320, 240)}}),
    ("replay", {"background_size": (320, 240)}),
    ("disabled", {}),
])
def test_each_camera_backend_gets_its_part_of_the_settings(backend: str, options: dict[str, object]) -> None:
    assert CAMERA.options_for(backend) == options


def test_the_replay_camera_serves_the_configured_folder(tmp_path: Path) -> None:
    assert CameraSettings(replay_dir=tmp_path).options_for("replay")["frames"] == tmp_path


def test_a_configured_camera_opens_by_alias_with_its_size() -> None:
    camera = open_configured_camera("fake", CAMERA)
    camera.start()
    try:
        assert camera.capture().shape == (240, 320, 3)
    finally:
        camera.close()


def test_each_button_backend_gets_its_part_of_the_settings() -> None:
    events: list[ButtonEvent] = []
    settings = ButtonSettings(on_event=events.append, pins={"ok": 13}, pin_factory="mock",
                              bounce_time=0.02, hold_time=1.5, on_other_key=print)
    assert settings.options_for("gpio") == {"on_event": events.append, "pins": {"ok": 13},
                                            "pin_factory": "mock", "bounce_time": 0.02, "hold_time": 1.5}
    assert settings.options_for("keyboard") == {"on_event": events.append, "on_other_key": print}
    assert settings.options_for("queue") == {"on_event": events.append}
    buttons = open_configured_buttons("fake", settings)
    assert isinstance(buttons, QueueButtons)
    buttons.tap("ok")
    assert [event.button for event in events] == ["ok", "ok"]


def test_the_led_pin_goes_to_the_gpio_backend_only() -> None:
    assert isinstance(open_configured_led("fake", pin=5), FakeLed)
    assert isinstance(open_configured_led("disabled", pin=5), DisabledLed)
    with pytest.raises(ValueError, match="led"):
        open_configured_led("lamp")
