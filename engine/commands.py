"""The command language: words in, a question out, and JSON-ready replies and errors.

Used by the ``labkit ask`` command and by the device's serial console. Words are case-insensitive.

>>> parse_question(["MIX", "fern", "Toad"])
Mix(first=<Ingredient.FERN: 0>, second=<Ingredient.TOAD: 6>)
>>> error_reply(CommandError("no command"))
{'error': {'kind': 'bad_command', 'message': 'no command'}}
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.alchemy import (
    COLOUR_NAMES, INGREDIENT_IDS, parse_colour, parse_ingredient, parse_potion,
)
from engine.errors import CommandError, LabkitError, UnknownNameError
from engine.questions import (
    DebunkPair,
    DebunkPotion,
    DebunkSign,
    Exhibit,
    GolemAnimate,
    GolemTest,
    LibraryAnswer,
    LibraryOffer,
    Mix,
    PlainData,
    Question,
    Reveal,
    Sell,
)

QUESTION_FORMS: tuple[str, ...] = (
    "mix ING ING",
    "sell POTION ING ING",
    "debunk ING COLOUR",
    "debunk ING ING POTION",
    "debunk ING ING",
    "exhibit POTION ING ING",
    "golem test ING",
    "golem animate ING ING",
    "library ING",
    "library offer",
    "reveal",
)


def _expect(words: Sequence[str], count: int, form: str) -> None:
    if len(words) != count:
        raise CommandError(f"{' '.join(words)!r} does not match {form!r}: expected {count} words, got {len(words)}")


def parse_question(words: Sequence[str]) -> Question:
    """Read one question from its words.

    >>> parse_question(["debunk", "fern", "b"])
    DebunkSign(ingredient=<Ingredient.FERN: 0>, colour=<Colour.B: 2>)
    >>> parse_question(["brew", "fern"])
    Traceback (most recent call last):
    ...
    engine.errors.CommandError: unknown command 'brew': expected one of mix, sell, debunk, exhibit, golem, library, reveal
    """
    if not words:
        raise CommandError("empty command: expected one of " + ", ".join(QUESTION_FORMS))
    verb = words[0].lower()
    if verb == "mix":
        _expect(words, 3, "mix ING ING")
        return Mix(parse_ingredient(words[1]), parse_ingredient(words[2]))
    if verb in ("sell", "exhibit"):
        _expect(words, 4, f"{verb} POTION ING ING")
        kind = Sell if verb == "sell" else Exhibit
        return kind(parse_potion(words[1]), parse_ingredient(words[2]), parse_ingredient(words[3]))
    if verb == "debunk":
        return _parse_debunk(words)
    if verb == "golem":
        action = words[1].lower() if len(words) > 1 else ""
        if action == "test":
            _expect(words, 3, "golem test ING")
            return GolemTest(parse_ingredient(words[2]))
        if action == "animate":
            _expect(words, 4, "golem animate ING ING")
            return GolemAnimate(parse_ingredient(words[2]), parse_ingredient(words[3]))
        raise CommandError(f"{' '.join(words)!r}: expected 'golem test ING' or 'golem animate ING ING'")
    if verb == "library":
        _expect(words, 2, "library ING")
        if words[1].lower() == "offer":
            return LibraryOffer()
        return LibraryAnswer(parse_ingredient(words[1]))
    if verb == "reveal":
        _expect(words, 1, "reveal")
        return Reveal()
    raise CommandError(
        f"unknown command {words[0]!r}: expected one of mix, sell, debunk, exhibit, golem, library, reveal"
    )


def _parse_debunk(words: Sequence[str]) -> Question:
    if len(words) == 3 and words[2].upper() in COLOUR_NAMES:
        return DebunkSign(parse_ingredient(words[1]), parse_colour(words[2]))
    if len(words) == 3:
        first = parse_ingredient(words[1])
        if words[2].strip().lower() not in INGREDIENT_IDS:
            # the third word is a colour (apprentice) or a second ingredient (variant): say both
            raise UnknownNameError(
                "colour", words[2], COLOUR_NAMES,
                message=f"unknown colour or ingredient {words[2]!r}: expected a colour "
                        f"({', '.join(COLOUR_NAMES)}) or a second ingredient "
                        f"({', '.join(INGREDIENT_IDS)})")
        return DebunkPotion(first, parse_ingredient(words[2]))
    if len(words) == 4:
        return DebunkPair(parse_ingredient(words[1]), parse_ingredient(words[2]), parse_potion(words[3]))
    raise CommandError(
        f"{' '.join(words)!r}: expected 'debunk ING COLOUR', 'debunk ING ING POTION' or 'debunk ING ING'"
    )


def error_reply(error: LabkitError) -> PlainData:
    """The JSON-ready reply for an error: its kind and its message.

    >>> error_reply(CommandError("x"))["error"]["kind"]
    'bad_command'
    """
    return {"error": {"kind": error.kind, "message": error.message}}
