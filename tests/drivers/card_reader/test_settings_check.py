"""The one check of the card reader's settings objects: each bad value refused by its name and value."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from drivers.card_reader.settings_check import check_settings


@dataclass(frozen=True)
class Knobs:
    """A settings object with a field of each kind the check knows."""

    share: float = 0.5
    size: int = 3
    lead: float = -0.1
    span: tuple[float, float] = (0.2, 0.8)
    levels: tuple[int, int] = (40, 120)
    steps: tuple[float, ...] = (0.9, 0.8)
    least: float = 0.2
    most: float = 0.7

    def __post_init__(self) -> None:
        check_settings(self, signed=("lead",), ordered=("span",), odd=("size",), at_most={"share": 1},
                       under=(("least", "most"),))


def test_good_values_pass() -> None:
    assert Knobs() == Knobs()
    # an int where a float is asked, a signed field at zero and below, a bound reached, any length
    knobs = Knobs(share=1, lead=0, span=(1, 2.5), levels=(120, 40), steps=(1.0,), least=0.1, most=0.2)
    assert dataclasses.replace(knobs, lead=-5.0).lead == -5.0


@pytest.mark.parametrize(("change", "error", "words"), (
    ({"share": "0.5"}, TypeError, "a number or a tuple of numbers"),
    ({"share": True}, TypeError, "a number or a tuple of numbers"),
    ({"share": None}, TypeError, "a number or a tuple of numbers"),
    ({"steps": (0.9, "0.8")}, TypeError, "a number or a tuple of numbers"),
    ({"size": 3.0}, TypeError, "whole number"),
    ({"levels": (40, 120.0)}, TypeError, "whole number"),
    ({"share": (0.5,)}, TypeError, "must be a number,"),
    ({"span": 0.5}, TypeError, "tuple of 2 numbers"),
    ({"span": (0.2, 0.5, 0.8)}, TypeError, "tuple of 2 numbers"),
    ({"steps": ()}, TypeError, "tuple of one or more numbers"),
    ({"share": float("nan")}, ValueError, "finite"),
    ({"lead": float("-inf")}, ValueError, "finite"),
    ({"share": 0}, ValueError, "positive"),
    ({"steps": (0.9, -0.8)}, ValueError, "positive"),
    ({"size": 4}, ValueError, "odd"),
    ({"span": (0.8, 0.2)}, ValueError, "from low to high"),
    ({"span": (0.5, 0.5)}, ValueError, "from low to high"),
    ({"share": 1.01}, ValueError, "at most 1"),
    ({"least": 0.7}, ValueError, "under most"),
))
def test_a_bad_value_is_refused_by_its_name_and_value(change: dict[str, object], error: type[Exception],
                                                      words: str) -> None:
    name, value = next(iter(change.items()))
    with pytest.raises(error) as caught:
        dataclasses.replace(Knobs(), **change)
    message = str(caught.value)
    assert message.startswith(f"Knobs.{name} ") and words in message and repr(value) in message, message
