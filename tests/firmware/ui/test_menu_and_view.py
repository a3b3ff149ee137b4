"""The menu tree as data, a view that changes nothing, and text fitting kept with the screens."""

from __future__ import annotations

import pytest

from engine import Game, Level, Reveal, Rules
from firmware.screens.draw import COLOUR, MONO, fits
from firmware.screens.text import Raw, msg
from firmware.screens.views import MenuView, MessageView
from firmware.session import GameOptions
from firmware.ui.host import Step
from firmware.ui.menu import GAME_MENU, GOLEM_MENU, HOME_MENU
from tests.firmware.ui.helpers import Table

BASE_GAME = ["menu.experiment", "menu.sell", "menu.debunk", "menu.exhibition", "menu.history",
             "menu.reveal", "menu.game"]
OVER = ["menu.new_game", "menu.restore", "menu.reveal", "menu.history", "menu.settings"]


def revealed(game: Game) -> Game:
    game.ask(Reveal())
    return game


@pytest.mark.parametrize(("game", "labels"), [
    (None, ["menu.new_game", "menu.restore", "menu.settings"]),
    (Game.from_code("DEMO", Level.MASTER, Rules.ALCHEMISTS), BASE_GAME),
    (Game.from_code("DEMO", Level.MASTER, Rules.ALCHYMISTI),
     [label for label in BASE_GAME if label != "menu.exhibition"]),
    (Game.from_code("AAAAQ"), [*BASE_GAME[:4], "menu.golem", "menu.library", *BASE_GAME[4:]]),
    (revealed(Game.from_code("DEMO")), OVER),
    (revealed(Game.from_code("AAAAQ")), OVER),
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
    table.press("down", "down", "down", "down")  # on the history
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


def test_the_game_submenu_holds_what_is_done_once_a_game() -> None:
    assert [item.label for item in GAME_MENU] == ["menu.show_code", "menu.settings", "menu.new_game",
                                                  "menu.restore"]


def test_after_the_reveal_the_menu_offers_a_new_game_without_asking_to_replace_it() -> None:
    table = Table()
    table.session.new_game(GameOptions())
    table.session.ask(Reveal())
    assert table.items() == OVER
    table.choose("menu.new_game")
    assert table.view.title == "newgame.title"  # type: ignore[attr-defined]
    table.choose("menu.start")
    assert table.session.game is not None and not table.session.game.is_over


def test_the_game_stays_over_after_a_restart() -> None:
    table = Table()
    table.session.new_game(GameOptions())
    table.session.ask(Reveal())
    again = Table(store=table.store)
    assert again.items() == OVER


def test_new_game_opens_on_start() -> None:
    table = Table()
    view = table.choose("menu.new_game")
    assert view.items[view.selected].label == "menu.start"  # type: ignore[attr-defined]
    table.press("ok")
    assert table.session.game is not None


def test_the_code_wheel_turns_by_itself_while_held() -> None:
    table = Table()
    table.choose("menu.restore")
    table.button("up", "press")
    table.tick(0.1)
    assert table.view.current == "B"  # type: ignore[attr-defined]  # a press is one letter
    for _ in range(20):
        table.tick(0.1)
    held = table.view.current  # type: ignore[attr-defined]
    assert "H" < held < "Z"  # about six letters a second after half a second
    table.button("up", "release")
    for _ in range(10):
        table.tick(0.1)
    assert table.view.current == held  # type: ignore[attr-defined]
