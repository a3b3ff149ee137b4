"""The kit as ``labkit run --simulate`` builds it: real parts where a desktop has them, end to end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from drivers.card_reader import placeholder_references
from engine import INGREDIENT_IDS as INGREDIENTS
from firmware.config import load_config
from firmware.runtime import Kit, RunOptions, build_kit
from firmware.script import play_script
from firmware.store import GameStore
from tests.reliability.helpers import learn_the_simulated_shelf


def make_kit(state: Path, learned: bool = True, **overrides: object) -> Kit:
    config = load_config(None, {"storage.state_dir": str(state), "console.pin": "4711", **overrides})
    built = build_kit(config, RunOptions(simulate=True, headless=True), state)
    if learned:
        learn_the_simulated_shelf(built)
    built.daemon.protocol.handle("unlock 4711")  # the lock itself: test_console_lock.py
    built.daemon.protocol.gate.take_events()  # its notice on the screen is not what these tests check
    return built


@pytest.fixture
def kit(tmp_path: Path) -> Iterator[Kit]:
    built = make_kit(tmp_path / "state")
    built.start()
    yield built
    built.stop()


def test_the_simulator_uses_replay_camera_dummy_display_and_script_buttons(kit: Kit) -> None:
    assert type(kit.parts.camera).__name__ == "ReplayCamera"
    assert kit.parts.display.size == (128, 64)
    assert type(kit.parts.buttons).__name__ == "QueueButtons"
    assert type(kit.daemon.ui).__name__ == "LabUi"


def test_a_game_resumes_after_a_restart_in_the_middle(tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = make_kit(state)
    first.start()
    try:
        play_script(first, """
            console restore DEMO
            press ok
            shelf mushroom toad
            press ok
            expect PotionView potion=R+
            press ok
        """)
        history = first.session.history()
    finally:
        first.stop()
    second = make_kit(state)
    second.start()
    try:
        assert second.session.status()["code"] == "DEMO"
        assert second.session.history() == history and history[0]["potion"] == "R+"
        play_script(second, "expect MenuView")
    finally:
        second.stop()


def test_cards_are_enrolled_from_the_shelf_and_used_after_a_restart(kit: Kit, tmp_path: Path) -> None:
    faces = {}
    for ingredient in INGREDIENTS:
        kit.shelf.lay([ingredient])
        face = kit.context.capture_face()
        assert isinstance(face, np.ndarray) and face.ndim == 3
        faces[ingredient] = face
    kit.shelf.lay(["fern", "toad"])
    assert kit.context.capture_face() is None  # two cards: not a calibration photo
    kit.context.enroll_faces(faces)
    saved = tmp_path / "state" / "cards.json"
    assert saved.exists()
    assert kit.camera_worker.read_now().ingredients == ("fern", "toad")  # read with the new reader
    assert kit.camera_worker.reader.references is not placeholder_references()
    kit.stop()
    again = make_kit(tmp_path / "state")
    try:
        enrolled = again.camera_worker.reader.references
        assert set(enrolled.ingredients) == set(INGREDIENTS)
        assert enrolled.to_json() == kit.camera_worker.reader.references.to_json()
    finally:
        again.session.store.close()


def test_an_enrolled_back_is_kept_and_read_with(kit: Kit, tmp_path: Path) -> None:
    from drivers.card_reader.designs import make_design

    faces = {}
    for ingredient in INGREDIENTS:
        kit.shelf.lay([ingredient])
        faces[ingredient] = kit.context.capture_face()
    back = make_design("tarot").back
    kit.context.enroll_faces(faces, back)
    kit.shelf.lay(["fern", "toad"])
    assert kit.camera_worker.read_now().ingredients == ("fern", "toad")  # read with the new reader
    assert kit.camera_worker.reader.references.back is not None
    kit.stop()
    again = make_kit(tmp_path / "state")
    try:
        assert again.camera_worker.reader.references.back is not None
    finally:
        again.session.store.close()


def test_a_back_captured_face_up_or_blank_is_told_apart_from_a_real_back(kit: Kit) -> None:
    from drivers.card_reader.designs import make_design

    faces = {}
    for ingredient in INGREDIENTS:
        kit.shelf.lay([ingredient])
        faces[ingredient] = kit.context.capture_face()
    kit.shelf.lay(["scorpion"])                   # the back's step, the card laid face up
    assert kit.context.back_problem(kit.context.capture_face(), faces) == "face_up"
    assert kit.context.back_problem(np.full_like(faces["fern"], 128), faces) == "blank"
    assert kit.context.back_problem(make_design("tarot").back, faces) is None


def test_a_damaged_reference_file_falls_back_to_the_placeholders_and_says_so(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("card references unusable")
    bad = tmp_path / "cards.json"
    bad.write_text("{not json")
    built = make_kit(tmp_path / "state", **{"reader.references": str(bad)})
    try:
        built.daemon.drain()
        assert built.camera_worker.reader.references.ingredients == INGREDIENTS
        shown = built.daemon.ui.view()
        assert "card references unusable" in shown.text.text  # type: ignore[attr-defined]
    finally:
        built.session.store.close()


def test_the_console_answers_through_the_running_daemon(kit: Kit) -> None:
    stop = threading.Event()
    loop = threading.Thread(target=kit.daemon.run, args=(stop,))
    loop.start()
    try:
        assert kit.daemon.ask_console("new golem")["code"]
        kit.shelf.lay(["claw"])
        reply = kit.daemon.ask_console("golem test")
        assert set(reply) == {"chest", "ears"}
    finally:
        stop.set()
        loop.join()


def test_storage_that_cannot_be_opened_keeps_the_game_in_memory(tmp_path: Path, expected_errors) -> None:
    expected_errors.expect("cannot open the state directory")
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    built = make_kit(blocker / "state")
    try:
        assert not isinstance(built.session.store, GameStore)
        assert built.session.problem is not None
        assert built.daemon.protocol.handle("restore DEMO")["code"] == "DEMO"
    finally:
        built.session.store.close()


@pytest.mark.parametrize(("options", "expected"), [
    (RunOptions(simulate=True), "STATE/labkit.log"),            # the terminal simulator: a file
    (RunOptions(simulate=True, log_file="-"), None),             # asked for stderr
    (RunOptions(simulate=True, log_file="/var/x.log"), "/var/x.log"),
    (RunOptions(simulate=True, headless=True), None),            # no picture to tear: stderr
    (RunOptions(), None),                                         # the device: the journal
    (RunOptions(log_file="/var/x.log"), "/var/x.log"),
])
def test_the_log_goes_to_a_file_when_the_terminal_shows_the_screen(
        options: RunOptions, expected: str | None) -> None:
    from firmware.runtime import log_target

    target = log_target(options, Path("STATE"))
    assert (str(target) if target else None) == expected


@pytest.mark.parametrize(("names", "problem"), [
    (("fern", "claw"), "no face for mushroom"),
    (("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather", "sage"),
     "faces that are not ingredients: sage"),
])
def test_a_reference_file_of_other_faces_falls_back_to_the_placeholders(
    tmp_path: Path, expected_errors, names: tuple[str, ...], problem: str
) -> None:
    from drivers.card_reader import enroll, load_placeholder_faces

    expected_errors.expect("card references unusable")
    faces = load_placeholder_faces()
    faces["sage"] = faces["fern"]
    path = tmp_path / "cards.json"
    enroll({name: faces[name] for name in names}).save(path)
    built = make_kit(tmp_path / "state", **{"reader.references": str(path)})
    try:
        assert built.camera_worker.reader.references.ingredients == INGREDIENTS
        built.daemon.drain()
        assert problem in built.daemon.ui.view().text.text  # type: ignore[attr-defined]
    finally:
        built.session.store.close()


def test_the_empty_shelf_is_captured_only_without_cards_and_read_with(kit: Kit) -> None:
    from drivers.card_reader.shelf import EmptyShelf

    kit.shelf.lay(["fern"])
    assert kit.context.capture_empty_shelf() == "cards"     # a card lies on it: nothing captured
    kit.shelf.clear()
    assert kit.context.capture_empty_shelf() == "captured"
    assert kit.camera_worker.read_now().status == "empty"  # a frame after the capture was applied
    assert isinstance(kit.camera_worker.reader.empty_shelf, EmptyShelf)
    kit.shelf.lay(["fern", "toad"])
    assert kit.camera_worker.read_now().ingredients == ("fern", "toad")


def test_a_kit_that_cannot_learn_its_shelf_by_itself_names_no_card_until_ok_captures_it(tmp_path: Path) -> None:
    kit = make_kit(tmp_path / "state", learned=False, **{"reader.shelf_frames": 0})   # as on a stone table
    kit.start()
    try:
        play_script(kit, """
            console restore DEMO
            press ok
            shelf mushroom toad
            expect ScanPromptView status=learn
        """)
        assert kit.daemon.ask_console_on_loop("mix")["error"]["kind"] == "shelf_unlearned"  # type: ignore[index]
        assert kit.camera_worker.read_now().status == "unlearned"
        play_script(kit, """
            press ok
            expect MessageView text=shelf.cards
            press ok
            shelf clear
            press ok
            expect ScanPromptView status=nothing
            shelf mushroom toad
            expect ScanConfirmView
        """)
        assert kit.camera_worker.reader.empty_shelf is not None    # type: ignore[attr-defined]
        assert (tmp_path / "state" / "empty_shelf.png").exists()   # kept for the next start
    finally:
        kit.stop()


def test_a_new_kit_learns_the_empty_shelf_it_sees_and_then_reads_the_cards(tmp_path: Path) -> None:
    kit = make_kit(tmp_path / "state", learned=False, **{"reader.shelf_frames": 3})
    kit.start()
    try:
        play_script(kit, """
            console restore DEMO
            press ok
            shelf clear
            expect ScanPromptView status=nothing
            shelf mushroom toad
            expect ScanConfirmView
        """)
    finally:
        kit.stop()


def test_the_kit_keeps_its_empty_shelf_from_the_frames_it_reads(tmp_path: Path) -> None:
    from drivers.card_reader.shelf import ShelfKeeper

    kept = make_kit(tmp_path / "kept", **{"reader.shelf_frames": 3})
    never = make_kit(tmp_path / "never", **{"reader.shelf_frames": 0})
    try:
        assert isinstance(kept.camera_worker.reader.shelf_keeper, ShelfKeeper)
        assert kept.camera_worker.reader.shelf_keeper.frames == 3
        assert never.camera_worker.reader.shelf_keeper is None
    finally:
        kept.session.store.close()
        never.session.store.close()


def test_the_empty_shelf_captured_is_read_with_after_a_restart(tmp_path: Path) -> None:
    from drivers.card_reader.shelf import EmptyShelf

    first = make_kit(tmp_path / "state", learned=False, **{"reader.shelf_frames": 0})
    first.start()
    try:
        assert first.camera_worker.reader.empty_shelf is None          # nothing saved yet
        first.shelf.clear()
        assert first.context.capture_empty_shelf() == "captured"
        first.camera_worker.read_now()                                 # a frame after the capture
        captured = first.camera_worker.reader.empty_shelf
        assert isinstance(captured, EmptyShelf)
    finally:
        first.stop()
    again = make_kit(tmp_path / "state", **{"reader.shelf_frames": 0})
    try:
        shelf = again.camera_worker.reader.empty_shelf
        assert isinstance(shelf, EmptyShelf) and np.array_equal(shelf.frame, captured.frame)
    finally:
        again.session.store.close()
