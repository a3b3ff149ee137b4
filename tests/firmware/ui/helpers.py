"""A fake table for LabUi: a game session in memory, a fake clock, button and shelf events."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from firmware.screens.draw import COLOUR, MONO, render_view
from firmware.screens.views import MenuView, SettingsView
from firmware.session import GameOptions, GameSession
from firmware.store import MemoryStore
from firmware.ui.base import ButtonPress, Shelf, UiContext
from firmware.ui.app import LabUi


@dataclass
class Daemon:
    """Records what LabUi asked of the daemon's services."""

    tolerances: list[float] = field(default_factory=list)
    faces: list[object | None] = field(default_factory=list)
    enrolled: list[dict[str, object]] = field(default_factory=list)
    backs: list[object | None] = field(default_factory=list)

    def capture_face(self) -> object | None:
        return self.faces.pop(0) if self.faces else "face"

    def enroll_faces(self, faces: dict[str, object], back: object | None) -> None:
        self.enrolled.append(faces)
        self.backs.append(back)

    def back_problem(self, back: object, faces: dict[str, object]) -> str | None:
        """The capture "face up" is a card lying face up; the capture "blank" shows nothing."""
        return {"face up": "face_up", "blank": "blank"}.get(back) if isinstance(back, str) else None


class Table:
    """Drives a LabUi like the daemon does, with a clock that only moves when told."""

    def __init__(self, store: MemoryStore | None = None, seed: int = 5, idle: float = 180.0,
                 size: tuple[int, int] = MONO) -> None:
        self.now = 1000.0
        self.store = store or MemoryStore()
        self.session = GameSession(self.store, clock=lambda: self.now, rng=random.Random(seed))
        self.session.resume()
        self.daemon = Daemon()
        self.context = UiContext(
            self.session, GameOptions(), idle_dim_seconds=idle, display_size=size,
            set_tolerance=self.daemon.tolerances.append,
            capture_face=self.daemon.capture_face,
            enroll_faces=self.daemon.enroll_faces,
            back_problem=self.daemon.back_problem,
        )
        self.ui = LabUi(self.context)
        self.ui.on_tick(self.now)

    # -- events ---------------------------------------------------------------------------------

    def button(self, button: str, kind: str) -> None:
        self.ui.on_button(ButtonPress(button, kind), self.now)

    def press(self, *buttons: str) -> object:
        for button in buttons:
            self.button(button, "press")
            self.button(button, "release")
            self.tick(0.1)
        return self.view

    def tick(self, seconds: float = 0.1) -> None:
        self.now += seconds
        self.ui.on_tick(self.now)

    def shelf(self, kind: str, *ingredients: str, status: str = "") -> object:
        self.ui.on_shelf(Shelf(kind, tuple(ingredients), status), self.now)
        return self.view

    def fault(self, part: str, message: str | None) -> None:
        self.ui.on_fault(part, message, self.now)

    # -- looking ----------------------------------------------------------------------------

    @property
    def view(self) -> object:
        return self.ui.view()

    def items(self) -> list[object]:
        view = self.view
        if isinstance(view, MenuView):
            return list(view.items)
        if isinstance(view, SettingsView):
            return [item.label for item in view.items]
        raise AssertionError(f"not a list: {view!r}")

    def choose(self, item: object) -> object:
        """Move the highlight of the current menu to ``item`` and press ok."""
        items = self.items()
        assert item in items, f"{item!r} not in {items}"
        while self.view.selected != items.index(item):  # type: ignore[attr-defined]
            self.press("down")
        return self.press("ok")

    def pick(self, *names: str) -> object:
        """Choose options of a picker or choice screen by their names, with ok after each."""
        for name in names:
            view = self.view
            options = getattr(view, "resolved_options", None) or view.options  # type: ignore[attr-defined]
            while self.view.selected != list(options).index(name):  # type: ignore[attr-defined]
                self.press("down")
            self.press("ok")
        return self.view

    def renders(self, languages: tuple[str, ...] = ("en",)) -> None:
        """The current view draws on both displays."""
        for size in (MONO, COLOUR):
            for language in languages:
                render_view(self.view, size, language)
