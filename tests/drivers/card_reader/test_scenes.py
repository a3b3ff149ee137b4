"""The scene generator: deterministic from a seed, truth in frame pixels, all conditions."""

from __future__ import annotations

import numpy as np
import pytest

from drivers.card_reader.scenes import (
    SCENE_KINDS,
    Conditions,
    Finger,
    Placement,
    compose_scene,
    finger_coverage,
    random_scene,
    render_scene,
    shelf_background,
)


def test_render_scene_is_a_bgr_frame(faces: dict[str, np.ndarray]) -> None:
    img = render_scene(faces, [Placement("fern")], seed=1)
    assert img.shape == (480, 640, 3) and img.dtype == np.uint8


def test_same_seed_same_frame(faces: dict[str, np.ndarray]) -> None:
    a = random_scene(faces, 123)
    b = random_scene(faces, 123)
    assert np.array_equal(a.image, b.image) and a.cards == b.cards
    assert not np.array_equal(a.image, random_scene(faces, 124).image)


@pytest.mark.parametrize("kind", SCENE_KINDS)
def test_every_kind_renders_with_its_expected_status(faces: dict[str, np.ndarray], kind: str) -> None:
    scene = random_scene(faces, 7, kind=kind)
    assert scene.expected_status == {"empty": "empty", "cut": "unsure", "heavy_overlap": "unsure",
                                     "covered": "unsure"}.get(kind, "ok")
    assert len(scene.cards) == {"empty": 0, "one": 1, "cut": 1, "covered": 1}.get(kind, 2)


def test_truth_quad_follows_the_card(faces: dict[str, np.ndarray]) -> None:
    scene = compose_scene(faces, [Placement("toad", (0.5, 0.5), 0, 0.5)], "iron", 1)
    (ing, quad), = scene.cards
    assert ing == "toad"
    (x0, y0), _, (x2, y2), _ = quad
    assert abs((y2 - y0) - 240) < 1 and abs((x2 - x0) - 240 / 1.4) < 1


def test_finger_coverage_is_bounded(faces: dict[str, np.ndarray]) -> None:
    scene = compose_scene(faces, [Placement("toad")], None, 1)
    quad = np.array(scene.cards[0][1])
    small = finger_coverage(quad, Finger(0, depth=0.1, width=0.2), (640, 480))
    big = finger_coverage(quad, Finger(0, depth=0.6, width=0.5), (640, 480))
    assert 0 < small < big <= 1


def test_backgrounds_and_conditions(faces: dict[str, np.ndarray]) -> None:
    for kind in ("iron", "copper", "wood"):
        assert shelf_background((320, 240), 1, kind).shape == (240, 320, 3)
    with pytest.raises(ValueError):
        shelf_background((320, 240), 1, "marble")
    cond = Conditions(tilt=20, brightness=0.5, cast=(1.2, 1, 0.8), uneven=0.5, glare=(0.5, 0.5, 0.1, 0.9),
                      shadow=(0.3, 0.3, 0.3, 0.4), blur_sigma=1.5, motion=(7, 30), noise=5, jpeg=55)
    img = render_scene(faces, [Placement("claw")], seed=2, size=(1280, 960), conditions=cond)
    assert img.shape == (960, 1280, 3)


def test_unknown_ingredient_is_refused(faces: dict[str, np.ndarray]) -> None:
    with pytest.raises(KeyError):
        render_scene(faces, [Placement("dragon")])
