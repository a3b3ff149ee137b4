"""Saved games of the previous version (schema 1): their 5-letter codes are the kit's old scheme."""

from __future__ import annotations

import json

import pytest

from engine import Game, LogFormatError, decode_code
from engine.legacy_codes import read_legacy_kit_code


def saved(code: str, schema: int, **extra: object) -> dict[str, object]:
    return {"schema": schema, "code": code, "level": "master", "rules": "alchemists", "log": [], **extra}


def test_a_schema_1_golem_code_reads_with_the_old_scheme_and_keeps_its_code() -> None:
    game = Game.from_data(saved("iptey", 1))
    legacy = read_legacy_kit_code("IPTEY")
    assert (game.code, game.permutation, game.golem) == ("IPTEY", legacy.permutation, legacy.golem)
    assert (game.permutation, game.golem) != (decode_code("IPTEY").permutation, decode_code("IPTEY").golem)


def test_a_resumed_old_game_is_saved_as_old_and_reads_back_the_same() -> None:
    game = Game.from_data(saved("IPTEY", 1))
    data = json.loads(json.dumps(game.to_data()))
    assert data["schema"] == 2 and data["legacy_kit_code"] is True
    again = Game.from_data(data)
    assert (again.permutation, again.golem, again.legacy_kit_code) == (game.permutation, game.golem, True)


def test_new_and_restored_games_are_official() -> None:
    for game in (Game.new(golem=True), Game.from_code("IPTEY")):
        data = game.to_data()
        assert "legacy_kit_code" not in data
        assert Game.from_data(data).golem == decode_code(game.code).golem


@pytest.mark.parametrize("code", ["AAAA", "DEMO", "HQWB"])
def test_four_letter_codes_of_schema_1_read_as_before(code: str) -> None:
    assert Game.from_data(saved(code, 1)).permutation == decode_code(code).permutation


@pytest.mark.parametrize("code, fragment", [("QWINA", "no code of the kit's old golem scheme"),
                                            ("DEMOJ", "fifth letter J encodes no golem"),
                                            ("DEMO!", "letters A to Z only")])
def test_a_schema_1_code_the_old_scheme_never_wrote_is_refused(code: str, fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        Game.from_data(saved(code, 1))
    assert fragment in str(caught.value) and code in str(caught.value)
