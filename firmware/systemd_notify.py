"""sd_notify without dependencies: tell systemd the daemon is ready, alive, or what it is doing.

systemd passes ``$NOTIFY_SOCKET`` to a ``Type=notify`` service: an AF_UNIX datagram socket, a path or
an abstract name written with a leading ``@``. Each message is newline-separated ``KEY=VALUE``
lines. Outside systemd (the simulator, tests) the variable is unset and every call is a no-op.

The watchdog (``WatchdogSec=`` in the unit) arrives as ``$WATCHDOG_USEC``; send ``WATCHDOG=1`` at
least every half of :func:`watchdog_interval`, from the loop whose liveness it should prove.

>>> Notifier({}).notify("READY=1")  # no $NOTIFY_SOCKET: not started by systemd
False
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Mapping

__all__ = ["Notifier", "notify", "ready", "status", "stopping", "watchdog", "watchdog_interval"]

log = logging.getLogger(__name__)


def _address(value: str) -> str | None:
    """The socket address for ``$NOTIFY_SOCKET``: a path, or an abstract name from ``@name``."""
    if value.startswith("@"):
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None  # vsock and other forms are not used on the kit


class Notifier:
    """One connection to ``$NOTIFY_SOCKET`` (read when created), reused for every message."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        environ = os.environ if environ is None else environ
        self.target = environ.get("NOTIFY_SOCKET") or None
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()
        self._warned = False

    @property
    def enabled(self) -> bool:
        """True when systemd asked for notifications."""
        return self.target is not None

    def notify(self, *states: str) -> bool:
        """Send ``KEY=VALUE`` states in one datagram; True when sent, False when not under systemd.

        A failure to send is logged as a warning once and never raised: notifications must not be
        able to stop the daemon.
        """
        if self.target is None:
            return False
        for state in states:
            if "=" not in state or "\n" in state:
                raise ValueError(f"a notification is one KEY=VALUE line, not {state!r}")
        address = _address(self.target)
        if address is None:
            self._warn(f"unsupported NOTIFY_SOCKET {self.target!r}")
            return False
        message = "\n".join(states).encode("utf-8")
        with self._lock:
            try:
                if self._socket is None:
                    self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._socket.sendto(message, address)
            except OSError as error:
                self._close_socket()
                self._warn(f"cannot notify systemd at {self.target}: {error}")
                return False
        return True

    def _warn(self, text: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("%s", text)

    def _close_socket(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def close(self) -> None:
        """Release the socket (a later notify opens a new one)."""
        with self._lock:
            self._close_socket()


_default: Notifier | None = None
_default_lock = threading.Lock()


def _notifier() -> Notifier:
    """The process-wide notifier, re-created when ``$NOTIFY_SOCKET`` changed (tests change it)."""
    global _default
    with _default_lock:
        target = os.environ.get("NOTIFY_SOCKET") or None
        if _default is None or _default.target != target:
            if _default is not None:
                _default.close()
            _default = Notifier()
        return _default


def notify(*states: str) -> bool:
    """Send states such as ``"READY=1"`` to systemd; False (and nothing sent) outside systemd."""
    return _notifier().notify(*states)


def _status_line(text: str) -> str:
    return "STATUS=" + " ".join(text.split())


def ready(status_text: str | None = None) -> bool:
    """Tell systemd start-up is finished (``READY=1``), with an optional status line."""
    return notify("READY=1", *([_status_line(status_text)] if status_text else []))


def status(text: str) -> bool:
    """Set the status line ``systemctl status labkit`` shows (newlines become spaces)."""
    return notify(_status_line(text))


def watchdog() -> bool:
    """Feed the systemd watchdog (``WATCHDOG=1``)."""
    return notify("WATCHDOG=1")


def stopping(status_text: str | None = None) -> bool:
    """Tell systemd the daemon is shutting down (``STOPPING=1``)."""
    return notify("STOPPING=1", *([_status_line(status_text)] if status_text else []))


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """The watchdog timeout in seconds from ``$WATCHDOG_USEC``, or None when there is no watchdog.

    ``$WATCHDOG_PID``, when set, must be this process; otherwise the watchdog is someone else's.

    >>> watchdog_interval({"WATCHDOG_USEC": "30000000"})
    30.0
    >>> watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    True
    """
    environ = os.environ if environ is None else environ
    text = environ.get("WATCHDOG_USEC")
    if not text:
        return None
    pid = environ.get("WATCHDOG_PID")
    if pid:
        try:
            if int(pid) != os.getpid():
                return None
        except ValueError:
            return None
    try:
        usec = int(text)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a number of microseconds", text)
        return None
    if usec <= 0:
        return None
    return usec / 1_000_000
