"""What the daemon needs from a user interface, and what it hands one.

The daemon owns the hardware and the event loop; a UI is a state machine that turns button
presses, shelf events and ticks into the view to draw. It never touches a pin or a pixel.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from firmware.console_gate import ScreenEvent
from firmware.session import GameOptions, GameSession


@dataclass(frozen=True)
class ButtonPress:
    """A button event as the daemon delivers it: up/down/ok/back, and press/release/hold/stuck."""

    button: str
    kind: str


@dataclass(frozen=True)
class Shelf:
    """What the card reader says about the shelf.

    ``kind``: ``stable`` (the same cards read with confidence for several frames: ``ingredients``),
    ``cleared`` (the shelf became empty), ``unsure`` (cards that cannot be read: adjust them;
    ``status`` ``face_down`` when a card lies face down), or ``live`` (the latest single frame,
    for a status line: ``status`` ok/unsure/empty/face_down, or learning/unlearned before the kit
    has learned its empty shelf: no card is read then, and only ``live`` events come).
    """

    kind: str
    ingredients: tuple[str, ...] = ()
    status: str = ""


@dataclass
class UiContext:
    """Everything a UI may use: the game session, persisted settings, and the daemon's services."""

    session: GameSession
    default_options: GameOptions
    language: str = "en"
    tolerance: float = 0.5
    brightness: int = 255
    idle_dim_seconds: float = 180.0
    display_size: tuple[int, int] = (128, 64)
    set_tolerance: Callable[[float], None] = field(default=lambda tolerance: None)
    capture_face: Callable[[], object | None] = field(default=lambda: None)
    enroll_faces: Callable[[dict[str, object], object | None], None] = field(default=lambda faces, back: None)
    """Enrol the captured faces, and the cards' back when it was captured (None: skipped)."""
    back_problem: Callable[[object, dict[str, object]], str | None] = field(default=lambda back, faces: None)
    """Why a captured back would not tell face-down cards, given the captured faces: "face_up" (it
    is one of the faces), "blank" (it shows nothing), or None."""
    capture_empty_shelf: Callable[[], str] = field(default=lambda: "no_camera")
    """Capture the shelf as empty: "captured", "cards" (a card lies on it) or "no_camera"."""
    console_state: Callable[[], str] = field(default=lambda: "off")
    """The serial console: off, locked or unlocked (for the game in progress)."""
    unlock_console: Callable[[], None] = field(default=lambda: None)
    lock_console: Callable[[], None] = field(default=lambda: None)


class Ui(Protocol):
    """A user interface driven by the daemon's event loop (one thread: no locking needed)."""

    def view(self) -> object:
        """The view model to draw now (a ``firmware.screens.views`` dataclass)."""

    def on_button(self, press: ButtonPress, now: float) -> None:
        """A button event."""

    def on_shelf(self, shelf: Shelf, now: float) -> None:
        """A card reader event."""

    def on_tick(self, now: float) -> None:
        """Time passes (at least every 100 ms): holds, idle dimming, timeouts."""

    def on_fault(self, part: str, message: str | None, now: float) -> None:
        """A hardware part failed (``message``) or recovered (``None``): camera, display, storage, console."""

    def on_console(self, event: ScreenEvent, now: float) -> None:
        """The serial console connected, changed something, or asks for a confirmation."""

    def cards_wanted(self) -> int:
        """How many cards the current screen waits for on the shelf (0: the camera may rest)."""

    def brightness(self) -> int:
        """The display contrast to use now, 0 to 255 (lower when idle)."""

    def language(self) -> str:
        """The language to draw texts in: en, ru, pl or sk."""
