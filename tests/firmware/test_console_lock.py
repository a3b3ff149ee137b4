"""The café console: locked at start, unlocked on the kit or with the PIN, confirmations on the kit.

The protocol and a LabUi share one game session here, wired as ``build_kit`` wires them, so each
test sees both what the console answers and what the screen shows.
"""

from __future__ import annotations

import json

import pytest

from engine import Game, parse_question
from firmware.console import HISTORY_PAGE, ConsoleProtocol, ShelfReading
from firmware.screens.views import ConfirmView, HoldView, MessageView, RevealIngredientView
from firmware.screens.text import Msg, msg
from firmware.session import GameOptions
from tests.firmware.ui.helpers import Table
from tests.reliability.helpers import ALCHEMICAL_WORD

PIN = "cafe-4711"


class Kit:
    """A LabUi table and a console protocol on one session, events passed as the daemon does."""

    def __init__(self, pin: str = "") -> None:
        self.table = Table()
        self.notices: list[dict[str, object]] = []
        self.console = ConsoleProtocol(self.table.session, lambda: ShelfReading("empty"),
                                       pin=pin, send_notice=self.notices.append)
        context = self.table.context
        context.console_state = self.console.gate.state
        context.unlock_console = self.console.gate.unlock_on_kit
        context.lock_console = self.console.gate.lock

    def ask(self, line: str) -> dict[str, object]:
        reply = self.console.handle(line)
        self.deliver()
        return reply

    def deliver(self) -> None:
        for event in self.console.gate.take_events():
            self.table.ui.on_console(event, self.table.now)

    def press(self, *buttons: str) -> object:
        view = self.table.press(*buttons)
        self.deliver()
        return self.table.view if view is not None else view

    def screen(self) -> object:
        return self.table.view

    def start_game(self, code: str = "DEMO") -> Game:
        return self.table.session.restore(code)

    def open_settings(self) -> None:
        """Settings: on the home menu without a game, in the game submenu during one."""
        if "menu.settings" not in self.table.items():
            self.table.choose("menu.game")
        self.table.choose("menu.settings")

    def hold_unlock(self) -> None:
        """Settings, the Console line, hold ok and back for 3 s."""
        self.table.ui.home()
        self.open_settings()
        for _ in range(5):
            self.table.press("down")
        self.table.button("ok", "press")
        assert isinstance(self.screen(), HoldView) and self.screen().title == "hold.console_title"
        self.table.button("back", "press")
        for _ in range(31):
            self.table.tick(0.1)
        self.table.button("ok", "release")
        self.table.button("back", "release")


def text_of(view: object) -> object:
    text = getattr(view, "text", None)
    return text.id if isinstance(text, Msg) else text


def error_kind(reply: dict[str, object]) -> object:
    error = reply.get("error")
    return error.get("kind") if isinstance(error, dict) else None


def test_locked_console_answers_help_public_history_and_status_without_the_code() -> None:
    kit = Kit(pin=PIN)
    game = kit.start_game()
    kit.table.session.ask(parse_question(["mix", "fern", "toad"]))  # asked with the buttons
    assert "commands" in kit.ask("help")
    status = kit.ask("status")
    assert "code" not in status and status["console"] == "locked" and status["questions"] == 1
    assert kit.ask("history") == {"history": kit.table.session.history()}
    assert game.code not in json.dumps([status, kit.ask("history")])


@pytest.mark.parametrize("line", ["mix fern toad", "debunk fern R", "golem test fern", "library fern",
                                  "golem animate fern toad", "sell R+ fern toad", "exhibit R+ fern toad",
                                  "scan", "mix", "new", "restore DEMO", "reveal", "reveal confirm"])
def test_locked_console_refuses_every_question_and_change(line: str) -> None:
    kit = Kit(pin=PIN)
    game = kit.start_game()
    reply = kit.ask(line)
    assert error_kind(reply) == "locked" and repr(line.split()[0]) in str(reply)
    assert kit.table.session.game is game and game.log == [] and kit.console.gate.pending is None


def test_the_screen_says_console_connected_at_the_first_line() -> None:
    kit = Kit()
    kit.ask("help")
    assert isinstance(kit.screen(), MessageView) and text_of(kit.screen()) == "console.connected"
    kit.press("ok")
    kit.ask("help")
    assert text_of(kit.screen()) != "console.connected"  # once per session, not per line


def test_a_hold_on_the_console_line_unlocks_for_the_game_in_progress_and_a_new_game_relocks() -> None:
    kit = Kit()
    kit.start_game()
    kit.hold_unlock()
    assert text_of(kit.screen()) == "console.unlocked_notice"
    assert kit.ask("mix mushroom toad") == {"potion": "R+"}
    assert kit.screen().text == msg("console.asked", count=1)  # type: ignore[attr-defined]
    kit.ask("debunk fern R")
    assert kit.screen().text == msg("console.asked", count=2)  # type: ignore[attr-defined]
    kit.table.session.new_game(kit.table.context.default_options)  # the buttons start a new game
    assert error_kind(kit.ask("mix mushroom toad")) == "locked"
    assert "code" not in kit.ask("status")  # a kit unlock never hands out the code


def test_a_short_press_does_not_unlock() -> None:
    kit = Kit()
    kit.start_game()
    kit.open_settings()
    for _ in range(5):
        kit.table.press("down")
    kit.table.button("ok", "press")
    kit.table.button("back", "press")
    kit.table.tick(1.0)
    kit.table.button("back", "release")
    kit.table.tick(3.0)
    assert kit.console.gate.state() == "locked"


def test_new_restore_and_reveal_wait_for_the_kit_without_the_pin() -> None:
    kit = Kit()
    old = kit.start_game()
    kit.hold_unlock()
    kit.press("ok")
    reply = kit.ask("new golem")
    assert reply["waiting"] == "kit" and "confirmation on the kit" in str(reply["message"])
    assert kit.table.session.game is old
    assert isinstance(kit.screen(), ConfirmView) and kit.screen().question == "console.asks_new"
    assert error_kind(kit.ask("reveal")) == "waiting"  # one request at a time
    kit.press("back")  # refused on the kit
    assert kit.table.session.game is old
    assert kit.notices[-1] == {"notice": {"console": "new", "confirmed": False}}
    kit.ask("new golem")
    kit.press("ok")  # confirmed on the kit
    new = kit.table.session.game
    assert new is not old and new is not None and new.is_golem_game
    assert kit.notices[-1] == {"notice": {"console": "new", "confirmed": True}}  # never the code
    assert new.code not in json.dumps(kit.notices)
    assert text_of(kit.screen()) == "console.new_game"
    assert error_kind(kit.ask("mix fern toad")) == "locked"  # the new game relocked the console


def test_a_reveal_confirmed_on_the_kit_goes_to_the_screen_and_the_console() -> None:
    kit = Kit()
    kit.start_game()
    kit.hold_unlock()
    kit.press("ok")
    assert kit.ask("reveal confirm")["waiting"] == "kit"
    kit.press("ok")
    assert isinstance(kit.screen(), RevealIngredientView)
    assert kit.notices[-1]["notice"]["ingredients"]["mushroom"] == "Ppn"  # type: ignore[index]


def test_the_pin_unlocks_runs_changes_at_once_and_follows_its_own_new_game() -> None:
    kit = Kit(pin=PIN)
    assert kit.ask(f"unlock {PIN}") == {"console": "unlocked"}
    assert text_of(kit.screen()) == "console.unlocked_pin"
    code = kit.ask("new")["code"]
    assert kit.table.session.game is not None and kit.table.session.game.code == code
    assert text_of(kit.screen()) == "console.new_game"
    assert kit.ask("status")["code"] == code
    assert "potion" in kit.ask("mix fern toad")
    kit.table.session.new_game(kit.table.context.default_options)  # the buttons' new game relocks
    assert error_kind(kit.ask("mix fern toad")) == "locked"
    kit.ask(f"unlock {PIN}")
    assert kit.ask("lock") == {"console": "locked"}
    assert error_kind(kit.ask("mix fern toad")) == "locked"


@pytest.mark.parametrize("pin, line, kind", [(PIN, "unlock 0000", "wrong_pin"), (PIN, "unlock", "bad_command"),
                                             ("", "unlock 0000", "no_pin"), ("", "unlock ", "bad_command")])
def test_a_wrong_or_missing_pin_unlocks_nothing(pin: str, line: str, kind: str) -> None:
    kit = Kit(pin=pin)
    kit.start_game()
    assert error_kind(kit.ask(line)) == kind
    assert kit.console.gate.state() == "locked" and error_kind(kit.ask("mix fern toad")) == "locked"


def test_ascii_spaces_and_tabs_separate_words_a_no_break_space_does_not() -> None:
    kit = Kit(pin=PIN)
    kit.ask(f"unlock\t{PIN}")
    kit.ask("restore  DEMO")
    assert kit.ask(" mix\tmushroom   toad ") == {"potion": "R+"}
    reply = kit.ask("mix\u00a0mushroom toad")
    assert error_kind(reply) == "bad_command" and "'mix\\xa0mushroom'" in reply["error"]["message"]  # type: ignore[index]
    assert len(kit.table.session.game.log) == 1  # type: ignore[union-attr]


def test_history_comes_in_pages() -> None:
    kit = Kit(pin=PIN)
    kit.ask(f"unlock {PIN}")
    kit.ask("restore DEMO")
    for _ in range(HISTORY_PAGE + 5):
        kit.ask("mix fern toad")
    first = kit.ask("history")
    assert len(first["history"]) == HISTORY_PAGE and first["next"] == HISTORY_PAGE  # type: ignore[arg-type]
    second = kit.ask(f"history {first['next']}")
    assert len(second["history"]) == 5 and second["next"] is None and second["total"] == HISTORY_PAGE + 5  # type: ignore[arg-type]
    assert error_kind(kit.ask("history -1")) == "bad_command"


def test_a_locked_console_never_shows_an_alchemical_or_the_code() -> None:
    kit = Kit(pin=PIN)
    game = kit.table.session.new_game(GameOptions(golem=True))
    replies = [kit.ask(line) for line in ("status", "history", "reveal", "reveal confirm", "new", f"restore {game.code}",
                                          "debunk fern R", "mix fern toad", "golem test fern", "library fern")]
    text = json.dumps(replies)
    assert not ALCHEMICAL_WORD.search(text) and game.code not in text
