"""LabUi: the companion-app flows on four buttons, as the daemon drives them (``firmware.ui.base``).

A stack of steps (``firmware.ui.steps``), the home menu at the bottom. Around the steps: idle
dimming with a burn-in shift, hardware faults shown over the flow, engine errors shown as
messages, and a guard so that no button sequence can crash the kit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine import LabkitError, Question
from engine.questions import A
from firmware.i18n import LANGUAGES
from firmware.screens.draw import fits
from firmware.screens.text import Raw, Text, msg
from firmware.screens.views import IdleView, MessageView
from firmware.console_gate import ScreenEvent
from firmware.session import Problem, ProblemKind
from firmware.store import StorageError
from firmware.ui.base import ButtonPress, Shelf, UiContext
from firmware.ui.game import code_error_text
from firmware.ui.console import show_console_event
from firmware.ui.menu import HomeMenu
from firmware.ui.steps import MessageStep, ResultStep, ScanStep, Step

log = logging.getLogger(__name__)

QUIET_FAULTS = ("display", "console")  # a broken screen cannot show it; the table needs no console


def settled_shelf(shelf: Shelf) -> str:
    """What the shelf settled on, for the log: how many cards read, never which.

    >>> settled_shelf(Shelf("stable", ("fern", "toad")))
    '2 cards read'
    >>> settled_shelf(Shelf("unsure", status="face_down"))
    'unsure (face down)'
    """
    if shelf.kind == "stable":
        return f"{len(shelf.ingredients)} card{'s' if len(shelf.ingredients) != 1 else ''} read"
    return shelf.kind + (" (face down)" if shelf.status == "face_down" else "")


def short_fault(part: str, message: str, language: str) -> str:
    """A hardware fault in as many words as fit the screen (the full text goes to the journal).

    >>> short_fault("reader", "card references unusable: " + "far too many words " * 9, "en")[-1]
    '…'
    """
    words = f"{part}: {message}".split(" ")
    text = " ".join(words)
    while len(words) > 1 and not fits(MessageView(Raw(text)), language):
        words = words[:-1]
        text = " ".join(words) + "…"
    return text

BUTTONS = ("up", "down", "ok", "back")
IDLE_SHIFT_SECONDS = 60.0
IDLE_DIM_DIVISOR = 4

ERROR_TEXTS = {
    "same_ingredient": "error.same_kind",
    "no_game": "error.no_game",
    "no_golem": "error.golem_off",
    "log_full": "error.log_full",
}
PROBLEM_TEXTS = {
    ProblemKind.STORAGE_FAILED: "error.storage_full",
    ProblemKind.SAVE_DAMAGED: "error.save_damaged",
    ProblemKind.SAVE_REPAIRED: "error.save_repaired",
}


def idle_offset(minute: int) -> tuple[int, int]:
    """The burn-in shift of the idle screen in its ``minute``-th minute, within 8 pixels.

    >>> idle_offset(0)
    (0, 0)
    >>> all(abs(dx) <= 8 and abs(dy) <= 8 for dx, dy in map(idle_offset, range(500)))
    True
    """
    if minute == 0:
        return (0, 0)
    return ((minute * 5) % 17 - 8, (minute * 11) % 13 - 6)


class LabUi:
    """Every companion-app function on the OLED and four buttons (implements ``Ui``)."""

    def __init__(self, context: UiContext) -> None:
        self.context = context
        self.session = context.session
        self.now = 0.0
        self.last_input: float | None = None
        self.idle_since: float | None = None
        self.pressed: set[str] = set()
        self._swallowed: set[str] = set()
        self.camera_fault: str | None = None
        self.storage_fault: str | None = None
        self.used_cards: tuple[str, ...] = ()
        self._problem_shown: Problem | None = None
        self.home_menu = HomeMenu(self)
        self.stack: list[Step] = [self.home_menu]
        tolerance = self.setting("tolerance", context.tolerance)
        if isinstance(tolerance, (int, float)) and tolerance != context.tolerance:
            self._call("set_tolerance", lambda: context.set_tolerance(float(tolerance)))
        self.check_problem()

    # -- the Ui protocol --------------------------------------------------------------------

    def view(self) -> object:
        """What the screen shows now; it changes nothing (a step whose view fails: see ``_guarded``)."""
        if self.idle_since is not None:
            minute = int(max(self.now - self.idle_since, 0.0) // IDLE_SHIFT_SECONDS)
            return IdleView(*idle_offset(minute))
        try:
            return self.top.view()
        except Exception as error:  # a bug in a step: keep the kit answering
            return MessageView(msg("error.internal", detail=type(error).__name__))

    def on_button(self, press: ButtonPress, now: float) -> None:
        self.now = now
        button, kind = press.button, press.kind
        if button not in BUTTONS:
            return
        if kind == "press":
            self.pressed.add(button)
        elif kind == "release":
            self.pressed.discard(button)
        self.last_input = now
        if self.idle_since is not None:
            if kind == "press":
                self.idle_since = None
                self._swallowed.add(button)
            return
        if button in self._swallowed:
            if kind == "release":
                self._swallowed.discard(button)
            if kind != "press":
                return
            self._swallowed.discard(button)
        self._guarded(lambda: self._dispatch(button, kind))

    def on_shelf(self, shelf: Shelf, now: float) -> None:
        self.now = now
        if shelf.kind in ("stable", "unsure"):
            self.last_input = now
            self.idle_since = None
        if shelf.kind == "cleared":
            self.used_cards = ()
        if shelf.kind != "live":
            log.info("shelf: %s", settled_shelf(shelf))
        self._guarded(lambda: self.top.shelf(shelf))

    def on_tick(self, now: float) -> None:
        self.now = now
        if self.last_input is None:
            self.last_input = now
        if self.idle_since is None and now - self.last_input >= self.context.idle_dim_seconds:
            self.idle_since = now
            log.info("idle: screen dimmed")
        self._guarded(lambda: self.top.tick(now))

    def on_fault(self, part: str, message: str | None, now: float) -> None:
        self.now = now
        log.info("%s %s", part, "failed" if message else "recovered")
        if part == "camera":
            was = self.camera_fault
            self.camera_fault = message
            if message and not was:
                self.stack = [step.manual() if isinstance(step, ScanStep) else step
                              for step in self.stack]
                self.wake()
                self.message("error.camera_missing")
        elif part == "storage":
            was = self.storage_fault
            self.storage_fault = message
            if message and not was:
                self.wake()
                self.message("error.storage_full", title="info.title", error=False)
        elif message and part not in QUIET_FAULTS:
            self.wake()
            self.message(Raw(short_fault(part, message, self.language())))

    def on_console(self, event: ScreenEvent, now: float) -> None:
        self.now = now
        self.wake()
        self._guarded(lambda: show_console_event(self, self.top, event))

    def cards_wanted(self) -> int:
        if self.camera_fault:
            return 0
        return int(getattr(self.top, "cards", 0))

    def brightness(self) -> int:
        value = self.setting("brightness", self.context.brightness)
        base = max(0, min(255, int(value))) if isinstance(value, (int, float)) else 255
        return max(1, base // IDLE_DIM_DIVISOR) if self.idle_since is not None else base

    def language(self) -> str:
        value = self.setting("language", self.context.language)
        return value if value in LANGUAGES else "en"

    # -- the stack of steps -----------------------------------------------------------------

    @property
    def top(self) -> Step:
        return self.stack[-1]

    def push(self, step: Step) -> None:
        self.stack.append(step)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    def replace(self, step: Step) -> None:
        if len(self.stack) > 1:
            self.stack[-1] = step
        else:
            self.stack.append(step)

    def home(self) -> None:
        self.stack = [self.home_menu]

    def show_result(self, view: object) -> None:
        """A result screen over the home menu: the flow is over, ok goes home."""
        self.home()
        self.push(ResultStep(self, view))

    def message(self, text: Text, title: Text = "error.title", error: bool = True) -> None:
        """A message over the current step; ok shows the step again."""
        self.push(MessageStep(self, MessageView(text, title=title, error=error)))

    def wake(self) -> None:
        self.idle_since = None
        self.last_input = self.now

    # -- the game ---------------------------------------------------------------------------

    def ask(self, question: Question[A]) -> A | None:
        """Ask the session (logged and saved); an engine error becomes a message and ``None``."""
        try:
            reply = self.session.ask(question)
        except LabkitError as error:
            self.show_error(error)
            return None
        finally:
            self.check_problem()
        return reply

    def show_error(self, error: LabkitError) -> None:
        log.info("refused: %s", error.kind)
        self.message(self.error_text(error))

    def error_text(self, error: LabkitError) -> Text:
        """The translated text of an engine error, or its own words when they fit the screen."""
        if error.kind in ERROR_TEXTS:
            return ERROR_TEXTS[error.kind]
        if error.kind == "invalid_code":
            return code_error_text(error)
        if fits(MessageView(Raw(error.message)), self.language()):
            return Raw(error.message)
        return msg("error.internal", detail=error.kind)

    def check_problem(self) -> None:
        """Show the session's notice about the saved game once."""
        problem = self.session.problem
        if not problem or problem == self._problem_shown:
            return
        self._problem_shown = problem
        self.message(PROBLEM_TEXTS[problem.kind], title="info.title", error=False)

    # -- settings ---------------------------------------------------------------------------

    def setting(self, key: str, default: object) -> object:
        try:
            return self.session.store.settings.get(key, default)
        except (ValueError, StorageError):
            return default

    def save_setting(self, key: str, value: object) -> None:
        """Persist a setting; a refusing disk is said on the screen, the value kept for now."""
        try:
            self.session.store.settings.set(key, value)
        except StorageError:
            log.warning("the %s setting could not be saved", key)
            self.message("error.storage_full", title="info.title", error=False)

    # -- helpers ----------------------------------------------------------------------------

    def log_action(self, what: str) -> None:
        """Log what kind of thing the player did (never which ingredients, never the code)."""
        log.info("ui: %s", what)

    def _call(self, name: str, action: Callable[[], object]) -> object:
        try:
            return action()
        except Exception as error:
            log.warning("the daemon's %s failed: %s", name, type(error).__name__)
            return None

    def _dispatch(self, button: str, kind: str) -> None:
        if kind == "press":
            self.top.press(button)
        elif kind == "release":
            self.top.release(button)
        elif kind == "hold" and button == "back" and not getattr(self.top, "wants_holds", False):
            self.home()

    def _guarded(self, action: Callable[[], None]) -> None:
        """Run what an event does to the steps; a bug in a step (its action or its view) goes home."""
        try:
            action()
            self.top.view()
        except LabkitError as error:
            self.show_error(error)
        except Exception as error:  # a bug in a step: go home, say so, keep answering
            log.exception("the %s screen failed", type(self.top).__name__)
            self.home()
            self.message(msg("error.internal", detail=type(error).__name__))
