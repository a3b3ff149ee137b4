"""A game saved by the previous version (the kit's own golem codes) resumes exactly as it was.

tests/firmware/data/legacy_store/ holds state databases written at commit 981e3b5 by
make_legacy_stores.py there, with every answer that version gave; this version must give the same.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest

from engine import INGREDIENT_IDS, Level, decode_code, parse_question
from firmware.session import GameSession
from firmware.store import DB_NAME, GameStore

DATA = Path(__file__).parent / "data" / "legacy_store"


def resumed(tmp_path: Path, name: str) -> tuple[GameSession, dict[str, object]]:
    shutil.copyfile(DATA / f"{name}.db", tmp_path / DB_NAME)
    session = GameSession(GameStore.open(tmp_path))
    assert session.resume() is not None and session.problem is None
    return session, json.loads((DATA / f"{name}.json").read_text())


def answers(session: GameSession) -> dict[str, object]:
    game = session.require_game()
    mixes = {f"{a} {b}": game.answer(parse_question(["mix", a, b])).to_data()["potion"]
             for a, b in itertools.combinations(INGREDIENT_IDS, 2)}
    tests = {}
    if game.is_golem_game:
        tests = {name: game.answer(parse_question(["golem", "test", name])).to_data() for name in INGREDIENT_IDS}
    return {"code": game.code, "mixes": mixes, "golem_tests": tests, "reveal": game.reveal().to_data()}


@pytest.mark.parametrize("name", ["golem", "base"])
def test_a_game_saved_by_the_previous_version_answers_as_it_did(tmp_path: Path, name: str) -> None:
    session, expected = resumed(tmp_path, name)
    assert answers(session) == {key: expected[key] for key in ("code", "mixes", "golem_tests", "reveal")}
    log = session.require_game().log
    assert [entry.answer for entry in log] == expected["replies"]
    for text, reply in zip(expected["questions"], expected["replies"]):  # type: ignore[call-overload]
        if text != "library offer":  # four ingredients drawn at random
            assert session.ask(parse_question(text.split())).to_data() == reply


def test_the_old_golem_code_is_another_game_when_read_as_an_official_code(tmp_path: Path) -> None:
    session, expected = resumed(tmp_path, "golem")
    game = session.require_game()
    official = decode_code(str(expected["code"]))
    assert (official.permutation, official.golem) != (game.permutation, game.golem)


def test_the_resumed_game_stays_the_old_game_when_saved_again_by_this_version(tmp_path: Path) -> None:
    session, expected = resumed(tmp_path, "golem")
    session.ask(parse_question(["mix", "claw", "toad"]))
    session.set_level(Level.MASTER)  # the whole game written again, in this version's format
    session.store.close()
    saved = GameStore.open(tmp_path)
    stored = saved.load()
    assert stored is not None
    assert (stored.game["schema"], stored.game["legacy_kit_code"], stored.game["level"]) == (2, True, "master")
    again = GameSession(saved)
    again.resume()
    assert answers(again)["reveal"] == expected["reveal"]
    assert len(again.require_game().log) == len(expected["replies"]) + 1  # type: ignore[arg-type]
