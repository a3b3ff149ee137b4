"""Which enrolled face each keypoint of a frame matches, and whether clearly. numpy and OpenCV only.

A frame keypoint's match is the face keypoint nearest to it (Hamming distance of their ORB
descriptors). It is clear when it is nearer than ``RATIO`` times the nearest keypoint of any other
face (Lowe's ratio test), or when ``NEAREST`` keypoints of its own face are nearer than any other
face's: the sharp and blurred keypoints of one face are alike and must not make each other's
matches unclear. (A tie with another face leaves the match unclear: counting such ties as clear
lost a card half under a finger, whose homography then drowned in them.)

The distances from every frame keypoint to every face keypoint (2000 x 4800 in a second look) are
the largest part of the second look's time. numpy 2's ``bitwise_count`` works them out about three
times faster than OpenCV's brute-force matcher, whose x86 wheels count bits without a popcount
instruction.
With an older numpy (Raspberry Pi OS bookworm ships 1.24) OpenCV's ``batchDistance`` does the
work, face by face; both give the same matches.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

#: Lowe's ratio: a match must be clearly nearer than the nearest keypoint of another face ...
RATIO = 0.8
#: ... or this many keypoints of its own face are nearer than any other face's
NEAREST = 4
#: numpy has a popcount (numpy 2.0 and later)
HAS_POPCOUNT = hasattr(np, "bitwise_count")
#: frame keypoints whose distances are worked out at once (the work arrays stay in the cache)
_ROWS = 16


class Matches(NamedTuple):
    """Per frame keypoint: the nearest face keypoint (index into the faces' descriptors) and
    whether the match is clear."""

    train: np.ndarray
    clear: np.ndarray


class FaceMatcher:
    """The enrolled faces' ORB descriptors, matched against a frame's."""

    def __init__(self, descriptors: np.ndarray, owners: np.ndarray, popcount: bool = HAS_POPCOUNT) -> None:
        """``descriptors``: N x 32 uint8 ORB descriptors; ``owners``: the face (int) of each;
        ``popcount``: work the distances out with numpy (needs numpy 2), else with OpenCV."""
        if popcount and not HAS_POPCOUNT:
            raise ValueError(f"numpy {np.__version__} has no bitwise_count: popcount needs numpy 2.0 or later")
        self.popcount = popcount
        self._descriptors = np.ascontiguousarray(descriptors, np.uint8)
        self._owners = np.asarray(owners)
        self._order = np.argsort(self._owners, kind="stable")      # each face's keypoints side by side
        by_face = self._by_face = self._descriptors[self._order]
        sorted_owners = self._owners[self._order]
        if len(by_face):
            self._words = np.ascontiguousarray(by_face.view(np.uint64).T)       # 4 x N: 64 bits each
            self._starts = np.flatnonzero(np.r_[True, sorted_owners[1:] != sorted_owners[:-1]])
        else:
            self._words, self._starts = np.zeros((4, 0), np.uint64), np.zeros(0, np.intp)
        self._ends = np.r_[self._starts[1:], len(by_face)]

    def match(self, frame_descriptors: np.ndarray) -> Matches:
        """The match of each of a frame's ORB descriptors (M x 32 uint8)."""
        if len(self._descriptors) == 0 or len(frame_descriptors) == 0:
            return Matches(np.zeros(len(frame_descriptors), np.intp), np.zeros(len(frame_descriptors), bool))
        if self.popcount:
            return self._match_by_popcount(np.ascontiguousarray(frame_descriptors, np.uint8))
        return self._match_by_opencv(frame_descriptors)

    def _distances(self, frame_descriptors: np.ndarray) -> np.ndarray:
        """Hamming distances, frame keypoints x face keypoints (faces side by side), as uint8.

        A sum of four 64-bit counts overflows only at 256 (every bit differs), where it wraps to 0;
        ``_match_by_popcount`` works such rows out again.
        """
        query = frame_descriptors.view(np.uint64)
        distances = np.empty((len(query), self._words.shape[1]), np.uint8)
        for i in range(0, len(query), _ROWS):
            rows = query[i:i + _ROWS]
            out = distances[i:i + len(rows)]
            np.bitwise_count(rows[:, :1] ^ self._words[0], out=out)
            for w in range(1, len(self._words)):
                out += np.bitwise_count(rows[:, w:w + 1] ^ self._words[w])
        return distances

    def _exact_distances(self, frame_descriptor: np.ndarray) -> np.ndarray:
        """One frame keypoint's distances, bit by bit (slow), saturated at 255."""
        bits = np.unpackbits(frame_descriptor[None, :] ^ self._by_face, axis=1)
        return np.minimum(bits.sum(axis=1), 255).astype(np.uint8)

    def _match_by_popcount(self, frame_descriptors: np.ndarray) -> Matches:
        distances = self._distances(frame_descriptors)
        face_nearest = np.minimum.reduceat(distances, self._starts, axis=1)
        for row in np.flatnonzero(face_nearest.min(axis=1) == 0):          # possibly wrapped
            distances[row] = self._exact_distances(frame_descriptors[row])
            face_nearest[row] = np.minimum.reduceat(distances[row], self._starts)
        best_face, other, clear = _ratio_test(face_nearest)
        train = np.empty(len(distances), np.intp)
        for face, (start, end) in enumerate(zip(self._starts, self._ends)):
            of_face = np.flatnonzero(best_face == face)
            block = distances[of_face, start:end]
            train[of_face] = start + block.argmin(axis=1)
            undecided = ~clear[of_face]
            own_first = (block[undecided] < other[of_face[undecided], None]).sum(axis=1) >= NEAREST
            clear[of_face[undecided]] = own_first
        return Matches(self._order[train], clear)

    def _match_by_opencv(self, frame_descriptors: np.ndarray) -> Matches:
        rows = np.arange(len(frame_descriptors))
        nearest = np.full((len(rows), len(self._starts), NEAREST), np.iinfo(np.int32).max, np.int32)
        train = np.empty((len(rows), len(self._starts)), np.intp)
        for face, (start, end) in enumerate(zip(self._starts, self._ends)):
            k = min(NEAREST, int(end - start))
            distances, indices = cv2.batchDistance(frame_descriptors, self._by_face[start:end], cv2.CV_32S,
                                                   normType=cv2.NORM_HAMMING, K=k)
            nearest[:, face, :k] = distances
            train[:, face] = start + indices[:, 0]
        best_face, other, clear = _ratio_test(nearest[:, :, 0])
        own_first = nearest[rows, best_face, NEAREST - 1] < other
        return Matches(self._order[train[rows, best_face]], clear | own_first)


def _ratio_test(face_nearest: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From each frame keypoint's distance to the nearest keypoint of each face (M x faces): the
    nearest face, the distance to the nearest keypoint of any other, and whether Lowe's ratio
    test finds the match clear."""
    rows = np.arange(len(face_nearest))
    best_face = face_nearest.argmin(axis=1)
    nearest = face_nearest[rows, best_face].astype(np.float64)
    if face_nearest.shape[1] > 1:
        other = np.partition(face_nearest, 1, axis=1)[:, 1].astype(np.float64)
    else:
        other = np.full(len(rows), np.inf)
    return best_face, other, nearest < RATIO * other
