"""A game: the secret assignment, its code, level, rules, golem, and the log of questions asked.

>>> game = Game.from_code("DEMO")
>>> game.ask(Mix(Ingredient.MUSHROOM, Ingredient.TOAD)).potion
<Potion.RED_PLUS: 'R+'>
>>> game.ask(Sell(Potion.RED_MINUS, Ingredient.MUSHROOM, Ingredient.TOAD)).to_data()
{'quality': 'wrong'}
>>> [entry.public_data()["ask"] for entry in game.log]
['mix', 'sell']
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import cast
from dataclasses import dataclass, field

from engine.alchemy import (
    ALCHEMICALS,
    Alchemical,
    Colour,
    Ingredient,
    LibraryClass,
    Potion,
    library_class,
    mix,
    parse_ingredient,
)
from engine.codes import Permutation, decode_code, encode_code
from engine.errors import IllegalQuestionError, LabkitError, LogFormatError
from engine.golem import GOLEMS, Golem
from engine.legacy_codes import read_legacy_kit_code
from engine.options import Level, Rules, check_form, check_golem_allowed, parse_level, parse_rules
from engine.answers import (
    AnimationResult,
    Answer,
    AspectSign,
    ExhibitionResult,
    GolemTestResult,
    LibraryOffered,
    LibraryVerdict,
    PairVerdict,
    PotionMade,
    Quality,
    SaleResult,
    Solution,
)
from engine.questions import (
    A,
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
    question_from_data,
)

SCHEMA_VERSION = 2
"""Version 2: codes are official codes; a game resumed from version 1 keeps its old golem code."""
#: Ingredients the palace library offers to choose from (004).
LIBRARY_OFFER_SIZE = 4
LEGACY_SCHEMA_VERSION = 1  # saved before issue 14: a 5-letter code is the kit's old golem scheme


def sale_quality(ordered: Potion, made: Potion) -> Quality:
    """The quality level of a sale.

    >>> sale_quality(Potion.RED_PLUS, Potion.BLUE_PLUS)
    <Quality.SIGN: 'sign'>
    """
    if made is ordered:
        return Quality.EXACT
    if made is Potion.NEUTRAL:
        return Quality.NEUTRAL
    return Quality.SIGN if made.sign == ordered.sign else Quality.WRONG


def require_signed(potion: Potion) -> Potion:
    """The potion, if it can be ordered or promised (any but the neutral one).

    >>> require_signed(Potion.NEUTRAL)
    Traceback (most recent call last):
    ...
    engine.errors.IllegalQuestionError: N cannot be ordered or promised: choose one of R+ R- G+ G- B+ B-
    """
    if potion is Potion.NEUTRAL:
        raise IllegalQuestionError(
            "neutral_potion", "N cannot be ordered or promised: choose one of R+ R- G+ G- B+ B-"
        )
    return potion


@dataclass(frozen=True)
class LogEntry:
    """One question, its answer, and when it was asked (seconds since the epoch)."""

    time: float
    question: Question[Answer]
    answer: PlainData

    def to_data(self) -> PlainData:
        """Plain data for saving.

        >>> LogEntry(0.0, Reveal(), {}).to_data()
        {'time': 0.0, 'question': {'ask': 'reveal'}, 'answer': {}}
        """
        return {"time": self.time, "question": self.question.to_data(), "answer": dict(self.answer)}

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> LogEntry:
        """Read an entry saved by ``to_data``.

        >>> LogEntry.from_data({"time": 1.5, "question": {"ask": "reveal"}, "answer": {}}).time
        1.5
        """
        when, question, answer = data.get("time"), data.get("question"), data.get("answer")
        if not isinstance(when, (int, float)) or not isinstance(question, dict) or not isinstance(answer, dict):
            raise LogFormatError(f"saved log entry {dict(data)!r} needs time, question and answer")
        return cls(float(when), question_from_data(question), dict(answer))

    def public_data(self) -> PlainData:
        """What the table may see: never the private ingredients, never a secret answer.

        >>> LogEntry(0.0, Mix(Ingredient.FERN, Ingredient.TOAD), {"potion": "N"}).public_data()
        {'time': 0.0, 'ask': 'mix', 'potion': 'N'}
        """
        data: PlainData = {"time": self.time, **self.question.public_data()}
        if not isinstance(self.question, (LibraryOffer, LibraryAnswer, Reveal)):
            data.update(self.answer)
        return data


def _now() -> float:
    return time.time()


@dataclass
class Game:
    """A game in progress. The permutation is the secret: ingredient i holds alchemical p[i]."""

    code: str
    permutation: Permutation
    golem: Golem | None = None
    level: Level = Level.MASTER
    rules: Rules = Rules.ALCHEMISTS
    log: list[LogEntry] = field(default_factory=list)
    clock: Callable[[], float] = field(default=_now, repr=False, compare=False)
    rng: random.Random = field(default_factory=secrets.SystemRandom, repr=False, compare=False)
    legacy_kit_code: bool = False
    """The code is the kit's old golem scheme (a game saved before issue 14 and resumed); see legacy_codes."""

    def __repr__(self) -> str:
        return f"<Game {self.code} {self.rules.value} {self.level.value}, {len(self.log)} questions>"

    @classmethod
    def new(
        cls,
        golem: bool = False,
        level: Level = Level.MASTER,
        rules: Rules = Rules.ALCHEMISTS,
        rng: random.Random | None = None,
    ) -> Game:
        """A new game: the assignment drawn uniformly, then one of its codes at random.

        >>> len(Game.new(golem=True).code)
        5
        """
        if golem:
            check_golem_allowed(rules)
        draw = rng or secrets.SystemRandom()
        permutation = list(range(8))
        draw.shuffle(permutation)
        chosen_golem = draw.choice(GOLEMS) if golem else None
        code = encode_code(tuple(permutation), chosen_golem, draw)
        return cls(code, tuple(permutation), chosen_golem, level, rules, rng=draw)

    @classmethod
    def from_code(cls, code: str, level: Level = Level.MASTER, rules: Rules = Rules.ALCHEMISTS) -> Game:
        """Restore a game from its code (to continue it, or to run a second device on it).

        A 5-letter code is a King's Golem game: the alchymisti rules refuse it.

        >>> Game.from_code("aaaa").alchemical_of(Ingredient.FEATHER).notation
        'NNN'
        """
        game = cls._decoded(code, level, rules)
        if game.is_golem_game:
            check_golem_allowed(rules)
        return game

    @classmethod
    def _decoded(cls, code: str, level: Level, rules: Rules) -> Game:
        decoded = decode_code(code)
        return cls(decoded.code, decoded.permutation, decoded.golem, level, rules)

    @property
    def is_golem_game(self) -> bool:
        """Whether the game is played with The King's Golem.

        >>> Game.from_code("AAAA").is_golem_game
        False
        """
        return self.golem is not None

    def alchemical_of(self, ingredient: Ingredient) -> Alchemical:
        """The secret: the alchemical an ingredient holds.

        >>> Game.from_code("AAAA").alchemical_of(Ingredient.FERN).notation
        'Ppn'
        """
        return ALCHEMICALS[self.permutation[ingredient]]

    def _pair(self, first: Ingredient, second: Ingredient) -> tuple[Alchemical, Alchemical]:
        if first is second:
            raise IllegalQuestionError(
                "same_ingredient",
                f"cannot mix {first.id} with {second.id}: two cards of the same kind cannot be mixed",
            )
        return self.alchemical_of(first), self.alchemical_of(second)

    def _require_golem(self) -> Golem:
        if self.golem is None:
            raise IllegalQuestionError(
                "no_golem",
                f"game {self.code} is a base game with no golem: golem games have 5-letter codes",
            )
        return self.golem

    def experiment(self, first: Ingredient, second: Ingredient) -> Potion:
        """The potion two ingredients make (without logging it).

        >>> Game.from_code("AAAA").experiment(Ingredient.FERN, Ingredient.FEATHER)
        <Potion.BLUE_MINUS: 'B-'>
        """
        return mix(*self._pair(first, second))

    @property
    def is_over(self) -> bool:
        """Whether the solution has been revealed: the reveal ends the game.

        >>> game = Game.from_code("AAAA")
        >>> game.is_over, (game.ask(Reveal()) and game.is_over)
        (False, True)
        """
        return any(isinstance(entry.question, Reveal) for entry in self.log)

    def check_form(self, form: type[Question[Answer]]) -> None:
        """Refuse a form of question that this game's rules, level or golem forbid (before its words).

        >>> Game.from_code("DEMO", Level.MASTER).check_form(DebunkSign)
        Traceback (most recent call last):
        ...
        engine.errors.OptionError: 'debunk ING COLOUR' is the apprentice level's debunk; this game is at level master, whose debunk is 'debunk ING ING POTION' (yes or no only)
        """
        check_form(form, self.rules, self.level, golem=self.is_golem_game, code=self.code)

    def answer(self, question: Question[A]) -> A:
        """The answer to a question, without logging it (as the stateless ``labkit ask`` gives it).

        Problems are named in a fixed order: the game's options (rules, golem, level), then the
        question's arguments in the order of its words (the potion of ``sell POTION ING ING``
        before its ingredients).

        >>> Game.from_code("AAAA", Level.APPRENTICE).answer(DebunkSign(Ingredient.FERN, Colour.B))
        AspectSign(sign=-1)
        """
        self.check_form(type(question))
        # each question class is answered by the answer class it names: Mix by PotionMade...
        return cast(A, self._answer(question))

    def _answer(self, question: Question[Answer]) -> Answer:
        if isinstance(question, Mix):
            return PotionMade(self.experiment(question.first, question.second))
        if isinstance(question, Sell):
            ordered = require_signed(question.potion)
            return SaleResult(sale_quality(ordered, self.experiment(question.first, question.second)))
        if isinstance(question, DebunkSign):
            return AspectSign(self.alchemical_of(question.ingredient).aspect(question.colour).sign)
        if isinstance(question, DebunkPair):
            return PairVerdict(self.experiment(question.first, question.second) is question.potion)
        if isinstance(question, DebunkPotion):
            return PotionMade(self.experiment(question.first, question.second))
        if isinstance(question, Exhibit):
            promised = require_signed(question.potion)
            return ExhibitionResult(self.experiment(question.first, question.second) is promised)
        if isinstance(question, GolemTest):
            chest, ears = self._require_golem().reaction_to(self.alchemical_of(question.ingredient))
            return GolemTestResult(chest, ears)
        if isinstance(question, GolemAnimate):
            pair = set(self._pair(question.first, question.second))
            return AnimationResult(pair == set(self._require_golem().animating_alchemicals()))
        if isinstance(question, LibraryOffer):
            self._require_golem()
            return LibraryOffered(tuple(self.rng.sample(list(Ingredient), LIBRARY_OFFER_SIZE)))
        if isinstance(question, LibraryAnswer):
            self._require_golem()
            return LibraryVerdict(library_class(self.alchemical_of(question.ingredient)))
        if isinstance(question, Reveal):
            return self.reveal()
        raise TypeError(f"not a question: {question!r}")

    def ask(self, question: Question[A]) -> A:
        """Answer a question in the game in progress and record it in the log.

        Unlike ``answer`` it follows the game so far: the palace library answers only for one of
        the four ingredients it last offered, once (004).

        >>> game = Game.from_code("AAAA")
        >>> game.ask(Mix(Ingredient.FERN, Ingredient.CLAW)), len(game.log)
        (PotionMade(potion=<Potion.GREEN_PLUS: 'G+'>), 1)
        """
        self.check_form(type(question))
        if isinstance(question, LibraryAnswer):
            self._require_offered(question.ingredient)
        reply = self.answer(question)
        self.log.append(LogEntry(self.clock(), question, reply.to_data()))
        return reply

    def replayed(self, entry: LogEntry) -> LogEntry:
        """The entry with its answer recomputed from the code: how a saved log is checked on load.

        The form is checked against the rules and the golem but not the level, which may change
        during a game. A library offer was a random draw: its four ingredients are checked and kept.
        Raises ``LabkitError`` for an entry this game could not have recorded.

        >>> game = Game.from_code("AAAA")
        >>> altered = LogEntry(1.0, Mix(Ingredient.FERN, Ingredient.CLAW), {"potion": "R-"})
        >>> game.replayed(altered).answer
        {'potion': 'G+'}
        """
        question = entry.question
        if isinstance(question, LibraryOffer):
            self._require_golem()
            offered = entry.answer.get("ingredients")
            names = offered if isinstance(offered, list) else []
            ingredients = {parse_ingredient(str(name)) for name in names}
            if len(names) != LIBRARY_OFFER_SIZE or len(ingredients) != LIBRARY_OFFER_SIZE:
                raise LogFormatError(f"a library offer needs {LIBRARY_OFFER_SIZE} different ingredients,"
                                     f" not {offered!r}")
            return entry
        refusals: list[LabkitError] = []
        for level in Level:
            try:
                check_form(type(question), self.rules, level, golem=self.is_golem_game, code=self.code)
            except LabkitError as refusal:
                refusals.append(refusal)
        if len(refusals) == len(Level):
            raise refusals[0]
        return LogEntry(entry.time, question, self._answer(question).to_data())

    def library_offer(self) -> tuple[Ingredient, ...] | None:
        """The four ingredients the library last offered, until one of them is chosen; else ``None``.

        >>> game = Game.from_code("AAAAQ")
        >>> game.ask(LibraryOffer()).ingredients == game.library_offer()
        True
        """
        for entry in reversed(self.log):
            if isinstance(entry.question, LibraryAnswer):
                return None
            if isinstance(entry.question, LibraryOffer):
                offered = entry.answer.get("ingredients")
                if not isinstance(offered, list):
                    return None
                return tuple(parse_ingredient(str(name)) for name in offered)
        return None

    def _require_offered(self, ingredient: Ingredient) -> None:
        offered = self.library_offer()
        if offered is None:
            raise IllegalQuestionError(
                "no_library_offer",
                "the library has offered no ingredients to choose from: ask 'library offer' first",
            )
        if ingredient not in offered:
            raise IllegalQuestionError(
                "not_offered",
                f"the library did not offer {ingredient.id}: choose one of "
                + ", ".join(item.id for item in offered),
            )

    def golem_animators(self) -> tuple[Ingredient, Ingredient]:
        """The two ingredients that animate the golem (the secret of the golem project).

        >>> [ingredient.id for ingredient in Game.from_code("GOLEM").golem_animators()]
        ['fern', 'toad']
        """
        wanted = self._require_golem().animating_alchemicals()
        first, second = (
            ingredient for ingredient in Ingredient if self.alchemical_of(ingredient) in wanted
        )
        return first, second

    def reveal(self) -> Solution:
        """Everything: each ingredient's alchemical, and the golem with its animating pair.

        >>> Game.from_code("AAAA").reveal().alchemical_of(Ingredient.FEATHER).notation
        'NNN'
        """
        alchemicals = tuple(self.alchemical_of(ingredient) for ingredient in Ingredient)
        if self.golem is None:
            return Solution(alchemicals)
        return Solution(alchemicals, self.golem, self.golem_animators())

    def library_class_of(self, ingredient: Ingredient) -> LibraryClass:
        """Sun or moon for one ingredient (golem games only).

        >>> Game.from_code("AAAA").library_class_of(Ingredient.FERN)
        Traceback (most recent call last):
        ...
        engine.errors.IllegalQuestionError: game AAAA is a base game with no golem: golem games have 5-letter codes
        """
        self._require_golem()
        return library_class(self.alchemical_of(ingredient))

    def to_data(self) -> PlainData:
        """Plain data for saving; the code alone carries the assignment.

        >>> Game.from_code("AAAA").to_data()
        {'schema': 2, 'code': 'AAAA', 'level': 'master', 'rules': 'alchemists', 'log': []}
        """
        data: PlainData = {
            "schema": SCHEMA_VERSION,
            "code": self.code,
            "level": self.level.value,
            "rules": self.rules.value,
            "log": [entry.to_data() for entry in self.log],
        }
        if self.legacy_kit_code:
            data["legacy_kit_code"] = True
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Game:
        """Read a game saved by ``to_data``, or by the previous version (schema 1, old golem codes).

        >>> Game.from_data({"schema": 2, "code": "AAAA", "level": "master", "rules": "alchemists", "log": []}).code
        'AAAA'
        >>> Game.from_data({"schema": 9, "code": "AAAA"})
        Traceback (most recent call last):
        ...
        engine.errors.LogFormatError: saved game has schema version 9; this kit reads versions 1 and 2
        """
        schema = data.get("schema")
        if schema not in (LEGACY_SCHEMA_VERSION, SCHEMA_VERSION):
            raise LogFormatError(
                f"saved game has schema version {schema!r}; this kit reads versions"
                f" {LEGACY_SCHEMA_VERSION} and {SCHEMA_VERSION}"
            )
        code, level, rules, log = data.get("code"), data.get("level"), data.get("rules"), data.get("log")
        if not isinstance(code, str) or not isinstance(level, str) or not isinstance(rules, str):
            raise LogFormatError(f"saved game {dict(data)!r} needs text fields code, level and rules")
        if not isinstance(log, list):
            raise LogFormatError(f"saved game {code} needs a list 'log'")
        # a golem game under the alchymisti rules (the previous version's console started them)
        # resumes as it was: its rules refuse every golem question
        legacy = len(code.strip()) == 5 and (schema == LEGACY_SCHEMA_VERSION or data.get("legacy_kit_code") is True)
        decoded = read_legacy_kit_code(code) if legacy else decode_code(code)
        game = cls(decoded.code, decoded.permutation, decoded.golem, parse_level(level), parse_rules(rules),
                   legacy_kit_code=legacy)
        if not all(isinstance(entry, dict) for entry in log):
            raise LogFormatError(f"saved game {code}: every log entry must be a mapping")
        game.log = [LogEntry.from_data(entry) for entry in log]
        return game
