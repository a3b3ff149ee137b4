"""New game, the game code shown large, and restoring a game with the letter wheel."""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from engine import LabkitError, Level, Rules, decode_code
from firmware.screens.text import Raw, Text
from firmware.screens.views import CodeEntryView, GameCodeView, SettingItem, SettingsView
from firmware.session import GameOptions
from firmware.ui.steps import Step

if TYPE_CHECKING:
    from firmware.ui.host import Host

LETTERS = string.ascii_uppercase
FINISH = "✓"
"""On the fifth letter's wheel: finish with four letters (a base game)."""

RULES_TEXT: dict[Rules, Text] = {Rules.ALCHEMISTS: "rules.base", Rules.ALCHYMISTI: "rules.variant"}


def stored_level(ui: Host) -> Level:
    """The level setting (for new and restored games), else the configured default."""
    value = ui.setting("level", ui.context.default_options.level.value)
    return next((level for level in Level if level.value == value), ui.context.default_options.level)


def stored_rules(ui: Host) -> Rules:
    """The rules last chosen for a new game, else the configured default."""
    value = ui.setting("rules", ui.context.default_options.rules.value)
    return next((rules for rules in Rules if rules.value == value), ui.context.default_options.rules)


def code_error_text(error: LabkitError) -> Text:
    """The screen text for a refused game code.

    Every 4 or 5 letters is an official game (RULES.md §7) and the wheel offers only A..Z, so a
    length is all the wheel can get wrong.
    """
    return "code.error.length"


class CodeStep(Step):
    """The game code, large, until ok (or back)."""

    def __init__(self, ui: Host, code: str) -> None:
        super().__init__(ui)
        self.code = code

    def view(self) -> object:
        return GameCodeView(self.code)

    def press(self, button: str) -> None:
        if button in ("ok", "back"):
            self.ui.home()


def show_code(ui: Host) -> None:
    ui.log_action("show code")
    ui.push(CodeStep(ui, ui.session.require_game().code))


START_LINE = 3
"""The line of Start in the new game's options (rules, level, golem, Start)."""


class NewGameStep(Step):
    """Rules, level, King's Golem; ok on a line changes it, ok on Start draws the game."""

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        self.rules = stored_rules(ui)
        self.level = stored_level(ui)
        golem = ui.setting("golem", ui.context.default_options.golem)
        self.golem = bool(golem) and self.rules is Rules.ALCHEMISTS
        self.selected = START_LINE  # the options are the last ones chosen: most games just start

    def items(self) -> tuple[SettingItem, ...]:
        return (
            SettingItem("newgame.rules", RULES_TEXT[self.rules]),
            SettingItem("newgame.level", f"level.{self.level.value}"),
            SettingItem("newgame.golem", "value.on" if self.golem else "value.off"),
            SettingItem("menu.start", Raw("›")),
        )

    def view(self) -> object:
        return SettingsView(self.items(), self.selected, title="newgame.title")

    def press(self, button: str) -> None:
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % (START_LINE + 1)
        elif button == "back":
            self.ui.pop()
        elif button == "ok":
            if self.selected == 0:
                self.rules = Rules.ALCHYMISTI if self.rules is Rules.ALCHEMISTS else Rules.ALCHEMISTS
                if self.rules is Rules.ALCHYMISTI:
                    self.golem = False  # the variant's app has no golem
            elif self.selected == 1:
                self.level = Level.MASTER if self.level is Level.APPRENTICE else Level.APPRENTICE
            elif self.selected == 2:
                self.golem = not self.golem and self.rules is Rules.ALCHEMISTS
            else:
                self.start()

    def start(self) -> None:
        self.ui.save_setting("rules", self.rules.value)
        self.ui.save_setting("level", self.level.value)
        self.ui.save_setting("golem", self.golem)
        game = self.ui.session.new_game(GameOptions(self.rules, self.level, self.golem))
        self.ui.log_action("new game")
        self.ui.home()
        self.ui.home_menu.reset()
        self.ui.push(CodeStep(self.ui, game.code))
        self.ui.check_problem()


def new_game(ui: Host) -> None:
    ui.push(NewGameStep(ui))


#: Holding up or down turns the wheel by itself after this long (a press is shorter)...
WHEEL_REPEAT_DELAY = 0.5
#: ...one letter this often: the alphabet in under 4 s, slow enough to let go on the letter.
WHEEL_REPEAT_SECONDS = 0.15


class RestoreStep(Step):
    """The letter wheel: up/down change the letter (held: they repeat), ok takes it, back deletes.

    Each letter's wheel starts at the letter before it (codes are random letters: the nearest is as
    good a start as A, and a doubled letter costs no turn). After four letters the fifth wheel
    starts at ✓: ok there takes a base game's code; a letter there makes a golem game's code. A
    refused code says why and puts the wheel on the culprit; a good one asks the rules and level of
    the game before continuing it.
    """

    def __init__(self, ui: Host) -> None:
        super().__init__(ui)
        self.letters = ""
        self.current = "A"
        self.error: Text | None = None
        self.turning: str | None = None
        self.next_turn = 0.0

    def wheel(self) -> str:
        return FINISH + LETTERS if len(self.letters) == 4 else LETTERS

    def view(self) -> object:
        length = 5 if len(self.letters) == 4 else 4
        return CodeEntryView(self.letters, self.current, length, self.error)

    def turn(self, button: str) -> None:
        wheel = self.wheel()
        index = wheel.index(self.current) if self.current in wheel else 0
        self.current = wheel[(index + (1 if button == "up" else -1)) % len(wheel)]

    def release(self, button: str) -> None:
        if button == self.turning:
            self.turning = None

    def tick(self, now: float) -> None:
        if self.turning is None or self.turning not in self.ui.pressed:
            self.turning = None
            return
        while now >= self.next_turn:
            self.turn(self.turning)
            self.next_turn += WHEEL_REPEAT_SECONDS

    def press(self, button: str) -> None:
        self.error = None
        if button in ("up", "down"):
            self.turn(button)
            self.turning, self.next_turn = button, self.ui.now + WHEEL_REPEAT_DELAY
        elif button == "back":
            if self.letters:
                self.current = self.letters[-1]
                self.letters = self.letters[:-1]
            else:
                self.ui.pop()
        elif button == "ok":
            if len(self.letters) < 4:
                self.letters += self.current
                self.current = FINISH if len(self.letters) == 4 else self.current
            else:
                self.submit(self.letters + ("" if self.current == FINISH else self.current))

    def submit(self, code: str) -> None:
        try:
            decoded = decode_code(code)
        except LabkitError as error:
            self.ui.log_action(f"code refused ({error.kind})")
            self.error = code_error_text(error)
            self.letters, self.current = code[:-1], code[-1]
            return
        self.ui.push(RestoreOptionsStep(self.ui, decoded.code, decoded.golem is not None))


class RestoreOptionsStep(Step):
    """After a good code: the rules (base codes only) and the level of the game to continue."""

    def __init__(self, ui: Host, code: str, golem: bool) -> None:
        super().__init__(ui)
        self.code, self.golem = code, golem
        self.rules = Rules.ALCHEMISTS if golem else stored_rules(ui)
        self.level = stored_level(ui)
        self.selected = len(self.items()) - 1  # Start: the options are the last ones chosen

    def items(self) -> tuple[SettingItem, ...]:
        items = (
            SettingItem("newgame.rules", RULES_TEXT[self.rules]),
            SettingItem("newgame.level", f"level.{self.level.value}"),
            SettingItem("menu.start", Raw("›")),
        )
        return items[1:] if self.golem else items

    def view(self) -> object:
        return SettingsView(self.items(), self.selected, title="menu.restore")

    def press(self, button: str) -> None:
        count = len(self.items())
        if button in ("up", "down"):
            self.selected = (self.selected + (1 if button == "down" else -1)) % count
        elif button == "back":
            self.ui.pop()
        elif button == "ok":
            label = self.items()[self.selected].label
            if label == "newgame.rules":
                self.rules = Rules.ALCHYMISTI if self.rules is Rules.ALCHEMISTS else Rules.ALCHEMISTS
            elif label == "newgame.level":
                self.level = Level.MASTER if self.level is Level.APPRENTICE else Level.APPRENTICE
            else:
                self.start()

    def start(self) -> None:
        game = self.ui.session.restore(self.code, self.rules, self.level)
        if not self.golem:
            self.ui.save_setting("rules", self.rules.value)
        self.ui.save_setting("level", self.level.value)
        self.ui.log_action("restored a game")
        self.ui.home()
        self.ui.home_menu.reset()
        self.ui.push(CodeStep(self.ui, game.code))
        self.ui.check_problem()


def restore(ui: Host) -> None:
    ui.log_action("restore")
    ui.push(RestoreStep(ui))
