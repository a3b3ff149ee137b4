"""Scripts for the simulator (``labkit run --simulate --script FILE``): button presses and shelf contents.

One command a line; ``#`` starts a comment::

    press ok [down ...]      press and release each button in turn
    hold ok                  press, hold and release a button
    down ok back / up ok back   press / release without letting go (e.g. hold ok+back for the reveal)
    shelf fern toad          lay cards (then wait for the reader to settle); shelf clear; shelf unreadable
    wait 3.2                 let time pass (seconds)
    console restore DEMO     a serial-console line; its JSON reply is printed
    expect PotionView [potion=R+]   stop with an error unless the screen shows that view (and fields)

A comment after a command is its note; a comment line that opens a paragraph names the section the
commands under it belong to (``firmware.demo_gif`` makes one GIF per section, captioned by the notes).
"""

from __future__ import annotations

import json
import shlex
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from firmware.ui.base import ButtonPress

BUTTONS = ("up", "down", "ok", "back")
SHELF_SETTLE_TIMEOUT = 5.0


class ScriptError(ValueError):
    """A script line that cannot be played; the message names the line."""


@dataclass(frozen=True)
class ScriptStep:
    """One command of a script: its line number, verb and words, its note and its section."""

    line: int
    verb: str
    words: tuple[str, ...]
    note: str = ""
    section: str = ""


StepPlayed = Callable[[ScriptStep, tuple[str, ...], str], None]
"""Told after each action: the step, the words acted on (one button of a ``press``), the view shown.
A line's note goes with its last action only."""


def _buttons(number: int, words: list[str]) -> list[str]:
    unknown = [word for word in words if word not in BUTTONS]
    if unknown or not words:
        raise ScriptError(f"line {number}: buttons are {', '.join(BUTTONS)}; got {' '.join(words) or 'none'}")
    return words


def _check_command(number: int, verb: str, words: list[str]) -> None:
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


def parse_script(text: str) -> list[ScriptStep]:
    """The script's commands, with their notes and sections; every line is checked before playing."""
    steps = []
    section = ""
    paragraph_start = True
    for number, raw in enumerate(text.splitlines(), start=1):
        line, _, comment = raw.partition("#")
        line, comment = line.strip(), comment.strip()
        if not line:
            if comment and paragraph_start:
                section = comment
            paragraph_start = not comment
            continue
        paragraph_start = False
        verb, *words = shlex.split(line)
        verb = verb.lower()
        _check_command(number, verb, words)
        steps.append(ScriptStep(number, verb, tuple(words), comment, section))
    return steps


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


def play_script(kit: Any, text: str, stop: threading.Event | None = None,
                on_step: StepPlayed | None = None) -> None:
    """Play a script against a started kit, turning the daemon's loop between commands.

    ``on_step`` is told after every action (each button of a ``press`` or ``hold`` apart), with the
    name of the view it left on the screen; ``expect`` lines are not actions.
    """
    daemon = kit.daemon

    def played(step: ScriptStep, words: tuple[str, ...]) -> None:
        if on_step is not None:
            on_step(step, words, type(daemon.ui.view()).__name__)

    for step in parse_script(text):
        if stop is not None and stop.is_set():
            return
        number, verb, words = step.line, step.verb, list(step.words)
        if verb in ("press", "hold"):
            for index, button in enumerate(words):
                kinds = ("press", "hold", "release") if verb == "hold" else ("press", "release")
                for kind in kinds:
                    daemon.post_button(ButtonPress(button, kind))
                daemon.drain()
                played(step if index == len(words) - 1 else replace(step, note=""), (button,))
        elif verb in ("down", "up"):
            for button in words:
                daemon.post_button(ButtonPress(button, "press" if verb == "down" else "release"))
            daemon.drain()
            played(step, step.words)
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
            played(step, step.words)
        elif verb == "wait":
            _let_time_pass(kit, float(words[0]))
            played(step, step.words)
        elif verb == "console":
            print(json.dumps(daemon.ask_console_on_loop(" ".join(words)), ensure_ascii=False), flush=True)
            daemon.drain()
            played(step, step.words)
        elif verb == "expect":
            daemon.drain()
            _check_view(kit, number, words)
