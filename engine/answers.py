"""The device's answers as small frozen values; plain data (for JSON) only at the edges.

Each question type names its answer type (``Mix`` is answered by ``PotionMade``), so that
``Game.answer(Mix(...))`` is known to give a ``PotionMade``. ``to_data`` gives the JSON-ready form
that the console, ``labkit ask`` and the saved log use.

>>> PotionMade(Potion.RED_PLUS).to_data()
{'potion': 'R+'}
>>> SaleResult(Quality.SIGN)
SaleResult(quality=<Quality.SIGN: 'sign'>)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.alchemy import Alchemical, Ingredient, LibraryClass, Potion
from engine.golem import Golem

PlainData = dict[str, object]


class Quality(enum.Enum):
    """How well a sold potion matches the order (RULES.md §4)."""

    EXACT = "exact"
    SIGN = "sign"
    NEUTRAL = "neutral"
    WRONG = "wrong"


@dataclass(frozen=True)
class Answer:
    """Base of all answers."""

    def to_data(self) -> PlainData:
        """The JSON-ready form of the answer."""
        raise NotImplementedError


@dataclass(frozen=True)
class PotionMade(Answer):
    """The potion two ingredients make (an experiment, or the Alchymisti debunk)."""

    potion: Potion

    def to_data(self) -> PlainData:
        return {"potion": self.potion.value}


@dataclass(frozen=True)
class SaleResult(Answer):
    """How close a sale came to the order."""

    quality: Quality

    def to_data(self) -> PlainData:
        return {"quality": self.quality.value}


@dataclass(frozen=True)
class AspectSign(Answer):
    """Apprentice debunk: the sign of one aspect, +1 or -1.

    >>> AspectSign(-1).to_data()
    {'sign': '-'}
    """

    sign: int

    def to_data(self) -> PlainData:
        return {"sign": "+" if self.sign > 0 else "-"}


@dataclass(frozen=True)
class PairVerdict(Answer):
    """Master debunk: whether the pair makes the potion (yes or no only)."""

    makes: bool

    def to_data(self) -> PlainData:
        return {"makes": self.makes}


@dataclass(frozen=True)
class ExhibitionResult(Answer):
    """Exhibition: whether the promised potion was made."""

    success: bool

    def to_data(self) -> PlainData:
        return {"success": self.success}


@dataclass(frozen=True)
class GolemTestResult(Answer):
    """Golem test: whether the chest glows and the ears steam."""

    chest: bool
    ears: bool

    def to_data(self) -> PlainData:
        return {"chest": self.chest, "ears": self.ears}


@dataclass(frozen=True)
class AnimationResult(Answer):
    """Animating the golem: alive or not."""

    animated: bool

    def to_data(self) -> PlainData:
        return {"animated": self.animated}


@dataclass(frozen=True)
class LibraryOffered(Answer):
    """Palace library: the four ingredients offered (private to the player)."""

    ingredients: tuple[Ingredient, ...]

    def to_data(self) -> PlainData:
        return {"ingredients": [ingredient.id for ingredient in self.ingredients]}


@dataclass(frozen=True)
class LibraryVerdict(Answer):
    """Palace library: sun or moon for the chosen ingredient."""

    library_class: LibraryClass

    def to_data(self) -> PlainData:
        return {"class": self.library_class.value}


@dataclass(frozen=True)
class Solution(Answer):
    """The reveal: every ingredient's alchemical (in ingredient order), and the golem with the two
    ingredients that animate it."""

    alchemicals: tuple[Alchemical, ...]
    golem: Golem | None = None
    animators: tuple[Ingredient, Ingredient] | None = None

    def alchemical_of(self, ingredient: Ingredient) -> Alchemical:
        return self.alchemicals[ingredient]

    def to_data(self) -> PlainData:
        golem: PlainData | None = None
        if self.golem is not None and self.animators is not None:
            golem = {**self.golem.to_data(), "animate": [ingredient.id for ingredient in self.animators]}
        return {
            "ingredients": {ingredient.id: self.alchemical_of(ingredient).notation for ingredient in Ingredient},
            "golem": golem,
        }
