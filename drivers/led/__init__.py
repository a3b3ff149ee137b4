"""The cauldron's optional white LED: ``open_led(name, **options)``.

Wiring: the LED (through a transistor or MOSFET driver for anything over a few mA, with its
resistor) on GPIO18 (physical pin 12, hardware PWM channel 0), ground on pin 14. Backends:
``gpio`` (gpiozero ``PWMLED``), ``fake`` (records the level, for tests and the simulator) and
``disabled`` (no LED). Levels run from 0.0 (off) to 1.0 (full).
"""

from __future__ import annotations

import abc
import collections
import math
from typing import Any

from drivers.platform import check_backend_name, make_pin_factory

DEFAULT_PIN = 18
DEFAULT_FREQUENCY = 1000


class LedError(OSError):
    """The LED's GPIO failed: the library is missing, or the pin is busy or refused."""


def check_level(level: float) -> float:
    """``level`` as a float in 0.0-1.0; ValueError otherwise.

    >>> check_level(1)
    1.0
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or math.isnan(level) \
            or not 0.0 <= level <= 1.0:
        raise ValueError(f"LED level {level!r} is not a number from 0.0 to 1.0")
    return float(level)


class Led(abc.ABC):
    """An LED with a brightness: ``on(level)``, ``off()``, ``close()``; ``level`` is the last set."""

    name = "led"

    def __init__(self) -> None:
        self.level = 0.0

    def on(self, level: float = 1.0) -> None:
        """Light the LED at ``level`` (0.0-1.0)."""
        value = check_level(level)
        self._set(value)
        self.level = value

    def off(self) -> None:
        self._set(0.0)
        self.level = 0.0

    @abc.abstractmethod
    def _set(self, level: float) -> None: ...

    def close(self) -> None:
        """Switch off and release; safe to call twice."""

    @property
    def is_lit(self) -> bool:
        return self.level > 0

    def __enter__(self) -> Led:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} level={self.level:g}>"


class FakeLed(Led):
    """Remembers the last levels set (``history``, at most ``HISTORY`` of them), for tests and the simulator."""

    name = "fake led"
    HISTORY = 1000

    def __init__(self) -> None:
        super().__init__()
        self.history: collections.deque[float] = collections.deque(maxlen=self.HISTORY)

    def _set(self, level: float) -> None:
        self.history.append(level)


class DisabledLed(Led):
    """No LED: calls do nothing."""

    name = "led (disabled)"

    def _set(self, level: float) -> None:
        pass


class GpioLed(Led):
    """The LED on a GPIO pin with gpiozero ``PWMLED``.

    Options: ``pin`` (BCM number or gpiozero pin name, default 18), ``frequency`` (PWM Hz,
    default 1000), ``active_high`` (default True), ``pin_factory`` (as for the buttons).
    """

    def __init__(self, *, pin: int | str = DEFAULT_PIN, frequency: int = DEFAULT_FREQUENCY,
                 active_high: bool = True, pin_factory: str | Any | None = "default") -> None:
        super().__init__()
        self.name = f"led on GPIO {pin}"
        try:
            from gpiozero import PWMLED  # type: ignore[import-untyped]
        except ImportError as exc:
            raise LedError(f"{self.name}: gpiozero is not installed: {exc}") from exc
        try:
            factory = make_pin_factory(pin_factory)
        except OSError as exc:
            raise LedError(f"{self.name}: {exc}") from exc
        try:
            self._device: Any = PWMLED(pin, active_high=active_high, initial_value=0,
                                       frequency=frequency, pin_factory=factory)
        except Exception as exc:  # GPIOPinInUse, PinPWMUnsupported, lgpio errors
            raise LedError(f"{self.name}: cannot use the pin: {exc}") from exc

    def _set(self, level: float) -> None:
        if self._device is None:
            raise LedError(f"{self.name}: closed")
        try:
            self._device.value = level
        except Exception as exc:
            raise LedError(f"{self.name}: cannot set level {level:g}: {exc}") from exc

    def close(self) -> None:
        device, self._device = self._device, None
        if device is not None:
            try:
                device.off()
            finally:
                device.close()
        self.level = 0.0


def open_led(name: str, **options: Any) -> Led:
    """An LED backend by name; options go to its constructor.

    >>> led = open_led("fake"); led.on(0.5); led.off(); list(led.history)
    [0.5, 0.0]
    """
    backend = check_backend_name("led", name)
    if backend == "gpio":
        return GpioLed(**options)
    if backend == "fake":
        return FakeLed(**options)
    return DisabledLed(**options)


def open_configured_led(name: str, pin: int | str = DEFAULT_PIN) -> Led:
    """The LED backend ``name``; the pin applies to the gpio backend only."""
    backend = check_backend_name("led", name)
    return open_led(backend, pin=pin) if backend == "gpio" else open_led(backend)


__all__ = ["DEFAULT_PIN", "DisabledLed", "FakeLed", "GpioLed", "Led", "LedError", "check_level",
           "open_configured_led", "open_led"]
