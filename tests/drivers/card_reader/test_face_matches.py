"""FaceMatcher: the ratio test over the enrolled faces, with numpy's popcount and with OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from drivers.card_reader import References, face_matches
from drivers.card_reader.face_matches import HAS_POPCOUNT, FaceMatcher
from drivers.card_reader.keypoints import KeypointIndex
from drivers.card_reader.scenes import Placement, compose_scene

BOTH_WAYS = [pytest.param(True, id="numpy-popcount",
                          marks=pytest.mark.skipif(not HAS_POPCOUNT, reason="numpy < 2 has no bitwise_count")),
             pytest.param(False, id="opencv")]

BASE = np.random.default_rng(7).integers(0, 256, 32, dtype=np.uint8)


def away(bits: int, start: int = 0) -> np.ndarray:
    """``BASE`` with ``bits`` bits flipped, from bit ``start`` on (a descriptor that far from it)."""
    flags = np.zeros(256, np.uint8)
    flags[start:start + bits] = 1
    return BASE ^ np.packbits(flags)


def match_base(faces: dict[int, list[np.ndarray]], popcount: bool) -> tuple[int, bool]:
    """The owner of ``BASE``'s match among the given faces' descriptors, and whether it is clear."""
    owners = np.array([face for face, descriptors in faces.items() for _ in descriptors])
    descriptors = np.array([d for face_descriptors in faces.values() for d in face_descriptors])
    matches = FaceMatcher(descriptors, owners, popcount).match(BASE[None, :])
    return int(owners[matches.train[0]]), bool(matches.clear[0])


@pytest.mark.parametrize("popcount", BOTH_WAYS)
def test_a_match_much_nearer_than_any_other_face_is_clear(popcount: bool) -> None:
    assert match_base({0: [away(60)], 1: [away(20, 100)], 2: [away(40, 30)]}, popcount) == (1, True)
    assert match_base({0: [away(24)], 1: [away(20, 100)]}, popcount) == (1, False)      # 20 > 0.8 x 24


@pytest.mark.parametrize("popcount", BOTH_WAYS)
def test_the_faces_own_keypoints_do_not_make_its_match_unclear(popcount: bool) -> None:
    """A face's sharp and blurred keypoints are alike: four of them nearer than any other face's
    make the match clear; three do not, nor four when the fourth ties with another face's."""
    own = [away(20), away(21, 50), away(22, 100), away(23, 150)]
    assert match_base({0: own, 1: [away(24, 200)]}, popcount) == (0, True)
    assert match_base({0: own[:3], 1: [away(24, 200)]}, popcount) == (0, False)
    assert match_base({0: own[:3] + [away(24, 150)], 1: [away(24, 200)]}, popcount) == (0, False)


@pytest.mark.parametrize("popcount", BOTH_WAYS)
def test_the_nearest_keypoint_is_found_whatever_order_the_faces_come_in(popcount: bool) -> None:
    descriptors = np.array([away(50), away(10, 100), away(40, 30), away(45, 10)])
    owners = np.array([1, 0, 1, 0])
    matches = FaceMatcher(descriptors, owners, popcount).match(BASE[None, :])
    assert matches.train.tolist() == [1] and matches.clear.tolist() == [True]


@pytest.mark.skipif(not HAS_POPCOUNT, reason="numpy < 2 has no bitwise_count")
def test_a_descriptor_differing_in_every_bit_is_far_not_near() -> None:
    """Four 64-bit counts of 64 add up to 256, which wraps to 0 in uint8: such a pair must still
    count as as far apart as descriptors can be."""
    assert match_base({0: [~BASE], 1: [away(30)]}, popcount=True) == (1, True)


@pytest.mark.skipif(not HAS_POPCOUNT, reason="numpy < 2 has no bitwise_count")
def test_numpy_and_opencv_give_the_same_matches_on_a_frame(faces: dict[str, np.ndarray],
                                                           references: References) -> None:
    index = KeypointIndex(references.faces)
    scene = compose_scene(faces, [Placement("fern", (0.3, 0.5), 10, 0.45), Placement("toad", (0.7, 0.5), -30, 0.45)],
                          seed=3)
    _, frame_descriptors = cv2.ORB_create(2000).detectAndCompute(cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY), None)
    by_numpy = FaceMatcher(index.descriptors, index.owners, popcount=True).match(frame_descriptors)
    by_opencv = FaceMatcher(index.descriptors, index.owners, popcount=False).match(frame_descriptors)
    assert 20 < int(by_numpy.clear.sum()) < len(frame_descriptors)
    assert np.array_equal(by_numpy.train, by_opencv.train)
    assert np.array_equal(by_numpy.clear, by_opencv.clear)


@pytest.mark.parametrize("popcount", BOTH_WAYS)
def test_no_descriptors_no_matches(popcount: bool) -> None:
    none = np.zeros((0, 32), np.uint8)
    assert len(FaceMatcher(np.array([BASE]), np.array([0]), popcount).match(none).train) == 0
    assert FaceMatcher(none, np.zeros(0, int), popcount).match(BASE[None, :]).clear.tolist() == [False]


def test_asking_for_popcount_without_numpy_2_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(face_matches, "HAS_POPCOUNT", False)
    with pytest.raises(ValueError, match="bitwise_count"):
        FaceMatcher(np.array([BASE]), np.array([0]), popcount=True)
