"""Game codes (RULES.md §7): every official code read as the phone app reads it; new codes written.

Three algorithms of the official app, told apart by the code's form:

- **2014**: four letters ending A..E, and the tutorial code DEMO;
- **2015**: four letters ending F..Z (the app's codes since April 2015);
- **golem**: five letters (The King's Golem): the assignment, the golem's chest and its ears.

The two newer ones were reverse-engineered from the app and described, with test vectors, in
``liamdawson/abg-code-algorithms`` (Unlicense); this is our implementation of that description.

A permutation ``p`` is a tuple of eight alchemical indices: ingredient ``i`` holds ``p[i]``.

>>> read_code("AAAA").permutation
(0, 1, 2, 3, 4, 5, 6, 7)
>>> read_code("DEMO").permutation
(3, 5, 0, 7, 4, 1, 2, 6)
>>> read_code("qwin").algorithm
'2015'
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import string
from dataclasses import dataclass

from engine.alchemy import Colour, Size
from engine.errors import InvalidCodeError
from engine.golem import Golem, GolemReaction

LETTERS = string.ascii_uppercase
CODE_CHARACTERS = frozenset(string.ascii_letters)
TUTORIAL_CODE = "DEMO"
LAST_LETTERS_2014 = "ABCDE"
FIRST_NEWER_LETTER = LETTERS.index("F")  # 4-letter codes ending F..Z use the 2015 algorithm
Permutation = tuple[int, ...]

# The newer algorithms, as described in liamdawson/abg-code-algorithms (src/reference/):
# the parities of the first three letters pick an offset, which shifts the packed number.
PARITY_OFFSETS = (7, 13, 19, 29, 37, 43, 53, 61)
HALF_LETTER_VALUES = 13  # a letter is 2 * half + parity, half in 0..12
SHIFT_2015 = 613
SHIFT_GOLEM = 18617
LAST_LETTERS_2015 = len(LETTERS) - FIRST_NEWER_LETTER  # F..Z: 21 values of the 4th letter
MODULUS_2015 = LAST_LETTERS_2015 * HALF_LETTER_VALUES**3
MODULUS_GOLEM = len(LETTERS) ** 2 * HALF_LETTER_VALUES**3
GOLEM_RADICES = (6, 4)  # the chest: one of 6 colour-and-size entries; the ears: one of the 4 left
GOLEM_ENTRIES = tuple(
    GolemReaction(colour, size) for colour in (Colour.R, Colour.G, Colour.B) for size in (Size.LARGE, Size.SMALL)
)  # R r G g B b: uppercase large, lowercase small


@dataclass(frozen=True)
class DecodedCode:
    """What a game code says: the assignment, the golem for a 5-letter code, and the algorithm used."""

    code: str
    permutation: Permutation
    golem: Golem | None
    algorithm: str


def normalise_code(text: str) -> str:
    """Check a code's form, then uppercase it: 4 or 5 ASCII letters (spaces around are ignored).

    The check comes before uppercasing: ``"ß".upper()`` is ``"SS"`` and ``"ı".upper()`` is ``"I"``.

    >>> normalise_code(" demo ")
    'DEMO'
    >>> normalise_code("ßAAA")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCodeError: game code 'ßAAA' must be letters A to Z only, not 'ß'
    """
    code = text.strip()
    strays = sorted({char for char in code if char not in CODE_CHARACTERS})
    if strays:
        raise InvalidCodeError(f"game code {text!r} must be letters A to Z only, not {''.join(strays)!r}")
    if len(code) not in (4, 5):
        raise InvalidCodeError(
            f"game code {text!r} has {len(code)} characters: a base game has 4 letters, a golem game 5"
        )
    return code.upper()


def check_permutation(permutation: Permutation) -> None:
    """Refuse anything that is not an arrangement of the eight alchemicals.

    >>> check_permutation((0, 0, 1, 2, 3, 4, 5, 6))
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCodeError: not an assignment of the 8 alchemicals: (0, 0, 1, 2, 3, 4, 5, 6)
    """
    if sorted(permutation) != list(range(8)):
        raise InvalidCodeError(f"not an assignment of the 8 alchemicals: {permutation!r}")


def _permutation_from_digits(digits: list[int]) -> Permutation:
    """A Lehmer code (digit i in 0..7-i) read against the list 0..7."""
    remaining = list(range(8))
    return tuple(remaining.pop(digit) for digit in digits)


def _digits_from_permutation(permutation: Permutation) -> list[int]:
    remaining = list(range(8))
    digits = []
    for value in permutation:
        digits.append(remaining.index(value))
        remaining.remove(value)
    return digits


def read_2014(code: str) -> Permutation:
    """The 2014 algorithm: the letters' residues are the Lehmer digits (4 letters, any last letter).

    >>> read_2014("IAAA")
    (0, 1, 2, 3, 4, 5, 7, 6)
    """
    c1, c2, c3, c4 = (LETTERS.index(letter) for letter in code)
    return _permutation_from_digits(
        [c1 % 8, c2 % 7, c3 % 6, c4 % 5, (c3 // 6) % 4, (c2 // 7) % 3, (c1 // 8) % 2, 0]
    )


# -- the newer algorithms ----------------------------------------------------------------------------

Slot = tuple[str, int]
"""A value packed into the number: ("golem", 0 or 1), ("fern bit", 0..2) or ("digit", 1..6)."""


@functools.cache
def _unpacking_order(parities: tuple[int, ...], with_golem: bool) -> tuple[tuple[Slot, int], ...]:
    """The slots in the order the number is unpacked, each with its radix; the parities decide it."""
    order: list[tuple[Slot, int]] = []
    for step in range(6):
        letter = step % 3
        if parities[letter] == step // 3:
            if with_golem and letter < len(GOLEM_RADICES):
                order.append((("golem", letter), GOLEM_RADICES[letter]))
            order.append((("fern bit", letter), 2))
        order.append((("digit", step + 1), 7 - step))
    return tuple(order)


def _shift_and_modulus(with_golem: bool, parities: tuple[int, ...]) -> tuple[int, int]:
    offset = PARITY_OFFSETS[parities[0] + 2 * parities[1] + 4 * parities[2]]
    if with_golem:
        return SHIFT_GOLEM * offset, MODULUS_GOLEM
    return SHIFT_2015 * offset, MODULUS_2015


def _golem_from_digits(chest_digit: int, ears_digit: int) -> Golem:
    chest = GOLEM_ENTRIES[chest_digit]
    left = [entry for entry in GOLEM_ENTRIES if entry.colour is not chest.colour]
    return Golem(chest, left[ears_digit])


def _golem_digits(golem: Golem) -> tuple[int, int]:
    left = [entry for entry in GOLEM_ENTRIES if entry.colour is not golem.chest.colour]
    return GOLEM_ENTRIES.index(golem.chest), left.index(golem.ears)


def _read_newer(code: str) -> tuple[Permutation, Golem | None]:
    """The 2015 algorithm (4 letters ending F..Z) or the golem algorithm (5 letters)."""
    values = [LETTERS.index(letter) for letter in code]
    with_golem = len(code) == 5
    parities = tuple(value % 2 for value in values[:3])
    high = values[3] + len(LETTERS) * values[4] if with_golem else values[3] - FIRST_NEWER_LETTER
    packed = high
    for value in reversed(values[:3]):
        packed = packed * HALF_LETTER_VALUES + value // 2
    shift, modulus = _shift_and_modulus(with_golem, parities)
    number = (packed - shift) % modulus
    slots: dict[Slot, int] = {}
    for slot, radix in _unpacking_order(parities, with_golem):
        number, slots[slot] = divmod(number, radix)
    fern_digit = sum(slots[("fern bit", bit)] << bit for bit in range(3))
    digits = [fern_digit, *(slots[("digit", index)] for index in range(1, 7)), 0]
    golem = _golem_from_digits(slots[("golem", 0)], slots[("golem", 1)]) if with_golem else None
    return _permutation_from_digits(digits), golem


def read_code(text: str) -> DecodedCode:
    """Read any official game code: the assignment, and the golem for a 5-letter code.

    >>> [alchemical for alchemical in read_code("GOLEM").permutation]
    [0, 6, 4, 2, 1, 3, 5, 7]
    >>> read_code("GOLEM").golem.to_data()
    {'chest': {'colour': 'G', 'size': 'large'}, 'ears': {'colour': 'B', 'size': 'small'}}
    """
    code = normalise_code(text)
    if len(code) == 4 and (code == TUTORIAL_CODE or code[3] in LAST_LETTERS_2014):
        return DecodedCode(code, read_2014(code), None, "2014")
    permutation, golem = _read_newer(code)
    return DecodedCode(code, permutation, golem, "golem" if golem else "2015")


def decode_code(text: str) -> DecodedCode:
    """Read any official game code (the name the rest of the kit uses; see :func:`read_code`).

    >>> decode_code("AB1A")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCodeError: game code 'AB1A' must be letters A to Z only, not '1'
    """
    return read_code(text)


def codes_to_hand_out(permutation: Permutation, golem: Golem | None = None) -> list[str]:
    """Every code the kit may give this game, sorted: 4 letters ending F..Z (never DEMO), or, with a
    golem, 5 letters whose 4th letter is F..Z (the web app reads the others as another game).

    >>> codes_to_hand_out((0, 1, 2, 3, 4, 5, 6, 7))[:3]
    ['BEQI', 'BVKK', 'CKYG']
    """
    check_permutation(permutation)
    with_golem = golem is not None
    digits = _digits_from_permutation(permutation)
    slots: dict[Slot, int] = {("digit", index): digits[index] for index in range(1, 7)}
    slots.update({("fern bit", bit): (digits[0] >> bit) & 1 for bit in range(3)})
    if golem is not None:
        slots[("golem", 0)], slots[("golem", 1)] = _golem_digits(golem)
    codes = []
    for parities in itertools.product((0, 1), repeat=3):
        order = _unpacking_order(parities, with_golem)
        number = 0
        for slot, radix in reversed(order):
            number = number * radix + slots[slot]
        shift, modulus = _shift_and_modulus(with_golem, parities)
        # numbers past the product of the radices unpack to the same game (8! or 8! * 24 games)
        for alias in range(number, modulus, math.prod(radix for _, radix in order)):
            packed = (alias + shift) % modulus
            letters = []
            for parity in parities:
                packed, half = divmod(packed, HALF_LETTER_VALUES)
                letters.append(2 * half + parity)
            if with_golem:
                letters.extend(reversed(divmod(packed, len(LETTERS))))
            else:
                letters.append(packed + FIRST_NEWER_LETTER)
            code = "".join(LETTERS[value] for value in letters)
            if code != TUTORIAL_CODE and LETTERS.index(code[3]) >= FIRST_NEWER_LETTER:
                codes.append(code)
    return sorted(codes)


def encode_code(permutation: Permutation, golem: Golem | None, rng: random.Random) -> str:
    """One of the codes to hand out for this game, drawn uniformly (see :func:`codes_to_hand_out`).

    >>> encode_code((0, 1, 2, 3, 4, 5, 6, 7), None, random.Random(1)) in codes_to_hand_out(tuple(range(8)))
    True
    """
    return rng.choice(codes_to_hand_out(permutation, golem))
