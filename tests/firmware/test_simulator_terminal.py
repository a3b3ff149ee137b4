"""``labkit run --simulate`` in a terminal of 80x24 and 128x40: the picture fits from the top row,
the keys are listed under it, log lines go to a file named on screen, never into the picture.

Driven through a real pty and read with a terminal emulator (pyte), so no tmux is needed; one
test does the same in tmux where it is installed.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pyte
import pytest

from drivers.display.terminal import BRAILLE, HALVES

LABKIT = Path(sys.executable).parent / "labkit"
LOG_WORDS = ("INFO", "WARNING", "ERROR", "Traceback", "firmware.")
"""Text of a log line: none of it may appear on the simulator's screen."""


def set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def become_controlled_by_stdin() -> None:
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # so that Ctrl-C in the pty is a SIGINT, as in a terminal


class Terminal:
    """A pty of a given size running the simulator, and what a terminal would show of it."""

    def __init__(self, state_home: Path, columns: int, rows: int) -> None:
        self.master, slave = pty.openpty()
        set_size(slave, columns, rows)
        env = {**os.environ, "XDG_STATE_HOME": str(state_home), "TERM": "xterm-256color"}
        self.process = subprocess.Popen(
            [str(LABKIT), "run", "--simulate"], stdin=slave, stdout=slave, stderr=slave,
            env=env, preexec_fn=become_controlled_by_stdin, close_fds=True)
        os.close(slave)
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def pump(self, until: Callable[[], bool], timeout: float = 20.0, log: Path | None = None) -> None:
        """Read what the kit draws until ``until()``; else fail with the screen (and ``log``)."""
        deadline = time.monotonic() + timeout
        while not until() and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the child closed the pty
                    break
                self.raw += data
                self.stream.feed(data)
        assert until(), "\n".join(self.lines() + ([logged(log)] if log is not None else []))

    def drain(self, seconds: float) -> None:
        """Read what the kit draws for ``seconds`` (a pty left unread would block its writes)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                self.raw += data
                self.stream.feed(data)

    def type(self, keys: str | list[str]) -> None:
        """Type ``keys`` (characters, or a list of keys such as escape sequences) one by one."""
        for key in keys:
            os.write(self.master, key.encode())
            self.drain(0.15)  # one key at a time, as a person types

    def resize(self, columns: int, rows: int) -> None:
        set_size(self.master, columns, rows)
        self.screen.resize(rows, columns)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        os.close(self.master)


@pytest.fixture
def home() -> Iterator[Path]:
    """A short state home: the log's path, shown on one line of an 80-column terminal."""
    path = Path(tempfile.mkdtemp(prefix="lk"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def terminal(home: Path) -> Iterator[Callable[[int, int], Terminal]]:
    opened: list[Terminal] = []

    def open_terminal(columns: int, rows: int) -> Terminal:
        opened.append(Terminal(home, columns, rows))
        return opened[-1]

    yield open_terminal
    for one in opened:
        one.close()


def braille(line: str) -> bool:
    return any(BRAILLE < ord(char) <= BRAILLE + 0xFF for char in line)


def half_blocks(line: str) -> bool:
    return any(char in HALVES[1:] for char in line)


def assert_no_log_on_screen(lines: list[str]) -> None:
    for line in lines:
        assert not any(word in line for word in LOG_WORDS), "\n".join(lines)


def test_in_80x24_then_128x40_the_picture_fits_and_logs_go_to_the_file(
        terminal: Callable[[int, int], Terminal], home: Path) -> None:
    log = home / "labkit-simulator" / "labkit.log"
    term = terminal(80, 24)
    note = f"log: {log}"
    term.pump(lambda: term.lines()[16] == note)  # 64x16 cells of braille, the log's path under them
    lines = term.lines()
    assert braille(lines[0]) and all(len(line) <= 64 for line in lines[:16])
    assert any("hold back (home): h then Backspace" in line for line in lines[17:])
    assert any(line.startswith("shelf: 1 fern 2 claw") for line in lines[17:])
    assert_no_log_on_screen(lines)

    term.type("\r" + "\r")  # New game, ok on Start (highlighted): a game starts, the UI logs it
    term.pump(lambda: log.exists() and "started a base game" in log.read_text())
    term.pump(lambda: term.lines()[16] == note)
    assert_no_log_on_screen(term.lines())

    term.resize(128, 40)  # the picture follows: 128x32 cells of half blocks
    term.pump(lambda: term.lines()[32] == note)
    lines = term.lines()
    assert half_blocks(lines[0]) and not any(braille(line) for line in lines)
    assert_no_log_on_screen(lines)

    term.type("\x03")  # Ctrl-C: the kit stops, gives the terminal back and says where the log is
    assert term.process.wait(timeout=20) == 0
    term.pump(lambda: b"labkit: stopped; the game is kept" in term.raw)
    assert (home / "labkit-simulator").is_dir() and log.read_text().count("\n") >= 2
    assert_no_log_on_screen([line for line in term.lines() if not line.startswith("labkit:")])


def test_a_terminal_too_small_is_told_so(terminal: Callable[[int, int], Terminal]) -> None:
    term = terminal(60, 12)
    term.pump(lambda: any("too small" in line for line in term.lines()))
    shown = " ".join(term.lines())
    assert "(60x12)" in shown and "64x17" in shown and "128x33" in shown
    assert not any(braille(line) or half_blocks(line) for line in term.lines())
    term.resize(80, 24)  # enlarged: the picture comes
    term.pump(lambda: braille(term.lines()[0]))


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (apt-get install tmux)")
@pytest.mark.parametrize(("columns", "rows", "picture_rows"), [(80, 24, 16), (128, 40, 32)])
def test_in_tmux(home: Path, columns: int, rows: int, picture_rows: int) -> None:
    session = f"labkit-test-{uuid.uuid4().hex[:8]}"
    # a server of its own (its socket in the test's directory): a shared one exits when the last
    # test's session ends, and a session started against it then fails with "server exited unexpectedly"
    tmux = ["tmux", "-S", str(home / "tmux.sock")]
    env = f"XDG_STATE_HOME={home}"
    log = home / "labkit-simulator" / "labkit.log"
    subprocess.run([*tmux, "new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows),
                    f"env {env} {LABKIT} run --simulate"], check=True)
    try:
        def pane() -> list[str]:
            done = subprocess.run([*tmux, "capture-pane", "-p", "-t", session],
                                  capture_output=True, text=True, check=False)
            return [line.rstrip() for line in done.stdout.split("\n")]

        def wait_for(check: Callable[[list[str]], bool]) -> list[str]:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                lines = pane()
                if len(lines) > picture_rows and check(lines):
                    return lines
                time.sleep(0.2)
            raise AssertionError("\n".join(pane()))

        lines = wait_for(lambda lines: lines[picture_rows] == f"log: {log}")
        assert (braille if columns < 128 else half_blocks)(lines[0])
        assert_no_log_on_screen(lines)
        # New game, Start (highlighted), ok on the code, Experiment, then hold back home
        for key in ["Enter", "Enter", "Enter", "Enter", "h", "BSpace"]:
            subprocess.run([*tmux, "send-keys", "-t", session, key], check=True)
            time.sleep(0.2)
        lines = wait_for(lambda lines: lines[picture_rows] == f"log: {log}")
        assert_no_log_on_screen(lines)
        assert "ui: experiment" in log.read_text()
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)


KEYS = {"ok": "\r", "back": "\x7f", "up": "\x1b[A", "down": "\x1b[B"}
INGREDIENT_KEYS = {name: str(k + 1) for k, name in enumerate(
    "fern claw mushroom flower root scorpion toad feather".split())}
WALKTHROUGH = Path(__file__).resolve().parents[2] / "firmware" / "scripts" / "walkthrough.txt"
SHELF_READ = re.compile(r"shelf: \d+ cards? read$", re.MULTILINE)


def logged(log: Path) -> str:
    return log.read_text() if log.exists() else ""


def walkthrough_as_keys() -> list[tuple[str, list[str]]]:
    """The walkthrough script (every flow) as what a player types: ("keys"/"shelf", keys),
    ("wait", [seconds]) or ("check", [what the script expects there])."""
    steps: list[tuple[str, list[str]]] = []
    for raw in WALKTHROUGH.read_text(encoding="utf-8").splitlines():
        words = raw.split("#")[0].split()
        if not words:
            continue
        verb, args = words[0], words[1:]
        if verb == "press":
            steps.append(("keys", [KEYS[arg] for arg in args]))
        elif verb == "shelf":
            steps.append(("shelf", ["0"] + [INGREDIENT_KEYS[a] for a in args if a != "clear"]))
        elif verb in ("down", "up"):  # ok and back together: x presses both, x again lets go
            steps.append(("keys", ["x"]))
        elif verb == "wait":
            steps.append(("wait", args))
        elif verb == "expect":
            steps.append(("check", args))
        else:
            raise AssertionError(f"walkthrough verb {verb!r} has no key")
    return steps


@pytest.mark.slow
@pytest.mark.parametrize(("columns", "rows", "picture_rows"), [(80, 24, 16), (128, 40, 32)])
def test_every_flow_of_the_walkthrough_typed_keeps_the_screen_clean(
        terminal: Callable[[int, int], Terminal], home: Path, columns: int, rows: int,
        picture_rows: int) -> None:
    log = home / "labkit-simulator" / "labkit.log"
    term = terminal(columns, rows)
    term.pump(lambda: term.lines()[picture_rows] == f"log: {log}")
    checks = 0
    for kind, value in walkthrough_as_keys():
        if kind == "wait":
            term.drain(float(value[0]))
        elif kind == "check":
            term.pump(lambda: term.lines()[picture_rows] == f"log: {log}", timeout=5)
            assert_no_log_on_screen(term.lines())
            checks += 1
        elif kind == "shelf" and len(value) > 1:  # the next key once the cards are read, however slow
            before = len(SHELF_READ.findall(logged(log)))
            term.type(value)
            term.pump(lambda: len(SHELF_READ.findall(logged(log))) > before, timeout=60, log=log)
        else:  # a shelf cleared after its flow: the kit reads it when it next wants cards
            term.type(value)
    assert checks >= 40
    text = log.read_text()
    for flow in ("ui: experiment", "ui: sell", "ui: debunk", "ui: exhibition", "ui: golem test",
                 "ui: golem animate", "ui: library", "ui: history", "ui: reveal held"):
        assert flow in text, flow
