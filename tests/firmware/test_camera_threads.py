"""One owner for the camera's state: calibration, retuning and console scans while the camera reads.

The camera thread owns the camera, the reader, its tolerance and the shelf watcher; other threads
only send it messages. Many rounds of calibration readings, reader swaps, tolerance changes and
console scans run against a camera that changes the shelf every frame; every reading must be the
reading of the very frame it came with.
"""

from __future__ import annotations

import queue
import random
import threading
from pathlib import Path

import numpy as np
import pytest

from drivers.card_reader import CardReader, ShelfWatcher, load_placeholder_faces, placeholder_references
from drivers.card_reader.scenes import Placement, render_scene, shelf_background
from drivers.card_reader.shelf import EmptyShelf
from firmware.camera_worker import CameraWorker, Reading
from firmware.runtime import Calibration
from firmware.simulator import LAYOUTS, SHELF_SEED

SHELVES: tuple[tuple[str, ...], ...] = (("fern", "toad"), ("claw",), (), ("mushroom", "root"), ("feather",))
TOLERANCES = (0.4, 0.5, 0.6)  # each reads every scene above as laid (checked by the serial reading below)
WAIT = 20.0


def scene(cards: tuple[str, ...], faces: dict[str, np.ndarray]) -> np.ndarray:
    placements = [Placement(name, spot.center, spot.angle, spot.height)
                  for name, spot in zip(cards, LAYOUTS.get(len(cards), ()))]
    image = render_scene(faces, placements, shelf_background((640, 480), seed=SHELF_SEED), seed=len(cards))
    image.flags.writeable = False  # a reader that wrote into the camera's frame would fail here
    return image


class ChangingShelfCamera:
    """A camera whose every frame shows the next of a few shelves, as a view of that shelf's image."""

    def __init__(self, images: list[np.ndarray], seed: int) -> None:
        self.images = images
        self.rng = random.Random(seed)
        self.captures = 0

    def start(self) -> None:
        pass

    def capture(self) -> np.ndarray:
        self.captures += 1
        return self.images[self.rng.randrange(len(self.images))][:]  # a view: .base names its shelf

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def images() -> list[np.ndarray]:
    faces = load_placeholder_faces()
    return [scene(cards, faces) for cards in SHELVES]


def shelf_of(reading: Reading, images: list[np.ndarray]) -> tuple[str, ...]:
    """The cards laid in the frame this reading came with."""
    (index,) = [number for number, image in enumerate(images) if reading.frame.base is image]
    return SHELVES[index]


def check(reading: Reading, images: list[np.ndarray]) -> None:
    laid = shelf_of(reading, images)
    assert reading.shelf.status == ("ok" if laid else "empty"), (laid, reading.shelf)
    assert sorted(reading.shelf.ingredients) == sorted(laid)
    assert len(reading.cards) == len(laid)


def run_rounds(rounds: int, images: list[np.ndarray], tmp_path: Path) -> int:
    for tolerance in TOLERANCES:  # the premise: each tolerance reads each shelf as laid
        reader = CardReader(placeholder_references(), tolerance=tolerance)
        reader.empty_shelf = EmptyShelf(images[SHELVES.index(())])
        for image, laid in zip(images, SHELVES):
            assert sorted(reader.identify(image).ingredients) == sorted(laid)
    shelf_events: queue.SimpleQueue[object] = queue.SimpleQueue()
    faults: list[tuple[str, str | None]] = []
    camera = ChangingShelfCamera(images, seed=rounds)
    readers = [CardReader(placeholder_references()), CardReader(placeholder_references())]
    readers[0].empty_shelf = EmptyShelf(images[SHELVES.index(())])  # learned (a new reader keeps it)
    worker = CameraWorker(camera, readers[0], ShelfWatcher(2), shelf_events.put,
                          lambda part, message: faults.append((part, message)), frame_interval=0.0)
    calibration = Calibration(worker, tmp_path / "cards.json")
    checked = [0]
    failures: list[BaseException] = []
    lock = threading.Lock()

    def checked_reading(reading: Reading) -> None:
        check(reading, images)
        with lock:
            checked[0] += 1

    def calibrate() -> None:  # the settings menu's capture, as the loop asks it
        for _ in range(rounds):
            checked_reading(worker.wait_reading(WAIT))
            face = calibration.capture_face()
            assert face is None or (isinstance(face, np.ndarray) and face.ndim == 3)

    def retune() -> None:  # the settings menu's tolerance, and a new reader after enrolment
        rng = random.Random(7)
        for number in range(rounds):
            worker.set_tolerance(rng.choice(TOLERANCES))
            worker.use_reader(readers[number % 2])
            worker.want_cards(number % 3)

    def scan() -> None:  # console lines that read the shelf: answered on the camera thread
        for _ in range(rounds):
            answers: queue.SimpleQueue[Reading] = queue.SimpleQueue()
            for _ in range(3):
                worker.request_reading(answers.put)
            for _ in range(3):
                checked_reading(answers.get(timeout=WAIT))

    def guarded(work: object) -> None:
        try:
            work()  # type: ignore[operator]
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    worker.start()
    try:
        threads = [threading.Thread(target=guarded, args=(work,)) for work in (calibrate, retune, scan)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=WAIT * rounds)
        assert not any(thread.is_alive() for thread in threads), "a thread hangs"
    finally:
        worker.stop()
    if failures:
        raise failures[0]
    assert faults == []
    assert checked[0] == 4 * rounds
    return checked[0]


def test_calibration_retuning_and_scans_while_the_camera_reads(images: list[np.ndarray], tmp_path: Path) -> None:
    run_rounds(20, images, tmp_path)


@pytest.mark.slow
def test_a_thousand_rounds_of_calibration_retuning_and_scans(images: list[np.ndarray], tmp_path: Path) -> None:
    run_rounds(1000, images, tmp_path)
