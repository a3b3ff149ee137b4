"""What a flow may use of the UI that runs it: the ``Host`` protocol, and the ``Step`` base class.

The flows (``actions``, ``game``, ``history``, ``menu``, ``reveal``, ``settings``, ``steps``)
depend on this module only; ``LabUi`` (``firmware.ui.app``) implements ``Host`` and builds the
home menu, so no flow imports the app and the package has no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from engine import Answer, Question
from firmware.session import GameSession
from firmware.ui.base import Shelf, UiContext


AnswerT = TypeVar("AnswerT", bound=Answer)


class HomeMenuStep(Protocol):
    """The home menu at the bottom of the stack."""

    def reset(self) -> None: ...


class Host(Protocol):
    """The stack of steps a flow runs on, the game, the settings and the daemon's services."""

    context: UiContext
    session: GameSession
    now: float
    pressed: set[str]
    camera_fault: str | None
    used_cards: tuple[str, ...]
    """The cards (sorted) of the last scan confirmed, until the shelf is seen cleared."""

    @property
    def home_menu(self) -> HomeMenuStep: ...

    def push(self, step: Step) -> None: ...

    def pop(self) -> None: ...

    def replace(self, step: Step) -> None: ...

    def home(self) -> None: ...

    def show_result(self, view: object) -> None: ...

    def ask(self, question: Question[AnswerT]) -> AnswerT | None: ...

    def check_problem(self) -> None: ...

    def setting(self, key: str, default: object) -> object: ...

    def save_setting(self, key: str, value: object) -> None: ...

    def log_action(self, what: str) -> None: ...

    def brightness(self) -> int: ...

    def language(self) -> str: ...

    def _call(self, name: str, action: Callable[[], object]) -> object: ...


class Step:
    """One screen of a flow: its view, and what the buttons and the card reader do to it."""

    cards = 0
    """How many cards this screen waits for on the shelf."""

    def __init__(self, ui: Host) -> None:
        self.ui = ui

    def view(self) -> object:
        raise NotImplementedError

    def press(self, button: str) -> None:
        """A button press (up, down, ok, back); the default: back or ok pops."""
        if button in ("ok", "back"):
            self.ui.pop()

    def release(self, button: str) -> None:
        """A button release (most steps ignore it)."""

    def shelf(self, shelf: Shelf) -> None:
        """A card reader event (most steps ignore it)."""

    def tick(self, now: float) -> None:
        """Time passes."""
