"""The building blocks of every flow: one screen each, chained by callbacks.

A flow is a stack of steps on :class:`~firmware.ui.host.Host`: the top step draws the view and
gets the button presses. ``back`` usually pops the step (the previous one shows again); a result
screen goes home on ok or back. Steps never log ingredients, alchemicals or the game code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.alchemy import INGREDIENT_IDS as INGREDIENTS
from firmware.screens.views import (
    ChoiceView,
    IngredientPickerView,
    MenuView,
    MessageView,
    SHELF_UNLEARNED,
    ScanConfirmView,
    ScanPromptView,
)
from firmware.ui.base import Shelf
from firmware.ui.host import Step as Step  # the base class lives with the Host protocol

if TYPE_CHECKING:
    from firmware.screens.text import Text
    from firmware.ui.host import Host

Done = Callable[[tuple[str, ...]], None]
"""What a flow does with the chosen ingredients (ids in the project notation)."""


def capture_empty_shelf(ui: Host) -> str:
    """Have the daemon capture the shelf as it lies as the empty shelf: "captured", "cards" (a card
    is read on it: nothing captured) or "no_camera" (also when the call failed); logged."""
    result = ui._call("capture_empty_shelf", ui.context.capture_empty_shelf)
    result = result if result in ("captured", "cards") else "no_camera"
    ui.log_action(f"empty shelf {result}")
    return str(result)


class MessageStep(Step):
    """A message over the flow: ok or back shows the step underneath again."""

    def __init__(self, ui: Host, message: MessageView) -> None:
        super().__init__(ui)
        self.message = message

    def view(self) -> object:
        return self.message


class ResultStep(Step):
    """A result (public or private): ok or back goes home."""

    def __init__(self, ui: Host, result: object) -> None:
        super().__init__(ui)
        self.result = result

    def view(self) -> object:
        return self.result

    def press(self, button: str) -> None:
        if button in ("ok", "back"):
            self.ui.home()


class MenuStep(Step):
    """A list of actions: up/down select, ok runs, back pops.

    The highlight follows its line when the list changes (a game started, a golem game).
    """

    def __init__(self, ui: Host, title: Text,
                 entries: Callable[[], list[tuple[Text, Callable[[], None]]]]) -> None:
        super().__init__(ui)
        self.title = title
        self.entries = entries
        self.selected = 0
        self.current: Text | None = None

    def reset(self) -> None:
        """Highlight the first line again."""
        self.selected, self.current = 0, None

    def _highlighted(self, entries: list[tuple[Text, Callable[[], None]]]) -> int:
        """The highlighted line of ``entries``: the line last moved to, wherever it is now."""
        texts = [text for text, _ in entries]
        if self.current in texts:
            return texts.index(self.current)
        return min(self.selected, max(len(entries) - 1, 0))

    def view(self) -> object:
        entries = self.entries()
        return MenuView(self.title, tuple(text for text, _ in entries), self._highlighted(entries))

    def press(self, button: str) -> None:
        entries = self.entries()
        self.selected = self._highlighted(entries)
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % len(entries)
            self.current = entries[self.selected][0]
        elif button == "ok":
            entries[self.selected][1]()
        elif button == "back":
            self.ui.pop()


class ChoiceStep(Step):
    """Choose a potion or an aspect colour from icons; ok hands it on, back pops."""

    def __init__(self, ui: Host, kind: str, title: Text, done: Callable[[str], None],
                 options: tuple[str, ...] = ()) -> None:
        super().__init__(ui)
        self.kind, self.title, self.done, self.options = kind, title, done, options
        self.selected = 0

    def view(self) -> object:
        return ChoiceView(self.kind, self.selected, self.options, self.title)

    def press(self, button: str) -> None:
        count = len(ChoiceView(self.kind, 0, self.options).resolved_options)
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % count
        elif button == "ok":
            self.done(ChoiceView(self.kind, 0, self.options).resolved_options[self.selected])
        elif button == "back":
            self.ui.pop()


class PickStep(Step):
    """Choose one or two different ingredients with the buttons (the manual choice).

    With two, the first is marked; ok on it again, or back, un-chooses it. Back with nothing
    chosen pops the step.
    """

    def __init__(self, ui: Host, count: int, done: Done, titles: tuple[Text, ...] | None = None,
                 options: tuple[str, ...] = INGREDIENTS, private: bool = True) -> None:
        super().__init__(ui)
        self.count, self.done, self.options, self.private = count, done, options, private
        self.titles = titles or (("pick.ingredient",) if count == 1 else ("pick.first", "pick.second"))
        self.chosen: list[str] = []
        self.selected = 0

    def view(self) -> object:
        title = self.titles[min(len(self.chosen), len(self.titles) - 1)]
        return IngredientPickerView(self.selected, self.options, tuple(self.chosen), title, self.private)

    def press(self, button: str) -> None:
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % len(self.options)
        elif button == "back":
            if self.chosen:
                self.chosen.pop()
            else:
                self.ui.pop()
        elif button == "ok":
            ingredient = self.options[self.selected]
            if ingredient in self.chosen:
                self.chosen.remove(ingredient)
                return
            self.chosen.append(ingredient)
            if len(self.chosen) == self.count:
                chosen = tuple(self.chosen)
                self.chosen.pop()
                self.done(chosen)
            else:
                self.selected = (self.selected + 1) % len(self.options)


class ScanStep(Step):
    """Lay the cards, then check the recognised ingredients (small, private) and confirm.

    On the prompt, ok switches to the manual choice and back goes back; on the check, ok confirms
    and back rescans. Fewer cards than wanted, held still, ask for the missing one; two copies of
    one ingredient ask for two different cards; a card face down asks to turn it over. The cards of
    the previous action, never taken off the shelf, are shown as such before they count again.
    A camera fault replaces the step by the manual choice. While the kit has not learned its empty
    shelf (``firmware.camera_worker``: no card is read before), the prompt asks to clear it and ok
    captures it as it lies (a card read on it: refused, and said).
    """

    def __init__(self, ui: Host, count: int, done: Done) -> None:
        super().__init__(ui)
        self.count, self.done = count, done
        self.status = "nothing"
        self.read: tuple[str, ...] | None = None
        self.again = False
        self.learned = False   # the shelf was captured here: a frame read before says "unlearned" still

    @property
    def cards(self) -> int:  # type: ignore[override]
        return self.count

    def view(self) -> object:
        if self.read is not None:
            return ScanConfirmView(self.read, again=self.again)
        return ScanPromptView(self.count, self.status)

    def manual(self) -> PickStep:
        """The manual choice that replaces this step."""
        return PickStep(self.ui, self.count, self.done)

    def press(self, button: str) -> None:
        if self.read is not None:
            if button == "ok":
                chosen, self.read, self.status = self.read, None, "nothing"
                self.ui.used_cards = tuple(sorted(chosen))
                self.done(chosen)
            elif button == "back":
                self.read, self.status = None, "nothing"
            return
        if button == "ok" and self.status in SHELF_UNLEARNED:
            self.learn_the_shelf()
        elif button == "ok":
            self.ui.log_action("manual choice")
            self.ui.replace(self.manual())
        elif button == "back":
            self.ui.pop()

    def learn_the_shelf(self) -> None:
        """The shelf as it lies now is the empty shelf cards are told from; said only when refused."""
        result = capture_empty_shelf(self.ui)
        if result == "captured":
            self.status, self.learned = "nothing", True
        else:
            self.ui.push(MessageStep(self.ui, MessageView(f"shelf.{result}", title="settings.shelf")))

    def shelf(self, shelf: Shelf) -> None:
        if shelf.kind == "stable":
            known = tuple(name for name in shelf.ingredients if name in INGREDIENTS)
            if len(known) == self.count == len(shelf.ingredients) and len(set(known)) < len(known):
                self.status = "same"       # two copies of one card: a mix takes two different ones
            elif len(known) == self.count and len(known) == len(shelf.ingredients):
                self.read, self.status = known, "reading"
                self.again = tuple(sorted(known)) == self.ui.used_cards
            elif self.read is None:
                if known and len(known) < self.count and len(known) == len(shelf.ingredients):
                    self.status = "more"
                else:
                    self.status = "adjust" if shelf.ingredients else "nothing"
        elif self.read is not None:
            return
        elif shelf.kind == "live" and shelf.status in ("learning", "unlearned") and self.learned:
            return
        elif shelf.kind == "live" and shelf.status == "ok" and self.status in ("more", "same"):
            return  # the cards read so far are not the ones wanted: the stable reading says when
        elif shelf.kind == "unsure":
            self.status = "turn" if shelf.status == "face_down" else "adjust"
        elif shelf.kind == "cleared":
            self.status = "nothing"
        elif shelf.kind == "live":
            self.status = {"ok": "reading", "unsure": "adjust", "face_down": "turn", "empty": "nothing",
                           "learning": "learning", "unlearned": "learn"}.get(shelf.status, self.status)
