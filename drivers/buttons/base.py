"""Button events and the machinery every button backend shares: holds, stuck buttons, delivery."""

from __future__ import annotations

import logging
import math
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

log = logging.getLogger(__name__)

ButtonName = Literal["up", "down", "ok", "back"]
EventKind = Literal["press", "release", "hold", "stuck"]
BUTTONS: tuple[ButtonName, ...] = get_args(ButtonName)
KINDS: tuple[EventKind, ...] = get_args(EventKind)

DEFAULT_HOLD_TIME = 1.0
DEFAULT_STUCK_AFTER = 30.0


class ButtonsError(OSError):
    """The buttons failed: the GPIO library is missing, a pin is busy, the terminal is gone."""


@dataclass(frozen=True)
class ButtonEvent:
    """One thing that happened to one button.

    ``press`` and ``release`` come in pairs; ``hold`` comes once while a button stays pressed for
    the hold time; ``stuck`` once when it stays pressed far longer (``stuck_after``), so the kit
    can say so on the screen. A stuck button is released by a normal ``release``.

    >>> ButtonEvent("ok", "hold")
    ButtonEvent('ok', 'hold')
    """

    button: ButtonName
    kind: EventKind

    def __post_init__(self) -> None:
        if self.button not in BUTTONS:
            raise ValueError(f"unknown button {self.button!r}; buttons: {', '.join(BUTTONS)}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown button event {self.kind!r}; events: {', '.join(KINDS)}")

    def __repr__(self) -> str:
        return f"ButtonEvent({self.button!r}, {self.kind!r})"


class Debouncer:
    """A contact's reported state, ignoring changes within ``bounce_time`` of the last one.

    A change arriving inside the window is not lost: the caller re-reads the contact when the
    window ends (``settle_at``) and calls ``update`` again with ``settling=True``.

    >>> d = Debouncer(0.05)
    >>> d.update(True, now=1.0), d.update(False, now=1.01), d.update(True, now=1.02)
    (True, None, None)
    >>> d.update(False, now=1.2)
    False
    """

    def __init__(self, bounce_time: float | None, state: bool = False) -> None:
        self.bounce_time = bounce_time or 0.0
        self.state = state
        self.last_change = -math.inf

    @property
    def settle_at(self) -> float:
        return self.last_change + self.bounce_time

    def update(self, level: bool, now: float, *, settling: bool = False) -> bool | None:
        """The new state to report, or None when ``level`` is no change or falls in the window."""
        if level == self.state:
            return None
        if not settling and now < self.settle_at:
            return None
        self.state = level
        self.last_change = now
        return level


class Buttons:
    """The four buttons as a stream of ``ButtonEvent``s.

    Events go to ``on_event`` if given (called from the backend's thread: keep it short and
    thread-safe), otherwise into a thread-safe queue read with ``get(timeout)``. The queue holds
    ``queue_size`` events; when nobody reads it the oldest are dropped, with a warning.
    Backends report contact changes with ``_pressed``/``_released``; holds and stuck buttons are
    timed here, the same for every backend.
    """

    name = "buttons"

    def __init__(self, *, on_event: Callable[[ButtonEvent], None] | None = None,
                 hold_time: float | None = DEFAULT_HOLD_TIME,
                 stuck_after: float | None = DEFAULT_STUCK_AFTER, queue_size: int = 256) -> None:
        for label, value in (("hold_time", hold_time), ("stuck_after", stuck_after)):
            if value is not None and not value > 0:
                raise ValueError(f"{label} must be a positive number of seconds, not {value!r}")
        self.on_event = on_event
        self.hold_time = hold_time
        self.stuck_after = stuck_after
        self.events: queue.Queue[ButtonEvent] = queue.Queue(maxsize=queue_size)
        self._lock = threading.RLock()
        self._pressed_now: dict[str, int] = {}  # button -> generation of its current press
        self._generation = 0
        self._timers: dict[str, list[threading.Timer]] = {}
        self._closed = False
        self._dropped = 0

    # delivery
    def emit(self, event: ButtonEvent) -> None:
        """Deliver ``event`` to the callback or the queue."""
        if self._closed:
            return
        if self.on_event is not None:
            self.on_event(event)
            return
        while True:
            try:
                self.events.put_nowait(event)
                return
            except queue.Full:
                try:
                    self.events.get_nowait()
                except queue.Empty:
                    pass
                self._dropped += 1
                if self._dropped == 1 or self._dropped % 100 == 0:
                    log.warning("%s: nobody is reading button events; dropped %d",
                                self.name, self._dropped)

    def get(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next event, waiting up to ``timeout`` seconds (None: forever); None if none came."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[ButtonEvent]:
        """All events waiting in the queue, without waiting."""
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def is_pressed(self, button: ButtonName) -> bool:
        with self._lock:
            return button in self._pressed_now

    # contact changes, from the backends
    def _pressed(self, button: ButtonName) -> None:
        with self._lock:
            if button in self._pressed_now or self._closed:
                return
            self._generation += 1
            generation = self._generation
            self._pressed_now[button] = generation
            timers = []
            for delay, kind in ((self.hold_time, "hold"), (self.stuck_after, "stuck")):
                if delay is not None:
                    timer = threading.Timer(delay, self._timed, (button, generation, kind))
                    timer.daemon = True
                    timer.name = f"{self.name}-{button}-{kind}"
                    timers.append(timer)
            self._timers[button] = timers
            self.emit(ButtonEvent(button, "press"))
            for timer in timers:
                timer.start()

    def _released(self, button: ButtonName) -> None:
        with self._lock:
            if self._pressed_now.pop(button, None) is None:
                return
            for timer in self._timers.pop(button, []):
                timer.cancel()
            self.emit(ButtonEvent(button, "release"))

    def _timed(self, button: ButtonName, generation: int, kind: EventKind) -> None:
        with self._lock:
            if self._pressed_now.get(button) != generation:
                return
            if kind == "stuck":
                log.warning("%s: button %r stuck down for %g s", self.name, button,
                            self.stuck_after)
            self.emit(ButtonEvent(button, kind))

    def close(self) -> None:
        """Stop delivering events and release the backend; safe to call twice."""
        with self._lock:
            self._closed = True
            for timers in self._timers.values():
                for timer in timers:
                    timer.cancel()
            self._timers.clear()
            self._pressed_now.clear()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class QueueButtons(Buttons):
    """Buttons pushed by tests and scripts (backend ``queue``, alias ``fake``).

    ``press``/``release`` go through the same hold and stuck timing as real contacts; ``tap``
    is a press and a release; ``hold`` a press, a hold and a release, with no waiting.
    """

    name = "queue buttons"

    def press(self, button: ButtonName) -> None:
        self._check(button)
        self._pressed(button)

    def release(self, button: ButtonName) -> None:
        self._check(button)
        self._released(button)

    def tap(self, button: ButtonName) -> None:
        self.press(button)
        self.release(button)

    def hold(self, button: ButtonName) -> None:
        self._check(button)
        with self._lock:
            self._pressed(button)
            if button in self._pressed_now:
                self.emit(ButtonEvent(button, "hold"))
                for timer in self._timers.get(button, []):
                    timer.cancel()
            self._released(button)

    def push(self, event: ButtonEvent) -> None:
        """Deliver ``event`` as is, with no timing."""
        self.emit(event)

    @staticmethod
    def _check(button: str) -> None:
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r}; buttons: {', '.join(BUTTONS)}")
