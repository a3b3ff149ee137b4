"""Buttons: ``open_buttons(name, **options)`` gives a stream of ``ButtonEvent``s;
``open_configured_buttons`` takes the kit's :class:`ButtonSettings`.

Backends: ``gpio`` (gpiozero, pins and pin factory from the configuration), ``keyboard`` (the
simulator's terminal), ``queue`` (tests and scripts push events; alias ``fake``) and ``disabled``
(no events ever). Events: ``press``, ``release``, ``hold`` and ``stuck`` for ``up``, ``down``,
``ok``, ``back``, through ``on_event`` or ``get(timeout)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from drivers.buttons.base import (
    BUTTONS, KINDS, ButtonEvent, ButtonName, Buttons, ButtonsError, Debouncer, EventKind,
    QueueButtons,
)
from drivers.platform import check_backend_name

__all__ = ["BUTTONS", "KINDS", "ButtonEvent", "ButtonName", "ButtonSettings", "Buttons", "ButtonsError",
           "Debouncer", "EventKind", "QueueButtons", "open_buttons", "open_configured_buttons"]


@dataclass(frozen=True)
class ButtonSettings:
    """The buttons as configured, and where their events go: each backend takes what applies to it."""

    on_event: Callable[[ButtonEvent], None] | None = None
    pins: Mapping[str, int] = field(default_factory=dict)
    pin_factory: str = "default"
    bounce_time: float | None = None
    hold_time: float | None = None
    on_other_key: Callable[[str], None] | None = None

    def options_for(self, backend: str) -> dict[str, Any]:
        """The constructor options of ``backend`` (a resolved name) from these settings."""
        options: dict[str, Any] = {"on_event": self.on_event}
        if backend == "gpio":
            options.update(pins=dict(self.pins), pin_factory=self.pin_factory or "default",
                           bounce_time=self.bounce_time, hold_time=self.hold_time)
        elif backend == "keyboard":
            options["on_other_key"] = self.on_other_key
        return options


def open_configured_buttons(name: str, settings: ButtonSettings) -> Buttons:
    """The button backend ``name`` opened with what ``settings`` say of it."""
    return open_buttons(name, **settings.options_for(check_backend_name("buttons", name)))


def open_buttons(name: str, **options: Any) -> Buttons:
    """A button backend by name; options go to its constructor.

    >>> buttons = open_buttons("fake")
    >>> buttons.tap("ok"); buttons.drain()
    [ButtonEvent('ok', 'press'), ButtonEvent('ok', 'release')]
    """
    backend = check_backend_name("buttons", name)
    if backend == "gpio":
        from drivers.buttons.gpio import GpioButtons

        return GpioButtons(**options)
    if backend == "keyboard":
        from drivers.buttons.keyboard import KeyboardButtons

        return KeyboardButtons(**options)
    if backend == "queue":
        return QueueButtons(**options)
    buttons = Buttons(**options)
    buttons.name = "buttons (disabled)"
    return buttons
