"""The menu tree as data, a view that changes nothing, and text fitting kept with the screens."""

from __future__ import annotations

import pytest

from engine import Game, Level, Rules
from firmware.screens.draw import COLOUR, MONO, fits
from firmware.screens.text import Raw, msg
from firmware.screens.views import MenuView, MessageView
from firmware.session import GameOptions
from firmware.ui.host import Step
from firmware.ui.menu import GOLEM_MENU, HOME_MENU
from tests.firmware.ui.helpers import Table

BASE_GAME = ["menu.experiment", "menu.sell", "menu.debunk", "menu.exhibition", "menu.history",
             "menu.show_code", "menu.reveal", "menu.settings", "menu.new_game", "menu.restore"]


@pytest.mark.parametrize(("game", "labels"), [
    (None, ["menu.new_game", "menu.restore", "menu.settings"]),
    (Game.from_code("DEMO", Level.MASTER, Rules.ALCHEMISTS), BASE_GAME),
    (Game.from_code("DEMO", Level.MASTER, Rules.ALCHYMISTI),
     [label for label in BASE_GAME if label != "menu.exhibition"]),
    (Game.from_code("AAAAQ"), [*BASE_GAME[:4], "menu.golem", "menu.library", *BASE_GAME[4:]]),
])
def test_the_home_menu_offers_the_lines_of_its_game(game: Game | None, labels: list[str]) -> None:
    assert [item.label for item in HOME_MENU if item.offered(game)] == labels


def test_every_golem_game_offers_both_golem_questions() -> None:
    assert [item.label for item in GOLEM_MENU if item.offered(Game.from_code("AAAAQ"))] == [
        "menu.golem_test", "menu.golem_animate"]


def test_the_menu_shown_is_the_data() -> None:
    table = Table()
    assert table.items() == ["menu.new_game", "menu.restore", "menu.settings"]
    table.session.new_game(GameOptions(golem=True))
    assert table.items() == [item.label for item in HOME_MENU if item.offered(table.session.game)]


def test_looking_at_the_screen_changes_nothing() -> None:
    table = Table()
    table.session.new_game(GameOptions())
    table.press("down", "down", "down", "down")
    menu = table.ui.home_menu
    before = (list(table.ui.stack), menu.selected, menu.current)
    table.session.new_game(GameOptions(golem=True))  # the list changes under the highlight
    views = [table.view for _ in range(3)]
    assert (list(table.ui.stack), menu.selected, menu.current) == before
    assert all(isinstance(view, MenuView) and view.items[view.selected] == "menu.history" for view in views)


class BrokenStep(Step):
    def view(self) -> object:
        raise RuntimeError("a bug")


def test_a_step_whose_view_fails_shows_an_error_and_the_next_event_goes_home(expected_errors) -> None:
    expected_errors.expect("screen failed")
    table = Table()
    table.ui.push(BrokenStep(table.ui))
    stack = list(table.ui.stack)
    assert table.view == MessageView(msg("error.internal", detail="RuntimeError"))
    assert table.ui.stack == stack  # looking did not go home
    table.tick()
    assert table.view == MessageView(msg("error.internal", detail="RuntimeError"))
    assert len(table.ui.stack) == 2 and table.ui.stack[0] is table.ui.home_menu
    table.press("ok")
    assert isinstance(table.view, MenuView) and table.ui.stack == [table.ui.home_menu]


def test_fits_tells_a_text_that_fits_every_display_from_one_that_does_not() -> None:
    assert fits(MessageView(Raw("Card read")), "en")
    long = MessageView(Raw(" ".join(["Unbelievably"] * 40)))
    assert not fits(long, "en")
    assert not fits(long, "en", (MONO,)) and not fits(long, "en", (COLOUR,))
