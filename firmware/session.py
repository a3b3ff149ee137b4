"""The game in progress, kept in the store: new, restore, ask, history, status.

Every answer is written to the store before it is shown. When the disk refuses a write the session
moves the game to memory, keeps answering, and says so in ``problem`` for the screen. A saved game
is read back entry by entry (:mod:`firmware.saved_game`): what cannot be read or does not match the
code is left out or corrected, a copy of the file is kept, and ``problem`` says so.
"""

from __future__ import annotations

import enum
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine import Game, IllegalQuestionError, LabkitError, Level, Question, Rules, decode_code
from engine.questions import A, PlainData
from firmware.saved_game import ReadGame, read_saved_game
from firmware.store import MemoryStore, StorageError, Store

#: Questions one game records. A game of Alchemists is six rounds in which each of at most four
#: players makes a few experiments, sales, debunks and golem tests: under 150 questions. Ten times
#: that leaves room for long tables and console scripts while bounding the file (about 300 bytes an
#: entry: 450 KB) and the history (30 pages of the console's ``history``).
MAX_QUESTIONS = 1500

log = logging.getLogger(__name__)


class ProblemKind(enum.Enum):
    """What happened to the saved game, for the screen's words."""

    STORAGE_FAILED = "storage_failed"  # the disk refused: the game is kept in memory
    SAVE_DAMAGED = "save_damaged"  # the saved game could not be read: set aside, no game
    SAVE_REPAIRED = "save_repaired"  # entries were left out or corrected: the game goes on


@dataclass(frozen=True)
class Problem:
    """A notice about the saved game: its kind (the screen's words) and English text (journal, console).

    The text never holds the game's code: the code is the secret's key.
    """

    kind: ProblemKind
    text: str

    def __str__(self) -> str:
        return self.text


class NoGameError(IllegalQuestionError):
    """A question asked while no game is in progress."""

    def __init__(self) -> None:
        super().__init__("no_game", "no game in progress: start one with 'new' or 'restore CODE'")


@dataclass(frozen=True)
class GameOptions:
    """How new games are set up: the rules variant, the level, and whether the golem is in play."""

    rules: Rules = Rules.ALCHEMISTS
    level: Level = Level.APPRENTICE
    golem: bool = False


class GameSession:
    """One game at a time, persisted in a store; the only way the daemon asks the engine."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng or secrets.SystemRandom()
        self.game: Game | None = None
        self.problem: Problem | None = None
        if store.notice is not None:
            kind = ProblemKind.STORAGE_FAILED if isinstance(store, MemoryStore) else ProblemKind.SAVE_DAMAGED
            self.problem = Problem(kind, store.notice)
        self.in_memory_fallback = False

    @property
    def storage_failed(self) -> bool:
        """Whether the game is kept in memory because the disk failed (at boot or since)."""
        return self.in_memory_fallback or (isinstance(self.store, MemoryStore) and self.store.notice is not None)

    def resume(self) -> Game | None:
        """Load the stored game, if any, keeping what can be read; see the module's docstring."""
        try:
            stored = self.store.load()
        except StorageError as error:
            self._go_to_memory(error)
            return None
        if stored is None:
            return None
        try:
            read = read_saved_game(stored)
        except LabkitError as error:
            self._set_aside_unreadable_game(error)
            return None
        game = read.game
        game.clock, game.rng = self.clock, self.rng
        self.game = game
        if read.repaired:
            self._save_repaired_game(read)
        log.info("resumed the saved game with %d questions", len(game.log))
        return game

    def new_game(self, options: GameOptions) -> Game:
        """Draw a new game and save it, replacing the current one."""
        game = Game.new(golem=options.golem, level=options.level, rules=options.rules, rng=self.rng)
        self._start(game)
        return game

    def restore(self, code: str, rules: Rules | None = None, level: Level | None = None) -> Game:
        """Continue the game of a code (raises the engine's code errors, changing nothing).

        Options not given are the current game's; a golem code is played with the alchemists
        rules (the only ones with a golem) unless other rules are asked for, which are refused.
        """
        current = self.game
        if rules is None and decode_code(code).golem is not None:
            rules = Rules.ALCHEMISTS
        game = Game.from_code(
            code,
            level or (current.level if current else Level.APPRENTICE),
            rules or (current.rules if current else Rules.ALCHEMISTS),
        )
        self._start(game)
        return game

    def set_level(self, level: Level) -> None:
        """Change the level of the game in progress (a setting the app allows to change later)."""
        game = self.require_game()
        game.level = level
        self._save_whole_game(game)

    def require_game(self) -> Game:
        """The game in progress, or ``NoGameError``."""
        if self.game is None:
            raise NoGameError()
        return self.game

    def ask(self, question: Question[A]) -> A:
        """Answer a question about the game in progress and record it before returning."""
        game = self.require_game()
        if len(game.log) >= MAX_QUESTIONS:
            raise IllegalQuestionError(
                "log_full", f"this game has recorded {MAX_QUESTIONS} questions, the most a game keeps:"
                " start a new game")
        reply = game.ask(question)
        entry = game.log[-1].to_data()
        try:
            self.store.append(entry)
        except StorageError as error:
            self._go_to_memory(error)
        log.info("answered a %s question", question.kind)
        return reply

    def history(self) -> list[PlainData]:
        """The public results of the game in progress, oldest first (never private ingredients)."""
        return [entry.public_data() for entry in self.require_game().log]

    def status(self) -> PlainData:
        """What kind of game is in progress (its code included: players need it to restore)."""
        game = self.require_game()
        return {
            "code": game.code,
            "rules": game.rules.value,
            "level": game.level.value,
            "golem": game.is_golem_game,
            "questions": len(game.log),
            "storage": "memory" if isinstance(self.store, MemoryStore) else "disk",
        }

    def _start(self, game: Game) -> None:
        game.clock, game.rng = self.clock, self.rng
        self.game = game
        self._save_whole_game(game)
        log.info("started a %s game (%s, %s)", "golem" if game.is_golem_game else "base",
                 game.rules.value, game.level.value)

    def _save_whole_game(self, game: Game) -> None:
        data = game.to_data()
        entries = data.pop("log")
        try:
            self.store.rewrite(data, entries if isinstance(entries, list) else [])
        except StorageError as error:
            self._go_to_memory(error)

    def _set_aside_unreadable_game(self, error: LabkitError) -> None:
        """Keep a copy of a game that cannot be read, then start without one (the copy is for the owner)."""
        try:
            copy = self.store.keep_copy()
            self.store.clear()
        except StorageError as storage_error:
            self._go_to_memory(storage_error)
            return
        kept = f"; kept as {copy.name}" if copy else ""
        log.error("the saved game cannot be read (%s)%s; starting without a game", error.kind, kept)
        self.problem = Problem(ProblemKind.SAVE_DAMAGED,
                               f"saved game unreadable ({error.kind}){kept}; start a new game")

    def _save_repaired_game(self, read: ReadGame) -> None:
        """Keep a copy of the stored file, then store the game as read; say what was changed."""
        text = (f"saved game repaired: {read.unreadable} unreadable entries left out,"
                f" {read.corrected} answers recomputed from the code")
        try:
            copy = self.store.keep_copy()
        except StorageError as error:
            self._go_to_memory(error)
            return
        if copy is not None:
            text += f"; the file as it was is kept as {copy.name}"
        log.error("%s", text)
        self.problem = Problem(ProblemKind.SAVE_REPAIRED, text)
        self._save_whole_game(read.game)

    def _go_to_memory(self, error: StorageError) -> None:
        if self.in_memory_fallback:
            return
        self.in_memory_fallback = True
        log.error("storage failed (%s): the game goes on in memory", error)
        self.problem = Problem(ProblemKind.STORAGE_FAILED, f"storage failed: {error}; the game goes on in memory")
        settings = self.store.settings.as_dict()
        try:
            self.store.close()
        except StorageError:
            pass
        self.store = MemoryStore(settings=settings)
        if self.game is not None:
            data = self.game.to_data()
            entries = data.pop("log")
            self.store.rewrite(data, entries if isinstance(entries, list) else [])
