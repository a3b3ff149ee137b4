"""Game codes (RULES.md §7): 4 letters compatible with the official app, a fifth for the golem.

A permutation ``p`` is a tuple of eight alchemical indices: ingredient ``i`` holds ``p[i]``.

>>> decode_code("AAAA").permutation
(0, 1, 2, 3, 4, 5, 6, 7)
>>> decode_code("DEMO").permutation
(3, 5, 0, 7, 4, 1, 2, 6)
"""

from __future__ import annotations

import hashlib
import random
import string
from dataclasses import dataclass

from engine.errors import InvalidCodeError, UnsupportedCodeError
from engine.golem import GOLEMS, Golem

LETTERS = string.ascii_uppercase
OLD_LAST_LETTERS = "ABCDE"
TUTORIAL_CODE = "DEMO"
Permutation = tuple[int, ...]


@dataclass(frozen=True)
class DecodedCode:
    """What a game code says: the assignment, and the golem for a 5-letter code."""

    code: str
    permutation: Permutation
    golem: Golem | None


def _lehmer_digits(code: str) -> list[int]:
    c1, c2, c3, c4 = (LETTERS.index(letter) for letter in code)
    return [c1 % 8, c2 % 7, c3 % 6, c4 % 5, (c3 // 6) % 4, (c2 // 7) % 3, (c1 // 8) % 2, 0]


def _permutation_from_digits(digits: list[int]) -> Permutation:
    remaining = list(range(8))
    return tuple(remaining.pop(digit) for digit in digits)


def _digits_from_permutation(permutation: Permutation) -> list[int]:
    remaining = list(range(8))
    digits = []
    for value in permutation:
        digits.append(remaining.index(value))
        remaining.remove(value)
    return digits


def _letters_matching(low: int, low_base: int, high: int, high_base: int) -> list[str]:
    return [
        letter
        for value, letter in enumerate(LETTERS)
        if value % low_base == low and (value // low_base) % high_base == high
    ]


def base_codes(permutation: Permutation) -> list[str]:
    """Every 4-letter code, last letter A..E, that the official app decodes to this permutation.

    >>> base_codes((0, 1, 2, 3, 4, 5, 6, 7))
    ['AAAA', 'AAYA', 'AVAA', 'AVYA', 'QAAA', 'QAYA', 'QVAA', 'QVYA']
    """
    check_permutation(permutation)
    f = _digits_from_permutation(permutation)
    firsts = _letters_matching(f[0], 8, f[6], 2)
    seconds = _letters_matching(f[1], 7, f[5], 3)
    thirds = _letters_matching(f[2], 6, f[4], 4)
    last = LETTERS[f[3]]
    return [a + b + c + last for a in firsts for b in seconds for c in thirds]


def check_permutation(permutation: Permutation) -> None:
    """Refuse anything that is not an arrangement of the eight alchemicals.

    >>> check_permutation((0, 0, 1, 2, 3, 4, 5, 6))
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCodeError: not an assignment of the 8 alchemicals: (0, 0, 1, 2, 3, 4, 5, 6)
    """
    if sorted(permutation) != list(range(8)):
        raise InvalidCodeError(f"not an assignment of the 8 alchemicals: {permutation!r}")


def _golem_letter_order(base: str) -> str:
    """The 26 letters in an order keyed by the base code: the first 24 name the golems, in order."""
    return "".join(
        sorted(LETTERS, key=lambda letter: hashlib.sha256(f"labkit golem:{base}:{letter}".encode()).digest())
    )


def golem_letter(base: str, golem: Golem) -> str:
    """The fifth letter that encodes a golem after this base code.

    >>> golem_letter("AAAA", GOLEMS[0]) != golem_letter("BAAA", GOLEMS[0])
    True
    """
    return _golem_letter_order(base)[golem.index]


def encode_code(permutation: Permutation, golem: Golem | None, rng: random.Random) -> str:
    """Draw one of the codes of this assignment (and golem) at random.

    >>> encode_code((0, 1, 2, 3, 4, 5, 6, 7), None, random.Random(1)) in base_codes(tuple(range(8)))
    True
    """
    base = rng.choice(base_codes(permutation))
    return base if golem is None else base + golem_letter(base, golem)


def normalise_code(text: str) -> str:
    """Uppercase a code and check its form: 4 or 5 letters A..Z.

    >>> normalise_code(" demo ")
    'DEMO'
    """
    code = text.strip().upper()
    if len(code) not in (4, 5):
        raise InvalidCodeError(
            f"game code {text!r} has {len(code)} characters: a base game has 4 letters, a golem game 5"
        )
    strays = sorted({char for char in code if char not in LETTERS})
    if strays:
        raise InvalidCodeError(f"game code {text!r} must be letters A to Z only, not {''.join(strays)!r}")
    return code


def decode_code(text: str) -> DecodedCode:
    """Read a game code: the assignment, and the golem for a 5-letter code.

    >>> decode_code("AAAAG")
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCodeError: game code 'AAAAG': its fifth letter G encodes no golem (a typo?)
    """
    code = normalise_code(text)
    base = code[:4]
    if base != TUTORIAL_CODE and base[3] not in OLD_LAST_LETTERS:
        raise UnsupportedCodeError(
            f"game code {text!r} ends its first four letters in {base[3]}: it is a newer official-app"
            " code the kit cannot read (the phone would play a different game); start a new game on"
            " the kit, or use a code whose fourth letter is A to E"
        )
    permutation = _permutation_from_digits(_lehmer_digits(base))
    golem = None
    if len(code) == 5:
        position = _golem_letter_order(base).index(code[4])
        if position >= len(GOLEMS):
            raise InvalidCodeError(f"game code {text!r}: its fifth letter {code[4]} encodes no golem (a typo?)")
        golem = GOLEMS[position]
    return DecodedCode(code, permutation, golem)
