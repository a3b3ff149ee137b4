"""Idle dimming with the burn-in shift, waking, hardware faults and storage notices."""

from __future__ import annotations

from firmware.screens.views import (
    IdleView,
    IngredientPickerView,
    MenuView,
    MessageView,
    PotionView,
    SaleView,
    ScanConfirmView,
    ScanPromptView,
)
from firmware.store import MemoryStore
from tests.firmware.ui.helpers import Table

ALL_LANGUAGES = ("en", "ru", "pl", "sk")


def new_game(table: Table) -> None:
    table.choose("menu.new_game")
    table.choose("menu.start")
    table.press("ok")


def test_idle_dims_after_the_configured_time_and_shifts_every_minute() -> None:
    table = Table(idle=60.0)
    table.tick(59.0)
    assert isinstance(table.view, MenuView)
    assert table.ui.brightness() == 255
    table.tick(1.5)
    assert table.view == IdleView(0, 0)
    assert table.ui.brightness() < 255
    table.renders(ALL_LANGUAGES)
    offsets = set()
    for _ in range(10):
        table.tick(60.0)
        view = table.view
        assert isinstance(view, IdleView) and abs(view.dx) <= 8 and abs(view.dy) <= 8
        offsets.add((view.dx, view.dy))
        table.renders()
    assert len(offsets) >= 5


def test_any_button_wakes_and_that_press_is_consumed() -> None:
    table = Table(idle=30.0)
    table.tick(31.0)
    assert isinstance(table.view, IdleView)
    table.button("down", "press")
    assert table.view == MenuView("menu.title", ("menu.new_game", "menu.restore", "menu.settings"))
    table.button("down", "hold")
    table.button("down", "release")
    assert table.view.selected == 0  # type: ignore[attr-defined]
    assert table.ui.brightness() == 255
    table.press("down")
    assert table.view.selected == 1  # type: ignore[attr-defined]


def test_input_keeps_the_screen_awake() -> None:
    table = Table(idle=30.0)
    for _ in range(5):
        table.tick(20.0)
        table.press("down")
    assert isinstance(table.view, MenuView)


def test_idle_hides_a_private_screen_and_a_laid_card_wakes_it() -> None:
    table = Table(idle=30.0)
    new_game(table)
    table.choose("menu.experiment")
    table.shelf("stable", "fern", "toad")
    table.tick(31.0)
    assert isinstance(table.view, IdleView)
    assert table.ui.cards_wanted() == 2
    table.shelf("stable", "root", "toad")
    assert table.view == ScanConfirmView(("root", "toad"))


def test_a_lost_camera_offers_the_manual_choice_without_losing_the_flow() -> None:
    table = Table()
    new_game(table)
    table.choose("menu.sell")
    table.pick("G+")
    assert table.view == ScanPromptView(2, "nothing")
    table.fault("camera", "camera unplugged")
    assert table.view == MessageView("error.camera_missing")
    assert table.ui.cards_wanted() == 0
    view = table.press("ok")
    assert isinstance(view, IngredientPickerView)
    table.pick("fern", "claw")
    assert isinstance(table.view, SaleView)
    assert table.session.history()[-1]["ask"] == "sell"
    # while the camera is out, new flows start with the manual choice
    table.press("ok")
    assert isinstance(table.choose("menu.experiment"), IngredientPickerView)
    table.press("back")
    table.fault("camera", None)
    assert table.choose("menu.experiment") == ScanPromptView(2, "nothing")
    assert table.ui.cards_wanted() == 2


def test_a_repeated_camera_fault_is_said_once() -> None:
    table = Table()
    table.fault("camera", "gone")
    table.fault("camera", "still gone")
    assert table.press("ok") == table.ui.home_menu.view()


def test_a_storage_fault_is_shown_over_the_flow() -> None:
    table = Table()
    new_game(table)
    table.choose("menu.experiment")
    table.shelf("stable", "fern", "toad")
    table.fault("storage", "disk full")
    assert table.view == MessageView("error.storage_full", title="info.title", error=False)
    table.renders(ALL_LANGUAGES)
    table.fault("storage", "disk still full")
    assert table.press("ok") == ScanConfirmView(("fern", "toad"))
    assert isinstance(table.press("ok"), PotionView)


def test_other_faults_do_not_disturb() -> None:
    table = Table()
    table.fault("display", "i2c error")
    table.fault("console", "serial gone")
    table.fault("display", None)
    assert isinstance(table.view, MenuView)


def test_the_session_problem_is_shown_once_at_start() -> None:
    store = MemoryStore(notice="storage failed: disk full; the game goes on in memory")
    table = Table(store=store)
    assert table.view == MessageView("error.storage_full", title="info.title", error=False)
    assert isinstance(table.press("ok"), MenuView)
    table.choose("menu.settings")
    table.press("back")
    assert isinstance(table.view, MenuView)


def test_an_unreadable_saved_game_is_said(expected_errors: object) -> None:
    expected_errors.expect("saved game cannot be read")  # type: ignore[attr-defined]
    store = MemoryStore(game={"schema": 9, "code": "AAAA"})
    table = Table(store=store)
    view = table.view
    assert isinstance(view, MessageView) and view.title == "info.title"
    table.renders(ALL_LANGUAGES)
    assert isinstance(table.press("ok"), MenuView)


def test_the_saved_game_is_resumed() -> None:
    first = Table()
    new_game(first)
    code = first.session.game.code  # type: ignore[union-attr]
    second = Table(store=first.store)
    assert second.session.game is not None and second.session.game.code == code
    assert "menu.experiment" in second.items()


def test_back_held_goes_home_from_deep_in_a_flow() -> None:
    table = Table()
    new_game(table)
    table.choose("menu.sell")
    table.pick("R-")
    table.button("back", "press")
    table.button("back", "hold")
    table.button("back", "release")
    assert isinstance(table.view, MenuView)


def test_unknown_buttons_and_kinds_are_ignored() -> None:
    table = Table()
    table.button("left", "press")
    table.button("ok", "stuck")
    table.shelf("weird")
    assert isinstance(table.view, MenuView)
