"""libcamera controls by name, as ``[camera] controls`` writes them, checked before the camera opens.

Enumerations are written by their libcamera names (``AfMode = "Continuous"``), numbers as numbers.
Their values are libcamera's (``include/libcamera/control_ids.h``): ``AfModeManual = 0``,
``AfModeAuto = 1``, ``AfModeContinuous = 2``; ``AfRangeNormal = 0``, ``AfRangeMacro = 1``,
``AfRangeFull = 2``; ...

>>> parse_controls({"AfMode": "Continuous", "AfRange": "macro"})
{'AfMode': 2, 'AfRange': 1}
>>> parse_controls({"LensPosition": 5})
{'LensPosition': 5.0}
>>> parse_controls({"AfMode": "Sharp"})
Traceback (most recent call last):
...
ValueError: AfMode = "Sharp": expected one of Manual, Auto, Continuous
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

ControlValue = int | float | bool

# What suits a cauldron: the shelf is about 20 cm below the lens, closer than libcamera's autofocus
# looks by default (it starts in manual mode at 1 dioptre, 1 m). On a module without autofocus (v2,
# HQ) these are not advertised and are left out.
CAULDRON_CONTROLS: dict[str, str | float] = {"AfMode": "Continuous", "AfRange": "Macro"}


@dataclass(frozen=True)
class Control:
    """One control: an enumeration (names -> libcamera's values), a number in a range, or a bool."""

    kind: type
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, name: str, value: object) -> ControlValue:
        if self.choices:
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(self.choices):
                return value  # libcamera's number itself
            if isinstance(value, str):
                for number, choice in enumerate(self.choices):
                    if value.lower() == choice.lower():
                        return number
            raise ValueError(f"{name} = {_show(value)}: expected one of {', '.join(self.choices)}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            raise ValueError(f"{name} = {_show(value)}: expected true or false")
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or (self.kind is int and not isinstance(value, int)):
            raise ValueError(f"{name} = {_show(value)}: expected {'an integer' if self.kind is int else 'a number'}")
        assert self.minimum is not None and self.maximum is not None
        if not self.minimum <= value <= self.maximum:
            raise ValueError(f"{name} = {_show(value)}: expected {self.minimum:g} to {self.maximum:g}")
        return int(value) if self.kind is int else float(value)


CONTROLS: dict[str, Control] = {
    "AfMode": Control(int, ("Manual", "Auto", "Continuous")),
    "AfRange": Control(int, ("Normal", "Macro", "Full")),
    "AfSpeed": Control(int, ("Normal", "Fast")),
    # dioptres (1 / distance in metres): 5 focuses at 20 cm; 0 at infinity. Camera Module 3 reaches ~15.
    "LensPosition": Control(float, minimum=0.0, maximum=32.0),
    "AwbMode": Control(int, ("Auto", "Incandescent", "Tungsten", "Fluorescent", "Indoor", "Daylight",
                             "Cloudy", "Custom")),
    "AeEnable": Control(bool),
    "AwbEnable": Control(bool),
    "ExposureTime": Control(int, minimum=1, maximum=10_000_000),  # microseconds
    "AnalogueGain": Control(float, minimum=1.0, maximum=64.0),
    "ExposureValue": Control(float, minimum=-8.0, maximum=8.0),
    "Brightness": Control(float, minimum=-1.0, maximum=1.0),
    "Contrast": Control(float, minimum=0.0, maximum=32.0),
    "Saturation": Control(float, minimum=0.0, maximum=32.0),
    "Sharpness": Control(float, minimum=0.0, maximum=16.0),
}


def parse_controls(table: Mapping[str, object]) -> dict[str, ControlValue]:
    """libcamera's values for a table of controls by name; ValueError naming a bad name or value."""
    if not isinstance(table, Mapping):
        raise ValueError(f"expected a table of libcamera controls, e.g. {{AfMode = \"Continuous\"}}, "
                         f"not {_show(table)}")
    parsed: dict[str, ControlValue] = {}
    for name, value in table.items():
        control = CONTROLS.get(name)
        if control is None:
            raise ValueError(f"unknown libcamera control {name!r}; known: {', '.join(CONTROLS)}")
        parsed[name] = control.parse(name, value)
    if "LensPosition" in parsed and parsed.get("AfMode", 0) != 0:
        raise ValueError("LensPosition sets the focus by hand: it needs AfMode = \"Manual\" (or no AfMode)")
    return parsed


def _show(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)
