"""Restoring a game with the letter wheel: 4 and 5 letters, every official code, deleting."""

from __future__ import annotations

import random
import string

import pytest

from engine import Game, Level, Rules, decode_code
from firmware.screens.views import CodeEntryView, ConfirmView, GameCodeView, MenuView, SettingsView
from firmware.store import MemoryStore
from tests.firmware.ui.helpers import Table

ALL_LANGUAGES = ("en", "ru", "pl", "sk")


def type_letter(table: Table, letter: str) -> None:
    """Turn the wheel from wherever it is to ``letter`` (A..Z, or ✓), the short way, then ok."""
    view = table.view
    assert isinstance(view, CodeEntryView)
    wheel = ("✓" if len(view.letters) == 4 else "") + string.ascii_uppercase
    steps = (wheel.index(letter) - wheel.index(view.current)) % len(wheel)
    button = "up"
    if steps > len(wheel) // 2:
        steps, button = len(wheel) - steps, "down"
    for _ in range(steps):
        table.press(button)
    assert table.view.current == letter  # type: ignore[attr-defined]
    table.press("ok")


def type_code(table: Table, code: str, start: bool = True) -> object:
    """Type a code; when it is accepted, confirm the rules and level (``start``)."""
    for letter in code:
        type_letter(table, letter)
    if len(code) == 4:
        type_letter(table, "✓")
    view = table.view
    if start and isinstance(view, SettingsView) and view.title == "menu.restore":
        table.choose("menu.start")
    return table.view


def open_wheel(table: Table) -> None:
    view = table.choose("menu.restore")
    assert view == CodeEntryView("", "A", 4)
    table.renders(ALL_LANGUAGES)


def test_restore_a_base_game_by_the_wheel() -> None:
    table = Table()
    open_wheel(table)
    table.press("up")
    assert table.view == CodeEntryView("", "B", 4)
    table.press("down", "down")
    assert table.view == CodeEntryView("", "Z", 4)  # the wheel wraps
    for letter in "DEM":
        type_letter(table, letter)
    assert table.view == CodeEntryView("DEM", "M", 4)  # each wheel starts at the letter before
    type_letter(table, "O")
    assert table.view == CodeEntryView("DEMO", "✓", 5)
    table.renders(ALL_LANGUAGES)
    view = table.press("ok")
    assert isinstance(view, SettingsView) and view.title == "menu.restore"
    assert [item.label for item in view.items] == ["newgame.rules", "newgame.level", "menu.start"]
    table.renders(ALL_LANGUAGES)
    assert table.session.game is None
    view = table.choose("menu.start")
    assert view == GameCodeView("DEMO")
    game = table.session.game
    assert game is not None and game.code == "DEMO" and not game.is_golem_game
    assert isinstance(table.press("ok"), MenuView)
    assert "menu.experiment" in table.items()


def test_restore_a_golem_game_with_five_letters() -> None:
    code = Game.new(golem=True, rng=random.Random(11)).code
    table = Table()
    open_wheel(table)
    assert type_code(table, code) == GameCodeView(code)
    game = table.session.game
    assert game is not None and game.is_golem_game and game.code == code


def test_back_deletes_letters_and_leaves_when_empty() -> None:
    table = Table()
    open_wheel(table)
    type_letter(table, "Q")
    type_letter(table, "R")
    assert table.press("back") == CodeEntryView("Q", "R", 4)
    assert table.press("back") == CodeEntryView("", "Q", 4)
    assert isinstance(table.press("back"), MenuView)


@pytest.mark.parametrize("code", ["QWIN", "ABCF", "GOLEM", "AAAAG", "OCEGF"])
def test_every_official_code_is_taken_and_played_as_the_phone_app_plays_it(code: str) -> None:
    # 4 letters ending F..Z (the app's codes since 2015) and 5-letter King's Golem codes, whatever
    # their fourth letter: the wheel refuses none of them (RULES.md §7)
    table = Table()
    open_wheel(table)
    assert type_code(table, code) == GameCodeView(code)
    game = table.session.game
    assert game is not None
    official = decode_code(code)
    assert (game.permutation, game.golem) == (official.permutation, official.golem)


def test_the_wheel_can_only_offer_a_finished_code() -> None:
    table = Table()
    open_wheel(table)
    for letter in "ABC":
        type_letter(table, letter)
    assert table.view.current != "✓"  # type: ignore[attr-defined]
    assert "✓" not in [table.press("up").current for _ in range(27)]  # type: ignore[attr-defined]


def test_restore_starts_from_the_level_and_rules_settings() -> None:
    table = Table(store=MemoryStore(settings={"level": "master", "rules": "alchymisti"}))
    open_wheel(table)
    type_code(table, "AAAA")
    game = table.session.game
    assert game is not None and game.level is Level.MASTER and game.rules is Rules.ALCHYMISTI


def test_restore_asks_rules_and_level_and_back_returns_to_the_wheel() -> None:
    store = MemoryStore()
    table = Table(store=store)
    open_wheel(table)
    type_code(table, "AAAA", start=False)
    table.choose("newgame.rules")
    table.choose("newgame.level")
    assert table.press("back") == CodeEntryView("AAAA", "✓", 5)
    table.press("ok")
    view = table.view
    assert [item.value for item in view.items][:2] == ["rules.base", "level.apprentice"]  # type: ignore[attr-defined]
    table.choose("newgame.rules")
    table.choose("newgame.level")
    table.choose("menu.start")
    game = table.session.game
    assert game is not None and game.level is Level.MASTER and game.rules is Rules.ALCHYMISTI
    assert store.settings.get("rules") == "alchymisti" and store.settings.get("level") == "master"


def test_a_golem_code_asks_only_the_level() -> None:
    code = Game.new(golem=True, rng=random.Random(3)).code
    table = Table()
    open_wheel(table)
    view = type_code(table, code, start=False)
    assert [item.label for item in view.items] == ["newgame.level", "menu.start"]  # type: ignore[attr-defined]


def test_restore_replaces_the_game_in_progress_and_keeps_its_log_apart() -> None:
    table = Table()
    table.choose("menu.new_game")
    table.choose("menu.start")
    table.press("ok")
    table.choose("menu.experiment")
    table.shelf("stable", "fern", "claw")
    table.press("ok", "ok")
    code = table.session.status()["code"]
    table.choose("menu.game")
    assert isinstance(table.choose("menu.restore"), ConfirmView)
    table.press("back")  # keep the game
    assert table.session.status()["code"] == code and len(table.session.history()) == 1
    table.choose("menu.restore")
    table.press("ok")  # replace it
    type_code(table, "DEMO")
    assert table.session.history() == []
