"""Outline helpers of the detector: snapping a quad's sides to the card's printed edge; the detector's settings."""

from __future__ import annotations

import dataclasses
import inspect
import re

import cv2
import numpy as np
import pytest

from drivers.card_reader import CardReader
from drivers.card_reader.detect import Detector
from drivers.card_reader.detect_settings import SETTINGS, DetectorSettings
from drivers.card_reader.quad_fit import REMAP_MAX_ROWS, order_quad, sample_rows, side_steps, snap_quad
from drivers.card_reader.scenes import Conditions, Placement, compose_scene, random_scene


def _work_scene(faces: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    scene = compose_scene(faces, [Placement("toad", (0.5, 0.5), 23, 0.5)], seed=3, conditions=Conditions())
    small = cv2.resize(scene.image, (320, 240), interpolation=cv2.INTER_AREA)
    truth = order_quad(np.array(scene.cards[0][1], np.float32) / 2)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), truth


def test_a_stretched_side_snaps_back_to_the_card_edge(faces: dict[str, np.ndarray]) -> None:
    gray, truth = _work_scene(faces)
    stretched = truth.copy()
    out = (truth[2] - truth[1]) / np.linalg.norm(truth[2] - truth[1])
    stretched[2] += 10 * out                     # one short side pulled 10 px away (glare, a neighbour)
    stretched[3] += 10 * out
    snapped = snap_quad(gray, stretched)
    assert snapped is not None
    assert np.abs(order_quad(snapped) - truth).max() < 4.0


def test_side_steps_see_the_cut_edge_all_round(faces: dict[str, np.ndarray]) -> None:
    gray, truth = _work_scene(faces)
    assert (side_steps(gray, truth) > 40).all()
    inner = truth.mean(axis=0) + 0.5 * (truth - truth.mean(axis=0))      # a quad inside the card
    assert (side_steps(gray, inner) < 40).any()


@pytest.mark.parametrize("seed", [81008, 81900, 91691, 20777])
def test_a_dim_card_is_found_when_the_light_is_split_again(
        faces: dict[str, np.ndarray], reader: CardReader, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuning seeds: one card at half to three quarters of the light, on a vignetted shelf whose
    own halves are what the first split of the light parts (81008, 81900, 91691), or beside a
    glare spot that the first split parts from everything else (20777)."""
    scene = random_scene(faces, seed, kind="one")
    reading = reader.identify(scene.image)
    assert reading.status == "ok" and reading.ingredients == scene.ingredients
    monkeypatch.setattr(Detector, "_split_again", staticmethod(lambda g, pixels, settings: (np.zeros_like(g), 255.0)))
    monkeypatch.setattr(reader, "_second_look", lambda *args: None)   # whose keypoints find these cards too
    assert reader.identify(scene.image).status == "empty"


def test_an_empty_shelf_split_again_shows_no_card(faces: dict[str, np.ndarray],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    searched = []
    split_again = Detector._split_again
    monkeypatch.setattr(Detector, "_split_again",
                        staticmethod(lambda g, pixels, settings: searched.append(pixels.size)
                                     or split_again(g, pixels, settings)))
    for seed in range(90000, 90060):
        small = cv2.resize(random_scene(faces, seed, kind="empty").image, (320, 240), interpolation=cv2.INTER_AREA)
        before = len(searched)
        found = Detector().find(small)
        assert len(searched) == before or not found, f"seed {seed}: the light split again made a card"
    assert len(searched) > 40            # most empty shelves are searched three times


def test_side_steps_of_more_quads_than_opencv_maps_hold(faces: dict[str, np.ndarray]) -> None:
    """cv2.remap refuses maps of 32767 rows or more: a busy frame's candidates are measured in parts."""
    gray, truth = _work_scene(faces)
    many = np.repeat(truth[None].astype(np.float64), 9000, axis=0)  # 9000 quads: 36000 sides at once
    steps = side_steps(gray, many)
    assert steps.shape == (9000, 4)
    assert np.allclose(steps, side_steps(gray, truth)[None])


def test_sample_rows_matches_opencv_on_any_number_of_rows() -> None:
    img = np.random.default_rng(3).random((40, 60)).astype(np.float32)
    points = np.random.default_rng(4).random((REMAP_MAX_ROWS + 10, 5, 2)).astype(np.float32) * 39
    expected = np.concatenate([cv2.remap(img, points[:100, :, 0], points[:100, :, 1], cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REPLICATE)])
    assert np.allclose(sample_rows(img, points)[:100], expected)
    assert sample_rows(img, points).shape == (REMAP_MAX_ROWS + 10, 5)


def _one_card(faces: dict[str, np.ndarray]) -> np.ndarray:
    """The work image of one card standing half the frame's height."""
    scene = compose_scene(faces, [Placement("toad", (0.5, 0.5), 23, 0.5)], seed=3, conditions=Conditions())
    return cv2.resize(scene.image, (320, 240), interpolation=cv2.INTER_AREA)


def test_detector_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SETTINGS.min_card_height = 0.1  # type: ignore[misc]
    with pytest.raises(TypeError, match="settings must be DetectorSettings, not dict"):
        Detector(settings={"min_card_height": 0.1})  # type: ignore[arg-type]


@pytest.mark.parametrize(("change", "error"), (
    ({"opening": 0}, ValueError), ({"least_fill": -0.8}, ValueError), ({"notch_depth": "0.05"}, TypeError),
    ({"refill_least": True}, TypeError), ({"aspect": (1.8, 1.1)}, ValueError), ({"peak_levels": ()}, TypeError),
    ({"min_card_height": 0.8}, ValueError), ({"light_blur": 3.0}, TypeError), ({"edge_blur": 4}, ValueError),
    ({"top_percentile": 100.5}, ValueError), ({"finger_long": float("nan")}, ValueError)))
def test_a_bad_detector_setting_is_refused_by_name(change: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match=f"DetectorSettings.{next(iter(change))}"):
        dataclasses.replace(SETTINGS, **change)


def test_a_least_card_height_over_the_largest_is_refused_as_a_keyword_too() -> None:
    with pytest.raises(ValueError, match="DetectorSettings.min_card_height"):
        Detector(min_card_height=0.8)


def test_every_detector_setting_has_its_reason() -> None:
    """Each field has a run of ``#:`` comment lines right above it: the reason for its value."""
    lines = inspect.getsource(DetectorSettings).splitlines()
    names = [f.name for f in dataclasses.fields(DetectorSettings)]
    assert len(names) > 50
    for name in names:
        at = [i for i, line in enumerate(lines) if re.match(rf"\s+{name}\s*:", line)]
        assert len(at) == 1, f"{name}: {len(at)} lines declare it"
        above = []
        i = at[0] - 1
        while i >= 0 and lines[i].strip().startswith("#"):
            above.append(lines[i].strip())
            i -= 1
        assert above, f"{name} has no comment above it"
        assert all(line.startswith("#:") for line in above), f"{name}: {above[-1]!r} is not a #: reason"
        assert sum(len(line) for line in above) > 20, f"{name}: its reason is too short to be one"


def test_a_card_smaller_than_the_least_card_height_is_not_fitted(faces: dict[str, np.ndarray]) -> None:
    small = _one_card(faces)
    assert [c for c in Detector().find(small) if c.fitted]
    larger = dataclasses.replace(SETTINGS, min_card_height=0.8, max_card_height=1.0)
    assert not [c for c in Detector(settings=larger).find(small) if c.fitted]
    assert not [c for c in Detector(min_card_height=0.8, max_card_height=1.0).find(small) if c.fitted]


def test_keyword_heights_override_the_settings() -> None:
    detector = Detector(min_card_height=0.1, max_card_height=0.3)
    assert detector.settings == dataclasses.replace(SETTINGS, min_card_height=0.1, max_card_height=0.3)
    assert Detector().settings is SETTINGS
    own = dataclasses.replace(SETTINGS, edge_min=0.2)
    assert Detector(settings=own).settings.edge_min == 0.2
    assert Detector(max_card_height=1.0, settings=own).settings == dataclasses.replace(own, max_card_height=1.0)
