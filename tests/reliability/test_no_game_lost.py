"""Promise 1, no game is lost: SIGKILL the real daemon while the console records results; a full
disk or a read-only state directory gives a clear screen message and the game goes on in memory."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.tmpfs import small_tmpfs as mount_small_tmpfs

from engine import Game, Level, Rules
from engine.commands import parse_question
from firmware.store import DB_NAME, GameStore, MemoryStore
from firmware.ui.base import ButtonPress
from tests.reliability.helpers import DaemonProcess, make_kit, running, screen_text, wait_for

INGREDIENTS = ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather")
POTIONS = ("R+", "R-", "G+", "G-", "B+", "B-")


def random_question(rng: random.Random, golem: bool, level: str) -> str:
    first, second = rng.sample(INGREDIENTS, 2)
    forms = [
        f"mix {first} {second}",
        f"sell {rng.choice(POTIONS)} {first} {second}",
        f"debunk {first} {rng.choice('RGB')}" if level == "apprentice"
        else f"debunk {first} {second} {rng.choice(POTIONS)}",
    ]
    if golem:
        forms += [f"golem test {first}", f"golem animate {first} {second}"]
    return rng.choice(forms)


def public_entry(code: str, line: str, level: str, rules: str) -> dict[str, object]:
    """The history entry (without its time) that asking ``line`` in the game of ``code`` must leave."""
    game = Game.from_code(code, Level(level), Rules(rules))
    game.ask(parse_question(line.split()))
    entry = game.log[-1].public_data()
    entry.pop("time")
    return entry


@dataclass
class Acknowledged:
    """What the console confirmed before the kill, and the one line in flight when it came."""

    code: str | None = None
    level: str = "apprentice"
    rules: str = "alchemists"
    lines: list[str] = field(default_factory=list)
    in_flight: str | None = None


def switches_game(line: str | None) -> bool:
    return line is not None and line.startswith(("new", "restore"))


def check_restarted(daemon: DaemonProcess, known: Acknowledged, round_: int) -> None:
    """The game after a restart: the acknowledged one, with a prefix of its history plus at most
    the one line in flight, each entry the answer the code gives; or, when a ``new`` was in
    flight, a fresh game with no history."""
    status = daemon.ask("status")
    history_reply = daemon.ask("history")
    assert status is not None and history_reply is not None
    if known.code is None:
        if switches_game(known.in_flight):
            if "error" in status:
                return
        else:
            assert status["error"]["kind"] == "no_game", f"round {round_}: a game appeared: {status}"
            return
    assert "error" not in status, f"round {round_}: the game was lost: {status}"
    assert status["storage"] == "disk", f"round {round_}: {status}"
    history = list(history_reply["history"])
    while history_reply.get("next") is not None:  # the history comes in pages of 50
        history_reply = daemon.ask(f"history {history_reply['next']}")
        assert history_reply is not None
        history += history_reply["history"]
    assert status["questions"] == len(history), f"round {round_}: half-written: {status} vs {history}"
    entries = [{k: v for k, v in entry.items() if k != "time"} for entry in history]
    if switches_game(known.in_flight) and entries == [] and status["code"] == known.code:
        known.lines, known.in_flight = [], None  # restored the same game: it starts again
        known.level, known.rules = status["level"], status["rules"]
        return
    if status["code"] != known.code:
        assert switches_game(known.in_flight), (
            f"round {round_}: the code changed from {known.code} to {status['code']} with no new game in flight")
        assert entries == [], f"round {round_}: a new game with history {entries}"
        known.code, known.lines, known.in_flight = status["code"], [], None
        known.level, known.rules = status["level"], status["rules"]
        return
    assert (status["level"], status["rules"]) == (known.level, known.rules), f"round {round_}: {status}"
    expected = [public_entry(known.code, line, known.level, known.rules) for line in known.lines]
    if len(entries) == len(expected) + 1 and known.in_flight and not switches_game(known.in_flight):
        expected.append(public_entry(known.code, known.in_flight, known.level, known.rules))
        known.lines.append(known.in_flight)
    assert entries == expected, (
        f"round {round_}: history is not the acknowledged prefix (+ the one in flight):\n"
        f"stored   {entries}\nexpected {expected}")
    known.in_flight = None


def kill_loop(tmp_path: Path, rounds: int, seed: int) -> dict[str, int]:
    """Run, record results over the console, SIGKILL at a random moment, restart, check; repeat."""
    rng = random.Random(seed)
    state = tmp_path / "state"
    known = Acknowledged()
    counts = {"rounds": 0, "asked": 0, "killed_in_flight": 0, "killed_at_start": 0}
    for round_ in range(rounds):
        daemon = DaemonProcess(state, tmp_path / "daemon.log")
        try:
            if rng.random() < 0.1:  # now and then, kill it while it starts and resumes
                time.sleep(rng.uniform(0.0, 0.8))
                daemon.kill()
                counts["killed_at_start"] += 1
                continue
            daemon.wait_ready()
            check_restarted(daemon, known, round_)
            if known.code is None or rng.random() < 0.15:
                known.in_flight = rng.choice(["new", "new golem", "new master", "restore DEMO"])
                reply = daemon.ask(known.in_flight)
                assert reply is not None and "code" in reply, reply
                known.code, known.lines, known.in_flight = reply["code"], [], None
                status = daemon.ask("status")
                assert status is not None
                known.level, known.rules = status["level"], status["rules"]
            golem = known.code is not None and len(known.code) == 5
            killer = threading.Timer(rng.uniform(0.0, 0.5), daemon.kill)
            killer.start()
            while daemon.process.poll() is None:
                if rng.random() < 0.05:
                    line = rng.choice(["new", "new golem", "restore DEMO"])
                else:
                    line = random_question(rng, golem, known.level)
                known.in_flight = line
                reply = daemon.ask(line)
                if reply is None:
                    counts["killed_in_flight"] += 1
                    break
                assert "error" not in reply, (line, reply)
                counts["asked"] += 1
                if line.startswith(("new", "restore")):
                    known.code, known.lines = reply["code"], []
                    known.level = "master" if "master" in line else known.level if line.startswith("restore") else "apprentice"
                    golem = len(known.code) == 5
                else:
                    known.lines.append(line)
                known.in_flight = None
            killer.join()
        finally:
            daemon.close()
        counts["rounds"] += 1
        with GameStore.open(state) as store:  # what is on disk opens clean: nothing set aside
            assert store.notice is None, f"round {round_}: {store.notice}"
    daemon = DaemonProcess(state, tmp_path / "daemon.log")
    try:
        daemon.wait_ready()
        check_restarted(daemon, known, rounds)
    finally:
        daemon.close()
    assert not list(state.glob("*.damaged-*")), "a database was set aside as damaged"
    return counts


def test_sigkill_while_recording_results_loses_nothing(tmp_path: Path) -> None:
    counts = kill_loop(tmp_path, rounds=10, seed=6)
    assert counts["asked"] > 0


@pytest.mark.slow
def test_sigkill_while_recording_results_loses_nothing_many_times(tmp_path: Path) -> None:
    counts = kill_loop(tmp_path, rounds=300, seed=66)
    print(counts)
    assert counts["killed_in_flight"] > 10


# -- a disk that refuses writes, at the level of the whole daemon ------------------------------------

@pytest.fixture
def small_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MiB tmpfs (root with mount rights only), unmounted afterwards."""
    with mount_small_tmpfs(tmp_path / "tmpfs", "1m") as mount_point:
        yield mount_point


def fill(directory: Path) -> None:
    """Write a filler file until the filesystem is full."""
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)


def play_until_memory(kit, lines: list[str]) -> list[dict[str, object]]:
    replies = [kit.daemon.ask_console(line) for line in lines]
    assert all("error" not in reply for reply in replies), replies
    return replies


STORAGE_MESSAGE = "Storage full: game kept in memory"


def test_a_full_disk_mid_game_says_so_on_the_screen_and_the_game_goes_on(small_tmpfs: Path, expected_errors) -> None:
    expected_errors.expect("storage failed")
    state = small_tmpfs / "state"
    with running(make_kit(state)) as kit:
        kit.daemon.ask_console("restore DEMO")
        before = play_until_memory(kit, ["mix mushroom toad", "debunk fern R"])
        fill(small_tmpfs)
        during = play_until_memory(kit, [f"mix fern {other}" for other in INGREDIENTS[1:]] * 3)
        status = kit.daemon.ask_console("status")
        assert status["storage"] == "memory" and status["code"] == "DEMO"
        # every reply says so from the failure on: the first that could not be recorded included
        assert not any("storage" in reply for reply in before)
        failed_at = next(i for i, reply in enumerate(during) if "storage" in reply)
        assert all(reply["storage"] == "memory" for reply in during[failed_at:])
        assert kit.daemon.ask_console("help")["storage"] == "memory"
        assert kit.daemon.ask_console("fly away")["storage"] == "memory"  # errors too
        assert status["questions"] == len(before) + len(during)
        wait_for(lambda: STORAGE_MESSAGE in screen_text(kit), what="the storage message on the screen")
        # the buttons go on too: a scan from the menu answers from memory
        assert kit.daemon.ask_console("history")["history"][0]["potion"] == "R+"
    with GameStore.open(state) as store:  # what reached the disk is an intact prefix
        stored = store.load()
        assert stored is not None and stored.game["code"] == "DEMO"
        assert 2 <= len(stored.log) <= len(before) + len(during)


def test_a_disk_turned_read_only_mid_game_says_so_and_the_game_goes_on(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("storage failed")
    with running(make_kit(tmp_path / "state")) as kit:
        kit.daemon.ask_console("restore DEMO")
        play_until_memory(kit, ["mix mushroom toad"])
        store = kit.session.store
        assert isinstance(store, GameStore) and store._conn is not None
        store._conn.execute("PRAGMA query_only = ON")  # SQLite's own SQLITE_READONLY path
        play_until_memory(kit, ["mix fern toad", "sell R+ fern claw"])
        assert isinstance(kit.session.store, MemoryStore)
        status = kit.daemon.ask_console("status")
        assert (status["storage"], status["questions"]) == ("memory", 3)
        wait_for(lambda: STORAGE_MESSAGE in screen_text(kit), what="the storage message on the screen")
        kit.daemon.post_button(ButtonPress("ok", "press"))  # the message goes, the kit is usable
        kit.daemon.post_button(ButtonPress("ok", "release"))
        wait_for(lambda: "MenuView" in screen_text(kit), what="the menu again")
        assert kit.daemon.ask_console("mix claw root").get("potion")


def test_a_state_directory_that_cannot_be_created_says_so_and_plays_in_memory(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("cannot open the state directory")
    (tmp_path / "file").write_text("not a directory")
    with running(make_kit(tmp_path / "file" / "state")) as kit:
        wait_for(lambda: STORAGE_MESSAGE in screen_text(kit), what="the storage message on the screen")
        assert kit.daemon.ask_console("restore DEMO")["code"] == "DEMO"
        assert kit.daemon.ask_console("mix mushroom toad") == {"potion": "R+", "storage": "memory"}
        assert kit.daemon.ask_console("status")["storage"] == "memory"


def test_a_read_only_state_directory_at_boot_keeps_the_saved_game_in_memory(small_tmpfs: Path, expected_errors) -> None:
    expected_errors.expect("cannot open the state directory")
    state = small_tmpfs / "state"
    with running(make_kit(state)) as kit:
        kit.daemon.ask_console("restore DEMO")
        play_until_memory(kit, ["mix mushroom toad"])
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    with running(make_kit(state)) as kit:
        wait_for(lambda: STORAGE_MESSAGE in screen_text(kit), what="the storage message on the screen")
        status = kit.daemon.ask_console("status")
        assert status.get("code") == "DEMO" and status.get("questions") == 1, status
        assert kit.daemon.ask_console("mix fern toad").get("potion")


def test_a_disk_failing_on_an_answer_given_with_the_buttons_is_said_over_the_result(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("storage failed")
    with running(make_kit(tmp_path / "state")) as kit:
        kit.daemon.ask_console("restore DEMO")
        store = kit.session.store
        assert isinstance(store, GameStore) and store._conn is not None
        store._conn.execute("PRAGMA query_only = ON")
        for button in ("ok", "ok", "ok", "ok"):  # experiment, by hand (ok on the prompt): fern and claw
            kit.daemon.post_button(ButtonPress(button, "press"))
            kit.daemon.post_button(ButtonPress(button, "release"))
        wait_for(lambda: STORAGE_MESSAGE in screen_text(kit), what="the storage message on the screen")
        kit.daemon.post_button(ButtonPress("ok", "press"))
        kit.daemon.post_button(ButtonPress("ok", "release"))
        wait_for(lambda: "PotionView" in screen_text(kit), what="the result under the message")
        status = kit.daemon.ask_console("status")
        assert (status["storage"], status["questions"]) == ("memory", 1)
