"""Who may use the serial console for what: the lock, the kit's confirmations, the screen's notices.

A console in a café is a cable anyone can plug in. It starts **locked**: ``help``, ``history``
(public results) and ``status`` without the code. Asking about ingredients needs an unlock made
on the kit (a hold of ok and back on the Settings "Console" line, for the game in progress) or
``unlock PIN`` with ``[console] pin``. Without the PIN, ``new``, ``restore`` and ``reveal`` are
confirmed on the kit's buttons. A new game relocks, unless the PIN-unlocked console made it.

Everything here lives on the daemon's loop thread (the protocol and the UI both run there).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine import IllegalQuestionError
from engine.questions import PlainData

if TYPE_CHECKING:
    from firmware.session import GameSession

LOCKED, KIT, PIN = "locked", "kit", "pin"

#: Lines further apart than this start a new console session: the screen says "console connected"
#: again (a serial port cannot tell a cable plugged in, but a first line after a quiet spell can).
QUIET_SECONDS = 600.0


class ConsoleLocked(IllegalQuestionError):
    """A command the locked console may not run."""

    def __init__(self, verb: str) -> None:
        super().__init__(
            "locked",
            f"{verb!r}: the console is locked; unlock it on the kit (Settings, Console: hold ok"
            " and back) or with 'unlock PIN'",
        )


@dataclass(frozen=True)
class ScreenEvent:
    """What the screen should say about the console.

    ``kind``: ``connected``; ``changed`` (``what``: unlocked, unlocked_pin, locked, new, restore,
    reveal, question); ``confirm`` (``request`` waits for ok or back on the kit).
    """

    kind: str
    what: str = ""
    request: PendingRequest | None = None


@dataclass(eq=False)
class PendingRequest:
    """A console command that waits for the kit's buttons: ``confirm()`` runs it, ``cancel()`` drops it."""

    what: str
    run: Callable[[], PlainData]
    finish: Callable[[PendingRequest, PlainData | None], None]
    done: bool = field(default=False)

    def confirm(self) -> PlainData | None:
        """Run the command (once); its reply, or None when it was already settled."""
        if self.done:
            return None
        self.done = True
        reply = self.run()
        self.finish(self, reply)
        return reply

    def cancel(self) -> None:
        if not self.done:
            self.done = True
            self.finish(self, None)


class ConsoleGate:
    """The console's lock for the game in progress, and what it sends to the screen."""

    def __init__(self, session: GameSession, pin: str = "",
                 clock: Callable[[], float] | None = None) -> None:
        import time

        self.session = session
        self.pin = pin
        self.clock = clock or time.monotonic
        self._unlocked_by: str | None = None
        self._unlocked_for: object = None
        self._last_line: float | None = None
        self.pending: PendingRequest | None = None
        self.events: list[ScreenEvent] = []

    # -- the lock -----------------------------------------------------------------------------

    def access(self) -> str:
        """locked, kit or pin, for the game in progress (another game relocks)."""
        if self._unlocked_by is not None and self.session.game is self._unlocked_for:
            return self._unlocked_by
        self._unlocked_by = None
        return LOCKED

    def state(self) -> str:
        """locked or unlocked (for the settings line)."""
        return "locked" if self.access() == LOCKED else "unlocked"

    def unlock_on_kit(self) -> None:
        """The kit's hold: unlock for the game in progress (a PIN unlock stays a PIN unlock)."""
        if self.access() != PIN:
            self._unlock(KIT)

    def unlock_with(self, given: str) -> bool:
        """``unlock PIN``: True when the PIN is the configured one (compared in constant time)."""
        if not self.pin or not hmac.compare_digest(given.encode("utf-8", "replace"),
                                                   self.pin.encode("utf-8")):
            return False
        self._unlock(PIN)
        self.events.append(ScreenEvent("changed", "unlocked_pin"))
        return True

    def lock(self) -> None:
        if self.access() != LOCKED:
            self.events.append(ScreenEvent("changed", "locked"))
        self._unlocked_by, self._unlocked_for = None, None

    def follow_game(self) -> None:
        """The PIN-unlocked console started or restored a game: it stays unlocked for it."""
        if self._unlocked_by == PIN:
            self._unlocked_for = self.session.game

    def _unlock(self, how: str) -> None:
        self._unlocked_by, self._unlocked_for = how, self.session.game

    # -- the screen ---------------------------------------------------------------------------

    def line_arrived(self) -> None:
        """A line came: the first after a quiet spell shows "console connected"."""
        now = self.clock()
        if self._last_line is None or now - self._last_line > QUIET_SECONDS:
            self.events.append(ScreenEvent("connected"))
        self._last_line = now

    def changed(self, what: str) -> None:
        self.events.append(ScreenEvent("changed", what))

    def ask_the_kit(self, what: str, run: Callable[[], PlainData],
                    send_notice: Callable[[PlainData], None],
                    shown: Callable[[PlainData], PlainData]) -> PendingRequest:
        """Queue ``run`` for a confirmation on the kit; the outcome goes to the console as a notice."""
        if self.pending is not None and not self.pending.done:
            raise IllegalQuestionError(
                "waiting", f"{self.pending.what!r} already waits for a confirmation on the kit")

        def finish(request: PendingRequest, reply: PlainData | None) -> None:
            if self.pending is request:
                self.pending = None
            if reply is None:
                send_notice({"notice": {"console": what, "confirmed": False}})
                return
            send_notice({"notice": {"console": what, "confirmed": True, **shown(reply)}})

        self.pending = PendingRequest(what, run, finish)
        self.events.append(ScreenEvent("confirm", what, self.pending))
        return self.pending

    def take_events(self) -> list[ScreenEvent]:
        events, self.events = self.events, []
        return events
