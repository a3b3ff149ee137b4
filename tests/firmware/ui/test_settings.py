"""Settings: language, level, tolerance, brightness persist in the store; enrolment of the cards."""

from __future__ import annotations

from firmware.screens.text import Raw
from firmware.screens.views import CalibrationBackView, CalibrationView, MenuView, MessageView, SettingsView
from firmware.session import GameSession
from firmware.store import MemoryStore, StorageError
from firmware.ui.base import UiContext
from firmware.ui.app import LabUi
from firmware.session import GameOptions
from tests.firmware.ui.helpers import Table

ALL_LANGUAGES = ("en", "ru", "pl", "sk")


def values(table: Table) -> list[object]:
    view = table.view
    assert isinstance(view, SettingsView)
    return [item.value for item in view.items]


def test_settings_list_and_values() -> None:
    table = Table()
    view = table.choose("menu.settings")
    assert isinstance(view, SettingsView)
    assert [item.label for item in view.items] == ["settings.language", "settings.level",
                                                   "settings.tolerance", "settings.brightness",
                                                   "settings.calibrate", "settings.console",
                                                   "settings.shelf"]
    assert values(table)[:4] == [Raw("English"), "level.apprentice", Raw("50%"), Raw("100%")]
    table.renders(ALL_LANGUAGES)
    assert isinstance(table.press("back"), MenuView)


def test_language_cycles_and_persists() -> None:
    store = MemoryStore()
    table = Table(store=store)
    table.choose("menu.settings")
    for expected in ("ru", "pl", "sk"):
        table.press("ok")
        assert table.ui.language() == expected
        table.renders((expected,))
    assert store.settings.get("language") == "sk"
    assert Table(store=store).ui.language() == "sk"
    table.press("ok")
    assert table.ui.language() == "en"


def test_level_tolerance_brightness_persist_and_apply() -> None:
    store = MemoryStore()
    table = Table(store=store)
    table.choose("menu.settings")
    table.choose("settings.level")
    table.choose("settings.tolerance")
    table.choose("settings.brightness")
    assert store.settings.get("level") == "master"
    assert store.settings.get("tolerance") == 0.65
    assert table.daemon.tolerances == [0.65]
    assert store.settings.get("brightness") == 32
    assert table.ui.brightness() == 32
    assert values(table)[1:4] == ["level.master", Raw("65%"), Raw("13%")]
    again = Table(store=store)
    assert again.ui.brightness() == 32
    assert again.daemon.tolerances == [0.65]  # the stored tolerance goes to the reader


def test_a_stored_tolerance_goes_to_the_reader_at_start() -> None:
    store = MemoryStore(settings={"tolerance": 0.8})
    seen: list[float] = []
    context = UiContext(GameSession(store), GameOptions(), set_tolerance=seen.append)
    LabUi(context)
    assert seen == [0.8]


def test_level_setting_is_the_default_of_the_next_new_game() -> None:
    table = Table()
    table.choose("menu.settings")
    table.choose("settings.level")
    table.press("back")
    table.choose("menu.new_game")
    assert table.view.items[1].value == "level.master"  # type: ignore[attr-defined]


def test_a_refusing_disk_keeps_the_setting_for_now_and_says_so() -> None:
    class Refusing(MemoryStore):
        def __init__(self) -> None:
            super().__init__()

            class Settings(type(self.settings)):  # type: ignore[misc]
                def _persist(self, key: str, text: str | None) -> None:
                    raise StorageError("disk full")

            self.settings = Settings()

    table = Table(store=Refusing())
    table.choose("menu.settings")
    view = table.press("ok")
    assert view == MessageView("error.storage_full", title="info.title", error=False)
    table.press("ok")
    assert isinstance(table.view, SettingsView)


def test_card_enrolment_checks_each_card_and_enrols_them() -> None:
    table = Table()
    table.daemon.faces = ["f0", None, "f1"] + [f"f{k}" for k in range(2, 8)]
    table.choose("menu.settings")
    view = table.choose("settings.calibrate")
    assert view == CalibrationView("fern", "lay", 1, 9)
    assert table.ui.cards_wanted() == 1
    table.renders(ALL_LANGUAGES)
    assert table.press("ok") == CalibrationView("fern", "ok", 1, 9)
    table.renders(ALL_LANGUAGES)
    assert table.press("ok") == CalibrationView("claw", "lay", 2, 9)
    assert table.press("ok") == CalibrationView("claw", "fail", 2, 9)
    table.renders(ALL_LANGUAGES)
    assert table.press("back") == CalibrationView("claw", "lay", 2, 9)
    assert table.press("ok") == CalibrationView("claw", "ok", 2, 9)
    table.press("ok")
    for _ in range(3, 8):
        table.press("ok", "ok")
    assert table.view == CalibrationView("feather", "lay", 8, 9)
    table.daemon.faces = ["f7", "the back"]
    table.press("ok")
    assert table.press("ok") == CalibrationBackView("lay", 9, 9)
    assert table.ui.cards_wanted() == 1
    table.renders(ALL_LANGUAGES)
    assert table.press("ok") == CalibrationBackView("ok", 9, 9)
    table.renders(ALL_LANGUAGES)
    view = table.press("ok")
    assert isinstance(view, MessageView) and view.text == "calib.ok"
    assert table.daemon.enrolled == [{name: f"f{k}" for k, name in enumerate(
        ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather"))}]
    assert table.daemon.backs == ["the back"]
    assert isinstance(table.press("ok"), SettingsView)


def test_the_back_may_be_skipped_when_it_is_not_found() -> None:
    table = Table()
    table.daemon.faces = [f"f{k}" for k in range(8)] + [None]
    table.choose("menu.settings")
    table.choose("settings.calibrate")
    for _ in range(8):
        table.press("ok", "ok")
    assert table.view == CalibrationBackView("lay", 9, 9)
    assert table.press("ok") == CalibrationBackView("fail", 9, 9)
    table.renders(ALL_LANGUAGES)
    view = table.press("back")
    assert isinstance(view, MessageView) and view.text == "calib.ok"
    assert len(table.daemon.enrolled) == 1 and table.daemon.backs == [None]


def test_a_back_captured_face_up_asks_to_turn_the_card_over() -> None:
    table = Table()
    table.daemon.faces = [f"f{k}" for k in range(8)] + ["face up", "blank", "the back"]
    table.choose("menu.settings")
    table.choose("settings.calibrate")
    for _ in range(8):
        table.press("ok", "ok")
    assert table.press("ok") == CalibrationBackView("face_up", 9, 9)
    table.renders(ALL_LANGUAGES)
    assert table.press("ok") == CalibrationBackView("fail", 9, 9)
    assert table.press("ok") == CalibrationBackView("ok", 9, 9)
    view = table.press("ok")
    assert isinstance(view, MessageView) and view.text == "calib.ok"
    assert table.daemon.backs == ["the back"]


def test_a_back_face_up_may_be_skipped() -> None:
    table = Table()
    table.daemon.faces = [f"f{k}" for k in range(8)] + ["face up"]
    table.choose("menu.settings")
    table.choose("settings.calibrate")
    for _ in range(8):
        table.press("ok", "ok")
    assert table.press("ok") == CalibrationBackView("face_up", 9, 9)
    view = table.press("back")
    assert isinstance(view, MessageView) and view.text == "calib.ok"
    assert table.daemon.backs == [None] and len(table.daemon.enrolled[0]) == 8


def test_a_back_captured_can_be_retaken() -> None:
    table = Table()
    table.daemon.faces = [f"f{k}" for k in range(8)] + ["blurred back", "sharp back"]
    table.choose("menu.settings")
    table.choose("settings.calibrate")
    for _ in range(8):
        table.press("ok", "ok")
    assert table.press("ok") == CalibrationBackView("ok", 9, 9)
    assert table.press("back") == CalibrationBackView("lay", 9, 9)
    table.press("ok", "ok")
    assert table.daemon.backs == ["sharp back"]


def test_card_enrolment_back_goes_to_the_previous_card_then_leaves() -> None:
    table = Table()
    table.choose("menu.settings")
    table.choose("settings.calibrate")
    table.press("ok", "ok")
    assert table.press("back") == CalibrationView("fern", "lay", 1, 9)
    assert isinstance(table.press("back"), SettingsView)
    assert table.daemon.enrolled == []


def test_a_failing_enrolment_is_said() -> None:
    table = Table()

    def refuse(faces: dict[str, object]) -> None:
        raise OSError("reference file not writable")

    table.context.enroll_faces = refuse
    table.choose("menu.settings")
    table.choose("settings.calibrate")
    for _ in range(18):
        table.press("ok")
    view = table.view
    assert isinstance(view, MessageView) and view.text == "calib.fail"


def test_the_empty_shelf_is_captured_from_the_settings_and_said() -> None:
    results = ["cards", "captured"]
    table = Table()
    table.context.capture_empty_shelf = lambda: results.pop(0)
    table.choose("menu.settings")
    view = table.choose("settings.shelf")
    assert view == MessageView("shelf.cards", title="settings.shelf", error=True)
    table.renders(ALL_LANGUAGES)
    assert isinstance(table.press("ok"), SettingsView)
    table.press("ok")
    assert table.view == MessageView("shelf.captured", title="settings.shelf", error=False)
    table.renders(ALL_LANGUAGES)


def test_a_failing_shelf_capture_is_said_as_no_camera() -> None:
    table = Table()

    def fail() -> str:
        raise OSError("camera gone")

    table.context.capture_empty_shelf = fail
    table.choose("menu.settings")
    assert table.choose("settings.shelf") == MessageView("shelf.no_camera", title="settings.shelf", error=True)
