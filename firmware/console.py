"""The serial console's protocol: one command line in, one JSON-ready reply out.

The engine's command language (``mix fern toad``...) for the game in progress, plus ``new``,
``restore CODE``, ``status``, ``history``, ``scan``, shelf-read questions (``mix``, ``sell R+``,
``exhibit R+``, ``golem test`` with no ingredients) and ``reveal confirm``. The transport is
``drivers.console``; this module never touches a port.
"""

from __future__ import annotations

import re
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
    decode_code,
    error_reply,
    parse_ingredient,
    parse_potion,
    parse_question,
    question_form,
    require_signed,
)
from engine.answers import Answer
from engine.questions import PlainData, Question
from firmware.console_gate import LOCKED, PIN, ConsoleGate, ConsoleLocked
from firmware.session import GameOptions, GameSession

#: Entries in one ``history`` reply; ``history FROM`` pages on (a 50-entry page is about 4 KB).
HISTORY_PAGE = 50

#: Word separators: ASCII space and tab only (a no-break space is part of a word, named in errors).
SEPARATORS = re.compile(r"[ \t]+")

#: What the locked console answers; everything else needs an unlock.
OPEN_VERBS = frozenset({"help", "history", "status", "unlock", "lock"})
#: What replaces the game or reveals: confirmed on the kit unless the PIN unlocked the console.
CONFIRMED_VERBS = frozenset({"new", "restore", "reveal"})


def split_words(line: str) -> list[str]:
    """The words of a line, split at ASCII spaces and tabs only.

    >>> split_words(" mix\tfern  toad ")
    ['mix', 'fern', 'toad']
    >>> split_words("mix\u00a0fern toad")
    ['mix\xa0fern', 'toad']
    """
    return [word for word in SEPARATORS.split(line) if word]


CONSOLE_FORMS: tuple[str, ...] = (
    "unlock PIN   (or on the kit: Settings, Console, hold ok and back)",
    "lock",
    "new [golem] [apprentice|master] [alchemists|alchymisti]",
    "restore CODE [apprentice|master] [alchemists|alchymisti]",
    "status",
    "history [FROM]",
    "scan",
    "mix | sell POTION | exhibit POTION | golem test   (ingredients read from the shelf)",
    *(form for form in QUESTION_FORMS if form != "reveal"),
    "reveal confirm",
    "help",
)


@dataclass(frozen=True)
class ShelfReading:
    """What the camera sees now: status ok / unsure / empty / no_camera, or unlearned (no card is read
    before the kit has learned its empty shelf), and the ingredient ids."""

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
        pin: str = "",
        send_notice: Callable[[PlainData], None] = lambda notice: None,
    ) -> None:
        self.session = session
        self.read_shelf = read_shelf
        self.default_options = default_options
        self.gate = ConsoleGate(session, pin)
        self.send_notice = send_notice

    @staticmethod
    def reads_shelf(line: str) -> bool:
        """Whether answering ``line`` needs a reading of the shelf (scan, or a question without its ingredients)."""
        words = [word.lower() for word in split_words(line)]
        return (words in (["scan"], ["mix"], ["golem", "test"])
                or (len(words) == 2 and words[0] in ("sell", "exhibit")))

    def needs_shelf(self, line: str, trusted: bool = False) -> bool:
        """Whether the daemon should read the shelf before answering: never for a locked console."""
        return self.reads_shelf(line) and (trusted or self.gate.access() != LOCKED)

    def handle(self, line: str, shelf: ShelfReading | None = None, trusted: bool = False) -> PlainData:
        """The reply to one line; errors are replies too, and change nothing. ``shelf``: the reading
        to answer a shelf-reading line with (else ``read_shelf`` is asked). ``trusted``: the line
        comes from the kit's owner (a ``--script``), not a port: the PIN's access, no notices."""
        read_shelf = self.read_shelf if shelf is None else lambda: shelf
        try:
            words = split_words(line)
            if trusted:  # the owner's script drives the screen itself
                reply = self._gated(words, PIN, read_shelf)
                self.gate.take_events()
            else:
                self.gate.line_arrived()
                reply = self._gated(words, self.gate.access(), read_shelf)
        except LabkitError as error:
            reply = error_reply(error)
        if self.session.storage_failed:
            reply = {**reply, "storage": "memory"}
        return reply

    def _gated(self, words: Sequence[str], access: str, read_shelf: Callable[[], ShelfReading]) -> PlainData:
        """Run the line if the console's access allows it, or ask the kit, or refuse."""
        verb = words[0].lower() if words else ""
        if verb == "unlock":
            return self._unlock(words)
        if verb == "lock" and len(words) == 1:
            self.gate.lock()
            return {"console": LOCKED}
        if verb in CONFIRMED_VERBS and access != PIN:
            if access == LOCKED:
                raise ConsoleLocked(verb)
            return self._ask_the_kit(verb, words, read_shelf)
        if verb not in OPEN_VERBS and access == LOCKED:
            raise ConsoleLocked(verb)
        game = self.session.game
        reply = self._dispatch(words, read_shelf)
        if verb == "status" and access != PIN:
            reply = {key: value for key, value in reply.items() if key != "code"}
        if verb == "status":
            reply["console"] = LOCKED if access == LOCKED else "unlocked"
        if self.session.game is not game:
            self.gate.follow_game()
            self.gate.changed(verb)
        elif verb == "reveal":
            self.gate.changed("reveal")
        elif verb not in OPEN_VERBS:
            self.gate.changed("question")
        return reply

    def _unlock(self, words: Sequence[str]) -> PlainData:
        if len(words) != 2:
            raise CommandError("expected 'unlock PIN'")
        if not self.gate.pin:
            raise IllegalQuestionError(
                "no_pin", "no PIN is configured ([console] pin): unlock the console on the kit")
        if not self.gate.unlock_with(words[1]):
            raise IllegalQuestionError("wrong_pin", "wrong PIN: the next try waits longer")
        return {"console": "unlocked"}

    def _ask_the_kit(self, verb: str, words: Sequence[str], read_shelf: Callable[[], ShelfReading]) -> PlainData:
        """``new``, ``restore``, ``reveal`` without the PIN: checked now, run when the kit confirms."""
        rest = [word.lower() for word in words[1:]]
        if verb == "new":
            _options("new", rest, golem_allowed=True)
        elif verb == "restore":
            if len(words) < 2:
                raise CommandError(f"{' '.join(words)!r}: expected 'restore CODE'")
            _options("restore", rest[1:], golem_allowed=False)
            decode_code(words[1])
        else:
            if rest not in ([], ["confirm"]):
                raise CommandError("expected 'reveal' (the kit asks for a confirmation)")
            self.session.require_game()
        deferred = ["reveal", "confirm"] if verb == "reveal" else list(words)

        def shown(reply: PlainData) -> PlainData:  # a game's code is the whole secret: PIN only
            return {key: value for key, value in reply.items() if key != "code"}

        def run() -> PlainData:
            try:
                return self._dispatch(deferred, read_shelf)
            except LabkitError as error:
                return error_reply(error)

        self.gate.ask_the_kit(verb, run, self.send_notice, shown)
        return {"waiting": "kit", "request": verb,
                "message": f"{verb!r} waits for a confirmation on the kit (ok: yes, back: no)"}

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
        if verb == "history" and len(rest) <= 1:
            return self._history(rest)
        if verb == "scan" and not rest:
            return read_shelf().to_data()
        if verb == "reveal":
            if rest != ["confirm"]:
                raise CommandError("the reveal shows every answer to everyone: send 'reveal confirm'")
            return self.session.ask(Reveal()).to_data()
        return self.session.ask(self._question(words, read_shelf)).to_data()  # JSON only here, at the edge

    def _history(self, rest: Sequence[str]) -> PlainData:
        """One page of the public history: ``history`` the first, ``history FROM`` the next."""
        if rest and not (rest[0].isascii() and rest[0].isdigit()):
            raise CommandError(f"history {rest[0]!r}: expected 'history' or 'history FROM' (a number)")
        start = int(rest[0]) if rest else 0
        entries = self.session.history()
        page = entries[start:start + HISTORY_PAGE]
        reply: PlainData = {"history": page}
        if start or len(entries) > HISTORY_PAGE:
            following = start + len(page)
            reply.update({"from": start, "total": len(entries),
                          "next": following if following < len(entries) else None})
        return reply

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
        if reading.status == "unlearned":
            raise ShelfError("shelf_unlearned", "the kit has not learned its empty shelf yet: clear the shelf and "
                             "press ok on the kit's card prompt, or name the ingredients")
        if reading.status == "empty":
            raise ShelfError("shelf_empty", f"the shelf is empty: lay {count} card{'s' if count > 1 else ''} on it")
        if reading.status != "ok":
            raise ShelfError("shelf_unsure", "the cards cannot be read with confidence: straighten them, uncover them, or name them")
        if len(reading.ingredients) != count:
            raise ShelfError("shelf_count", f"the shelf holds {len(reading.ingredients)} card(s); this needs {count}")
        return [parse_ingredient(word) for word in reading.ingredients]
