"""The console protocol: every command, shelf reads, and errors that change nothing."""

from __future__ import annotations

import pytest

from engine import Game, decode_code
from firmware.console import ConsoleProtocol, ShelfReading
from firmware.session import GameSession
from firmware.store import MemoryStore


class Shelf:
    def __init__(self) -> None:
        self.reading = ShelfReading("empty")

    def __call__(self) -> ShelfReading:
        return self.reading


@pytest.fixture
def shelf() -> Shelf:
    return Shelf()


@pytest.fixture
def console(shelf: Shelf) -> ConsoleProtocol:
    """A console unlocked with the PIN, as staff and scripts use it (the lock: test_console_lock.py)."""
    protocol = ConsoleProtocol(GameSession(MemoryStore()), shelf, pin="4711")
    assert protocol.handle("unlock 4711") == {"console": "unlocked"}
    return protocol


def test_a_whole_game_over_the_console(console: ConsoleProtocol, shelf: Shelf) -> None:
    assert console.handle("restore DEMO") == {"code": "DEMO", "golem": False}
    assert console.handle("status")["code"] == "DEMO"
    assert console.handle("mix mushroom toad") == {"potion": "R+"}
    shelf.reading = ShelfReading("ok", ("mushroom", "toad"))
    assert console.handle("mix") == {"potion": "R+"}
    assert console.handle("sell R+") == {"quality": "exact"}
    assert console.handle("exhibit B-") == {"success": False}
    assert console.handle("scan") == {"status": "ok", "ingredients": ["mushroom", "toad"]}
    assert console.handle("debunk fern R") in ({"sign": "+"}, {"sign": "-"})
    history = console.handle("history")["history"]
    assert isinstance(history, list) and len(history) == 5
    assert all("ingredients" not in entry for entry in history if entry["ask"] != "debunk")
    reveal = console.handle("reveal confirm")
    assert reveal["ingredients"]["mushroom"] == "Ppn"  # type: ignore[index]


def test_new_with_options(console: ConsoleProtocol) -> None:
    code = console.handle("new golem master")["code"]
    assert decode_code(str(code)).golem is not None
    status = console.handle("STATUS")
    assert (status["level"], status["rules"], status["golem"]) == ("master", "alchemists", True)
    console.handle("new alchymisti")
    status = console.handle("status")
    assert (status["level"], status["rules"], status["golem"]) == ("apprentice", "alchymisti", False)


@pytest.mark.parametrize("line", ["new golem alchymisti", "new alchymisti golem master"])
def test_no_golem_game_under_the_alchymisti_rules(console: ConsoleProtocol, line: str) -> None:
    console.handle("restore DEMO")
    before = console.handle("status")
    error = console.handle(line)["error"]
    assert error["kind"] == "not_in_rules" and "alchymisti rules have no golem" in error["message"]  # type: ignore[index]
    assert console.handle("status") == before


def test_a_golem_code_is_restored_only_with_the_alchemists_rules(console: ConsoleProtocol) -> None:
    console.handle("new alchymisti")
    before = console.handle("status")
    code = str(Game.new(golem=True).code)
    assert console.handle(f"restore {code} alchymisti")["error"]["kind"] == "not_in_rules"  # type: ignore[index]
    assert console.handle("status") == before
    assert console.handle(f"restore {code} golem")["error"]["kind"] == "bad_command"  # type: ignore[index]
    assert console.handle(f"restore {code} master") == {"code": code, "golem": True}
    status = console.handle("status")
    assert (status["rules"], status["level"]) == ("alchemists", "master")
    console.handle("restore DEMO apprentice alchymisti")
    assert console.handle("status")["rules"] == "alchymisti"


@pytest.mark.parametrize("new, asked, refused", [
    ("new apprentice", "debunk fern R", ["debunk fern toad N", "debunk fern toad"]),
    ("new master", "debunk fern toad N", ["debunk fern R", "debunk fern toad"]),
    ("new alchymisti", "debunk fern toad", ["debunk fern R", "debunk fern toad N", "exhibit R+ fern toad",
                                             "golem test fern", "library offer", "exhibit R+"]),
])
def test_the_console_asks_only_what_the_options_allow(console: ConsoleProtocol, shelf: Shelf, new: str,
                                                      asked: str, refused: list[str]) -> None:
    console.handle(new)
    assert "error" not in console.handle(asked)
    shelf.reading = ShelfReading("no_camera")  # a refused question is refused before the shelf is read
    for line in refused:
        before = console.handle("history")
        error = console.handle(line)["error"]
        assert error["kind"] in ("not_in_rules", "not_at_level"), (line, error)  # type: ignore[index]
        option = "level" if error["kind"] == "not_at_level" else "rules"  # type: ignore[index]
        status = console.handle("status")
        assert f"{option} {status[option]}" in error["message"] or f"{status[option]} {option}" in error["message"]  # type: ignore[index]
        assert console.handle("history") == before


def test_the_library_answers_only_for_an_offered_ingredient(console: ConsoleProtocol) -> None:
    console.handle("new golem")
    assert console.handle("library fern")["error"]["kind"] == "no_library_offer"  # type: ignore[index]
    offered = console.handle("library offer")["ingredients"]
    assert isinstance(offered, list) and len(offered) == 4
    other = next(name for name in ("fern", "claw", "mushroom", "flower", "root") if name not in offered)
    error = console.handle(f"library {other}")["error"]
    assert error["kind"] == "not_offered" and other in error["message"]  # type: ignore[index]
    assert console.handle(f"library {offered[0]}")["class"] in ("sun", "moon")
    assert console.handle(f"library {offered[1]}")["error"]["kind"] == "no_library_offer"  # type: ignore[index]


@pytest.mark.parametrize("line, kind", [
    ("golem animate fern fern", "no_golem"),
    ("golem animate fern dragon", "no_golem"),
    ("golem test", "no_golem"),
    ("sell N", "neutral_potion"),
    ("exhibit N", "neutral_potion"),
    ("debunk fern toad N", "not_at_level"),
    ("debunk fern Q", "unknown_colour"),
])
def test_the_more_basic_problem_is_named_first(console: ConsoleProtocol, shelf: Shelf, line: str, kind: str) -> None:
    console.handle("new apprentice")
    shelf.reading = ShelfReading("empty")
    assert console.handle(line)["error"]["kind"] == kind  # type: ignore[index]


def test_a_question_with_no_game_says_so_before_its_words(console: ConsoleProtocol) -> None:
    assert console.handle("mix fern dragon")["error"]["kind"] == "no_game"  # type: ignore[index]
    assert console.handle("brew fern")["error"]["kind"] == "bad_command"  # type: ignore[index]


def test_golem_test_from_the_shelf(console: ConsoleProtocol, shelf: Shelf) -> None:
    console.handle("new golem")
    shelf.reading = ShelfReading("ok", ("fern",))
    assert set(console.handle("golem test")) == {"chest", "ears"}
    shelf.reading = ShelfReading("ok", ("fern", "toad"))
    assert console.handle("golem test")["error"]["kind"] == "shelf_count"  # type: ignore[index]


@pytest.mark.parametrize(
    "reading, kind",
    [(ShelfReading("empty"), "shelf_empty"), (ShelfReading("unsure"), "shelf_unsure"),
     (ShelfReading("no_camera"), "no_camera"), (ShelfReading("ok", ("fern",)), "shelf_count")],
)
def test_shelf_problems_are_errors(console: ConsoleProtocol, shelf: Shelf, reading: ShelfReading, kind: str) -> None:
    console.handle("restore DEMO")
    shelf.reading = reading
    assert console.handle("mix")["error"]["kind"] == kind  # type: ignore[index]
    assert console.handle("history") == {"history": []}


@pytest.mark.parametrize(
    "line, kind, fragment",
    [
        ("", "bad_command", "empty"),
        ("fly away", "bad_command", "unknown command 'fly'"),
        ("reveal", "bad_command", "reveal confirm"),
        ("restore", "bad_command", "restore CODE"),
        ("restore QB1Z", "invalid_code", "QB1Z"),
        ("restore ıAAA", "invalid_code", "ı"),
        ("restore ﬀAA", "invalid_code", "ﬀ"),
        ("restore ßAAA", "invalid_code", "ß"),
        ("new dragon", "bad_command", "'dragon'"),
        ("mix fern fern", "same_ingredient", "fern"),
        ("sell Q+", "unknown_potion", "Q+"),
        ("golem test fern", "no_golem", "DEMO"),
        ("\x00\xff garbage", "bad_command", "unknown command"),
    ],
)
def test_errors_change_nothing(console: ConsoleProtocol, line: str, kind: str, fragment: str) -> None:
    console.handle("restore DEMO")
    console.handle("mix fern toad")
    before = console.handle("status"), console.handle("history")
    reply = console.handle(line)
    assert reply["error"]["kind"] == kind and fragment in reply["error"]["message"]  # type: ignore[index]
    assert (console.handle("status"), console.handle("history")) == before


def test_no_game_yet(console: ConsoleProtocol) -> None:
    assert console.handle("status")["error"]["kind"] == "no_game"  # type: ignore[index]
    assert console.handle("mix fern toad")["error"]["kind"] == "no_game"  # type: ignore[index]
    assert "commands" in console.handle("help")
