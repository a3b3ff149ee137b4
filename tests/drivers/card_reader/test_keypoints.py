"""KeypointIndex: cards placed by their ORB keypoints and a homography, without outlines."""

from __future__ import annotations

import numpy as np
import pytest

from drivers.card_reader import References, keypoints
from drivers.card_reader.keypoints import KeypointIndex, card_shaped, quad_area, shared_area
from drivers.card_reader.scenes import Conditions, Finger, Placement, compose_scene


@pytest.fixture(scope="module")
def index(references: References) -> KeypointIndex:
    return KeypointIndex(references.faces)


def corner_error(found: np.ndarray, truth: object) -> float:
    """Largest distance between matching corners, as a share of the card's long side."""
    t = np.asarray(truth, np.float32)
    long_side = float(np.linalg.norm(t[3] - t[0]))
    return float(np.linalg.norm(found - t, axis=1).max()) / long_side


@pytest.mark.parametrize("angle", [0, 35, 180, 250])
def test_a_card_is_placed_at_any_rotation(faces: dict[str, np.ndarray], index: KeypointIndex, angle: float) -> None:
    scene = compose_scene(faces, [Placement("root", (0.5, 0.5), angle, 0.5)], conditions=Conditions(tilt=12))
    placed = index.find(scene.image)
    assert [c.ingredient for c in placed] == ["root"]
    # the quad starts at the card's own top-left corner, as the outline reader's does
    assert corner_error(placed[0].quad, scene.cards[0][1]) < 0.06


def test_a_card_half_under_a_finger_is_placed_whole(faces: dict[str, np.ndarray], index: KeypointIndex) -> None:
    cond = Conditions(fingers=(Finger(0, side=1, along=0.5, depth=0.8, width=0.65),))
    scene = compose_scene(faces, [Placement("scorpion", (0.5, 0.5), 20, 0.5)], conditions=cond)
    placed = index.find(scene.image)
    assert [c.ingredient for c in placed] == ["scorpion"]
    assert corner_error(placed[0].quad, scene.cards[0][1]) < 0.08


def test_two_copies_of_one_card_are_both_placed(faces: dict[str, np.ndarray], index: KeypointIndex) -> None:
    scene = compose_scene(faces, [Placement("claw", (0.3, 0.5), 10, 0.45), Placement("claw", (0.7, 0.5), -15, 0.45)])
    placed = index.find(scene.image)
    assert [c.ingredient for c in placed] == ["claw", "claw"]
    assert shared_area(placed[0].quad, placed[1].quad) == 0


def test_a_face_not_enrolled_is_not_placed(faces: dict[str, np.ndarray], references: References) -> None:
    only_three = KeypointIndex({k: references.faces[k] for k in ("fern", "claw", "root")})
    scene = compose_scene(faces, [Placement("flower", (0.5, 0.5), 30, 0.5)])
    assert only_three.find(scene.image) == []


def test_an_empty_shelf_places_nothing(faces: dict[str, np.ndarray], index: KeypointIndex) -> None:
    assert index.find(compose_scene(faces, []).image) == []


def test_the_search_mask_limits_where_cards_are_placed(faces: dict[str, np.ndarray], index: KeypointIndex) -> None:
    scene = compose_scene(faces, [Placement("fern", (0.3, 0.5), 0, 0.45), Placement("toad", (0.72, 0.5), 0, 0.45)])
    left_half = np.zeros(scene.image.shape[:2], np.uint8)
    left_half[:, :320] = 255
    assert [c.ingredient for c in index.find(scene.image, left_half)] == ["fern"]


@pytest.mark.parametrize("ingredient", ["toad", "flower", "root"])
def test_a_soft_card_is_placed_by_the_blurred_faces_keypoints_too(
        faces: dict[str, np.ndarray], references: References, index: KeypointIndex, ingredient: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    cond = Conditions(blur_sigma=1.5, motion=(7, 30), noise=4, jpeg=60)
    scene = compose_scene(faces, [Placement(ingredient, (0.5, 0.5), 20, 0.55)], background="iron", seed=5,
                          conditions=cond)
    monkeypatch.setattr(keypoints, "BLURRED_FEATURES", 1)
    sharp_only = KeypointIndex(references.faces).find(scene.image)
    placed = index.find(scene.image)
    assert [c.ingredient for c in placed] == [ingredient]
    assert placed[0].inliers > 1.3 * max([c.inliers for c in sharp_only], default=0)


def test_card_shape_rules() -> None:
    card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    assert card_shaped(card, 300)
    assert not card_shaped(card, 100)                                   # taller than the frame allows
    assert not card_shaped(np.float32([[0, 0], [140, 0], [140, 140], [0, 140]]), 300)   # square
    assert not card_shaped(np.float32([[0, 0], [100, 140], [100, 0], [0, 140]]), 300)   # crossed
    assert quad_area(card) == pytest.approx(14000)


def test_a_copy_lying_half_over_the_card_is_another_card(faces: dict[str, np.ndarray], index: KeypointIndex) -> None:
    """Two copies overlapping more than a player lays them are both placed, so the second look can
    refuse the frame, instead of one being taken for the other found twice."""
    scene = compose_scene(faces, [Placement("claw", (0.4, 0.5), 0, 0.5), Placement("claw", (0.56, 0.52), 20, 0.5)])
    placed = index.find(scene.image)
    assert [c.ingredient for c in placed] == ["claw", "claw"]
    assert shared_area(placed[0].quad, placed[1].quad) > 0.3 * quad_area(placed[0].quad)


def test_two_threads_searching_with_different_feature_counts_read_as_one_alone(
        faces: dict[str, np.ndarray], index: KeypointIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    # a shared detector retuned per search (setMaxFeatures) let one thread's count leak into the other's
    import threading

    monkeypatch.setattr(keypoints, "REMEMBERED", 0)       # every search made, none answered from memory

    scene = compose_scene(faces, [Placement("toad", (0.35, 0.5), 10, 0.45), Placement("fern", (0.7, 0.5), 170, 0.45)])
    counts = (300, keypoints.FRAME_FEATURES)

    def placed(features: int) -> list[tuple[str, list[float]]]:
        return [(c.ingredient, np.round(c.quad, 3).ravel().tolist()) for c in index.find(scene.image, None, features)]

    alone = {features: placed(features) for features in counts}
    mismatches: list[int] = []

    def search(features: int) -> None:
        for _ in range(15):
            if placed(features) != alone[features]:
                mismatches.append(features)

    threads = [threading.Thread(target=search, args=(features,)) for features in counts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert mismatches == []


def counted_searches(index: KeypointIndex, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one for each search ``index`` makes (not answered from memory)."""
    made: list[int] = []
    search = index._search

    def counting(*args: object) -> list[keypoints.KeypointCard]:
        made.append(1)
        return search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(index, "_search", counting)
    return made


def test_the_same_search_made_again_is_answered_from_memory(
        faces: dict[str, np.ndarray], references: References, monkeypatch: pytest.MonkeyPatch) -> None:
    index = KeypointIndex(references.faces)
    made = counted_searches(index, monkeypatch)
    scene = compose_scene(faces, [Placement("fern", (0.3, 0.5), 0, 0.45), Placement("toad", (0.72, 0.5), 0, 0.45)])
    first = index.find(scene.image)
    again = index.find(scene.image.copy())                 # the same pixels in another array
    assert len(made) == 1
    assert [(c.ingredient, c.quad.tolist()) for c in again] == [(c.ingredient, c.quad.tolist()) for c in first]
    assert again is not first                              # a caller's list is its own


def test_a_search_of_other_pixels_mask_or_count_is_made_anew(
        faces: dict[str, np.ndarray], references: References, monkeypatch: pytest.MonkeyPatch) -> None:
    index = KeypointIndex(references.faces)
    made = counted_searches(index, monkeypatch)
    scene = compose_scene(faces, [Placement("fern", (0.3, 0.5), 0, 0.45), Placement("toad", (0.72, 0.5), 0, 0.45)])
    image = scene.image.copy()
    assert sorted(c.ingredient for c in index.find(image)) == ["fern", "toad"]
    left_half = np.zeros(image.shape[:2], np.uint8)
    left_half[:, :320] = 255
    assert [c.ingredient for c in index.find(image, left_half)] == ["fern"]
    assert sorted(c.ingredient for c in index.find(image, None, 1000)) == ["fern", "toad"]
    image[:, 320:] = compose_scene(faces, []).image[:, 320:]   # the same array, the toad taken away
    assert [c.ingredient for c in index.find(image)] == ["fern"]
    assert len(made) == 4


def test_the_memory_keeps_the_latest_searches_only(
        faces: dict[str, np.ndarray], references: References, monkeypatch: pytest.MonkeyPatch) -> None:
    index = KeypointIndex(references.faces)
    made = counted_searches(index, monkeypatch)
    image = compose_scene(faces, [Placement("claw", (0.5, 0.5), 10, 0.5)]).image
    counts = [300 + 100 * k for k in range(keypoints.REMEMBERED + 1)]
    for features in counts:
        index.find(image, None, features)
    index.find(image, None, counts[-1])                    # remembered
    index.find(image, None, counts[0])                     # forgotten: the oldest
    assert len(made) == len(counts) + 1


def test_a_remembered_card_cannot_be_changed_by_a_caller(
        faces: dict[str, np.ndarray], references: References) -> None:
    index = KeypointIndex(references.faces)
    image = compose_scene(faces, [Placement("root", (0.5, 0.5), 0, 0.5)]).image
    placed = index.find(image)
    with pytest.raises(ValueError):
        placed[0].quad[0, 0] = 0.0
    assert index.find(image)[0].quad.tolist() == placed[0].quad.tolist()


def test_each_thread_has_its_own_memory(
        faces: dict[str, np.ndarray], references: References, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    index = KeypointIndex(references.faces)
    made = counted_searches(index, monkeypatch)
    image = compose_scene(faces, [Placement("root", (0.5, 0.5), 0, 0.5)]).image
    index.find(image)
    thread = threading.Thread(target=index.find, args=(image,))
    thread.start()
    thread.join()
    assert len(made) == 2
