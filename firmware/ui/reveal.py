"""The big reveal: hold ok and back together for 3 seconds, confirm, then page by page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Ingredient, Reveal, Size, Solution
from firmware.screens.views import (
    ConfirmView,
    HoldView,
    RevealAllView,
    RevealAnimatorsView,
    RevealGolemView,
    RevealIngredientView,
)
from firmware.ui.steps import Step

if TYPE_CHECKING:
    from firmware.ui.host import Host

HOLD_SECONDS = 3.0
BOTH = frozenset({"ok", "back"})


class HoldStep(Step):
    """Hold ok and back together; the bar fills in 3 s. Back alone (or up/down) leaves."""

    wants_holds = True
    title = "hold.title"

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        self.since: float | None = None
        self.progress = 0.0
        self.combo = False

    def view(self) -> object:
        return HoldView(min(max(self.progress, 0.0), 1.0), title=self.title)

    def press(self, button: str) -> None:
        if BOTH <= self.ui.pressed:
            self.combo = True
            if self.since is None:
                self.since = self.ui.now
        elif button in ("up", "down"):
            self.ui.pop()

    def release(self, button: str) -> None:
        if not BOTH <= self.ui.pressed:
            self.since, self.progress = None, 0.0
        if button == "back" and not self.combo:
            self.ui.pop()
        if not self.ui.pressed & BOTH:
            self.combo = False

    def tick(self, now: float) -> None:
        if self.since is None or not BOTH <= self.ui.pressed:
            self.since, self.progress = None, 0.0
            return
        self.progress = min((now - self.since) / HOLD_SECONDS, 1.0)
        if self.progress >= 1.0:
            self.done()

    def done(self) -> None:
        """The hold is complete: the reveal's confirmation."""
        self.ui.log_action("reveal held")
        self.ui.replace(ConfirmStep(self.ui))


class ConfirmStep(Step):
    """Show every answer to the table? ok: yes, back: no."""

    wants_holds = True

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        self.armed = not (ui.pressed & BOTH)

    def view(self) -> object:
        return ConfirmView()

    def press(self, button: str) -> None:
        if not self.armed:  # the hold's own buttons still down: wait for a fresh press
            if not self.ui.pressed - {button} & BOTH:
                self.armed = True
            else:
                return
        if button == "ok":
            reply = self.ui.ask(Reveal())
            if reply is not None:
                self.ui.log_action("reveal")
                self.ui.replace(RevealStep(self.ui, reveal_pages(reply)))
        elif button == "back":
            self.ui.home()

    def release(self, button: str) -> None:
        if not self.ui.pressed & BOTH:
            self.armed = True


def reveal_pages(solution: Solution) -> list[object]:
    """One page per ingredient; in golem games the golem's reactions and the pair that animates it;
    last, all eight alchemicals at once."""
    golem, pair = solution.golem, solution.animators
    pages = len(Ingredient) + (3 if golem is not None and pair is not None else 1)
    notations = [solution.alchemical_of(ingredient).notation for ingredient in Ingredient]
    views: list[object] = [
        RevealIngredientView(ingredient.id, notation, index + 1, pages)
        for index, (ingredient, notation) in enumerate(zip(Ingredient, notations))
    ]
    if golem is not None and pair is not None:
        chest, ears = golem.chest, golem.ears
        views.append(RevealGolemView(chest.colour.name, chest.size is Size.LARGE, ears.colour.name,
                                     ears.size is Size.LARGE, len(views) + 1, pages))
        views.append(RevealAnimatorsView((pair[0].id, pair[1].id), len(views) + 1, pages))
    views.append(RevealAllView(tuple(notations), pages, pages))
    return views


class RevealStep(Step):
    """The answers page by page: ok or down next, up or back previous; past the last, home."""

    wants_holds = True

    def __init__(self, ui: Host, pages: list[object]) -> None:
        super().__init__(ui)
        self.pages = pages
        self.page = 0

    def view(self) -> object:
        return self.pages[self.page]

    def press(self, button: str) -> None:
        if button in ("ok", "down"):
            if self.page + 1 < len(self.pages):
                self.page += 1
            elif button == "ok":
                self.ui.home()
        elif button in ("up", "back"):
            if self.page > 0:
                self.page -= 1
            elif button == "back":
                self.ui.home()


def reveal(ui: Host) -> None:
    ui.log_action("reveal asked")
    ui.push(HoldStep(ui))
