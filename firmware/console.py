"""The serial console's protocol: one command line in, one JSON-ready reply out.

The engine's command language (``mix fern toad``...) for the game in progress, plus ``new``,
``restore CODE``, ``status``, ``history``, ``scan``, shelf-read questions (``mix``, ``sell R+``,
``exhibit R+``, ``golem test`` with no ingredients) and ``reveal confirm``. The transport is
``drivers.console``; this module never touches a port.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import (
    QUESTION_FORMS,
    CommandError,
    Exhibit,
    GolemTest,
    IllegalQuestionError,
    Ingredient,
    LabkitError,
    Level,
    Mix,
    Reveal,
    Rules,
    Sell,
    error_reply,
    parse_ingredient,
    parse_potion,
    parse_question,
    question_form,
    require_signed,
)
from engine.answers import Answer
from engine.questions import PlainData, Question
from firmware.session import GameOptions, GameSession

CONSOLE_FORMS: tuple[str, ...] = (
    "new [golem] [apprentice|master] [alchemists|alchymisti]",
    "restore CODE [apprentice|master] [alchemists|alchymisti]",
    "status",
    "history",
    "scan",
    "mix | sell POTION | exhibit POTION | golem test   (ingredients read from the shelf)",
    *(form for form in QUESTION_FORMS if form != "reveal"),
    "reveal confirm",
    "help",
)


@dataclass(frozen=True)
class ShelfReading:
    """What the camera sees now: status ok / unsure / empty / no_camera, and the ingredient ids."""

    status: str
    ingredients: tuple[str, ...] = ()

    def to_data(self) -> PlainData:
        return {"status": self.status, "ingredients": list(self.ingredients)}


def _options(verb: str, words: Sequence[str], golem_allowed: bool) -> tuple[bool, Level | None, Rules | None]:
    """The option words of ``new`` or ``restore``: golem, a level, a rules variant (``None``: not given)."""
    golem, level, rules = False, None, None
    for word in words:
        if word == "golem" and golem_allowed:
            golem = True
        elif word in (item.value for item in Level):
            level = Level(word)
        elif word in (item.value for item in Rules):
            rules = Rules(word)
        else:
            expected = "golem, apprentice, master, alchemists or alchymisti" if golem_allowed \
                else "apprentice, master, alchemists or alchymisti (a 5-letter code is a golem game)"
            raise CommandError(f"{verb}: unknown option {word!r}: expected {expected}")
    return golem, level, rules


class ShelfError(IllegalQuestionError):
    """The shelf does not hold what the question needs."""


class ConsoleProtocol:
    """Turns command lines into replies for the game in progress."""

    def __init__(
        self,
        session: GameSession,
        read_shelf: Callable[[], ShelfReading],
        default_options: Callable[[], GameOptions] = GameOptions,
    ) -> None:
        self.session = session
        self.read_shelf = read_shelf
        self.default_options = default_options

    @staticmethod
    def reads_shelf(line: str) -> bool:
        """Whether answering ``line`` needs a reading of the shelf (scan, or a question without its ingredients)."""
        words = [word.lower() for word in line.split()]
        return (words in (["scan"], ["mix"], ["golem", "test"])
                or (len(words) == 2 and words[0] in ("sell", "exhibit")))

    def handle(self, line: str, shelf: ShelfReading | None = None) -> PlainData:
        """The reply to one line; errors are replies too, and change nothing. ``shelf``: the reading
        to answer a shelf-reading line with (else ``read_shelf`` is asked)."""
        read_shelf = self.read_shelf if shelf is None else lambda: shelf
        try:
            return self._dispatch(line.split(), read_shelf)
        except LabkitError as error:
            return error_reply(error)

    def _dispatch(self, words: Sequence[str], read_shelf: Callable[[], ShelfReading]) -> PlainData:
        verb = words[0].lower() if words else ""
        rest = [word.lower() for word in words[1:]]
        if verb == "help":
            return {"commands": list(CONSOLE_FORMS)}
        if verb == "new":
            return self._new(rest)
        if verb == "restore":
            if len(words) < 2:
                raise CommandError(f"{' '.join(words)!r}: expected 'restore CODE'")
            golem, level, rules = _options("restore", rest[1:], golem_allowed=False)
            game = self.session.restore(words[1], rules, level)
            return {"code": game.code, "golem": game.is_golem_game}
        if verb == "status" and not rest:
            return self.session.status()
        if verb == "history" and not rest:
            return {"history": self.session.history()}
        if verb == "scan" and not rest:
            return read_shelf().to_data()
        if verb == "reveal":
            if rest != ["confirm"]:
                raise CommandError("the reveal shows every answer to everyone: send 'reveal confirm'")
            return self.session.ask(Reveal()).to_data()
        return self.session.ask(self._question(words, read_shelf)).to_data()  # JSON only here, at the edge

    def _new(self, words: Sequence[str]) -> PlainData:
        defaults = self.default_options()
        golem, level, rules = _options("new", words, golem_allowed=True)
        options = GameOptions(rules=rules or defaults.rules, level=level or defaults.level, golem=golem)
        game = self.session.new_game(options)
        return {"code": game.code}

    def _question(self, words: Sequence[str], read_shelf: Callable[[], ShelfReading]) -> Question[Answer]:
        """The question of a line: its form, then the game's options, then the shelf or the words."""
        if not words:
            raise CommandError("empty line: send 'help' for the commands")
        form = question_form(words)
        game = self.session.require_game()
        if not self.reads_shelf(" ".join(words)):
            return parse_question(words, game)
        game.check_form(form)  # the options first: no camera wait for a question the game refuses
        if form is Mix:
            return Mix(*self._shelf_ingredients(2, read_shelf))
        if form is GolemTest:
            (ingredient,) = self._shelf_ingredients(1, read_shelf)
            return GolemTest(ingredient)
        potion = require_signed(parse_potion(words[1]))  # the potion's word before the cards
        kind = Sell if form is Sell else Exhibit
        return kind(potion, *self._shelf_ingredients(2, read_shelf))

    def _shelf_ingredients(self, count: int, read_shelf: Callable[[], ShelfReading]) -> list[Ingredient]:
        self.session.require_game()
        reading = read_shelf()
        if reading.status == "no_camera":
            raise ShelfError("no_camera", "the camera is not working: name the ingredients, e.g. 'mix fern toad'")
        if reading.status == "empty":
            raise ShelfError("shelf_empty", f"the shelf is empty: lay {count} card{'s' if count > 1 else ''} on it")
        if reading.status != "ok":
            raise ShelfError("shelf_unsure", "the cards cannot be read with confidence: straighten them, uncover them, or name them")
        if len(reading.ingredients) != count:
            raise ShelfError("shelf_count", f"the shelf holds {len(reading.ingredients)} card(s); this needs {count}")
        return [parse_ingredient(word) for word in reading.ingredients]
