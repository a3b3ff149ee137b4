"""Where the kit runs, and which backend each hardware family uses.

Every hardware family (camera, display, buttons, led) has backends chosen by name from the
configuration, like gpiozero's pin factories: the real ones, ``fake`` (tests and the simulator) and
``disabled``. For the camera, ``auto`` on a Raspberry Pi is ``any``: the camera module, else a USB
webcam. A backend's hardware library is imported only inside that backend. ``auto`` picks the
real backend on a Raspberry Pi and the simulated one only when the kit runs with ``--simulate``; a
fake is never chosen silently on real hardware.

>>> choose_backend("camera", "auto", simulate=False, on_pi=True)
'any'
>>> choose_backend("camera", "auto", simulate=True, on_pi=False)
'replay'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")


def read_board_model(path: str | os.PathLike[str] = DEVICE_TREE_MODEL) -> str | None:
    """The board's model string from the device tree, or None where there is none."""
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    return raw.rstrip(b"\0").decode("ascii", errors="replace").strip()


def is_raspberry_pi(path: str | os.PathLike[str] = DEVICE_TREE_MODEL) -> bool:
    """True when the device tree names a Raspberry Pi (``/proc/device-tree/model``)."""
    model = read_board_model(path)
    return model is not None and model.startswith("Raspberry Pi")


def is_raspberry_pi_5(path: str | os.PathLike[str] = DEVICE_TREE_MODEL) -> bool:
    """True on a Raspberry Pi 5, whose GPIO needs lgpio instead of RPi.GPIO."""
    model = read_board_model(path)
    return model is not None and model.startswith("Raspberry Pi 5")


class BackendChoiceError(ValueError):
    """A backend name that is unknown, or not allowed where the kit runs."""


@dataclass(frozen=True)
class Family:
    """The backend names of one hardware family."""

    name: str
    real: tuple[str, ...]
    simulated: tuple[str, ...]
    auto_real: str
    auto_simulated: str
    aliases: tuple[tuple[str, str], ...] = ()
    configured: tuple[str, ...] = ()
    """The names the configuration file offers (after ``auto``), in its order: the usual spelling
    of each backend (an alias where the alias is the library's name), ``fake`` and ``disabled``."""

    @property
    def choices(self) -> tuple[str, ...]:
        """What the configuration accepts for this family's ``backend``."""
        return ("auto", *self.configured)

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.real, *self.simulated, *(a for a, _ in self.aliases), "disabled")

    def resolve_alias(self, name: str) -> str:
        return dict(self.aliases).get(name, name)


FAMILIES: dict[str, Family] = {
    "camera": Family("camera", real=("picamera", "webcam", "any"), simulated=("replay",),
                     auto_real="any", auto_simulated="replay",
                     aliases=(("fake", "replay"), ("picamera2", "picamera")),
                     configured=("picamera2", "webcam", "replay", "fake", "disabled")),
    "display": Family("display", real=("luma",), simulated=("dummy", "emulator"),
                      auto_real="luma", auto_simulated="dummy", aliases=(("fake", "dummy"),)),
    "buttons": Family("buttons", real=("gpio",), simulated=("keyboard", "queue"),
                      auto_real="gpio", auto_simulated="keyboard", aliases=(("fake", "queue"),),
                      configured=("gpio", "keyboard", "fake", "disabled")),
    "led": Family("led", real=("gpio",), simulated=("fake",),
                  auto_real="gpio", auto_simulated="fake", configured=("gpio", "fake", "disabled")),
}


def family(name: str) -> Family:
    """The family called ``name``; ValueError naming the known ones otherwise."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise BackendChoiceError(
            f"unknown hardware family {name!r}; known: {', '.join(FAMILIES)}") from None


def check_backend_name(family_name: str, name: str) -> str:
    """``name`` with aliases resolved (``fake`` -> the family's fake); ValueError if unknown."""
    fam = family(family_name)
    if name not in fam.names:
        raise BackendChoiceError(
            f"unknown {family_name} backend {name!r}; valid: {', '.join(fam.names)}")
    return fam.resolve_alias(name)


def choose_backend(family_name: str, name: str, *, simulate: bool, on_pi: bool) -> str:
    """The backend to open for ``family_name`` given the configured ``name``.

    ``auto`` means the simulated backend when ``simulate``, else the real backend on a Raspberry
    Pi, else an error naming the family. A simulated backend named explicitly is refused on a
    Raspberry Pi unless ``simulate`` is set. Aliases come back resolved.

    >>> choose_backend("buttons", "fake", simulate=True, on_pi=True)
    'queue'
    >>> choose_backend("led", "auto", simulate=False, on_pi=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    BackendChoiceError: no led hardware here (not a Raspberry Pi) ... or run with --simulate
    """
    fam = family(family_name)
    if name == "auto":
        if simulate:
            return fam.auto_simulated
        if on_pi:
            return fam.auto_real
        raise BackendChoiceError(
            f"no {family_name} hardware here (not a Raspberry Pi) for backend 'auto'; "
            f"name a {family_name} backend ({', '.join(fam.names)}) or run with --simulate")
    resolved = check_backend_name(family_name, name)
    if resolved in fam.simulated and on_pi and not simulate:
        raise BackendChoiceError(
            f"{family_name} backend {name!r} is a simulation and this is a Raspberry Pi; "
            f"use {fam.auto_real!r} (or 'disabled'), or run with --simulate")
    return resolved


PIN_FACTORIES: dict[str, tuple[str, str]] = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
    "mock": ("gpiozero.pins.mock", "MockFactory"),
}


def make_pin_factory(name: str | Any | None, **options: Any) -> Any:
    """A gpiozero pin factory by name (``lgpio``, ``rpigpio``, ``pigpio``, ``native``, ``mock``).

    None, ``""`` or ``default`` gives None: gpiozero then picks its own (honouring
    ``GPIOZERO_PIN_FACTORY``; lgpio first, as a Raspberry Pi 5 needs). An already-made factory
    object is passed through, so tests can share one ``MockFactory``. ``mock`` is never chosen by
    default. Failing to load the library raises ``GPIOError`` naming the factory.
    """
    if name is None or name in ("", "default"):
        return None
    if not isinstance(name, str):
        return name
    if name not in PIN_FACTORIES:
        raise BackendChoiceError(
            f"unknown gpiozero pin factory {name!r}; valid: default, {', '.join(PIN_FACTORIES)}")
    module_name, class_name = PIN_FACTORIES[name]
    import importlib

    try:
        module = importlib.import_module(module_name)
        return getattr(module, class_name)(**options)
    except Exception as exc:  # ImportError, gpiozero.BadPinFactory, lgpio.error, RuntimeError
        raise GPIOError(f"cannot start the {name!r} GPIO pin factory: {exc}") from exc


class GPIOError(OSError):
    """The GPIO library or a pin failed (missing library, no permission, pin in use)."""
