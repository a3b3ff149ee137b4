"""The game in progress, kept in the store: new, restore, ask, history, status.

Every answer is written to the store before it is shown. When the disk refuses a write the session
moves the game to memory, keeps answering, and says so in ``problem`` for the screen.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine import Game, IllegalQuestionError, LabkitError, Level, Question, Rules, decode_code
from engine.questions import A, PlainData
from firmware.store import MemoryStore, StorageError, Store

log = logging.getLogger(__name__)


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
        self.problem: str | None = store.notice
        self.in_memory_fallback = False

    @property
    def storage_failed(self) -> bool:
        """Whether the game is kept in memory because the disk failed (at boot or since)."""
        return self.in_memory_fallback or (isinstance(self.store, MemoryStore) and self.store.notice is not None)

    def resume(self) -> Game | None:
        """Load the stored game, if any; a saved game that cannot be read is set aside with a notice."""
        try:
            stored = self.store.load()
        except StorageError as error:
            self._go_to_memory(error)
            return None
        if stored is None:
            return None
        try:
            game = Game.from_data({**stored.game, "log": stored.log})
        except LabkitError as error:
            log.error("the saved game cannot be read (%s); starting without a game", error.kind)
            self.problem = f"saved game unreadable ({error.message}); start a new game"
            return None
        game.clock, game.rng = self.clock, self.rng
        self.game = game
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
            self.store.save_game(data)
            for entry in entries if isinstance(entries, list) else []:
                self.store.append(entry)
        except StorageError as error:
            self._go_to_memory(error)

    def _go_to_memory(self, error: StorageError) -> None:
        if self.in_memory_fallback:
            return
        self.in_memory_fallback = True
        log.error("storage failed (%s): the game goes on in memory", error)
        self.problem = f"storage failed: {error}; the game goes on in memory"
        settings = self.store.settings.as_dict()
        try:
            self.store.close()
        except StorageError:
            pass
        self.store = MemoryStore(settings=settings)
        if self.game is not None:
            data = self.game.to_data()
            entries = data.pop("log")
            self.store.save_game(data)
            for entry in entries if isinstance(entries, list) else []:
                self.store.append(entry)
