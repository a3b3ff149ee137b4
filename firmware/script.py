"""Scripts for the simulator (``labkit run --simulate --script FILE``): button presses and shelf contents.

One command a line; ``#`` starts a comment::

    press ok [down ...]      press and release each button in turn
    hold ok                  press, hold and release a button
    down ok back / up ok back   press / release without letting go (e.g. hold ok+back for the reveal)
    shelf fern toad          lay cards (then wait for the reader to settle); shelf clear; shelf unreadable
    wait 3.2                 let time pass (seconds)
    console restore DEMO     a serial-console line; its JSON reply is printed
    expect PotionView [potion=R+]   stop with an error unless the screen shows that view (and fields)
"""

from __future__ import annotations

import json
import shlex
import threading
import time
from typing import Any

from firmware.ui.base import ButtonPress

BUTTONS = ("up", "down", "ok", "back")
SHELF_SETTLE_TIMEOUT = 5.0


class ScriptError(ValueError):
    """A script line that cannot be played; the message names the line."""


def _buttons(number: int, words: list[str]) -> list[str]:
    unknown = [word for word in words if word not in BUTTONS]
    if unknown or not words:
        raise ScriptError(f"line {number}: buttons are {', '.join(BUTTONS)}; got {' '.join(words) or 'none'}")
    return words


def parse_script(text: str) -> list[tuple[int, str, list[str]]]:
    """The script's commands as (line number, verb, words); every line is checked before playing."""
    commands = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        verb, *words = shlex.split(line)
        verb = verb.lower()
        if verb in ("press", "hold", "down", "up"):
            _buttons(number, words)
        elif verb == "shelf":
            if not words:
                raise ScriptError(f"line {number}: shelf needs ingredients, 'clear' or 'unreadable'")
        elif verb == "wait":
            try:
                seconds = float(words[0]) if len(words) == 1 else -1.0
            except ValueError:
                seconds = -1.0
            if not 0 <= seconds <= 600:
                raise ScriptError(f"line {number}: wait takes seconds from 0 to 600, not {' '.join(words)!r}")
        elif verb == "console":
            if not words:
                raise ScriptError(f"line {number}: console needs a command line")
        elif verb == "expect":
            if not words or any("=" not in word for word in words[1:]):
                raise ScriptError(f"line {number}: expect ViewName [field=value ...]")
        else:
            raise ScriptError(f"line {number}: unknown command {verb!r}")
        commands.append((number, verb, words))
    return commands


def _let_time_pass(kit: Any, seconds: float) -> None:
    clock = kit.daemon.clock
    if hasattr(clock, "advance"):
        steps = max(1, int(seconds / 0.1))
        for _ in range(steps):
            clock.advance(seconds / steps)
            kit.daemon.drain()
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        kit.daemon.step(min(0.05, max(0.0, deadline - time.monotonic())))


def _settle_shelf(kit: Any, number: int) -> None:
    daemon, worker = kit.daemon, kit.camera_worker
    if daemon.ui.cards_wanted() <= 0:
        return
    start = worker.readings
    needed = worker.frames_to_settle + 2
    deadline = time.monotonic() + SHELF_SETTLE_TIMEOUT
    while worker.readings - start < needed:
        if time.monotonic() > deadline:
            raise ScriptError(f"line {number}: the camera did not read the shelf within {SHELF_SETTLE_TIMEOUT:.0f} s")
        daemon.step(0.02)
    daemon.drain()


def _check_view(kit: Any, number: int, words: list[str]) -> None:
    view = kit.daemon.ui.view()
    name = type(view).__name__
    if name != words[0]:
        raise ScriptError(f"line {number}: expected the screen {words[0]}, it shows {name}")
    for pair in words[1:]:
        field, _, wanted = pair.partition("=")
        actual = getattr(view, field, None)
        if str(actual) != wanted:
            raise ScriptError(f"line {number}: expected {name}.{field} = {wanted}, it is {actual!r}")


def play_script(kit: Any, text: str, stop: threading.Event | None = None) -> None:
    """Play a script against a started kit, turning the daemon's loop between commands."""
    daemon = kit.daemon
    for number, verb, words in parse_script(text):
        if stop is not None and stop.is_set():
            return
        if verb in ("press", "hold"):
            for button in words:
                kinds = ("press", "hold", "release") if verb == "hold" else ("press", "release")
                for kind in kinds:
                    daemon.post_button(ButtonPress(button, kind))
                daemon.drain()
        elif verb in ("down", "up"):
            for button in words:
                daemon.post_button(ButtonPress(button, "press" if verb == "down" else "release"))
            daemon.drain()
        elif verb == "shelf":
            if kit.shelf is None:
                raise ScriptError(f"line {number}: no simulated shelf (run with --simulate)")
            try:
                if words == ["clear"]:
                    kit.shelf.clear()
                elif words == ["unreadable"]:
                    kit.shelf.lay_unreadable()
                else:
                    kit.shelf.lay(words)
            except ValueError as error:
                raise ScriptError(f"line {number}: {error}") from None
            _settle_shelf(kit, number)
        elif verb == "wait":
            _let_time_pass(kit, float(words[0]))
        elif verb == "console":
            print(json.dumps(daemon.ask_console_on_loop(" ".join(words)), ensure_ascii=False), flush=True)
            daemon.drain()
        elif verb == "expect":
            daemon.drain()
            _check_view(kit, number, words)
