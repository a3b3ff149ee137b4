"""The console protocol: every command, shelf reads, and errors that change nothing."""

from __future__ import annotations

import pytest

from engine import decode_code
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
    return ConsoleProtocol(GameSession(MemoryStore()), shelf)


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
    code = console.handle("new golem master alchymisti")["code"]
    assert decode_code(str(code)).golem is not None
    status = console.handle("STATUS")
    assert (status["level"], status["rules"], status["golem"]) == ("master", "alchymisti", True)


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
        ("restore QBXZ", "unsupported_code", "QBXZ"),
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
