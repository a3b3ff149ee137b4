"""The console on the screen: "console connected", what it changed, its requests, and its unlock.

The console's lock lives in ``firmware.console_gate``; this module shows what the gate reports
(``LabUi.on_console``), asks ok/back for ``new``, ``restore`` and ``reveal`` sent without the PIN,
and unlocks the console for the game in progress after a 3-second hold of ok and back on the
Settings "Console" line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.console_gate import PendingRequest, ScreenEvent
from firmware.screens.text import msg
from firmware.screens.views import ConfirmView, MessageView
from firmware.ui.reveal import HoldStep, RevealStep, reveal_pages
from firmware.ui.steps import MessageStep, Step

if TYPE_CHECKING:
    from firmware.ui.host import Host

TITLE = "settings.console"

#: The screen's words for each change the console made.
CHANGES = {
    "new": "console.new_game",
    "restore": "console.restored",
    "reveal": "console.revealed",
    "unlocked_pin": "console.unlocked_pin",
    "locked": "console.locked_notice",
}


class ConsoleNoticeStep(MessageStep):
    """A console notice over the flow; questions asked in a row are counted on one notice."""

    def __init__(self, ui: Host, what: str, questions: int = 0) -> None:
        self.what, self.questions = what, questions
        text = msg("console.asked", count=questions) if what == "question" else (
            "console.connected" if what == "connected" else CHANGES[what])
        super().__init__(ui, MessageView(text, title=TITLE, error=False))


class ConsoleConfirmStep(Step):
    """The console asks to replace the game or reveal: ok runs it, back refuses."""

    wants_holds = True

    def __init__(self, ui: Host, request: PendingRequest) -> None:
        super().__init__(ui)
        self.request = request

    def view(self) -> object:
        return ConfirmView(question=f"console.asks_{self.request.what}", title=TITLE)

    def press(self, button: str) -> None:
        ui = self.ui
        if button == "back":
            ui.log_action(f"console {self.request.what} refused")
            self.request.cancel()
            ui.pop()
        elif button == "ok":
            ui.log_action(f"console {self.request.what} confirmed")
            reply = self.request.confirm()
            ui.check_problem()
            if reply is None:
                ui.pop()
            elif "error" in reply:
                ui.pop()
                ui.push(MessageStep(ui, MessageView("console.failed")))
            elif self.request.what == "reveal":
                ui.home()
                ui.push(RevealStep(ui, reveal_pages(ui.session.require_game().reveal())))
            else:
                ui.home()
                ui.push(ConsoleNoticeStep(ui, self.request.what))


class ConsoleUnlockStep(HoldStep):
    """Hold ok and back for 3 s: the console is unlocked for the game in progress."""

    title = "hold.console_title"

    def done(self) -> None:
        ui = self.ui
        ui.log_action("console unlocked on the kit")
        ui._call("unlock_console", ui.context.unlock_console)
        ui.pop()
        ui.push(MessageStep(ui, MessageView("console.unlocked_notice", title=TITLE, error=False)))


def show_console_event(ui: Host, top: Step, event: ScreenEvent) -> None:
    """What the screen does when the console connects, changes something or asks (``top``: the
    step shown now)."""
    if event.kind == "confirm" and event.request is not None:
        ui.push(ConsoleConfirmStep(ui, event.request))
    elif event.kind == "connected":
        ui.push(ConsoleNoticeStep(ui, "connected"))
    elif event.what == "question":
        count = top.questions + 1 if isinstance(top, ConsoleNoticeStep) and top.what == "question" else 1
        if isinstance(top, ConsoleNoticeStep) and top.what == "question":
            ui.replace(ConsoleNoticeStep(ui, "question", count))
        else:
            ui.push(ConsoleNoticeStep(ui, "question", count))
    elif event.what in ("new", "restore"):
        ui.home()
        ui.push(ConsoleNoticeStep(ui, event.what))
    elif event.what in CHANGES:
        ui.push(ConsoleNoticeStep(ui, event.what))


def cancel_console_event(event: ScreenEvent) -> None:
    """A screen that cannot ask (the failsafe screen) refuses the console's request."""
    if event.kind == "confirm" and event.request is not None:
        event.request.cancel()
