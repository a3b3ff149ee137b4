"""The design benchmark's generator: designs, backgrounds, scenes and their truth, the judge."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from drivers.card_reader import SHIPPED_FACE_NAMES
from drivers.card_reader.designs import (
    BACKGROUND_KINDS,
    DESIGN_NAMES,
    FACE_H,
    FACE_W,
    FRAME_SIZES,
    HARD_KINDS,
    NORMAL_KINDS,
    READABLE_KINDS,
    design_scene,
    judge,
    kind_for,
    make_design,
    table_background,
)


@pytest.mark.parametrize("name", DESIGN_NAMES)
def test_a_design_has_eight_faces_and_a_back_that_differ_only_outside_the_shared_frame(name: str) -> None:
    design = make_design(name)
    assert sorted(design.faces) == sorted(SHIPPED_FACE_NAMES)
    stack = np.stack([design.faces[i] for i in SHIPPED_FACE_NAMES])
    assert stack.shape == (8, FACE_H, FACE_W, 3) and stack.dtype == np.uint8
    assert design.back.shape == (FACE_H, FACE_W, 3)
    # the frame every face shares is the same pixel for pixel
    assert (stack[:, design.shared] == stack[0, design.shared]).all()
    # and every two faces differ over most of the rest (illustration, title)
    own = ~design.shared
    for i in range(8):
        for j in range(i):
            differ = (np.abs(stack[i].astype(int) - stack[j].astype(int)).max(axis=2) > 12)[own].mean()
            assert differ > 0.4, (SHIPPED_FACE_NAMES[i], SHIPPED_FACE_NAMES[j], differ)
    for face in stack:
        assert (np.abs(face.astype(int) - design.back.astype(int)).max(axis=2) > 12).mean() > 0.4


def test_the_designs_look_different_from_each_other() -> None:
    grey = {n: cv2.cvtColor(make_design(n).faces["toad"], cv2.COLOR_BGR2GRAY).astype(np.float32)
            for n in DESIGN_NAMES}
    for a in DESIGN_NAMES:
        for b in DESIGN_NAMES:
            if a < b:
                assert np.abs(grey[a] - grey[b]).mean() > 25, (a, b)


def test_the_ribbon_design_shares_most_of_its_face_as_the_testers_did() -> None:
    assert make_design("ribbon").shared.mean() > 0.35


def test_a_design_is_deterministic_from_its_seed() -> None:
    from drivers.card_reader import designs

    designs._cached_design.cache_clear()
    a = make_design("woodcut", 3).faces["fern"].copy()
    designs._cached_design.cache_clear()
    assert np.array_equal(a, make_design("woodcut", 3).faces["fern"])
    assert not np.array_equal(a, make_design("woodcut", 4).faces["fern"])


def test_bad_design_names_and_seeds_are_refused() -> None:
    with pytest.raises(ValueError, match="nosuch"):
        make_design("nosuch")
    with pytest.raises(TypeError):
        make_design("ribbon", 1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_every_background_kind_is_made_deterministically(kind: str) -> None:
    a = table_background(kind, (320, 240), 5)
    assert a.shape == (240, 320, 3) and a.dtype == np.uint8
    assert np.array_equal(a, table_background(kind, (320, 240), 5))
    assert not np.array_equal(a, table_background(kind, (320, 240), 6))
    assert a.std() > 3          # a texture, not a flat colour


def test_background_kinds_differ_and_striped_wood_is_strongly_striped() -> None:
    means = {k: table_background(k, (320, 240), 1).reshape(-1, 3).mean(0) for k in BACKGROUND_KINDS}
    assert len({tuple(np.round(m)) for m in means.values()}) == len(BACKGROUND_KINDS)
    for seed in range(4):
        grey = cv2.cvtColor(table_background("striped_wood", (320, 240), seed), cv2.COLOR_BGR2GRAY)
        patch = grey[100:140, 140:180].astype(int)
        # stripes from dark grain to light wood: the range is most of the mean tone
        assert patch.max() - patch.min() > 0.75 * patch.mean(), seed
    with pytest.raises(ValueError, match="marble"):
        table_background("marble")


def _card_difference(image: np.ndarray, quad: np.ndarray, face: np.ndarray) -> float:
    """Mean difference of the frame warped by ``quad`` from ``face``, each channel's light levelled,
    as a share of the face's mean (blurred a little: the scene's blur and noise do not count)."""
    dst = np.array([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    warped = cv2.warpPerspective(image, m, (FACE_W, FACE_H))
    a, b = (cv2.GaussianBlur(x, (0, 0), 3)[10:-10, 10:-10].astype(np.float32) for x in (warped, face))
    a *= b.reshape(-1, 3).mean(0) / np.maximum(1, a.reshape(-1, 3).mean(0))
    return float(np.abs(a - b).mean() / b.mean())


@pytest.mark.parametrize("name", DESIGN_NAMES)
def test_truth_quads_lie_on_the_cards_pixels(name: str) -> None:
    design = make_design(name)
    gaps = []
    for seed, kind in ((1, "apart"), (2, "face_down"), (3, "small"), (4, "resolution")):
        scene = design_scene(design, seed, kind=kind)
        for card in scene.cards:
            quad = np.asarray(card.quad)
            face = design.faces[card.ingredient] if card.face_up else design.back
            here = _card_difference(scene.image, quad, face)
            beside = _card_difference(scene.image, quad + (quad[1] - quad[0]) * 0.2, face)   # a fifth aside
            assert here < 0.35 and here < beside, (kind, card.ingredient, here, beside)
            gaps.append(beside - here)
    assert np.mean(gaps) > 0.15


@pytest.mark.parametrize("kind", NORMAL_KINDS + HARD_KINDS)
def test_every_kind_has_its_truth(kind: str) -> None:
    design = make_design("tarot")
    scene = design_scene(design, 21, kind=kind)
    assert scene.kind == kind and scene.hard == (kind in HARD_KINDS)
    expected = "ok" if kind in READABLE_KINDS else "empty" if kind.startswith("empty") else "unsure"
    assert scene.expected_status == expected
    n = len(scene.cards)
    inside = [c.inside for c in scene.cards]
    heights = [float(np.linalg.norm(np.subtract(c.quad[3], c.quad[0]))) / scene.size[1] for c in scene.cards]
    if expected == "ok":
        assert scene.expected_ingredients == tuple(sorted(c.ingredient for c in scene.cards))
        assert all(c.face_up for c in scene.cards) and min(inside) > 0.999
    else:
        assert scene.expected_ingredients == ()
    if kind.startswith("empty"):
        assert n == 0
    if kind == "empty_pattern":
        assert scene.background in ("striped_wood", "stone", "tablecloth")
    if kind in ("apart", "touching", "overlap", "dark", "same_two", "edge_cut"):
        assert n == 2
    if kind == "same_two":
        assert scene.cards[0].ingredient == scene.cards[1].ingredient
    if kind in ("apart", "touching", "overlap", "dark", "edge_cut", "three"):
        assert len({c.ingredient for c in scene.cards}) == n
    if kind == "small":
        assert all(0.13 < h < 0.27 for h in heights)          # 15-25 %, the tilt changes it a little
    if kind == "large":
        assert all(0.55 < h < 0.9 for h in heights)
    if kind == "resolution":
        assert scene.size in FRAME_SIZES
    else:
        assert scene.size == (640, 480)
    if kind == "dark":
        assert sorted(c.light for c in scene.cards)[0] <= 0.75 and sorted(c.light for c in scene.cards)[0] >= 0.4
        assert max(c.light for c in scene.cards) == 1.0
    if kind == "glare":
        gx, gy, _, strength = scene.conditions.glare  # type: ignore[misc]
        assert strength >= 0.75
        assert any(cv2.pointPolygonTest(np.asarray(c.quad, np.float32), (gx * 640, gy * 480), False) >= 0
                   for c in scene.cards)
    if kind in ("cut", "edge_cut"):
        assert sum(share < 0.9 for share in inside) == 1 and min(inside) >= 0.54
    if kind == "three":
        assert n == 3
    if kind == "face_down":
        assert sum(not c.face_up for c in scene.cards) == 1
    if kind in ("covered", "hand"):
        assert len(scene.conditions.fingers) == 1


def test_scenes_are_deterministic_from_the_seed() -> None:
    design = make_design("ribbon")
    a, b = design_scene(design, 77, hard=True), design_scene(design, 77, hard=True)
    assert np.array_equal(a.image, b.image) and a.cards == b.cards and a.kind == b.kind
    assert not np.array_equal(a.image, design_scene(design, 78, hard=True).image)
    assert kind_for(5, False) in NORMAL_KINDS and kind_for(5, True) in HARD_KINDS
    with pytest.raises(ValueError, match="sideways"):
        design_scene(design, 1, kind="sideways")


@dataclass
class _Card:
    ingredient: str | None
    quad: object


@dataclass
class _Reading:
    status: str
    cards: list[_Card]


def test_the_judge_calls_wrong_any_ok_that_names_a_card_not_there_or_leaves_one_out() -> None:
    design = make_design("woodcut")
    two = design_scene(design, 3, kind="apart")
    right = [_Card(c.ingredient, c.quad) for c in two.cards]
    assert judge(two, _Reading("ok", right)).outcome == "right"
    assert judge(two, _Reading("ok", right[:1])).outcome == "wrong"                   # a card dropped
    swapped = [_Card(right[1].ingredient, right[0].quad), _Card(right[0].ingredient, right[1].quad)]
    assert judge(two, _Reading("ok", swapped)).outcome == "wrong"                     # right names, wrong places
    other = next(i for i in SHIPPED_FACE_NAMES if i not in two.expected_ingredients)
    assert judge(two, _Reading("ok", [right[0], _Card(other, right[1].quad)])).outcome == "wrong"
    assert judge(two, _Reading("unsure", [])).outcome == "unsure"
    empty = design_scene(design, 3, kind="empty")
    assert judge(empty, _Reading("empty", [])).outcome == "right"
    assert judge(empty, _Reading("ok", right)).outcome == "wrong"
    down = design_scene(design, 4, kind="face_down")
    up = [_Card(c.ingredient, c.quad) for c in down.cards if c.face_up]
    assert judge(down, _Reading("ok", up)).outcome == "wrong"                         # the back unaccounted
    assert judge(down, _Reading("unsure", [])).outcome == "right"
    three = design_scene(design, 5, kind="three")
    every = [_Card(c.ingredient, c.quad) for c in three.cards]
    assert judge(three, _Reading("ok", every)).outcome == "read anyway"
    assert judge(three, _Reading("ok", every[:2])).outcome == "wrong"
