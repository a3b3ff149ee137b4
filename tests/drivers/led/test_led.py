"""The cauldron LED: gpiozero PWMLED on mock PWM pins, fake, disabled."""

from __future__ import annotations

import math

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.led import FakeLed, GpioLed, LedError, open_led


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory(pin_class=MockPWMPin)


def test_gpio_led_sets_pwm_duty_on_gpio18(factory: MockFactory) -> None:
    led = open_led("gpio", pin_factory=factory)
    assert isinstance(led, GpioLed) and led.name == "led on GPIO 18"
    pin = factory.pin(18)
    assert pin.state == 0
    led.on(0.25)
    assert pin.state == pytest.approx(0.25) and led.is_lit
    led.on()
    assert pin.state == pytest.approx(1.0)
    led.off()
    assert pin.state == 0 and not led.is_lit
    led.on(0.5)
    led.close()
    assert pin.state == 0
    led.close()
    with pytest.raises(LedError, match="closed"):
        led.on(1.0)


def test_gpio_led_other_pin_and_active_low(factory: MockFactory) -> None:
    with open_led("gpio", pin=12, active_high=False, pin_factory=factory) as led:
        led.on(1.0)
        assert factory.pin(12).state == pytest.approx(0.0)


def test_levels_are_checked() -> None:
    led = open_led("fake")
    for bad in (-0.1, 1.5, math.nan, "1", True):
        with pytest.raises(ValueError, match="LED level"):
            led.on(bad)  # type: ignore[arg-type]
    assert isinstance(led, FakeLed) and list(led.history) == []


def test_pin_in_use_is_led_error(factory: MockFactory) -> None:
    other = LED(18, pin_factory=factory)
    try:
        with pytest.raises(LedError, match="led on GPIO 18: cannot use the pin"):
            open_led("gpio", pin_factory=factory)
        assert isinstance(LedError("x"), OSError)
    finally:
        other.close()


def test_disabled_and_unknown() -> None:
    led = open_led("disabled")
    led.on(1.0)
    led.close()
    with pytest.raises(ValueError, match="unknown led backend 'neon'; valid: gpio, fake, "
                                         "disabled"):
        open_led("neon")
