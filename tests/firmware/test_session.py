"""The game session: every answer saved before it is shown; resume after a restart; memory fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import (
    Game,
    IllegalQuestionError,
    Ingredient,
    InvalidCodeError,
    Level,
    LibraryAnswer,
    LibraryOffer,
    Mix,
    OptionError,
    Rules,
    parse_ingredient,
)
from firmware.session import GameOptions, GameSession, NoGameError, ProblemKind
from firmware.store import GameStore, MemoryStore, StorageError


def test_a_game_survives_a_restart(tmp_path: Path) -> None:
    session = GameSession(GameStore.open(tmp_path))
    game = session.new_game(GameOptions(rules=Rules.ALCHYMISTI, level=Level.MASTER))
    first = session.ask(Mix(Ingredient.FERN, Ingredient.TOAD)).to_data()
    session.ask(Mix(Ingredient.ROOT, Ingredient.CLAW)).to_data()
    session.store.close()

    again = GameSession(GameStore.open(tmp_path))
    resumed = again.resume()
    assert resumed is not None
    assert (resumed.code, resumed.rules, resumed.level) == (game.code, Rules.ALCHYMISTI, Level.MASTER)
    assert [entry.answer for entry in resumed.log][0] == first
    assert again.history() == session.history()
    assert again.status()["questions"] == 2


def test_the_library_offer_is_kept_across_a_restart(tmp_path: Path) -> None:
    session = GameSession(GameStore.open(tmp_path))
    session.new_game(GameOptions(golem=True))
    offered = session.ask(LibraryOffer()).to_data()["ingredients"]
    assert isinstance(offered, list)
    session.store.close()
    again = GameSession(GameStore.open(tmp_path))
    again.resume()
    not_offered = next(ingredient for ingredient in Ingredient if ingredient.id not in offered)
    with pytest.raises(IllegalQuestionError) as caught:
        again.ask(LibraryAnswer(not_offered)).to_data()
    assert caught.value.kind == "not_offered"
    assert again.ask(LibraryAnswer(parse_ingredient(str(offered[1])))).to_data()["class"] in ("sun", "moon")
    with pytest.raises(IllegalQuestionError):
        again.ask(LibraryAnswer(parse_ingredient(str(offered[1])))).to_data()
    assert [entry["ask"] for entry in again.history()] == ["library offer", "library"]


def test_a_golem_code_is_restored_with_the_alchemists_rules_unless_others_are_asked(tmp_path: Path) -> None:
    session = GameSession(GameStore.open(tmp_path))
    session.new_game(GameOptions(rules=Rules.ALCHYMISTI))
    code = Game.new(golem=True).code
    before = session.status()
    with pytest.raises(OptionError) as caught:
        session.restore(code, Rules.ALCHYMISTI)
    assert caught.value.kind == "not_in_rules" and session.status() == before
    assert session.restore(code).rules is Rules.ALCHEMISTS
    assert session.restore("DEMO").rules is Rules.ALCHEMISTS  # the current game's rules


def test_restore_replaces_the_game_and_keeps_the_level(tmp_path: Path) -> None:
    session = GameSession(GameStore.open(tmp_path))
    session.new_game(GameOptions(level=Level.MASTER))
    session.ask(Mix(Ingredient.FERN, Ingredient.TOAD)).to_data()
    game = session.restore("demo")
    assert game.code == "DEMO" and game.level is Level.MASTER and game.log == []
    assert session.store.load().log == []  # type: ignore[union-attr]


def test_a_bad_code_changes_nothing(tmp_path: Path) -> None:
    session = GameSession(GameStore.open(tmp_path))
    game = session.new_game(GameOptions())
    with pytest.raises(InvalidCodeError):
        session.restore("QB1Z")
    assert session.game is game
    assert session.store.load().game["code"] == game.code  # type: ignore[union-attr]


def test_questions_need_a_game() -> None:
    session = GameSession(MemoryStore())
    with pytest.raises(NoGameError) as caught:
        session.ask(Mix(Ingredient.FERN, Ingredient.TOAD)).to_data()
    assert caught.value.kind == "no_game"


class FailingStore(MemoryStore):
    """A store whose disk fills up after ``ok_writes`` writes."""

    def __init__(self, ok_writes: int) -> None:
        super().__init__()
        self.ok_writes = ok_writes

    def _spend(self) -> None:
        if self.ok_writes <= 0:
            raise StorageError("database or disk is full")
        self.ok_writes -= 1

    def rewrite(self, game, log):  # type: ignore[no-untyped-def]
        self._spend()
        super().rewrite(game, log)

    def append(self, entry):  # type: ignore[no-untyped-def]
        self._spend()
        super().append(entry)


def test_a_full_disk_moves_the_game_to_memory_and_says_so(expected_errors) -> None:
    expected_errors.expect("storage failed")
    session = GameSession(FailingStore(ok_writes=2))
    session.new_game(GameOptions())
    session.ask(Mix(Ingredient.FERN, Ingredient.TOAD)).to_data()
    reply = session.ask(Mix(Ingredient.ROOT, Ingredient.TOAD)).to_data()
    assert "potion" in reply
    assert session.problem is not None and "disk is full" in str(session.problem)
    assert session.problem.kind is ProblemKind.STORAGE_FAILED
    assert not isinstance(session.store, FailingStore)
    assert len(session.store.load().log) == 2  # type: ignore[union-attr]
    assert session.status()["storage"] == "memory"
