"""The camera loop: real reader on simulated shelf frames; camera faults reported, retried, recovered."""

from __future__ import annotations

import queue
import time

import numpy as np
import pytest

from drivers.camera import CameraError, open_camera
from drivers.card_reader import CardReader, ShelfWatcher, placeholder_references
from drivers.card_reader.shelf import EmptyShelf, ShelfKeeper
from firmware.camera_worker import CameraWorker
from firmware.console import ShelfReading
from firmware.shelf_file import ShelfSaver, load_shelf
from firmware.simulator import SimulatedShelf, empty_shelf_frame
from firmware.ui.base import Shelf

WAIT = 10.0


@pytest.fixture(scope="module")
def reader() -> CardReader:
    """The simulator's reader with the empty shelf it learned (without it, it names no card)."""
    learned = CardReader(placeholder_references())
    learned.empty_shelf = EmptyShelf(empty_shelf_frame())
    return learned


class Events:
    def __init__(self) -> None:
        self.shelf: queue.Queue[Shelf] = queue.Queue()
        self.faults: queue.Queue[tuple[str, str | None]] = queue.Queue()

    def next_shelf(self, kind: str) -> Shelf:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            event = self.shelf.get(timeout=WAIT)
            if event.kind == kind:
                return event
        raise AssertionError(f"no {kind} shelf event")


class FlakyCamera:
    """A replay camera that can vanish (OSError), serve garbage, or come back."""

    def __init__(self) -> None:
        self.inner = open_camera("replay")
        self.gone = False
        self.garbage = False
        self.starts = 0

    def start(self) -> None:
        if self.gone:
            raise CameraError("camera: not found")
        self.starts += 1
        self.inner.start()

    def capture(self) -> np.ndarray:
        if self.gone:
            raise CameraError("camera: capture failed: device disconnected")
        if self.garbage:
            return np.zeros((3, 3), dtype=np.float64)  # type: ignore[return-value]
        return self.inner.capture()

    def show(self, frame: np.ndarray) -> None:
        self.inner.show(frame)

    def clear(self) -> None:
        self.inner.clear()

    def close(self) -> None:
        self.inner.close()


def start_worker(camera: object, reader: CardReader, events: Events, wanted: int,
                 shelf_saver: ShelfSaver | None = None) -> CameraWorker:
    worker = CameraWorker(camera, reader, ShelfWatcher(2), events.shelf.put,  # type: ignore[arg-type]
                          lambda part, message: events.faults.put((part, message)), frame_interval=0.01,
                          shelf_saver=shelf_saver)
    worker.want_cards(wanted)
    worker.start()
    return worker


def test_cards_on_the_shelf_become_a_stable_event(reader: CardReader) -> None:
    camera, events, wanted = FlakyCamera(), Events(), 2
    shelf = SimulatedShelf(camera)
    shelf.lay(["fern", "toad"])
    worker = start_worker(camera, reader, events, wanted)
    try:
        assert events.next_shelf("stable").ingredients == ("fern", "toad")
        shelf.clear()
        events.next_shelf("cleared")
        assert worker.read_now().status == "empty"
    finally:
        worker.stop()


def test_the_camera_rests_while_no_cards_are_wanted(reader: CardReader) -> None:
    camera, events, wanted = FlakyCamera(), Events(), 0
    worker = start_worker(camera, reader, events, wanted)
    try:
        time.sleep(0.2)
        assert worker.readings == 0
        SimulatedShelf(camera).lay(["root"])
        assert worker.read_now().ingredients == ("root",)  # the console can still ask
    finally:
        worker.stop()


def test_a_vanished_camera_is_reported_once_and_recovers(reader: CardReader, expected_errors) -> None:
    expected_errors.expect("camera failed")
    camera, events, wanted = FlakyCamera(), Events(), 2
    SimulatedShelf(camera).lay(["claw", "flower"])
    worker = start_worker(camera, reader, events, wanted)
    try:
        events.next_shelf("stable")
        camera.gone = True
        part, message = events.faults.get(timeout=WAIT)
        assert part == "camera" and message is not None and "disconnected" in message
        assert worker.read_now(timeout=0.5).status == "no_camera"
        time.sleep(0.6)
        assert events.faults.empty()  # no report on every retry
        camera.gone = False
        assert events.faults.get(timeout=WAIT) == ("camera", None)
        assert camera.starts >= 2
    finally:
        worker.stop()


def test_garbage_frames_read_unsure_and_the_loop_goes_on(reader: CardReader) -> None:
    camera, events, wanted = FlakyCamera(), Events(), 2
    camera.garbage = True
    worker = start_worker(camera, reader, events, wanted)
    try:
        events.next_shelf("unsure")
        camera.garbage = False
        SimulatedShelf(camera).lay(["mushroom", "scorpion"])
        assert events.next_shelf("stable").ingredients == ("mushroom", "scorpion")
    finally:
        worker.stop()


def test_a_new_scan_announces_cards_that_never_left(reader: CardReader) -> None:
    camera, events, wanted = FlakyCamera(), Events(), 2
    SimulatedShelf(camera).lay(["fern", "feather"])
    worker = start_worker(camera, reader, events, wanted)
    try:
        events.next_shelf("stable")
        worker.want_cards(0)
        time.sleep(0.1)
        worker.want_cards(2)
        assert events.next_shelf("stable").ingredients == ("feather", "fern")
    finally:
        worker.stop()


def test_a_card_face_down_is_told_apart_from_cards_to_adjust() -> None:
    from drivers.card_reader import enroll
    from drivers.card_reader.designs import design_scene, make_design

    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    for seed in range(7_300_000, 7_300_040):
        scene = design_scene(design, seed, kind="face_down")
        reader.empty_shelf = EmptyShelf(scene.empty_shelf())
        if reader.identify(scene.image).face_down:
            frame = scene.image
            break
    camera, events = FlakyCamera(), Events()
    camera.show(frame)
    worker = start_worker(camera, reader, events, 2)
    try:
        assert events.next_shelf("live").status == "face_down"
        assert events.next_shelf("unsure").status == "face_down"
    finally:
        worker.stop()


def test_a_new_reader_reads_with_the_empty_shelf_and_keeper_of_the_old() -> None:
    camera, events = FlakyCamera(), Events()
    shelf = SimulatedShelf(camera)
    shelf.clear()
    first, second = CardReader(placeholder_references()), CardReader(placeholder_references())
    first.shelf_keeper = ShelfKeeper(50)
    worker = start_worker(camera, first, events, 0)
    try:
        frame = worker.capture_frame()
        worker.use_empty_shelf(frame)
        worker.use_reader(second)
        assert worker.read_now().status == "empty"     # both messages applied before this frame
        assert worker.reader is second
        assert isinstance(second.empty_shelf, EmptyShelf) and second.empty_shelf is first.empty_shelf
        assert second.shelf_keeper is first.shelf_keeper
    finally:
        worker.stop()


def test_the_shelf_the_keeper_captures_is_saved_by_the_camera_thread(tmp_path) -> None:
    camera, events = FlakyCamera(), Events()
    SimulatedShelf(camera).clear()
    reader = CardReader(placeholder_references())
    reader.shelf_keeper = ShelfKeeper(3)                  # captured on the third frame, once
    path = tmp_path / "empty_shelf.png"
    worker = start_worker(camera, reader, events, 0, ShelfSaver(path))
    try:
        for _ in range(3):
            worker.read_now()
        assert worker.read_now().status == "empty"          # the fourth starts a new run
    finally:
        worker.stop()
    saved = load_shelf(path)
    assert reader.empty_shelf is not None and saved is not None
    assert np.array_equal(saved.frame, reader.empty_shelf.frame)


def test_without_its_empty_shelf_the_reader_names_no_card_until_the_shelf_is_captured() -> None:
    camera, events = FlakyCamera(), Events()
    shelf = SimulatedShelf(camera)
    shelf.lay(["fern", "toad"])
    reader = CardReader(placeholder_references())              # no shelf, no keeper
    worker = start_worker(camera, reader, events, 2)
    try:
        assert events.next_shelf("live").status == "unlearned"
        assert worker.read_now() == ShelfReading("unlearned")
        shelf.clear()
        assert worker.read_now() == ShelfReading("unlearned")  # read empty, but no keeper learns it
        posted = [events.shelf.get_nowait() for _ in range(events.shelf.qsize())]
        assert posted and {(event.kind, event.status) for event in posted} == {("live", "unlearned")}
        worker.use_empty_shelf(worker.capture_frame())
        shelf.lay(["fern", "toad"])
        assert events.next_shelf("stable").ingredients == ("fern", "toad")
    finally:
        worker.stop()


def test_the_empty_shelf_its_keeper_sees_reads_learning_until_captured() -> None:
    camera, events = FlakyCamera(), Events()
    SimulatedShelf(camera).clear()
    reader = CardReader(placeholder_references())
    reader.shelf_keeper = ShelfKeeper(3)
    worker = start_worker(camera, reader, events, 2)
    try:
        assert [events.next_shelf("live").status for _ in range(2)] == ["learning", "learning"]
        assert events.next_shelf("live").status == "empty"       # the third frame: captured, read with it
        assert reader.empty_shelf is not None
    finally:
        worker.stop()


def test_an_empty_shelf_of_another_camera_mode_is_no_shelf_until_one_of_this_mode_is_captured() -> None:
    import cv2

    camera, events = FlakyCamera(), Events()
    SimulatedShelf(camera).lay(["claw"])
    reader = CardReader(placeholder_references())
    reader.empty_shelf = EmptyShelf(cv2.resize(empty_shelf_frame(), (1280, 960)))  # saved at 1280x960
    worker = start_worker(camera, reader, events, 1)
    try:
        assert events.next_shelf("live").status == "unlearned"
        assert worker.read_now() == ShelfReading("unlearned")
        SimulatedShelf(camera).clear()
        worker.use_empty_shelf(worker.capture_frame())
        SimulatedShelf(camera).lay(["claw"])
        assert events.next_shelf("stable").ingredients == ("claw",)
    finally:
        worker.stop()
