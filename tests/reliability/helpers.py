"""Shared tools for the reliability tests: a pty pair, the real daemon as a process, a built kit."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from drivers.card_reader.shelf import EmptyShelf
from firmware.config import load_config
from firmware.runtime import Kit, RunOptions, build_kit
from firmware.simulator import empty_shelf_frame

REPO = Path(__file__).resolve().parents[2]
#: The staff PIN of the test kits: these tests drive whole games over the console, unlocked with it
#: (the locked console itself: test_cafe_console.py, tests/firmware/test_console_lock.py).
TEST_PIN = "test-pin-2468"
LABKIT = [sys.executable, "-m", "firmware.cli"]

#: every alchemical as the kit writes it (red-green-blue, p/n sign, uppercase when large)
ALCHEMICALS = ("Ppn", "nPp", "pnP", "Nnp", "pNn", "npN", "PPP", "NNN")
ALCHEMICAL_WORD = re.compile(r"\b(" + "|".join(ALCHEMICALS) + r")\b")


class Pty:
    """A raw pty pair: the kit opens ``path``, the test talks through the master side."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a serial line does not echo
        self.path = os.ttyname(self.slave)
        self.buffer = b""
        self.transcript: list[bytes] = []  # every line the kit sent, raw

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_line(self, timeout: float) -> bytes | None:
        """The next line the kit sent, or None after ``timeout`` seconds of silence."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return None
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        self.transcript.append(line)
        return line

    def reply(self, timeout: float = 10.0, skip_notices: bool = True) -> dict[str, Any] | None:
        """The next JSON reply (notices skipped unless asked for), or None after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                return None
            data = json.loads(line.decode("utf-8"))
            if skip_notices and "notice" in data:
                continue
            return data

    def ask(self, line: str, timeout: float = 10.0) -> dict[str, Any]:
        self.send(line.encode("utf-8") + b"\n")
        reply = self.reply(timeout)
        assert reply is not None, f"no reply to {line!r}"
        return reply

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class DaemonProcess:
    """``labkit run --simulate --headless --console PTY --state-dir DIR`` as a child process."""

    def __init__(self, state_dir: Path, log_path: Path, extra: tuple[str, ...] = ()) -> None:
        self.pty = Pty()
        self.log_path = log_path
        self._log = open(log_path, "ab")
        if "--config" not in extra:  # a configuration with the staff PIN, to unlock the console
            config = log_path.with_name(log_path.name + ".toml")
            config.write_text(f'[console]\npin = "{TEST_PIN}"\n')
            extra = ("--config", str(config), *extra)
        self.process = subprocess.Popen(
            [*LABKIT, "run", "--simulate", "--headless", "--console", self.pty.path,
             "--state-dir", str(state_dir), *extra],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Send ``help`` until the console answers (the port's open may flush early lines)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the daemon exited with {self.process.returncode}: {self.log()}"
            self.pty.send(b"help\n")
            reply = self.pty.reply(0.5)
            if reply is not None:
                assert "commands" in reply, reply
                self._skip_late_help()
                assert self.ask(f"unlock {TEST_PIN}") == {"console": "unlocked"}
                return
        raise AssertionError(f"the daemon did not answer within {timeout} s: {self.log()}")

    def _skip_late_help(self) -> None:
        """Drop late answers to the repeated ``help`` lines, so replies line up again."""
        while True:
            self.pty.send(b"status\n")
            while True:
                reply = self.pty.reply(10.0)
                assert reply is not None, "no reply to status"
                if "commands" not in reply:
                    return

    def ask(self, line: str, timeout: float = 10.0) -> dict[str, Any] | None:
        """The reply, or None when the daemon died before answering."""
        self.pty.send(line.encode("utf-8") + b"\n")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self.pty.reply(0.2)
            if reply is not None:
                return reply
            if self.process.poll() is not None:
                return self.pty.reply(0.3)  # a reply written just before the death
        raise AssertionError(f"no reply to {line!r} from a living daemon: {self.log()}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 20.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def close(self) -> None:
        self.kill()
        self.pty.close()
        self._log.close()

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-3000:]


def make_kit(state: Path, cafe: bool = False, learned: bool = True, **overrides: object) -> Kit:
    """The simulator kit as ``labkit run --simulate --headless`` builds it (not started).

    Unless ``cafe``, its console is unlocked with the staff PIN as ``unlock PIN`` would, and the
    console's notices stay off the screen: these tests drive whole games over the console and look
    at other promises (the locked console and its notices: test_cafe_console.py). Unless not
    ``learned``, its reader holds the simulated empty shelf, as a kit that learned it before (a kit
    names no card until it has: tests/firmware/test_runtime.py).
    """
    enabled = {"console.enabled": True} if "console.url" in overrides else {}
    config = load_config(None, {"storage.state_dir": str(state), "console.pin": TEST_PIN, **enabled,
                                **overrides})
    kit = build_kit(config, RunOptions(simulate=True, headless=True, console_given="console.url" in overrides),
                    state)
    if learned:
        learn_the_simulated_shelf(kit)
    if not cafe:
        gate = kit.daemon.protocol.gate
        assert gate.unlock_with(TEST_PIN)
        take_events = gate.take_events
        gate.take_events = lambda: [event for event in take_events() if event.kind == "confirm"]  # type: ignore[method-assign]
    return kit


def learn_the_simulated_shelf(kit: Kit) -> None:
    """Give the reader of a kit not yet started the simulated shelf's empty frame, as if it had
    learned it (before ``start`` the reader is the builder's)."""
    kit.camera_worker.reader.empty_shelf = EmptyShelf(empty_shelf_frame())  # type: ignore[attr-defined]


@contextmanager
def running(kit: Kit) -> Iterator[Kit]:
    """Start the kit's threads and turn its loop on a thread of its own; stop it all afterwards."""
    stop = threading.Event()
    kit.start()
    loop = threading.Thread(target=kit.daemon.run, args=(stop,), name="loop", daemon=True)
    loop.start()
    try:
        yield kit
    finally:
        stop.set()
        loop.join(10)
        kit.stop()


def wait_for(condition: Any, timeout: float = 10.0, what: str = "the condition") -> None:
    """Poll ``condition()`` until true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def view_text(view: object, language: str = "en") -> str:
    """Every text and value of a view model, translated, joined by spaces (for assertions)."""
    import dataclasses

    from firmware.i18n import translator
    from firmware.screens.text import Msg, Raw, resolve

    gettext = translator(language)
    words = [type(view).__name__]
    for field in dataclasses.fields(view) if dataclasses.is_dataclass(view) else ():
        value = getattr(view, field.name)
        if isinstance(value, (Msg, Raw)) or (isinstance(value, str) and "." in value):
            words.append(resolve(value, gettext))
        else:
            words.append(str(value))
    return " ".join(words)


def screen_text(kit: Kit) -> str:
    """The words on the kit's current screen."""
    return view_text(kit.daemon.ui.view(), kit.daemon.ui.language())
