"""Ingredients, alchemicals, potions and mixing (RULES.md §1 to §3).

>>> mix(parse_alchemical("Ppn"), parse_alchemical("pnP"))
<Potion.RED_PLUS: 'R+'>
>>> neutral_partner(parse_alchemical("PPP")).notation
'NNN'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.errors import UnknownNameError


class Ingredient(enum.IntEnum):
    """The eight ingredient kinds, in the official app's order; ``.id`` is the command-language word."""

    FERN = 0
    CLAW = 1
    MUSHROOM = 2
    FLOWER = 3
    ROOT = 4
    SCORPION = 5
    TOAD = 6
    FEATHER = 7

    @property
    def id(self) -> str:
        """The identifier of RULES.md §1.

        >>> Ingredient.ROOT.id
        'root'
        """
        return self.name.lower()


INGREDIENT_IDS: tuple[str, ...] = tuple(ingredient.id for ingredient in Ingredient)


def parse_ingredient(text: str) -> Ingredient:
    """Read an ingredient id, case-insensitively.

    >>> parse_ingredient("Toad")
    <Ingredient.TOAD: 6>
    """
    word = text.strip().lower()
    for ingredient in Ingredient:
        if ingredient.id == word:
            return ingredient
    raise UnknownNameError("ingredient", text, INGREDIENT_IDS)


class Colour(enum.IntEnum):
    """The three aspect colours, in notation order."""

    R = 0
    G = 1
    B = 2


COLOUR_NAMES: tuple[str, ...] = tuple(colour.name for colour in Colour)


def parse_colour(text: str) -> Colour:
    """Read an aspect colour: R, G or B.

    >>> parse_colour("g")
    <Colour.G: 1>
    """
    word = text.strip().upper()
    if word in COLOUR_NAMES:
        return Colour[word]
    raise UnknownNameError("colour", text, COLOUR_NAMES)


class Size(enum.Enum):
    """The size of an aspect."""

    LARGE = "large"
    SMALL = "small"


def parse_size(text: str) -> Size:
    """Read an aspect size: large or small.

    >>> parse_size("LARGE")
    <Size.LARGE: 'large'>
    """
    word = text.strip().lower()
    for size in Size:
        if size.value == word:
            return size
    raise UnknownNameError("size", text, tuple(size.value for size in Size))


@dataclass(frozen=True)
class Aspect:
    """One coloured aspect of an alchemical: its sign (+1 or -1) and size."""

    sign: int
    size: Size

    @property
    def letter(self) -> str:
        """The notation letter: ``p``/``n``, uppercase when large.

        >>> Aspect(-1, Size.LARGE).letter
        'N'
        """
        letter = "p" if self.sign > 0 else "n"
        return letter.upper() if self.size is Size.LARGE else letter


@dataclass(frozen=True)
class Alchemical:
    """One of the eight alchemicals; ``index`` is its place in the app order of RULES.md §2."""

    index: int
    aspects: tuple[Aspect, Aspect, Aspect]

    @property
    def notation(self) -> str:
        """Three letters, red green blue: ``p``/``n`` for the sign, uppercase when large.

        >>> ALCHEMICALS[0].notation
        'Ppn'
        """
        return "".join(aspect.letter for aspect in self.aspects)

    def aspect(self, colour: Colour) -> Aspect:
        """The aspect of one colour.

        >>> ALCHEMICALS[0].aspect(Colour.R).sign
        1
        """
        return self.aspects[colour]

    def __repr__(self) -> str:
        return f"parse_alchemical({self.notation!r})"


ALCHEMICAL_NOTATIONS: tuple[str, ...] = ("Ppn", "nPp", "pnP", "Nnp", "pNn", "npN", "PPP", "NNN")


def _alchemical_from_notation(index: int, notation: str) -> Alchemical:
    red, green, blue = (
        Aspect(1 if letter.lower() == "p" else -1, Size.LARGE if letter.isupper() else Size.SMALL)
        for letter in notation
    )
    return Alchemical(index, (red, green, blue))


ALCHEMICALS: tuple[Alchemical, ...] = tuple(
    _alchemical_from_notation(index, notation) for index, notation in enumerate(ALCHEMICAL_NOTATIONS)
)


def parse_alchemical(text: str) -> Alchemical:
    """Read an alchemical in the project notation (case matters: it gives the size).

    >>> parse_alchemical("npN").index
    5
    """
    word = text.strip()
    for alchemical in ALCHEMICALS:
        if alchemical.notation == word:
            return alchemical
    raise UnknownNameError("alchemical", text, ALCHEMICAL_NOTATIONS)


class Potion(enum.Enum):
    """The seven potions; the value is the command-language word."""

    RED_PLUS = "R+"
    RED_MINUS = "R-"
    GREEN_PLUS = "G+"
    GREEN_MINUS = "G-"
    BLUE_PLUS = "B+"
    BLUE_MINUS = "B-"
    NEUTRAL = "N"

    @property
    def colour(self) -> Colour | None:
        """The potion's colour, or None for the neutral potion.

        >>> Potion.BLUE_MINUS.colour
        <Colour.B: 2>
        """
        return None if self is Potion.NEUTRAL else Colour[self.value[0]]

    @property
    def sign(self) -> int:
        """+1, -1, or 0 for the neutral potion.

        >>> Potion.RED_MINUS.sign
        -1
        """
        return {"+": 1, "-": -1}.get(self.value[-1], 0)


POTION_WORDS: tuple[str, ...] = tuple(potion.value for potion in Potion)
SIGNED_POTIONS: tuple[Potion, ...] = tuple(potion for potion in Potion if potion is not Potion.NEUTRAL)


def potion_of(colour: Colour, sign: int) -> Potion:
    """The potion of one colour and sign.

    >>> potion_of(Colour.G, -1)
    <Potion.GREEN_MINUS: 'G-'>
    """
    return Potion(f"{colour.name}{'+' if sign > 0 else '-'}")


def parse_potion(text: str) -> Potion:
    """Read a potion word: ``R+ R- G+ G- B+ B- N``, case-insensitively.

    >>> parse_potion("b-")
    <Potion.BLUE_MINUS: 'B-'>
    """
    word = text.strip().upper()
    for potion in Potion:
        if potion.value == word:
            return potion
    raise UnknownNameError("potion", text, POTION_WORDS)


def mix(first: Alchemical, second: Alchemical) -> Potion:
    """The potion two alchemicals make: same sign, one large and one small, in one colour.

    >>> mix(parse_alchemical("PPP"), parse_alchemical("NNN"))
    <Potion.NEUTRAL: 'N'>
    >>> mix(parse_alchemical("Nnp"), parse_alchemical("npN"))
    <Potion.RED_MINUS: 'R-'>
    """
    for colour in Colour:
        one, other = first.aspect(colour), second.aspect(colour)
        if one.sign == other.sign and one.size is not other.size:
            return potion_of(colour, one.sign)
    return Potion.NEUTRAL


def neutral_partner(alchemical: Alchemical) -> Alchemical:
    """The one alchemical that makes the neutral potion with this one: all signs flipped.

    >>> neutral_partner(parse_alchemical("Ppn"))
    parse_alchemical('Nnp')
    """
    return parse_alchemical("".join(_flip_sign(letter) for letter in alchemical.notation))


def _flip_sign(letter: str) -> str:
    flipped = "n" if letter.lower() == "p" else "p"
    return flipped.upper() if letter.isupper() else flipped


class LibraryClass(enum.Enum):
    """The palace library's classes (RULES.md §2): sun has 0 or 2 negative aspects, moon 1 or 3."""

    SUN = "sun"
    MOON = "moon"


def library_class(alchemical: Alchemical) -> LibraryClass:
    """Sun or moon.

    >>> library_class(parse_alchemical("PPP"))
    <LibraryClass.SUN: 'sun'>
    """
    negatives = sum(1 for aspect in alchemical.aspects if aspect.sign < 0)
    return LibraryClass.SUN if negatives % 2 == 0 else LibraryClass.MOON
