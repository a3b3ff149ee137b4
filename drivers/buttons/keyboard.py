"""The keyboard as the four buttons, for the simulator.

Keys: up = Up arrow, ``w`` or ``k``; down = Down arrow, ``s`` or ``j``; ok = Enter or Space;
back = Backspace or Esc. A terminal reports no key releases, so each key is a press followed by a
release; to hold a button, press ``h`` and then its key (a press, a hold and a release). Other keys
go to ``on_other_key`` (the simulator uses them to put cards on the shelf).
"""

from __future__ import annotations

import atexit
import codecs
import logging
import os
import select
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from drivers.buttons.base import ButtonEvent, ButtonName, Buttons, ButtonsError

log = logging.getLogger(__name__)

KEYS: dict[str, ButtonName] = {
    "\x1b[A": "up", "\x1bOA": "up", "w": "up", "W": "up", "k": "up",
    "\x1b[B": "down", "\x1bOB": "down", "s": "down", "S": "down", "j": "down",
    "\r": "ok", "\n": "ok", " ": "ok",
    "\x7f": "back", "\x08": "back", "\x1b": "back",
}
HOLD_KEY = "h"
ESCAPE_WAIT = 0.1
"""Seconds an unfinished escape sequence waits for its rest before a lone Esc counts as back: a
terminal sends a sequence in one burst, but a read can wake between its bytes (under load, or over
ssh); 0.1 s, vim's ``ttimeoutlen``, is far longer than a burst and too short for a person to notice."""


def split_keys(text: str) -> list[str]:
    """Split what a terminal sent into keys, keeping escape sequences whole.

    >>> split_keys("w\\x1b[A\\x1b\\r")
    ['w', '\\x1b[A', '\\x1b', '\\r']
    """
    keys = []
    i = 0
    while i < len(text):
        if text[i] == "\x1b" and i + 1 < len(text) and text[i + 1] in "[O":
            j = i + 2
            if text[i + 1] == "[":
                while j < len(text) and not "\x40" <= text[j] <= "\x7e":
                    j += 1
            keys.append(text[i:j + 1])
            i = j + 1
        else:
            keys.append(text[i])
            i += 1
    return keys


def unfinished_escape(text: str) -> int:
    """Where an escape sequence that ``text`` ends in unfinished starts (``len(text)`` if none).

    >>> unfinished_escape("w\x1b["), unfinished_escape("\x1b[A"), unfinished_escape("\x1b[1;")
    (1, 3, 0)
    """
    start = text.rfind("\x1b")
    if start < 0:
        return len(text)
    rest = text[start + 1:]
    if rest in ("", "[", "O"):
        return start
    if rest[0] == "[" and all(not "\x40" <= char <= "\x7e" for char in rest[1:]):
        return start
    return len(text)


def key_events(key: str, hold_armed: bool) -> tuple[list[ButtonEvent], bool]:
    """The button events for one key, and whether a hold is armed afterwards.

    >>> key_events("w", False)
    ([ButtonEvent('up', 'press'), ButtonEvent('up', 'release')], False)
    >>> key_events("h", False)
    ([], True)
    >>> key_events("\\r", True)[0]
    [ButtonEvent('ok', 'press'), ButtonEvent('ok', 'hold'), ButtonEvent('ok', 'release')]
    """
    if key == HOLD_KEY:
        return [], not hold_armed
    button = KEYS.get(key)
    if button is None:
        return [], False
    kinds = ("press", "hold", "release") if hold_armed else ("press", "release")
    return [ButtonEvent(button, kind) for kind in kinds], False  # type: ignore[arg-type]


class KeyboardButtons(Buttons):
    """Reads keys from a terminal in cbreak mode on a background thread.

    Options: ``stream`` (default ``sys.stdin``; must be a terminal, else ``ButtonsError``),
    ``on_other_key`` (called with keys that are not buttons), ``on_event``. The terminal's
    settings are restored on ``close()``. No hold or stuck timing: keys say what they are.
    """

    name = "keyboard buttons"

    def __init__(self, *, stream: TextIO | int | None = None,
                 on_other_key: Callable[[str], None] | None = None, **options: Any) -> None:
        options.setdefault("hold_time", None)
        options.setdefault("stuck_after", None)
        super().__init__(**options)
        self.on_other_key = on_other_key
        source = sys.stdin if stream is None else stream
        self._fd = source if isinstance(source, int) else source.fileno()
        if not os.isatty(self._fd):
            raise ButtonsError(f"{self.name}: input is not a terminal (use --headless and a "
                               "script, or the 'queue' buttons)")
        import termios
        import tty

        self._termios = termios
        self._saved = termios.tcgetattr(self._fd)
        atexit.register(self._restore_terminal)  # even if the daemon dies without close()
        tty.setcbreak(self._fd)
        attrs = termios.tcgetattr(self._fd)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(self._fd, termios.TCSANOW, attrs)
        self._wake_r, self._wake_w = os.pipe()
        self._hold_armed = False
        self._thread = threading.Thread(target=self._run, name="keyboard-buttons", daemon=True)
        self._thread.start()

    def feed(self, key: str) -> None:
        """Act on one key as if typed (the reader thread calls this)."""
        events, self._hold_armed = key_events(key, self._hold_armed)
        if not events and key != HOLD_KEY and self.on_other_key is not None:
            self.on_other_key(key)
        for event in events:
            self.emit(event)

    def _run(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""  # an escape sequence whose rest has not been read yet
        while True:
            try:
                ready, _, _ = select.select([self._fd, self._wake_r], [], [],
                                            ESCAPE_WAIT if pending else None)
                if self._wake_r in ready:
                    return
                data = os.read(self._fd, 64) if ready else b""
            except OSError as exc:
                if not self._closed:
                    log.warning("%s: terminal gone: %s", self.name, exc)
                return
            if not ready:  # nothing followed: the keys as they are (a lone Esc is back)
                text, pending = pending, ""
            elif not data:
                log.warning("%s: end of input; the keyboard no longer works", self.name)
                return
            else:
                text = pending + decoder.decode(data)
                cut = unfinished_escape(text)
                text, pending = text[:cut], text[cut:]
            for key in split_keys(text):
                self.feed(key)

    def close(self) -> None:
        if self._closed:
            return
        super().close()
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=2)
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        self._restore_terminal()
        atexit.unregister(self._restore_terminal)

    def _restore_terminal(self) -> None:
        try:
            self._termios.tcsetattr(self._fd, self._termios.TCSADRAIN, self._saved)
        except Exception:  # the terminal went away
            pass
