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
)
from engine.questions import PlainData, Question
from firmware.session import GameOptions, GameSession

CONSOLE_FORMS: tuple[str, ...] = (
    "new [golem] [apprentice|master] [alchemists|alchymisti]",
    "restore CODE",
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

    def handle(self, line: str) -> PlainData:
        """The reply to one line; errors are replies too, and change nothing."""
        try:
            return self._dispatch(line.split())
        except LabkitError as error:
            return error_reply(error)

    def _dispatch(self, words: Sequence[str]) -> PlainData:
        verb = words[0].lower() if words else ""
        rest = [word.lower() for word in words[1:]]
        if verb == "help":
            return {"commands": list(CONSOLE_FORMS)}
        if verb == "new":
            return self._new(rest)
        if verb == "restore":
            if len(words) != 2:
                raise CommandError(f"{' '.join(words)!r}: expected 'restore CODE'")
            game = self.session.restore(words[1])
            return {"code": game.code, "golem": game.is_golem_game}
        if verb == "status" and not rest:
            return self.session.status()
        if verb == "history" and not rest:
            return {"history": self.session.history()}
        if verb == "scan" and not rest:
            return self.read_shelf().to_data()
        if verb == "reveal":
            if rest != ["confirm"]:
                raise CommandError("the reveal shows every answer to everyone: send 'reveal confirm'")
            return self.session.ask(Reveal())
        return self.session.ask(self._question(words))

    def _new(self, words: Sequence[str]) -> PlainData:
        defaults = self.default_options()
        golem, level, rules = False, defaults.level, defaults.rules
        for word in words:
            if word == "golem":
                golem = True
            elif word in (item.value for item in Level):
                level = Level(word)
            elif word in (item.value for item in Rules):
                rules = Rules(word)
            else:
                raise CommandError(f"new: unknown option {word!r}: expected golem, apprentice, master, alchemists or alchymisti")
        game = self.session.new_game(GameOptions(rules=rules, level=level, golem=golem))
        return {"code": game.code}

    def _question(self, words: Sequence[str]) -> Question:
        verb = [word.lower() for word in words[:2]]
        if verb == ["mix"] and len(words) == 1:
            return Mix(*self._shelf_ingredients(2))
        if verb[:1] == ["sell"] and len(words) == 2:
            return Sell(parse_potion(words[1]), *self._shelf_ingredients(2))
        if verb[:1] == ["exhibit"] and len(words) == 2:
            return Exhibit(parse_potion(words[1]), *self._shelf_ingredients(2))
        if verb == ["golem", "test"] and len(words) == 2:
            self.session.require_game()
            (ingredient,) = self._shelf_ingredients(1)
            return GolemTest(ingredient)
        if not words:
            raise CommandError("empty line: send 'help' for the commands")
        return parse_question(words)

    def _shelf_ingredients(self, count: int) -> list[Ingredient]:
        self.session.require_game()
        reading = self.read_shelf()
        if reading.status == "no_camera":
            raise ShelfError("no_camera", "the camera is not working: name the ingredients, e.g. 'mix fern toad'")
        if reading.status == "empty":
            raise ShelfError("shelf_empty", f"the shelf is empty: lay {count} card{'s' if count > 1 else ''} on it")
        if reading.status != "ok":
            raise ShelfError("shelf_unsure", "the cards cannot be read with confidence: straighten them, uncover them, or name them")
        if len(reading.ingredients) != count:
            raise ShelfError("shelf_count", f"the shelf holds {len(reading.ingredients)} card(s); this needs {count}")
        return [parse_ingredient(word) for word in reading.ingredients]
