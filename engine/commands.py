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
from engine.game import Game
from engine.options import Level, debunk_form
from engine.answers import Answer
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

SIMPLE_FORMS: dict[str, type[Question[Answer]]] = {"mix": Mix, "sell": Sell, "exhibit": Exhibit, "reveal": Reveal}
GOLEM_ACTIONS: dict[str, type[Question[Answer]]] = {"test": GolemTest, "animate": GolemAnimate}


def _expect(words: Sequence[str], count: int, form: str) -> None:
    if len(words) != count:
        raise CommandError(f"{' '.join(words)!r} does not match {form!r}: expected {count} words, got {len(words)}")


def _is_ingredient(word: str) -> bool:
    try:
        parse_ingredient(word)
    except LabkitError:
        return False
    return True


def question_form(words: Sequence[str], game: Game | None = None) -> type[Question[Answer]]:
    """Which question the words ask, from the verb (and for ``debunk``, the shape of the words).

    A debunk whose words fit no form is read as the game's own debunk, so that its error names
    the word that is wrong for that form.

    >>> question_form(["debunk", "fern", "toad"]).form
    'debunk ING ING'
    >>> question_form(["debunk", "fern", "Q"], Game.from_code("DEMO", Level.APPRENTICE)).form
    'debunk ING COLOUR'
    """
    if not words:
        raise CommandError("empty command: expected one of " + ", ".join(QUESTION_FORMS))
    verb = words[0].lower()
    action = words[1].lower() if len(words) > 1 else ""
    simple = SIMPLE_FORMS.get(verb)
    if simple is not None:
        return simple
    if verb == "library":
        return LibraryOffer if action == "offer" else LibraryAnswer
    if verb == "golem":
        golem_form = GOLEM_ACTIONS.get(action)
        if golem_form is not None:
            return golem_form
        raise CommandError(f"{' '.join(words)!r}: expected 'golem test ING' or 'golem animate ING ING'")
    if verb == "debunk":
        own = debunk_form(game.rules, game.level) if game is not None else None
        if len(words) == 4:
            return DebunkPair
        if len(words) == 3 and words[2].upper() in COLOUR_NAMES:
            return DebunkSign
        if len(words) == 3 and (_is_ingredient(words[2]) or own is DebunkPair):
            return DebunkPotion
        if own is not None:
            return own
        if len(words) == 3:
            parse_ingredient(words[1])
            # the third word is a colour (apprentice) or a second ingredient (variant): say both
            raise UnknownNameError(
                "colour", words[2], COLOUR_NAMES,
                message=f"unknown colour or ingredient {words[2]!r}: expected a colour "
                        f"({', '.join(COLOUR_NAMES)}) or a second ingredient "
                        f"({', '.join(INGREDIENT_IDS)})")
        raise CommandError(
            f"{' '.join(words)!r}: expected 'debunk ING COLOUR', 'debunk ING ING POTION' or 'debunk ING ING'"
        )
    raise CommandError(
        f"unknown command {words[0]!r}: expected one of mix, sell, debunk, exhibit, golem, library, reveal"
    )


def parse_question(words: Sequence[str], game: Game | None = None) -> Question[Answer]:
    """Read one question from its words; with a game, its options are checked before the words.

    The order of errors: an unknown command, then what the game's options forbid (rules, golem,
    level), then the words (their number, then each word in order), then (in ``Game.answer``)
    what the rules say of the arguments (the same ingredient twice, a neutral potion ordered).

    >>> parse_question(["debunk", "fern", "b"])
    DebunkSign(ingredient=<Ingredient.FERN: 0>, colour=<Colour.B: 2>)
    >>> parse_question(["golem", "animate", "fern", "dragon"], Game.from_code("DEMO"))
    Traceback (most recent call last):
    ...
    engine.errors.IllegalQuestionError: game DEMO is a base game with no golem: golem games have 5-letter codes
    >>> parse_question(["brew", "fern"])
    Traceback (most recent call last):
    ...
    engine.errors.CommandError: unknown command 'brew': expected one of mix, sell, debunk, exhibit, golem, library, reveal
    """
    form = question_form(words, game)
    if game is not None:
        game.check_form(form)
    _expect(words, len(form.form.split()), form.form)
    if form in (Mix, DebunkPotion):
        return form(parse_ingredient(words[1]), parse_ingredient(words[2]))
    if form in (Sell, Exhibit):
        return form(parse_potion(words[1]), parse_ingredient(words[2]), parse_ingredient(words[3]))
    if form is DebunkSign:
        return DebunkSign(parse_ingredient(words[1]), parse_colour(words[2]))
    if form is DebunkPair:
        return DebunkPair(parse_ingredient(words[1]), parse_ingredient(words[2]), parse_potion(words[3]))
    if form is GolemTest:
        return GolemTest(parse_ingredient(words[2]))
    if form is GolemAnimate:
        return GolemAnimate(parse_ingredient(words[2]), parse_ingredient(words[3]))
    if form is LibraryAnswer:
        return LibraryAnswer(parse_ingredient(words[1]))
    return form()


def error_reply(error: LabkitError) -> PlainData:
    """The JSON-ready reply for an error: its kind and its message.

    >>> error_reply(CommandError("x"))["error"]["kind"]
    'bad_command'
    """
    return {"error": {"kind": error.kind, "message": error.message}}
