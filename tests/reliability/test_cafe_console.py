"""The console in a café: a curious player plugs a laptop into the kit's console port (a real pty)
while a game is in progress, touches no button, and tries everything that cheated before (issue
16): the code from ``status``, the reveal, a new game, a restore, debunks that pin down the
assignment, mix, golem, library. The console is locked: the player learns nothing of the secret,
and nothing changes — not the game, not its saved history, not the screen but "console connected".
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from engine import parse_question
from firmware.session import GameOptions
from firmware.store import DB_NAME
from firmware.ui.base import ButtonPress
from tests.reliability.helpers import ALCHEMICAL_WORD, Pty, make_kit, running, screen_text, wait_for

INGREDIENTS = ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather")
COLOURS = ("R", "G", "B")


def saved(state: Path) -> tuple[list[str], list[str]]:
    """The game and the log rows of the real database file, as stored."""
    with sqlite3.connect(f"file:{state / DB_NAME}?mode=ro", uri=True) as connection:
        games = [row[0] for row in connection.execute("SELECT data FROM game")]
        entries = [row[0] for row in connection.execute("SELECT data FROM log ORDER BY seq")]
    return games, entries


def test_a_curious_player_on_a_locked_console_learns_nothing_and_changes_nothing(tmp_path: Path) -> None:
    state = tmp_path / "state"
    pty = Pty()
    try:
        kit = make_kit(state, cafe=True, **{"console.url": pty.path, "console.pin": "staff-2468"})
        with running(kit):
            game = kit.session.new_game(GameOptions(golem=True))
            kit.session.ask(parse_question(["mix", "fern", "toad"]))  # the table's own
            before = saved(state)
            wait_for(lambda: kit.console_worker.connected.is_set(), what="the console port")
            lines = ["status", "reveal", "reveal confirm", "new", "new golem master", f"restore {game.code}",
                     "restore AAAA", "history", "scan", "mix", "mix fern toad", "library fern", "library offer",
                     "golem test fern", "golem animate fern toad", "sell R+ fern toad", "exhibit R+ fern toad",
                     "unlock 0000", "unlock", "lock"]
            lines += [f"debunk {ingredient} {colour}" for ingredient in INGREDIENTS for colour in COLOURS]
            replies = []
            for line in lines:
                reply = pty.ask(line, timeout=20)
                replies.append(reply)
            text = json.dumps(replies)
            assert not ALCHEMICAL_WORD.search(text), "an alchemical reached the console"
            assert game.code not in text, "the game code reached the console"
            private = json.dumps([reply for reply in replies if "history" not in reply])  # history: public results
            assert not any(word in private for word in ('"chest"', '"ears"', '"animate"', '"animated"', '"sign"',
                                                     '"potion"', '"class"', '"quality"', '"success"'))
            answered = [line for line, reply in zip(lines, replies)
                        if "error" not in reply and not set(reply) <= {"history", "questions", "level", "rules",
                                                                        "golem", "storage", "console"}]
            assert answered == [], f"answered while locked: {answered}"
            assert all(reply["error"]["kind"] == "locked" for line, reply in zip(lines, replies)
                       if line.split()[0] in ("reveal", "new", "restore", "mix", "debunk", "golem", "library",
                                              "sell", "exhibit", "scan"))
            status = replies[0]
            assert status["questions"] == 1 and "code" not in status and status["console"] == "locked"
            assert replies[lines.index("history")]["history"] == kit.session.history()
            wait_for(lambda: kit.daemon.events.empty(), what="the loop to settle")
            assert kit.session.game is game and len(game.log) == 1
            assert saved(state) == before, "the saved game changed"
            assert "Console connected" in screen_text(kit)  # the one thing the screen says
            kit.daemon.post_button(ButtonPress("ok", "press"))
            kit.daemon.post_button(ButtonPress("ok", "release"))
            wait_for(lambda: "Console" not in screen_text(kit), what="the notice to go")
            assert type(kit.daemon.ui.view()).__name__ == "MenuView"  # no request waits on the kit
    finally:
        pty.close()
