"""The public history of the game: results only, newest first, scrolled with up and down."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from firmware.screens.views import HistoryEntry, HistoryView
from firmware.ui.steps import Step

if TYPE_CHECKING:
    from firmware.ui.host import Host


def history_entry(data: Mapping[str, object]) -> HistoryEntry | None:
    """The history line of one public log entry; ``None`` for private ones (library, reveal).

    >>> history_entry({"ask": "sell", "potion": "R+", "quality": "exact"})
    HistoryEntry(kind='sale', potion='', quality='exact', ingredient='', colour='', sign='', answer=False, success=False, chest=False, ears=False)
    """
    kind = data.get("ask")
    try:
        if kind == "mix":
            return HistoryEntry("potion", potion=str(data["potion"]))
        if kind == "sell":
            return HistoryEntry("sale", quality=str(data["quality"]))
        if kind == "debunk" and "colour" in data:
            ingredients = data.get("ingredients")
            ingredient = ingredients[0] if isinstance(ingredients, list) and ingredients else ""
            return HistoryEntry("debunk_sign", ingredient=str(ingredient), colour=str(data["colour"]),
                                sign=str(data["sign"]))
        if kind == "debunk" and "makes" in data:
            return HistoryEntry("debunk_pair", potion=str(data["potion"]), answer=bool(data["makes"]))
        if kind == "debunk":
            return HistoryEntry("debunk_variant", potion=str(data["potion"]))
        if kind == "exhibit":
            return HistoryEntry("exhibition", potion=str(data["potion"]), success=bool(data["success"]))
        if kind == "golem test":
            return HistoryEntry("golem_test", chest=bool(data["chest"]), ears=bool(data["ears"]))
        if kind == "golem animate":
            return HistoryEntry("golem_animate", success=bool(data["animated"]))
    except (KeyError, ValueError):
        return None
    return None


class HistoryStep(Step):
    """Public results, newest first; up/down scroll, ok or back go home."""

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        entries = (history_entry(data) for data in reversed(ui.session.history()))
        self.entries = tuple(entry for entry in entries if entry is not None)
        self.top = 0

    def view(self) -> object:
        return HistoryView(self.entries, self.top)

    def press(self, button: str) -> None:
        if button == "up":
            self.top = max(self.top - 1, 0)
        elif button == "down":
            self.top = min(self.top + 1, max(len(self.entries) - 1, 0))
        else:
            self.ui.pop()


def history(ui: Host) -> None:
    ui.log_action("history")
    ui.push(HistoryStep(ui))
