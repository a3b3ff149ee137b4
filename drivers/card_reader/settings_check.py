"""The one check every settings object of the card reader runs on itself: a bad value is refused by
its name (``ClassName.field``) and its value, before anything reads it.

Each field must be what its annotation says: a number (``float``; ``int`` where a count or a pixel
size, never a bool) or a tuple of them of its length, finite and positive unless the class lists it
as ``signed``. A class also lists its ranges (``ordered``: low below high), its odd kernel sizes,
its bounded fields and its pairs of fields one of which must stay under the other.
"""

from __future__ import annotations

import functools
import math
import typing
from collections.abc import Collection, Mapping
from dataclasses import fields
from typing import Any


def check_settings(settings: Any, *, signed: Collection[str] = (), ordered: Collection[str] = (),
                   odd: Collection[str] = (), at_most: Mapping[str, float] | None = None,
                   under: Collection[tuple[str, str]] = ()) -> None:
    """Raise TypeError (not a number, not an int, not a tuple of the annotated length) or ValueError
    (not finite, not positive, not odd, a range from high to low, over its bound, a field not under
    another) naming the first bad field of the frozen dataclass ``settings`` and its value.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Blur:
    ...     size: int = 3
    ...     def __post_init__(self) -> None:
    ...         check_settings(self, odd=("size",))
    >>> Blur(4)
    Traceback (most recent call last):
    ...
    ValueError: Blur.size must be odd, not 4
    """
    cls, shapes = type(settings).__name__, _shapes(type(settings))
    for f in fields(settings):
        value = getattr(settings, f.name)
        name = f"{cls}.{f.name}"
        kind, length = shapes[f.name]
        numbers = value if isinstance(value, tuple) else (value,)
        if length is None and isinstance(value, tuple):
            raise TypeError(f"{name} must be a number, not {value!r}")
        if length is not None and (not isinstance(value, tuple) or not value or length and len(value) != length):
            raise TypeError(f"{name} must be a tuple of {length or 'one or more'} numbers, not {value!r}")
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in numbers):
            raise TypeError(f"{name} must be a number or a tuple of numbers, not {value!r}")
        if kind is int and not all(isinstance(v, int) for v in numbers):
            raise TypeError(f"{name} must be a whole number (int), not {value!r}")
        if not all(math.isfinite(v) for v in numbers):
            raise ValueError(f"{name} must be finite, not {value!r}")
        if f.name not in signed and any(v <= 0 for v in numbers):
            raise ValueError(f"{name} must be positive, not {value!r}")
        if f.name in odd and any(v % 2 != 1 for v in numbers):
            raise ValueError(f"{name} must be odd, not {value!r}")
        if f.name in ordered and any(a >= b for a, b in zip(numbers, numbers[1:])):
            raise ValueError(f"{name} must run from low to high, not {value!r}")
        if at_most is not None and f.name in at_most and any(v > at_most[f.name] for v in numbers):
            raise ValueError(f"{name} must be at most {at_most[f.name]!r}, not {value!r}")
    for low, high in under:
        if getattr(settings, low) >= getattr(settings, high):
            raise ValueError(f"{cls}.{low} ({getattr(settings, low)!r}) must be under {high} "
                             f"({getattr(settings, high)!r})")


@functools.cache
def _shapes(cls: type) -> dict[str, tuple[type, int | None]]:
    """Each field's number type (``int`` or ``float``) and, for a tuple, its length (0: any length
    but empty; None: a single number), from the class's annotations."""
    shapes: dict[str, tuple[type, int | None]] = {}
    for name, hint in typing.get_type_hints(cls).items():
        if typing.get_origin(hint) is tuple:
            args = typing.get_args(hint)
            shapes[name] = (args[0], 0 if args[-1] is Ellipsis else len(args))
        else:
            shapes[name] = (hint, None)
    return shapes
