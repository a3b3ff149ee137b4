"""Buttons: ``open_buttons(name, **options)`` gives a stream of ``ButtonEvent``s.

Backends: ``gpio`` (gpiozero, pins and pin factory from the configuration), ``keyboard`` (the
simulator's terminal), ``queue`` (tests and scripts push events; alias ``fake``) and ``disabled``
(no events ever). Events: ``press``, ``release``, ``hold`` and ``stuck`` for ``up``, ``down``,
``ok``, ``back``, through ``on_event`` or ``get(timeout)``.
"""

from __future__ import annotations

from typing import Any

from drivers.buttons.base import (
    BUTTONS, KINDS, ButtonEvent, ButtonName, Buttons, ButtonsError, Debouncer, EventKind,
    QueueButtons,
)
from drivers.platform import check_backend_name

__all__ = ["BUTTONS", "KINDS", "ButtonEvent", "ButtonName", "Buttons", "ButtonsError",
           "Debouncer", "EventKind", "QueueButtons", "open_buttons"]


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
