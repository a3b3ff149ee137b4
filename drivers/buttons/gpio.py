"""The four buttons on GPIO pins, through gpiozero.

Wiring (BCM numbers, physical pins on the 40-pin header): each button between its GPIO and a
ground pin, using the Pi's internal pull-up, so a press reads low.

    up   GPIO5   (pin 29)        ground: pin 30
    down GPIO6   (pin 31)        ground: pin 34
    ok   GPIO13  (pin 33)        ground: pin 39
    back GPIO19  (pin 35)        ground: pin 39 (shared)

The pin factory is named in the configuration like gpiozero's ``GPIOZERO_PIN_FACTORY``: ``lgpio``
on a Raspberry Pi 5 (also fine on older Pis), ``rpigpio``, ``pigpio``, ``native``, or ``mock`` for
tests; ``default`` lets gpiozero choose. Each button is a gpiozero ``DigitalInputDevice`` with the
pull-up on (what ``Button`` is, without the hold thread that polls every 0.1 s): debouncing, holds
and stuck buttons are timed here in software, the same on every pin factory. A change within
``bounce_time`` of the last one is ignored, and the contact is read again when the window ends,
so a quick tap is never lost (gpiozero's own bounce_time drops it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from drivers.buttons.base import BUTTONS, ButtonEvent, ButtonName, Buttons, ButtonsError, Debouncer
from drivers.platform import make_pin_factory

DEFAULT_PINS: dict[ButtonName, int | str] = {"up": 5, "down": 6, "ok": 13, "back": 19}
DEFAULT_BOUNCE_TIME = 0.03


class GpioButtons(Buttons):
    """Buttons on GPIO pins via gpiozero (pull-up, pressed = low).

    Options: ``pins`` (button -> BCM number or gpiozero pin name; defaults up=5, down=6, ok=13,
    back=19; missing buttons keep their default), ``pin_factory`` (a name, or a gpiozero factory
    object; default ``default``), ``bounce_time`` (seconds, default 0.03; None: none),
    ``hold_time`` (default 1 s), ``stuck_after`` (default 30 s), ``on_event``.
    A button already pressed when the kit starts is reported pressed (and later stuck).
    """

    name = "gpio buttons"

    def __init__(self, *, pins: Mapping[str, int | str] | None = None,
                 pin_factory: str | Any | None = "default",
                 bounce_time: float | None = DEFAULT_BOUNCE_TIME,
                 clock: Callable[[], float] = time.monotonic, **options: Any) -> None:
        super().__init__(**options)
        chosen: dict[ButtonName, int | str] = dict(DEFAULT_PINS)
        for button, pin in (pins or {}).items():
            if button not in BUTTONS:
                raise ValueError(f"pins: unknown button {button!r}; buttons: {', '.join(BUTTONS)}")
            chosen[button] = pin  # type: ignore[index,unused-ignore]
        if len(set(map(str, chosen.values()))) != len(chosen):
            raise ValueError(f"pins: two buttons share a pin: {chosen}")
        if bounce_time is not None and bounce_time < 0:
            raise ValueError(f"bounce_time must be >= 0 seconds, not {bounce_time!r}")
        self.pins = chosen
        self.bounce_time = bounce_time
        self._clock = clock
        self._settle_timers: dict[str, threading.Timer] = {}
        try:
            from gpiozero import DigitalInputDevice  # type: ignore[import-untyped]
        except ImportError as exc:
            raise ButtonsError(f"{self.name}: gpiozero is not installed: {exc}") from exc
        try:
            factory = make_pin_factory(pin_factory)
        except OSError as exc:
            raise ButtonsError(f"{self.name}: {exc}") from exc
        self._devices: dict[ButtonName, Any] = {}
        self._debouncers: dict[ButtonName, Debouncer] = {}
        try:
            for button, pin in chosen.items():
                device = DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                            pin_factory=factory)
                self._devices[button] = device
                self._debouncers[button] = Debouncer(bounce_time)
                device.when_activated = self._callback(button, True)
                device.when_deactivated = self._callback(button, False)
        except Exception as exc:  # gpiozero.GPIOPinInUse, PinInvalidPin, lgpio errors...
            self._close_devices()
            raise ButtonsError(
                f"{self.name}: cannot use pin {pin} for {button!r}: {exc}") from exc
        for button, device in self._devices.items():
            if device.is_active:
                self._edge(button, True)

    def _callback(self, button: ButtonName, level: bool) -> Callable[[], None]:
        def callback() -> None:
            self._edge(button, level)
        return callback

    def _edge(self, button: ButtonName, level: bool, *, settling: bool = False) -> None:
        with self._lock:
            if self._closed:
                return
            debouncer = self._debouncers[button]
            state = debouncer.update(level, self._clock(), settling=settling)
            if state is None:
                if level != debouncer.state and button not in self._settle_timers:
                    delay = max(0.0, debouncer.settle_at - self._clock()) + 0.001
                    timer = threading.Timer(delay, self._settle, (button,))
                    timer.daemon = True
                    self._settle_timers[button] = timer
                    timer.start()
                return
            if state:
                self._pressed(button)
            else:
                self._released(button)

    def _settle(self, button: ButtonName) -> None:
        with self._lock:
            self._settle_timers.pop(button, None)
            device = self._devices.get(button)
            if device is None or self._closed:
                return
            try:
                level = bool(device.is_active)
            except Exception:  # the pin went away while closing
                return
            self._edge(button, level, settling=True)

    def _close_devices(self) -> None:
        for device in self._devices.values():
            try:
                device.close()
            except Exception:
                pass
        self._devices = {}

    def close(self) -> None:
        with self._lock:
            for timer in self._settle_timers.values():
                timer.cancel()
            self._settle_timers.clear()
            super().close()
            self._close_devices()


__all__ = ["DEFAULT_PINS", "GpioButtons", "ButtonEvent"]
