"""The home menu as data: the functions of the game in progress (or new, restore, settings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import Game, Rules
from firmware.screens.text import Text
from firmware.ui import actions, game, history, reveal, settings
from firmware.screens.views import ConfirmView
from firmware.ui.steps import MenuStep, Step

if TYPE_CHECKING:
    from firmware.ui.host import Host

Entry = tuple[Text, Callable[[], None]]


@dataclass(frozen=True)
class MenuItem:
    """One line of a menu: its label, the flow it starts, and for which game it is offered."""

    label: Text
    flow: Callable[[Host], None]
    offered: Callable[[Game | None], bool] = lambda current: True


def _no_game(current: Game | None) -> bool:
    return current is None


def _playing(current: Game | None) -> bool:
    return current is not None and not current.is_over


def _over(current: Game | None) -> bool:
    return current is not None and current.is_over


def _exhibition_offered(current: Game | None) -> bool:
    return _playing(current) and current is not None and current.rules is Rules.ALCHEMISTS


def _golem_offered(current: Game | None) -> bool:
    return _playing(current) and current is not None and current.is_golem_game


def replacing(flow: Callable[[Host], None]) -> Callable[[Host], None]:
    """The flow, after the player confirms that the game in progress will be replaced."""

    def confirm_first(ui: Host) -> None:
        ui.push(ConfirmReplaceStep(ui, flow))

    return confirm_first


def golem_menu(ui: Host) -> None:
    """Golem: test (one card) or animate (two ingredients chosen secretly)."""
    ui.push(MenuStep(ui, "menu.golem", lambda: entries(GOLEM_MENU, ui)))


def game_menu(ui: Host) -> None:
    """Game: the code, the settings, and replacing the game in progress."""
    ui.push(MenuStep(ui, "menu.game", lambda: entries(GAME_MENU, ui)))


#: The home menu, top to bottom: each line shows when its game (or no game) offers it. A game is
#: over once revealed: then only a new game, the reveal again and the history make sense.
HOME_MENU: tuple[MenuItem, ...] = (
    MenuItem("menu.new_game", game.new_game, _no_game),
    MenuItem("menu.restore", game.restore, _no_game),
    MenuItem("menu.settings", settings.settings, _no_game),
    MenuItem("menu.new_game", game.new_game, _over),
    MenuItem("menu.restore", game.restore, _over),
    MenuItem("menu.reveal", reveal.reveal, _over),
    MenuItem("menu.history", history.history, _over),
    MenuItem("menu.settings", settings.settings, _over),
    MenuItem("menu.experiment", actions.experiment, _playing),
    MenuItem("menu.sell", actions.sell, _playing),
    MenuItem("menu.debunk", actions.debunk, _playing),
    MenuItem("menu.exhibition", actions.exhibition, _exhibition_offered),
    MenuItem("menu.golem", golem_menu, _golem_offered),
    MenuItem("menu.library", actions.library, _golem_offered),
    MenuItem("menu.history", history.history, _playing),
    MenuItem("menu.reveal", reveal.reveal, _playing),
    MenuItem("menu.game", game_menu, _playing),
)

#: The game submenu of a game in progress: what is done once or twice a game.
GAME_MENU: tuple[MenuItem, ...] = (
    MenuItem("menu.show_code", game.show_code),
    MenuItem("menu.settings", settings.settings),
    MenuItem("menu.new_game", replacing(game.new_game)),
    MenuItem("menu.restore", replacing(game.restore)),
)

#: The golem's submenu.
GOLEM_MENU: tuple[MenuItem, ...] = (
    MenuItem("menu.golem_test", actions.golem_test),
    MenuItem("menu.golem_animate", actions.golem_animate),
)


def entries(menu: tuple[MenuItem, ...], ui: Host) -> list[Entry]:
    """The lines of ``menu`` offered for the game in progress, each starting its flow on ``ui``."""
    current = ui.session.game

    def run(flow: Callable[[Host], None]) -> Callable[[], None]:
        return lambda: flow(ui)

    return [(item.label, run(item.flow)) for item in menu if item.offered(current)]


class HomeMenu(MenuStep):
    """The bottom of the stack: back does nothing here."""

    def __init__(self, ui: Host) -> None:
        super().__init__(ui, "menu.title", lambda: entries(HOME_MENU, ui))

    def press(self, button: str) -> None:
        if button != "back":
            super().press(button)


class ConfirmReplaceStep(Step):
    """Replace the game in progress? ok: go on to the flow, back: keep the game."""

    def __init__(self, ui: Host, flow: Callable[[Host], None]) -> None:
        super().__init__(ui)
        self.flow = flow

    def view(self) -> object:
        return ConfirmView(question="confirm.replace_game")

    def press(self, button: str) -> None:
        if button == "ok":
            self.ui.pop()
            self.flow(self.ui)
        elif button == "back":
            self.ui.pop()
