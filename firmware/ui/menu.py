"""The home menu: the functions of the game in progress (or new, restore, settings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import Rules
from firmware.screens.text import Text
from firmware.ui import actions, game, history, reveal, settings
from firmware.screens.views import ConfirmView
from firmware.ui.steps import MenuStep, Step

if TYPE_CHECKING:
    from firmware.ui.host import Host

Entry = tuple[Text, Callable[[], None]]


class HomeMenu(MenuStep):
    """The bottom of the stack: back does nothing here."""

    def __init__(self, ui: Host) -> None:
        super().__init__(ui, "menu.title", self.entries_now)

    def entries_now(self) -> list[Entry]:
        ui = self.ui
        current = ui.session.game

        def run(flow: Callable[[Host], None]) -> Callable[[], None]:
            return lambda: flow(ui)

        if current is None:
            return [("menu.new_game", run(game.new_game)), ("menu.restore", run(game.restore)),
                    ("menu.settings", run(settings.settings))]
        entries: list[Entry] = [
            ("menu.experiment", run(actions.experiment)),
            ("menu.sell", run(actions.sell)),
            ("menu.debunk", run(actions.debunk)),
        ]
        if current.rules is Rules.ALCHEMISTS:
            entries.append(("menu.exhibition", run(actions.exhibition)))
        if current.is_golem_game:
            entries += [("menu.golem", run(golem_menu)), ("menu.library", run(actions.library))]
        entries += [
            ("menu.history", run(history.history)),
            ("menu.show_code", run(game.show_code)),
            ("menu.reveal", run(reveal.reveal)),
            ("menu.settings", run(settings.settings)),
            ("menu.new_game", run(replacing(game.new_game))),
            ("menu.restore", run(replacing(game.restore))),
        ]
        return entries

    def press(self, button: str) -> None:
        if button != "back":
            super().press(button)


def replacing(flow: Callable[[Host], None]) -> Callable[[Host], None]:
    """The flow, after the player confirms that the game in progress will be replaced."""

    def confirm_first(ui: Host) -> None:
        ui.push(ConfirmReplaceStep(ui, flow))

    return confirm_first


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


def golem_menu(ui: Host) -> None:
    """Golem: test (one card) or animate (two ingredients chosen secretly)."""
    ui.push(MenuStep(ui, "menu.golem", lambda: [
        ("menu.golem_test", lambda: actions.golem_test(ui)),
        ("menu.golem_animate", lambda: actions.golem_animate(ui)),
    ]))
