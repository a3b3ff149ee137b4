"""The daemon's event loop: buttons, shelf events and console lines in; screens, LED, replies out.

One thread runs the loop and owns the UI and the game session; the camera and the console have
threads of their own that only post events (to the ``EventSink``, which exists before any part that
posts to it). The loop never waits for the camera: it tells the camera worker how many cards the
screen wants, and a console line that reads the shelf is answered when the worker's reading arrives. If the UI fails, the daemon falls back to a failsafe
screen that shows the error, while the serial console keeps answering.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.questions import PlainData
from firmware.console import ConsoleProtocol, ShelfReading
from firmware.console_gate import ScreenEvent
from firmware.ui.console import cancel_console_event
from firmware.screens.text import Raw
from firmware.screens.views import MessageView
from firmware.ui.base import ButtonPress, Shelf, Ui

log = logging.getLogger(__name__)

TICK_SECONDS = 0.1
CONSOLE_REPLY_TIMEOUT = 10.0
#: how long a script's console line waits for an event a step: a step of 0 spins, and the spinning
#: thread held the interpreter from the camera thread until the line's reading timed out
CONSOLE_WAIT_STEP = 0.01
SHELF_READ_TIMEOUT = 2.0  # a console line waiting longer for the camera is answered "no camera"
DISPLAY_RETRY_FIRST = 0.5
DISPLAY_RETRY_MAX = 10.0


@dataclass
class _ConsoleLine:
    line: str
    trusted: bool = False
    reply: PlainData | None = None
    done: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class _ShelfRead:
    """The camera worker's reading for a console line that waits for the shelf."""

    line: _ConsoleLine
    shelf: ShelfReading


@dataclass(frozen=True)
class _TimedShelf:
    shelf: Shelf
    posted: float


@dataclass(frozen=True)
class _Fault:
    part: str
    message: str | None


class ShelfCamera(Protocol):
    """The messages the loop sends the camera worker (``firmware.camera_worker.CameraWorker``)."""

    def want_cards(self, count: int) -> None: ...

    def request_reading(self, reply: Callable[[Any], None]) -> None: ...


class EventSink:
    """The loop's inbox: any thread posts to it; only the loop takes from it."""

    def __init__(self) -> None:
        self.queue: queue.Queue[object] = queue.Queue()

    def post_button(self, press: ButtonPress) -> None:
        """A button event from the buttons driver."""
        self.queue.put(press)

    def post_shelf(self, shelf: Shelf) -> None:
        """A shelf event from the camera worker."""
        self.queue.put(_TimedShelf(shelf, time.perf_counter()))

    def post_fault(self, part: str, message: str | None) -> None:
        """A hardware part failed (message) or recovered (None)."""
        self.queue.put(_Fault(part, message))

    def post_part(self, family: str, part: Any) -> None:
        """A part that failed at start has opened (``firmware.reopen``)."""
        self.queue.put(_NewPart(family, part))

    def ask_console(self, line: str) -> PlainData:
        """Answer a console line on the loop's thread; blocks the console thread until answered."""
        item = _ConsoleLine(line)
        self.queue.put(item)
        if not item.done.wait(CONSOLE_REPLY_TIMEOUT):
            return {"error": {"kind": "busy", "message": "the kit did not answer in time; try again"}}
        assert item.reply is not None
        return item.reply


@dataclass(frozen=True)
class _NewPart:
    family: str
    part: Any


class FailsafeUi:
    """The screen of last resort: says what went wrong; ok tries to start the normal UI again."""

    def __init__(self, message: str, restart: Callable[[], Ui] | None, language: str = "en") -> None:
        self.message = message
        self.restart = restart
        self.replacement: Ui | None = None
        self._language = language

    def view(self) -> object:
        return MessageView(text=Raw(self.message))

    def on_button(self, press: ButtonPress, now: float) -> None:
        if press.button == "ok" and press.kind == "press" and self.restart is not None:
            self.replacement = self.restart()

    def on_shelf(self, shelf: Shelf, now: float) -> None:
        pass

    def on_tick(self, now: float) -> None:
        pass

    def on_fault(self, part: str, message: str | None, now: float) -> None:
        pass

    def on_console(self, event: ScreenEvent, now: float) -> None:
        cancel_console_event(event)

    def cards_wanted(self) -> int:
        return 0

    def brightness(self) -> int:
        return 255

    def language(self) -> str:
        return self._language


class Daemon:
    """Runs a UI against a display, an LED and a console protocol; ``step`` is one turn of the loop."""

    def __init__(
        self,
        ui_factory: Callable[[], Ui],
        protocol: ConsoleProtocol,
        display: Any,
        render: Callable[[object, tuple[int, int], str], Any],
        led: Any = None,
        led_level: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        on_ready: Callable[[], None] = lambda: None,
        on_alive: Callable[[], None] = lambda: None,
        on_console_notice: Callable[[PlainData], None] = lambda notice: None,
        sink: EventSink | None = None,
        camera: ShelfCamera | None = None,
        on_new_part: Callable[[str, Any], Any] = lambda family, part: None,
    ) -> None:
        self.ui_factory = ui_factory
        self.protocol = protocol
        self.display = display
        self.render = render
        self.led = led
        self.led_level = led_level
        self.clock = clock
        self.on_ready = on_ready
        self.on_alive = on_alive
        self.on_console_notice = on_console_notice
        self.sink = sink or EventSink()
        self.events = self.sink.queue
        self.camera = camera
        self._cards_published: int | None = None
        self._waiting_for_shelf: dict[int, float] = {}  # id of a console line -> when it gives up
        self._lines_waiting: dict[int, _ConsoleLine] = {}
        self.on_new_part = on_new_part
        self.ui: Ui = self._start_ui()
        self.shown: object = None
        self.shown_brightness: int | None = None
        self.displayed_frames = 0
        self.processed = 0
        self._display_failed_at: float | None = None
        self._display_backoff = DISPLAY_RETRY_FIRST
        self._led_on: bool | None = None
        self._ready = False
        self._stable_posted: float | None = None
        self._stuck: set[str] = set()
        self.last_shelf_latency_ms: float | None = None

    # --- producers (any thread) ------------------------------------------------------------

    def post_button(self, press: ButtonPress) -> None:
        """A button event from the buttons driver."""
        self.sink.post_button(press)

    def post_shelf(self, shelf: Shelf) -> None:
        """A shelf event from the camera worker."""
        self.sink.post_shelf(shelf)

    def post_fault(self, part: str, message: str | None) -> None:
        """A hardware part failed (message) or recovered (None)."""
        self.sink.post_fault(part, message)

    def post_part(self, family: str, part: Any) -> None:
        """A part that failed at start has opened (``firmware.reopen``): the loop swaps it in."""
        self.sink.post_part(family, part)

    def ask_console(self, line: str) -> PlainData:
        """Answer a console line on the loop's thread; blocks the console thread until answered."""
        return self.sink.ask_console(line)

    def ask_console_on_loop(self, line: str) -> PlainData:
        """Answer a console line from the loop's own thread (scripts: the owner's, as if unlocked)."""
        item = _ConsoleLine(line, trusted=True)
        self.events.put(item)
        while not item.done.is_set():
            self.step(CONSOLE_WAIT_STEP)
        assert item.reply is not None
        return item.reply

    # --- the loop (one thread) -------------------------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Turn the loop until ``stop`` is set."""
        while not stop.is_set():
            self.step(TICK_SECONDS)

    def step(self, timeout: float = TICK_SECONDS) -> None:
        """Handle at most one event (waiting up to ``timeout``), then tick, draw and feed the watchdog."""
        try:
            event = self.events.get(timeout=timeout) if timeout > 0 else self.events.get_nowait()
        except queue.Empty:
            event = None
        now = self.clock()
        if event is not None:
            self._dispatch(event, now)
            self.processed += 1
        self._guarded("tick", lambda: self.ui.on_tick(now))
        self._give_up_on_shelf(now)
        self._show(now)
        self._publish_cards_wanted()
        self._light()
        if not self._ready:
            self._ready = True
            self.on_ready()
        self.on_alive()

    def drain(self) -> None:
        """Handle every event already posted (for scripts and tests)."""
        while not self.events.empty():
            self.step(0)
        self.step(0)

    def _dispatch(self, event: object, now: float) -> None:
        problem = self.protocol.session.problem
        self._handle(event, now)
        for console_event in self.protocol.gate.take_events():
            self._show_console_event(console_event, now)
        if self.protocol.session.problem not in (None, problem):
            # the disk refused to record an answer: said over whatever screen the answer led to
            message = str(self.protocol.session.problem)
            self._guarded("fault", lambda: self.ui.on_fault("storage", message, now))

    def _show_console_event(self, event: ScreenEvent, now: float) -> None:
        self._guarded("console", lambda: self.ui.on_console(event, now))

    def _handle(self, event: object, now: float) -> None:
        if isinstance(event, _ConsoleLine):
            if self.camera is not None and self.protocol.needs_shelf(event.line, event.trusted):
                self._ask_shelf(event, now)
            else:
                self._reply(event, self._answer_console(event))
        elif isinstance(event, _ShelfRead):
            if self._waiting_for_shelf.pop(id(event.line), None) is not None:
                del self._lines_waiting[id(event.line)]
                self._reply(event.line, self._answer_console(event.line, event.shelf))
        elif isinstance(event, ButtonPress):
            self._note_stuck(event, now)
            self._guarded("button", lambda: self.ui.on_button(event, now))
            if isinstance(self.ui, FailsafeUi) and self.ui.replacement is not None:
                self.ui = self.ui.replacement
        elif isinstance(event, _TimedShelf):
            self._guarded("shelf", lambda: self.ui.on_shelf(event.shelf, now))
            if event.shelf.kind == "stable":
                self._stable_posted = event.posted
        elif isinstance(event, _Fault):
            self._guarded("fault", lambda: self.ui.on_fault(event.part, event.message, now))
        elif isinstance(event, _NewPart):
            self._swap_part(event.family, event.part, now)

    def _swap_part(self, family: str, part: Any, now: float) -> None:
        """Use ``part`` from now on; the one it replaces (a disabled stand-in) is closed."""
        replaced = self.on_new_part(family, part)
        if family == "display":
            replaced = replaced if replaced is not None else self.display
            self.display = part
            self.shown = self.shown_brightness = None  # the new panel shows nothing yet
            self._display_failed_at = None
            self._display_backoff = DISPLAY_RETRY_FIRST
        elif family == "led":
            replaced = replaced if replaced is not None else self.led
            self.led = part
            self._led_on = None
        if replaced is not None and replaced is not part:
            try:
                replaced.close()
            except OSError as error:
                log.warning("closing the replaced %s failed: %s", family, error)
        self._guarded("fault", lambda: self.ui.on_fault(family, None, now))

    def _ask_shelf(self, line: _ConsoleLine, now: float) -> None:
        """Ask the camera worker for a reading; the line is answered when it arrives (``_ShelfRead``)."""
        assert self.camera is not None
        self._waiting_for_shelf[id(line)] = now + SHELF_READ_TIMEOUT
        self._lines_waiting[id(line)] = line
        self.camera.request_reading(lambda reading: self.events.put(_ShelfRead(line, reading.shelf)))

    def _give_up_on_shelf(self, now: float) -> None:
        """A reading that does not come in time (a stalled camera) is answered as no camera."""
        for key, deadline in list(self._waiting_for_shelf.items()):
            if now >= deadline:
                del self._waiting_for_shelf[key]
                line = self._lines_waiting.pop(key)
                self._reply(line, self._answer_console(line, ShelfReading("no_camera")))

    def _reply(self, line: _ConsoleLine, reply: PlainData) -> None:
        line.reply = reply
        line.done.set()

    def _publish_cards_wanted(self) -> None:
        """Tell the camera worker when the number of cards the screen waits for changes."""
        if self.camera is None:
            return
        wanted = max(0, self.ui.cards_wanted())
        if wanted != self._cards_published:
            self.camera.want_cards(wanted)
            self._cards_published = wanted

    def _note_stuck(self, press: ButtonPress, now: float) -> None:
        """A button stuck down is a fault of the buttons, said on the screen; its release ends it."""
        if press.kind == "stuck" and press.button not in self._stuck:
            self._stuck.add(press.button)
            message = f"the {press.button} button is stuck down"
            self._guarded("fault", lambda: self.ui.on_fault("buttons", message, now))
        elif press.kind == "release" and press.button in self._stuck:
            self._stuck.discard(press.button)
            log.info("the %s button is released", press.button)
            if not self._stuck:
                self._guarded("fault", lambda: self.ui.on_fault("buttons", None, now))

    def _answer_console(self, line: _ConsoleLine, shelf: ShelfReading | None = None) -> PlainData:
        try:
            return self.protocol.handle(line.line, shelf, line.trusted)
        except Exception as error:  # the console must keep answering whatever breaks
            log.exception("console command failed")
            return {"error": {"kind": "internal", "message": f"the kit failed to answer: {type(error).__name__}"}}

    def _start_ui(self) -> Ui:
        try:
            return self.ui_factory()
        except Exception as error:
            log.exception("the user interface could not start")
            return FailsafeUi(f"Kit error: {type(error).__name__}: {error}. Console still works.", None)

    def _guarded(self, what: str, action: Callable[[], None]) -> None:
        try:
            action()
        except Exception as error:
            log.exception("the user interface failed on a %s event; showing the failsafe screen", what)
            self.ui = FailsafeUi(
                f"Kit error ({type(error).__name__}). Press ok to restart the menu; the console still works.",
                self._start_ui,
            )

    def _show(self, now: float) -> None:
        if self._display_failed_at is not None and now - self._display_failed_at < self._display_backoff:
            return
        view, brightness = self.ui.view(), self.ui.brightness()
        if view == self.shown and brightness == self.shown_brightness and self._display_failed_at is None:
            return
        try:
            image = self.render(view, self.display.size, self.ui.language())
        except Exception as error:
            log.exception("a screen could not be drawn")
            image = self.render(MessageView(text=Raw(f"Screen error: {type(error).__name__}")), self.display.size, "en")
        try:
            if brightness != self.shown_brightness:
                self.display.contrast(brightness)
            self.display.show(image)
        except OSError as error:
            self._display_failed(error, now)
            return
        if self._display_failed_at is not None:
            log.info("the display is back")
            self.on_console_notice({"notice": {"part": "display", "message": None}})
            self._guarded("fault", lambda: self.ui.on_fault("display", None, now))
        self._display_failed_at = None
        self._display_backoff = DISPLAY_RETRY_FIRST
        self.shown, self.shown_brightness = view, brightness
        self.displayed_frames += 1
        if self._stable_posted is not None:
            self.last_shelf_latency_ms = (time.perf_counter() - self._stable_posted) * 1000
            self._stable_posted = None

    def _display_failed(self, error: OSError, now: float) -> None:
        if self._display_failed_at is None:
            log.error("display failed: %s; retrying", error)
            self.on_console_notice({"notice": {"part": "display", "message": str(error)}})
        else:
            self._display_backoff = min(self._display_backoff * 2, DISPLAY_RETRY_MAX)
        self._display_failed_at = now

    def _light(self) -> None:
        if self.led is None:
            return
        wanted = self.ui.cards_wanted() > 0
        if wanted == self._led_on:
            return
        try:
            self.led.on(self.led_level) if wanted else self.led.off()
            self._led_on = wanted
        except OSError as error:
            log.warning("the cauldron LED failed: %s", error)
