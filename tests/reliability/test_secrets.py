"""Promise 4, the answers stay secret: whole games over the console and the buttons (golem games
included) with every log line captured at DEBUG and every console reply recorded; nothing but the
reveal itself shows an alchemical, an ingredient-to-alchemical pair, the golem's secret, and the logs
never show the game code. The state is readable by its owner only, and the console can be disabled.
The systemd sandboxing is checked by tests/systemd/test_unit.py (test_hardening,
test_devices_are_listed_groups_only, test_systemd_analyze_security_exposure_stays_low)."""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from pathlib import Path

import pytest

from firmware.script import play_script
from tests.reliability.helpers import ALCHEMICAL_WORD, REPO, TEST_PIN, DaemonProcess, Pty, make_kit, running

INGREDIENTS = ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather")
GOLEM_SECRET = re.compile(r"""['"](chest|ears)['"]\s*:\s*\{|['"]animate['"]\s*:\s*\[""")  # the reveal's golem
WALKTHROUGH = (REPO / "firmware" / "scripts" / "walkthrough.txt").read_text()


def console_game(pty: Pty, new: str) -> tuple[str, list[tuple[str, bytes]]]:
    """A whole game over the console: every kind of question, then the reveal; (code, replies)."""
    exchanges: list[tuple[str, bytes]] = []

    def ask(line: str) -> dict[str, object]:
        pty.send(line.encode() + b"\n")
        reply = pty.reply(10.0, skip_notices=False)
        assert reply is not None, line
        exchanges.append((line, pty.transcript[-1]))
        return reply

    code = str(ask(new)["code"])
    golem = len(code) == 5
    for first, second in zip(INGREDIENTS, INGREDIENTS[1:] + INGREDIENTS[:1]):
        ask(f"mix {first} {second}")
        ask(f"sell R+ {first} {second}")
        ask(f"debunk {first} G")
        ask(f"debunk {first} {second} B-")
        ask(f"exhibit B+ {first} {second}")
        ask("library offer")
        ask(f"library {first}")
        if golem:
            ask(f"golem test {first}")
            ask(f"golem animate {first} {second}")
    for line in ("status", "history", "scan", "help", "library offer", "reveal", "mix fern fern"):
        ask(line)
    reveal = ask("reveal confirm")
    assert "ingredients" in reveal
    exchanges[-1] = ("reveal confirm", b"")  # the reveal itself is the one place the answers show
    assert ALCHEMICAL_WORD.search(json.dumps(reveal)), "the reveal should show the answers"
    ask("history")
    return code, exchanges


def leaks(text: str, codes: list[str]) -> list[str]:
    found = [match.group(0) for match in ALCHEMICAL_WORD.finditer(text)]
    found += [match.group(0) for match in GOLEM_SECRET.finditer(text)]
    found += [code for code in codes if re.search(rf"\b{re.escape(code)}\b", text)]
    return found


def test_no_log_line_and_no_console_reply_but_the_reveal_shows_an_answer(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    pty = Pty()
    kit = make_kit(tmp_path / "state", **{"console.url": pty.path, "log.level": "debug"})
    codes: list[str] = []
    exchanges: list[tuple[str, bytes]] = []
    try:
        with running(kit):
            assert kit.console_worker.connected.wait(10)
            for new in ("new golem", "new master", "new golem master", "new alchymisti", "new"):
                code, played = console_game(pty, new)
                codes.append(code)
                exchanges += played
    finally:
        pty.close()
    buttons = make_kit(tmp_path / "state2", learned=False)  # the buttons: a new kit, every flow, the reveal
    start = buttons.session._start

    def recording_start(game) -> None:  # type: ignore[no-untyped-def]
        codes.append(game.code)
        start(game)

    buttons.session._start = recording_start  # type: ignore[method-assign]
    buttons.start()
    try:
        play_script(buttons, WALKTHROUGH)
        assert "ui: reveal" in caplog.text and len(codes) > 4
    finally:
        buttons.stop()
    assert len(exchanges) > 250
    for line, reply in exchanges:
        found = leaks(reply.decode("utf-8"), [])
        assert not found, f"the console reply to {line!r} shows {found}: {reply!r}"
    records = caplog.get_records("call")
    assert logging.getLogger("firmware").getEffectiveLevel() == logging.DEBUG  # the kit has no DEBUG lines yet
    assert any(record.name == "firmware.session" for record in records), {r.name for r in records}
    for record in records:
        text = record.getMessage() + (caplog.handler.format(record) if record.exc_info else "")
        found = leaks(text, codes)
        assert not found, f"a log line shows {found}: {record.name}: {text}"


def test_the_journal_of_the_daemon_process_keeps_the_secrets(tmp_path: Path) -> None:
    config = tmp_path / "labkit.toml"
    config.write_text(f'[log]\nlevel = "debug"\n[console]\npin = "{TEST_PIN}"\n')
    daemon = DaemonProcess(tmp_path / "state", tmp_path / "journal.log", ("--config", str(config)))
    try:
        daemon.wait_ready()
        code, exchanges = console_game(daemon.pty, "new golem")
        assert daemon.stop() == 0
    finally:
        daemon.close()
    journal = (tmp_path / "journal.log").read_text()
    assert "answered a reveal question" in journal
    found = leaks(journal, [code])
    assert not found, f"the journal shows {found}"


def test_the_state_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a permissive umask, as a shell or a careless unit would give
    try:
        state = tmp_path / "state"
        with running(make_kit(state)) as kit:
            kit.daemon.ask_console("new golem")
            kit.daemon.ask_console("mix fern toad")
            kit.context.set_tolerance(0.4)
            kit.session.store.settings.set("language", "pl")
            faces = {}
            for ingredient in INGREDIENTS:
                kit.shelf.lay([ingredient])
                faces[ingredient] = kit.context.capture_face()
            kit.context.enroll_faces(faces)
            files = sorted(state.iterdir())
            assert {"labkit.db", "labkit.db-wal", "cards.json"} <= {path.name for path in files}
            modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in [state, *files]}
    finally:
        os.umask(old)
    assert modes.pop("state") == 0o700  # nothing inside can be reached by others
    modes.pop("cards.json")  # card faces, not answers: see the test below
    wide = {name: oct(mode) for name, mode in modes.items() if mode & 0o077}
    assert not wide, f"readable by others: {wide}"


def test_enrolled_references_are_private_too(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        with running(make_kit(tmp_path / "state")) as kit:
            faces = {}
            for ingredient in INGREDIENTS:
                kit.shelf.lay([ingredient])
                faces[ingredient] = kit.context.capture_face()
            kit.context.enroll_faces(faces)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "state" / "cards.json").stat().st_mode) & 0o077 == 0


def test_a_disabled_console_opens_no_port(tmp_path: Path) -> None:
    pty = Pty()
    try:
        kit = make_kit(tmp_path / "state", **{"console.url": pty.path, "console.enabled": False})
        assert kit.console_worker is None
        with running(kit):
            pty.send(b"status\n")
            assert pty.reply(1.0) is None, "a disabled console answered"
            target = os.path.realpath(pty.path)
            opened = [fd for fd in os.listdir("/proc/self/fd")
                      if os.path.realpath(f"/proc/self/fd/{fd}") == target]
            assert len(opened) == 1, "the kit opened the console port"  # the test's own end only
    finally:
        pty.close()
