"""A game's options, and which questions they allow: the rules (RULES.md §4, §6), the level (§4)
and the golem (§5).

The check looks at a question's form (its class) only, so that it can run before the question's
words are read: a question wrong in two ways names the more basic problem first, the game's
options before its arguments.

>>> check_form(Exhibit, Rules.ALCHYMISTI, Level.MASTER, golem=False, code="DEMO")
Traceback (most recent call last):
...
engine.errors.OptionError: 'exhibit POTION ING ING' is not in the alchymisti rules: their app has no exhibition (it offers new game, mix, sell, debunk and reveal)
>>> debunk_form(Rules.ALCHEMISTS, Level.APPRENTICE).form
'debunk ING COLOUR'
"""

from __future__ import annotations

import enum

from engine.errors import IllegalQuestionError, OptionError, UnknownNameError
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
    Question,
    Reveal,
    Sell,
)


class Level(enum.Enum):
    """The level chosen at a new game; it only changes how debunking works."""

    APPRENTICE = "apprentice"
    MASTER = "master"


class Rules(enum.Enum):
    """Which game's app the kit plays: Alchemists (000, 004) or the "Alchymisti" variant (003)."""

    ALCHEMISTS = "alchemists"
    ALCHYMISTI = "alchymisti"


def parse_level(text: str) -> Level:
    """Read a level word.

    >>> parse_level("Master")
    <Level.MASTER: 'master'>
    """
    for level in Level:
        if level.value == text.strip().lower():
            return level
    raise UnknownNameError("level", text, tuple(level.value for level in Level))


def parse_rules(text: str) -> Rules:
    """Read a rules word.

    >>> parse_rules("alchymisti")
    <Rules.ALCHYMISTI: 'alchymisti'>
    """
    for rules in Rules:
        if rules.value == text.strip().lower():
            return rules
    raise UnknownNameError("rules", text, tuple(rules.value for rules in Rules))


GOLEM_FORMS: tuple[type[Question[Answer]], ...] = (GolemTest, GolemAnimate, LibraryOffer, LibraryAnswer)
"""The King's Golem's own device functions (§5): the golem, and the palace library."""

ALCHYMISTI_FORMS: tuple[type[Question[Answer]], ...] = (Mix, Sell, DebunkPotion, Reveal)
"""Everything the Alchymisti app does (003, §6): new game, mix, sell, debunk, show solutions."""

DEBUNK_FORMS: tuple[type[Question[Answer]], ...] = (DebunkSign, DebunkPair, DebunkPotion)


def debunk_form(rules: Rules, level: Level) -> type[Question[Answer]]:
    """The one debunk a game asks: by its level in the Alchemists rules, a pair's potion in Alchymisti.

    >>> debunk_form(Rules.ALCHYMISTI, Level.APPRENTICE).form
    'debunk ING ING'
    """
    if rules is Rules.ALCHYMISTI:
        return DebunkPotion
    return DebunkSign if level is Level.APPRENTICE else DebunkPair


def _debunk_text(rules: Rules, level: Level) -> str:
    form = debunk_form(rules, level)
    what = {DebunkSign: "the sign of an aspect", DebunkPair: "yes or no only",
            DebunkPotion: "the potion of a pair"}[form]
    return f"'{form.form}' ({what})"


def _other(option: enum.Enum) -> str:
    return next(str(item.value) for item in type(option) if item is not option)


def check_form(form: type[Question[Answer]], rules: Rules, level: Level, *, golem: bool, code: str) -> None:
    """Refuse a form of question that the game's options forbid, naming the option.

    Order: the rules first (they decide which functions exist), then the golem, then the level.
    """
    if rules is Rules.ALCHYMISTI:
        if form in ALCHYMISTI_FORMS:
            return
        if form in DEBUNK_FORMS:
            why = f"their debunk is {_debunk_text(rules, level)}"
        elif form in GOLEM_FORMS:
            why = "their app has no golem and no library; The King's Golem is played with the alchemists rules"
        else:
            why = "their app has no exhibition (it offers new game, mix, sell, debunk and reveal)"
        raise OptionError("not_in_rules", f"'{form.form}' is not in the {rules.value} rules: {why}",
                          "rules", Rules.ALCHEMISTS.value)
    if form in GOLEM_FORMS and not golem:
        raise IllegalQuestionError(
            "no_golem", f"game {code} is a base game with no golem: golem games have 5-letter codes"
        )
    if form in DEBUNK_FORMS and form is not debunk_form(rules, level):
        if form is DebunkPotion:
            raise OptionError(
                "not_in_rules",
                f"'{form.form}' (the potion of a pair) is the alchymisti rules' debunk; in the {rules.value}"
                f" rules at level {level.value} the debunk is {_debunk_text(rules, level)}",
                "rules", Rules.ALCHYMISTI.value,
            )
        raise OptionError(
            "not_at_level",
            f"'{form.form}' is the {_other(level)} level's debunk; this game is at level {level.value},"
            f" whose debunk is {_debunk_text(rules, level)}",
            "level", _other(level),
        )


def check_golem_allowed(rules: Rules) -> None:
    """Refuse a golem game under rules that have no golem (a new game, or a 5-letter code restored).

    >>> check_golem_allowed(Rules.ALCHYMISTI)
    Traceback (most recent call last):
    ...
    engine.errors.OptionError: the alchymisti rules have no golem: a King's Golem game (a 5-letter code) is played with the alchemists rules
    """
    if rules is Rules.ALCHYMISTI:
        raise OptionError(
            "not_in_rules",
            f"the {rules.value} rules have no golem: a King's Golem game (a 5-letter code) is played"
            " with the alchemists rules",
            "rules", Rules.ALCHEMISTS.value,
        )
