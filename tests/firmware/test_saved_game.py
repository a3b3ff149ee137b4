"""A damaged saved game: each case damages a real database file and checks what the kit keeps and says."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine import Colour, DebunkSign, Game, IllegalQuestionError, Ingredient, Level, LibraryOffer, Mix, Rules
from firmware.config import load_config
from firmware.runtime import RunOptions, build_kit
from firmware.saved_game import read_saved_game
from firmware.screens.views import MessageView
from firmware.session import GameOptions, GameSession, ProblemKind
from firmware.store import DB_NAME, GameStore, StoredGame
from firmware.ui.app import PROBLEM_TEXTS

REPAIRED = "saved game repaired"


def played(state: Path, golem: bool = False) -> tuple[str, list[dict[str, object]]]:
    """A saved game with a few questions, the level changed half way; its code and its log."""
    session = GameSession(GameStore.open(state))
    game = session.new_game(GameOptions(golem=golem, level=Level.MASTER))
    session.ask(Mix(Ingredient.FERN, Ingredient.TOAD))
    session.ask(Mix(Ingredient.ROOT, Ingredient.CLAW))
    if golem:
        session.ask(LibraryOffer())
    session.set_level(Level.APPRENTICE)
    session.ask(DebunkSign(Ingredient.FEATHER, Colour.G))
    session.ask(Mix(Ingredient.FLOWER, Ingredient.SCORPION))
    session.store.close()
    return game.code, [entry.to_data() for entry in game.log]


def alter(state: Path, sql: str, *parameters: object) -> None:
    connection = sqlite3.connect(state / DB_NAME)
    connection.execute(sql, parameters)
    connection.commit()
    connection.close()


def resumed(state: Path) -> GameSession:
    session = GameSession(GameStore.open(state))
    session.resume()
    return session


def copies(state: Path) -> list[Path]:
    return sorted(p for p in state.glob(DB_NAME + ".damaged-*") if not p.name.endswith(("-wal", "-shm")))


def stored_in(path: Path) -> tuple[str, list[str]]:
    """The game record and the log entries of a database file, as text."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        [game] = connection.execute("SELECT data FROM game").fetchone()
        log = [r[0] for r in connection.execute("SELECT data FROM log ORDER BY seq")]
    finally:
        connection.close()
    return game, log


def test_an_intact_game_is_read_without_a_notice(tmp_path: Path) -> None:
    code, log = played(tmp_path, golem=True)
    session = resumed(tmp_path)
    assert session.problem is None and session.game is not None
    assert session.game.code == code and [e.to_data() for e in session.game.log] == log
    assert copies(tmp_path) == []


@pytest.mark.parametrize("bad_entry", [
    '{"time": 1.0, "question": {"ask": "mix", "ingredients": ["fern", "sage"]}, "answer": {"potion": "N"}}',
    '{"time": 1.0, "question": {"ask": "golem test", "ingredients": ["fern"]}, "answer": {}}',
    '{"time": 1.0, "quest',
    '[1, 2, 3]',
])
def test_an_unreadable_entry_costs_that_entry_only(tmp_path: Path, expected_errors, bad_entry: str) -> None:
    expected_errors.expect(REPAIRED)
    code, log = played(tmp_path)
    alter(tmp_path, "UPDATE log SET data = ? WHERE seq = 2", bad_entry)
    session = resumed(tmp_path)
    assert session.game is not None and session.game.code == code
    assert [e.to_data() for e in session.game.log] == [log[0], *log[2:]]
    assert session.problem is not None and session.problem.kind is ProblemKind.SAVE_REPAIRED
    assert "1 unreadable entries left out, 0 answers recomputed" in str(session.problem)
    [copy] = copies(tmp_path)
    assert copy.name in str(session.problem)
    assert stored_in(copy)[1][1] == bad_entry  # the copy is the file as it was...
    session.store.close()
    again = resumed(tmp_path)  # ...and the store holds the game as read: nothing to repair twice
    assert again.problem is None and again.history() == session.history()


def test_an_altered_answer_is_recomputed_from_the_code(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect(REPAIRED)
    code, log = played(tmp_path)
    first = log[0]
    assert isinstance(first["answer"], dict)
    altered = {**first, "answer": {"potion": "R-" if first["answer"]["potion"] != "R-" else "R+"}}
    alter(tmp_path, "UPDATE log SET data = ? WHERE seq = 1", json.dumps(altered))
    sign = log[2]
    assert isinstance(sign["answer"], dict)
    alter(tmp_path, "UPDATE log SET data = ? WHERE seq = 3",
          json.dumps({**sign, "answer": {"sign": "+" if sign["answer"]["sign"] == "-" else "-"}}))
    session = resumed(tmp_path)
    assert session.game is not None
    assert [e.to_data() for e in session.game.log] == log
    assert "0 unreadable entries left out, 2 answers recomputed" in str(session.problem)
    assert len(copies(tmp_path)) == 1


def test_a_game_record_that_cannot_be_read_is_kept_aside_and_the_kit_starts_without_a_game(
    tmp_path: Path, expected_errors
) -> None:
    expected_errors.expect("the saved game cannot be read")
    code, log = played(tmp_path)
    alter(tmp_path, "UPDATE game SET data = json_set(data, '$.code', 'QQQQQQQ')")
    session = resumed(tmp_path)
    assert session.game is None
    assert session.problem is not None and session.problem.kind is ProblemKind.SAVE_DAMAGED
    [copy] = copies(tmp_path)
    kept = stored_in(copy)
    assert json.loads(kept[0])["code"] == "QQQQQQQ" and len(kept[1]) == len(log)
    session.new_game(GameOptions())  # the next game does not overwrite what was kept
    assert stored_in(copy) == kept


def test_an_empty_database_file_is_kept_aside_and_said(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("state database was damaged")
    played(tmp_path)
    (tmp_path / DB_NAME).write_bytes(b"")
    session = resumed(tmp_path)
    assert session.game is None
    assert session.problem is not None and session.problem.kind is ProblemKind.SAVE_DAMAGED
    assert "the file is empty" in str(session.problem)
    [copy] = copies(tmp_path)
    assert copy.stat().st_size == 0


def test_no_notice_or_log_line_names_the_code(tmp_path: Path, expected_errors,
                                              caplog: pytest.LogCaptureFixture) -> None:
    expected_errors.expect(REPAIRED)
    expected_errors.expect("the saved game cannot be read")
    code, log = played(tmp_path)
    alter(tmp_path, "UPDATE log SET data = json_set(data, '$.question.ingredients[0]', ?) WHERE seq = 1", code)
    first = resumed(tmp_path)
    first.store.close()
    alter(tmp_path, "UPDATE game SET data = json_set(data, '$.level', ?)", code)
    second = resumed(tmp_path)
    assert first.problem is not None and second.problem is not None
    for text in [str(first.problem), str(second.problem), caplog.text]:
        assert code not in text


def test_a_game_records_at_most_max_questions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("firmware.session.MAX_QUESTIONS", 3)
    session = GameSession(GameStore.open(tmp_path))
    session.new_game(GameOptions())
    for _ in range(3):
        session.ask(Mix(Ingredient.FERN, Ingredient.TOAD))
    with pytest.raises(IllegalQuestionError, match="recorded 3 questions") as caught:
        session.ask(Mix(Ingredient.FERN, Ingredient.CLAW))
    assert caught.value.kind == "log_full"
    assert session.game is not None and len(session.game.log) == 3
    stored = session.store.load()
    assert stored is not None and len(stored.log) == 3


def test_read_saved_game_counts_what_the_store_could_not_decode() -> None:
    game = Game.from_code("DEMO", Level.MASTER, Rules.ALCHEMISTS)
    data = game.to_data()
    data.pop("log")
    read = read_saved_game(StoredGame(data, [], unreadable=2))
    assert read.repaired and read.unreadable == 2 and read.corrected == 0


@pytest.mark.parametrize("kind", list(ProblemKind))
def test_every_notice_has_its_words_on_the_screen(kind: ProblemKind) -> None:
    assert PROBLEM_TEXTS[kind].startswith("error.")


def test_the_screen_says_the_game_was_repaired_at_start(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect(REPAIRED)
    state = tmp_path / "state"
    played(state)
    alter(state, "UPDATE log SET data = '{' WHERE seq = 2")
    config = load_config(None, {"storage.state_dir": str(state)})
    built = build_kit(config, RunOptions(simulate=True, headless=True), state)
    try:
        view = built.daemon.ui.view()
        assert isinstance(view, MessageView) and view.text == "error.save_repaired"
        assert built.session.game is not None and len(built.session.game.log) == 3
    finally:
        built.session.store.close()
