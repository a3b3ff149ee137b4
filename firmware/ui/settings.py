"""Settings: language, level, card reader tolerance, brightness, and the enrolment of the cards.

Choices are persisted in the store's settings (``language``, ``level``, ``tolerance``,
``brightness``); the tolerance goes to the card reader at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Level
from engine.alchemy import INGREDIENT_IDS as INGREDIENTS
from firmware.i18n import LANGUAGE_NAMES, LANGUAGES
from firmware.screens.text import Raw
from firmware.screens.views import CalibrationBackView, CalibrationView, MessageView, SettingItem, SettingsView
from firmware.ui.game import stored_level
from firmware.ui.steps import MessageStep, Step, capture_empty_shelf

if TYPE_CHECKING:
    from firmware.ui.host import Host

TOLERANCES = (0.2, 0.35, 0.5, 0.65, 0.8)
"""Reader tolerance steps: low refuses doubtful cards more often, high misreads more often."""
BRIGHTNESSES = (32, 64, 128, 192, 255)
SETTING_LINES = 7  # language, level, tolerance, brightness, enrol cards, console, empty shelf


def _next(values: tuple[object, ...], current: object) -> object:
    """The value after ``current`` (the nearest one for a number that is not a step)."""
    if current in values:
        return values[(values.index(current) + 1) % len(values)]
    if isinstance(current, (int, float)):
        nearest = min(values, key=lambda value: abs(float(value) - current))  # type: ignore[arg-type]
        return _next(values, nearest)
    return values[0]


class SettingsStep(Step):
    """The settings list: up/down select, ok changes the value (or starts the enrolment)."""

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        self.selected = 0

    def tolerance(self) -> float:
        value = self.ui.setting("tolerance", self.ui.context.tolerance)
        return float(value) if isinstance(value, (int, float)) else self.ui.context.tolerance

    def level(self) -> Level:
        game = self.ui.session.game
        return game.level if game is not None else stored_level(self.ui)

    def view(self) -> object:
        items = (
            SettingItem("settings.language", Raw(LANGUAGE_NAMES[self.ui.language()])),
            SettingItem("settings.level", f"level.{self.level().value}"),
            SettingItem("settings.tolerance", Raw(f"{round(self.tolerance() * 100)}%")),
            SettingItem("settings.brightness", Raw(f"{round(self.ui.brightness() * 100 / 255)}%")),
            SettingItem("settings.calibrate", Raw("›")),
            SettingItem("settings.console", f"console.{self.ui.context.console_state()}"),
            SettingItem("settings.shelf", Raw("›")),
        )
        return SettingsView(items, self.selected)

    def press(self, button: str) -> None:
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % SETTING_LINES
        elif button == "back":
            self.ui.pop()
        elif button == "ok":
            self.change()

    def change(self) -> None:
        ui = self.ui
        if self.selected == 0:
            language = str(_next(LANGUAGES, ui.language()))
            ui.save_setting("language", language)
            ui.log_action(f"language {language}")
        elif self.selected == 1:
            level = Level.MASTER if self.level() is Level.APPRENTICE else Level.APPRENTICE
            ui.save_setting("level", level.value)
            if ui.session.game is not None:
                ui.session.set_level(level)
                ui.check_problem()
            ui.log_action(f"level {level.value}")
        elif self.selected == 2:
            tolerance = float(_next(TOLERANCES, self.tolerance()))  # type: ignore[arg-type]
            ui.save_setting("tolerance", tolerance)
            ui._call("set_tolerance", lambda: ui.context.set_tolerance(tolerance))
            ui.log_action(f"tolerance {tolerance}")
        elif self.selected == 3:
            brightness = int(_next(BRIGHTNESSES, ui.brightness()))  # type: ignore[call-overload]
            ui.save_setting("brightness", brightness)
            ui.log_action(f"brightness {brightness}")
        elif self.selected == 4:
            ui.log_action("card enrolment")
            ui.push(CalibrationStep(ui))
        elif self.selected == 5:
            self.console()
        else:
            self.capture_empty_shelf()

    def capture_empty_shelf(self) -> None:
        """The shelf as it lies now is the empty shelf cards are told from (a card on it: refused)."""
        ui = self.ui
        result = capture_empty_shelf(ui)
        ui.push(MessageStep(ui, MessageView(f"shelf.{result}", title="settings.shelf", error=result != "captured")))

    def console(self) -> None:
        """Locked: hold ok and back to unlock for this game; unlocked: ok locks; off: says so."""
        from firmware.ui.console import ConsoleUnlockStep

        ui = self.ui
        state = ui.context.console_state()
        if state == "locked":
            ui.push(ConsoleUnlockStep(ui))
        elif state == "unlocked":
            ui._call("lock_console", ui.context.lock_console)
            ui.log_action("console locked on the kit")
        else:
            ui.push(MessageStep(ui, MessageView("console.is_off", title="settings.console", error=False)))


class CalibrationStep(Step):
    """Lay each ingredient's card in turn, then one card face down; ok captures and checks it, back
    goes to the previous card or leaves (on the back's step, back skips it: a back the outlines
    cannot find on this shelf must not keep the faces from being enrolled). A back that is one of
    the faces (the card lies face up) asks for the card to be turned over; one that shows nothing
    is not recognised.

    At the end the captured faces, and the back if captured, go to the card reader
    (``context.enroll_faces``).
    """

    cards = 1

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        self.index = 0
        self.step = "lay"
        self.faces: dict[str, object] = {}
        self.back: object | None = None

    @property
    def total(self) -> int:
        return len(INGREDIENTS) + 1

    @property
    def on_back(self) -> bool:
        """Whether the step is the cards' back (after every face)."""
        return self.index == len(INGREDIENTS)

    def view(self) -> object:
        if self.on_back:
            return CalibrationBackView(self.step, self.index + 1, self.total)
        return CalibrationView(INGREDIENTS[self.index], self.step, self.index + 1, self.total)

    def press(self, button: str) -> None:
        if button == "back":
            if self.on_back and self.step != "ok":
                self.finish(None)
            elif self.step == "lay":
                if self.index == 0:
                    self.ui.pop()
                else:
                    self.index -= 1
            else:
                self.step = "lay"
        elif button == "ok":
            if self.step == "ok":
                self.advance()
            else:
                self.capture()

    def capture(self) -> None:
        face = self.ui._call("capture_face", self.ui.context.capture_face)
        if face is None:
            self.step = "fail"
        elif self.on_back:
            faces = dict(self.faces)
            problem = self.ui._call("back_problem", lambda: self.ui.context.back_problem(face, faces))
            if problem is None:     # a check that failed is logged and lets the back through
                self.back = face
                self.step = "ok"
            else:
                self.step = "face_up" if problem == "face_up" else "fail"
        else:
            self.faces[INGREDIENTS[self.index]] = face
            self.step = "ok"

    def advance(self) -> None:
        self.step = "lay"
        if self.on_back:
            self.finish(self.back)
            return
        self.index += 1

    def finish(self, back: object | None) -> None:
        faces = dict(self.faces)

        def enroll() -> bool:
            self.ui.context.enroll_faces(faces, back)
            return True

        enrolled = self.ui._call("enroll_faces", enroll) is True
        self.ui.log_action("cards enrolled" if enrolled else "card enrolment failed")
        self.ui.pop()
        text = "calib.ok" if enrolled else "calib.fail"
        self.ui.push(MessageStep(self.ui, MessageView(text, title="settings.calibrate",
                                                     error=not enrolled)))


def settings(ui: Host) -> None:
    ui.log_action("settings")
    ui.push(SettingsStep(ui))
