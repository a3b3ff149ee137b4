"""Board detection, backend choice, pin factories, and the drivers' doctests."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from drivers.platform import (
    FAMILIES, BackendChoiceError, GPIOError, check_backend_name, choose_backend, is_raspberry_pi,
    is_raspberry_pi_5, make_pin_factory, read_board_model,
)

MODULES = [
    "drivers.platform", "drivers.camera", "drivers.camera.picamera", "drivers.display.terminal",
    "drivers.buttons", "drivers.buttons.base", "drivers.buttons.keyboard", "drivers.led",
]


@pytest.mark.parametrize("module", MODULES)
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module),
                             optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    assert result.failed == 0 and result.attempted > 0


def test_raspberry_pi_detection(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert read_board_model(model) == "Raspberry Pi 5 Model B Rev 1.0"
    assert is_raspberry_pi(model) and is_raspberry_pi_5(model)
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert is_raspberry_pi(model) and not is_raspberry_pi_5(model)
    model.write_bytes(b"Pine64 RockPro64\x00")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "missing") and read_board_model(tmp_path) is None


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_auto_is_real_on_a_pi_and_simulated_only_when_asked(family: str) -> None:
    fam = FAMILIES[family]
    assert choose_backend(family, "auto", simulate=False, on_pi=True) == fam.auto_real
    assert fam.auto_real in fam.real
    assert choose_backend(family, "auto", simulate=True, on_pi=False) == fam.auto_simulated
    assert choose_backend(family, "auto", simulate=True, on_pi=True) == fam.auto_simulated
    with pytest.raises(BackendChoiceError, match=f"no {family} hardware here"):
        choose_backend(family, "auto", simulate=False, on_pi=False)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_fake_is_refused_on_a_pi_without_simulate(family: str) -> None:
    with pytest.raises(BackendChoiceError, match=f"{family} backend 'fake' is a simulation and "
                                                 "this is a Raspberry Pi"):
        choose_backend(family, "fake", simulate=False, on_pi=True)
    assert choose_backend(family, "fake", simulate=True, on_pi=True) in FAMILIES[family].simulated
    assert choose_backend(family, "fake", simulate=False, on_pi=False) in FAMILIES[family].simulated
    assert choose_backend(family, "disabled", simulate=False, on_pi=True) == "disabled"
    real = FAMILIES[family].real[0]
    assert choose_backend(family, real, simulate=False, on_pi=False) == real


def test_aliases_and_unknown_names() -> None:
    assert check_backend_name("camera", "picamera2") == "picamera"
    assert check_backend_name("buttons", "fake") == "queue"
    with pytest.raises(ValueError, match="unknown camera backend 'webcm'; valid: picamera, "
                                         "webcam, any, replay, fake, picamera2, disabled"):
        choose_backend("camera", "webcm", simulate=True, on_pi=False)
    with pytest.raises(ValueError, match="unknown hardware family 'radio'"):
        choose_backend("radio", "auto", simulate=True, on_pi=False)


def test_pin_factories_by_name() -> None:
    from gpiozero.pins.mock import MockFactory

    assert make_pin_factory(None) is None and make_pin_factory("") is None
    assert make_pin_factory("default") is None
    mock = make_pin_factory("mock")
    assert isinstance(mock, MockFactory) and make_pin_factory(mock) is mock
    with pytest.raises(ValueError, match="unknown gpiozero pin factory 'bogus'"):
        make_pin_factory("bogus")


def test_missing_gpio_library_is_gpio_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "gpiozero.pins.rpigpio", None)
    with pytest.raises(GPIOError, match="cannot start the 'rpigpio' GPIO pin factory"):
        make_pin_factory("rpigpio")
    assert issubclass(GPIOError, OSError)
