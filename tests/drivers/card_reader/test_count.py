"""Counting apart from naming: a card in view that no named card accounts for makes the frame unsure."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from drivers.card_reader import SHIPPED_FACE_NAMES, CardReader, enroll
from drivers.card_reader.count import SETTINGS, CountSettings, flattened, unaccounted
from drivers.card_reader.detect import Detector
from drivers.card_reader.fine_look import FineMatcher
from drivers.card_reader.scenes import Placement, compose_scene
from tests.drivers.card_reader.ribbon_design import ribbon_faces


def dim_pair(faces: dict[str, np.ndarray], first: str, second: str, light: float, shelf: str, seed: int,
             angles: tuple[float, float] = (0.0, 0.0)):
    """Two cards apart, the second in shadow: ``light`` of the first's brightness, fully visible."""
    shown = dict(faces)
    shown[second] = (faces[second] * light).astype(np.uint8)
    placements = [Placement(first, (0.3, 0.5), angles[0], 0.45), Placement(second, (0.72, 0.5), angles[1], 0.45)]
    return compose_scene(shown, placements, shelf, seed=seed)


def test_a_card_in_shadow_beside_a_card_read_is_not_dropped(faces, reader) -> None:
    # failure class 2: the card in shadow (43 % as bright) was dropped and "ok" named the other
    shot = dim_pair(faces, "fern", "flower", 0.43, "wood", 0)
    reading = reader.identify(shot.image)
    assert reading.status != "ok" or reading.ingredients == ("fern", "flower"), reading
    assert reading.status == "unsure" and len(reading.cards) == 2


@pytest.mark.parametrize("light", [0.45, 0.6, 0.75])
def test_cards_in_shadow_on_every_shelf_never_read_a_card_short(light) -> None:
    faces = ribbon_faces()
    reader = CardReader(enroll(faces))
    for number, shelf in enumerate(("wood", "iron", "copper")):
        first, second = SHIPPED_FACE_NAMES[number], SHIPPED_FACE_NAMES[number + 4]
        shot = dim_pair(faces, first, second, light, shelf, number, (10.0 * number, -15.0 * number))
        reading = reader.identify(shot.image)
        assert reading.status != "ok" or reading.ingredients == tuple(sorted((first, second))), (shelf, reading)


def test_only_card_like_outlines_that_show_a_face_are_counted(faces, references) -> None:
    shot = dim_pair(faces, "fern", "flower", 0.43, "wood", 0)
    frame = shot.image
    small = cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA)
    read = np.array(shot.cards[0][1], np.float32) * 0.5
    matcher = FineMatcher(references.faces)
    missed = unaccounted(frame, small, 0.5, [read], Detector(), matcher)
    assert len(missed) == 1
    centre = missed[0].mean(axis=0) * 2
    assert np.linalg.norm(centre - np.array(shot.cards[1][1]).mean(axis=0)) < 15
    # both cards accounted for: nothing is left, though the striped shelf is raised to the cards' light
    both = [np.array(q, np.float32) * 0.5 for _, q in shot.cards]
    assert unaccounted(frame, small, 0.5, both, Detector(), matcher) == []
    assert unaccounted(frame, small, 0.5, [], Detector(), matcher) == []


def test_flattening_lifts_a_card_in_shadow_above_the_shelf_in_light() -> None:
    rng = np.random.default_rng(0)
    image = rng.integers(40, 60, (240, 320, 3)).astype(np.uint8)      # the shelf
    image[70:170, 40:110] = 200                                       # a card in light
    image[70:170, 200:270] = 200
    image[:, 160:] = (image[:, 160:] * 0.22).astype(np.uint8)          # a shadow over the right half
    card_in_shadow, shelf_in_light = (70, 170, 200, 270), (10, 50, 10, 150)

    def mean(img: np.ndarray, box: tuple[int, int, int, int]) -> float:
        return float(img[box[0]:box[1], box[2]:box[3]].mean())

    assert mean(image, card_in_shadow) < mean(image, shelf_in_light)  # no one split of the light finds it
    flat = flattened(image, 80.0)
    assert mean(flat, card_in_shadow) > 1.3 * mean(flat, shelf_in_light)


def test_count_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SETTINGS.face_level = 0.0  # type: ignore[misc]


def test_the_count_settings_defaults_pass_their_checks() -> None:
    assert CountSettings() == SETTINGS


@pytest.mark.parametrize(("change", "error"), (
    ({"light_scale": "0.6"}, TypeError), ({"darkest": True}, TypeError), ({"size": (0.55,)}, TypeError),
    ({"shelf_level": 0}, ValueError), ({"face_level": -0.3}, ValueError), ({"shared": float("nan")}, ValueError),
    ({"size": (1.8, 0.55)}, ValueError)))
def test_a_bad_count_setting_is_refused_by_name(change: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match=rf"^CountSettings\.{next(iter(change))} "):
        dataclasses.replace(SETTINGS, **change)
