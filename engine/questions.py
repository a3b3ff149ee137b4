"""The questions a player asks the device, as values that parse from and format to plain data.

>>> question_from_data({"ask": "mix", "ingredients": ["fern", "toad"]})
Mix(first=<Ingredient.FERN: 0>, second=<Ingredient.TOAD: 6>)
>>> Sell(Potion.RED_PLUS, Ingredient.ROOT, Ingredient.CLAW).to_data()
{'ask': 'sell', 'potion': 'R+', 'ingredients': ['root', 'claw']}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from engine.alchemy import Colour, Ingredient, Potion, parse_colour, parse_ingredient, parse_potion
from engine.answers import (
    AnimationResult,
    Answer,
    AspectSign,
    ExhibitionResult,
    GolemTestResult,
    LibraryOffered,
    LibraryVerdict,
    PairVerdict,
    PlainData as PlainData,  # re-exported: the plain data of questions and answers
    PotionMade,
    SaleResult,
    Solution,
)
from engine.errors import LogFormatError

A = TypeVar("A", bound=Answer, covariant=True)
"""The answer type of a question."""


@dataclass(frozen=True)
class Question(Generic[A]):
    """Base of all questions, typed by their answer; ``kind`` is the word of the command language.

    ``Question[Answer]`` is any question.
    """

    kind: ClassVar[str] = ""
    form: ClassVar[str] = ""
    """The question's words in the command language, e.g. ``"mix ING ING"``."""
    ingredients_are_private: ClassVar[bool] = True

    def ingredients(self) -> tuple[Ingredient, ...]:
        """The ingredients the question names, in order."""
        return tuple(value for value in vars(self).values() if isinstance(value, Ingredient))

    def to_data(self) -> PlainData:
        """Plain data for the game log."""
        data: PlainData = {"ask": self.kind}
        for name, value in vars(self).items():
            if isinstance(value, Potion):
                data["potion"] = value.value
            elif isinstance(value, Colour):
                data["colour"] = value.name
        if self.ingredients():
            data["ingredients"] = [ingredient.id for ingredient in self.ingredients()]
        return data

    def public_data(self) -> PlainData:
        """What the table may see of the question: the ingredients only when the rules show them."""
        data = self.to_data()
        if self.ingredients_are_private:
            data.pop("ingredients", None)
        return data


@dataclass(frozen=True)
class Mix(Question[PotionMade]):
    """An experiment (test on a student, or drink it): which potion do two ingredients make?"""

    kind: ClassVar[str] = "mix"
    form: ClassVar[str] = "mix ING ING"
    first: Ingredient
    second: Ingredient


@dataclass(frozen=True)
class Sell(Question[SaleResult]):
    """A sale: how close do two ingredients come to the potion the adventurer ordered?"""

    kind: ClassVar[str] = "sell"
    form: ClassVar[str] = "sell POTION ING ING"
    potion: Potion
    first: Ingredient
    second: Ingredient


@dataclass(frozen=True)
class DebunkSign(Question[AspectSign]):
    """Apprentice debunk: the sign of one aspect of one ingredient (shown to everyone)."""

    kind: ClassVar[str] = "debunk"
    form: ClassVar[str] = "debunk ING COLOUR"
    ingredients_are_private: ClassVar[bool] = False
    ingredient: Ingredient
    colour: Colour


@dataclass(frozen=True)
class DebunkPair(Question[PairVerdict]):
    """Master debunk: do these two ingredients make this potion? (shown to everyone)."""

    kind: ClassVar[str] = "debunk"
    form: ClassVar[str] = "debunk ING ING POTION"
    ingredients_are_private: ClassVar[bool] = False
    first: Ingredient
    second: Ingredient
    potion: Potion


@dataclass(frozen=True)
class DebunkPotion(Question[PotionMade]):
    """Debunk of the "Alchymisti" variant (seed 003): the potion a pair makes, shown publicly."""

    kind: ClassVar[str] = "debunk"
    form: ClassVar[str] = "debunk ING ING"
    ingredients_are_private: ClassVar[bool] = False
    first: Ingredient
    second: Ingredient


@dataclass(frozen=True)
class Exhibit(Question[ExhibitionResult]):
    """Exhibition: was the promised potion made?"""

    kind: ClassVar[str] = "exhibit"
    form: ClassVar[str] = "exhibit POTION ING ING"
    potion: Potion
    first: Ingredient
    second: Ingredient


@dataclass(frozen=True)
class GolemTest(Question[GolemTestResult]):
    """Golem test: one ingredient; does the chest glow, do the ears steam?"""

    kind: ClassVar[str] = "golem test"
    form: ClassVar[str] = "golem test ING"
    ingredient: Ingredient


@dataclass(frozen=True)
class GolemAnimate(Question[AnimationResult]):
    """Animate the golem with two secretly chosen ingredients."""

    kind: ClassVar[str] = "golem animate"
    form: ClassVar[str] = "golem animate ING ING"
    first: Ingredient
    second: Ingredient


@dataclass(frozen=True)
class LibraryOffer(Question[LibraryOffered]):
    """Palace library: the device offers four random ingredients (hidden from others)."""

    kind: ClassVar[str] = "library offer"
    form: ClassVar[str] = "library offer"


@dataclass(frozen=True)
class LibraryAnswer(Question[LibraryVerdict]):
    """Palace library: is this ingredient's alchemical of the sun or the moon?"""

    kind: ClassVar[str] = "library"
    form: ClassVar[str] = "library ING"
    ingredient: Ingredient


@dataclass(frozen=True)
class Reveal(Question[Solution]):
    """The big reveal at the end of the game."""

    kind: ClassVar[str] = "reveal"
    form: ClassVar[str] = "reveal"


def _field(data: Mapping[str, object], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str):
        raise LogFormatError(f"saved question {dict(data)!r} lacks the text field {name!r}")
    return value


def _ingredients(data: Mapping[str, object], count: int) -> list[Ingredient]:
    value = data.get("ingredients")
    if not isinstance(value, list) or len(value) != count or not all(isinstance(v, str) for v in value):
        raise LogFormatError(f"saved question {dict(data)!r} needs a list of {count} ingredient ids")
    return [parse_ingredient(item) for item in value]


def question_from_data(data: Mapping[str, object]) -> Question[Answer]:
    """Read a question back from the plain data of ``Question.to_data``.

    >>> question_from_data({"ask": "debunk", "ingredients": ["fern"], "colour": "R"})
    DebunkSign(ingredient=<Ingredient.FERN: 0>, colour=<Colour.R: 0>)
    """
    kind = data.get("ask")
    if kind == "mix":
        return Mix(*_ingredients(data, 2))
    if kind == "sell":
        return Sell(parse_potion(_field(data, "potion")), *_ingredients(data, 2))
    if kind == "exhibit":
        return Exhibit(parse_potion(_field(data, "potion")), *_ingredients(data, 2))
    if kind == "debunk" and "colour" in data:
        (ingredient,) = _ingredients(data, 1)
        return DebunkSign(ingredient, parse_colour(_field(data, "colour")))
    if kind == "debunk" and "potion" in data:
        first, second = _ingredients(data, 2)
        return DebunkPair(first, second, parse_potion(_field(data, "potion")))
    if kind == "debunk":
        return DebunkPotion(*_ingredients(data, 2))
    if kind == "golem test":
        return GolemTest(*_ingredients(data, 1))
    if kind == "golem animate":
        return GolemAnimate(*_ingredients(data, 2))
    if kind == "library offer":
        return LibraryOffer()
    if kind == "library":
        return LibraryAnswer(*_ingredients(data, 1))
    if kind == "reveal":
        return Reveal()
    raise LogFormatError(f"saved question {dict(data)!r} has an unknown kind {kind!r}")
