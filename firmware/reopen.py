"""Opens again, with back-off, the parts that failed to open when the kit started.

A part that is late at boot (``/dev/i2c-1`` appearing after the service started, a display plugged
in afterwards) is first replaced by its ``disabled`` backend; this thread keeps trying to open the
real one and hands it over when it opens. It owns nothing the loop uses: the loop swaps the part in
(``Daemon.post_part``), as it does every other change, on its own thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

BACKOFF_FIRST = 1.0  # a device node that udev is still making appears within a second or two
BACKOFF_MAX = 30.0  # a part that never comes is tried twice a minute: cheap, and soon noticed


class PartReopener:
    """Tries each opener until it succeeds, waiting longer after each failure (1 s, 2 s, ... 30 s).

    ``openers`` maps a family (``display``, ``buttons``, ``led``) to a function that opens its real
    backend or raises. An ``OSError`` is the part still missing: tried again later. Anything else (a
    configuration the backend refuses) will not change by waiting: reported once, given up.
    ``deliver(family, part)`` receives each part that opened, on this thread.
    """

    def __init__(self, openers: dict[str, Callable[[], object]],
                 deliver: Callable[[str, object], None], *,
                 first: float | None = None, maximum: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.openers = dict(openers)
        self.deliver = deliver
        self.first = BACKOFF_FIRST if first is None else first
        self.maximum = BACKOFF_MAX if maximum is None else maximum
        self.clock = clock
        self.attempts: dict[str, int] = {family: 0 for family in self.openers}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def pending(self) -> list[str]:
        """The families still waited for."""
        return list(self.openers)

    def start(self) -> None:
        """Start trying on a thread (nothing to do when nothing failed)."""
        if self.openers:
            self._thread = threading.Thread(target=self._run, name="reopen", daemon=True)
            self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """Stop trying; waits up to ``timeout`` for an attempt under way."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        delay = {family: self.first for family in self.openers}
        due = {family: self.clock() + self.first for family in self.openers}
        while self.openers and not self._stop.is_set():
            family = min(due, key=due.__getitem__)
            if self._stop.wait(max(0.0, due[family] - self.clock())):
                return
            if self._try(family):
                del due[family], delay[family]
                continue
            if family in self.openers:
                delay[family] = min(delay[family] * 2, self.maximum)
                due[family] = self.clock() + delay[family]
            else:
                del due[family], delay[family]

    def _try(self, family: str) -> bool:
        self.attempts[family] += 1
        try:
            part = self.openers[family]()
        except OSError as error:
            log.debug("%s still unavailable (attempt %d): %s", family, self.attempts[family], error)
            return False
        except Exception as error:  # the backend refuses its settings: waiting will not help
            log.error("%s cannot be opened (%s: %s); not trying again", family, type(error).__name__, error)
            del self.openers[family]
            return False
        del self.openers[family]
        if self._stop.is_set():
            _close(part)
            return True
        log.info("%s opened after %d attempts", family, self.attempts[family])
        self.deliver(family, part)
        return True


def _close(part: object) -> None:
    close = getattr(part, "close", None)
    if close is not None:
        try:
            close()
        except Exception as error:  # closing a part nobody will use
            log.warning("closing %r failed: %s", part, error)
