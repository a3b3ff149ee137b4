"""Find enrolled cards in a frame by their keypoints. numpy and OpenCV only.

The outline reader (``detect`` + the thumbnail match) needs a card's whole outline; a card merged
with its neighbour, a finger or a glare spot can hide it. This second look needs none: ORB
keypoints of each enrolled face (its illustration and title) are matched to the frame's, and a
homography fitted by RANSAC to one face's matches places the whole card, even the parts that are
covered. Keypoints of the frame that all faces share (border, title strip) match several faces
alike and fall to the ratio test, so only what tells the faces apart counts.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
import hashlib
import threading
from dataclasses import dataclass

import cv2
import numpy as np

from .face_matches import FaceMatcher

#: fewest RANSAC inliers that place a card (with 10, no card was placed falsely on the tuning
#: scenes); the reader's tolerance may ask for more (``second_look.keypoint_confidence``)
MIN_INLIERS = 12
#: keypoints kept per enrolled face, and per searched frame
FACE_FEATURES, FRAME_FEATURES = 400, 2000
#: a card in a frame is often soft (focus, motion, JPEG): each face also gives this many keypoints
#: of itself blurred by this sigma (face px), whose descriptors match a soft card's better
BLURRED_FEATURES, BLURRED_SIGMA = 200, 2.0
#: frames are searched at this height (the faces' keypoints are made for cards of 35-60 % of it)
SEARCH_H = 480
#: the most a card's opposite sides differ in a frame (ratio): more than a 20 degree tilt gives
MAX_SKEW = 1.45
#: searches remembered per thread: the stages search one frame with one mask up to four times
#: (the outlines' reading, again for the large cards' range, the shelf step), and a search is
#: a sixth of a frame's reading
REMEMBERED = 4


@dataclass(frozen=True)
class KeypointCard:
    """A card placed by keypoints: ingredient, corners (frame px, clockwise from the card's own
    top-left) and the number of keypoints that agree."""

    ingredient: str
    quad: np.ndarray
    inliers: int


def _orb(features: int, levels: int) -> cv2.ORB:
    return cv2.ORB_create(nfeatures=features, scaleFactor=1.2, nlevels=levels, fastThreshold=10,
                          edgeThreshold=15, patchSize=15)


def quad_area(q: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.asarray(q, np.float32))))


def shared_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area two convex quads share."""
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Two quads that are one card found twice (they share over 70 % of their union); a copy of
    the card lying half over it is another card."""
    shared = shared_area(a, b)
    return shared > 0.7 * (quad_area(a) + quad_area(b) - shared)


def skewed(quad: np.ndarray, limit: float = MAX_SKEW) -> bool:
    """Opposite sides differing more than a card tilted 20 degrees shows (``limit``): the
    outline of two overlapping cards merged, which may read well as one of them."""
    q = np.asarray(quad, np.float32)
    sides = np.sqrt(((np.roll(q, -1, axis=0) - q) ** 2).sum(axis=1))
    ratios = np.maximum(sides[:2], sides[2:]) / np.maximum(1e-6, np.minimum(sides[:2], sides[2:]))
    return bool(ratios.max() > limit)


def card_shaped(quad: np.ndarray, frame_h: int) -> bool:
    """A convex quad with a card's aspect (tilt allowed) and a height the shelf gives a card."""
    q = np.asarray(quad, np.float32)
    if not cv2.isContourConvex(q):
        return False
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    long_side, short_side = (sides[1] + sides[3]) / 2, (sides[0] + sides[2]) / 2
    if not 0.25 * frame_h < long_side < 0.75 * frame_h:
        return False
    return 1.15 < long_side / max(1e-6, short_side) < 1.7


class KeypointIndex:
    """ORB keypoints of the enrolled faces, and the search for them in a frame."""

    def __init__(self, faces: Mapping[str, np.ndarray]) -> None:
        """``faces``: ingredient -> upright face image (BGR or grey), all the same size."""
        sharp_orb, blurred_orb = _orb(FACE_FEATURES, 4), _orb(BLURRED_FEATURES, 4)
        self.ingredients = list(faces)
        points, descriptors, owners = [], [], []
        for k, ing in enumerate(self.ingredients):
            face = faces[ing]
            grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) if face.ndim == 3 else face
            for orb, image in ((sharp_orb, grey), (blurred_orb, cv2.GaussianBlur(grey, (0, 0), BLURRED_SIGMA))):
                kps, des = orb.detectAndCompute(image, None)
                if des is None:
                    continue
                points.append(np.float32([kp.pt for kp in kps]))
                descriptors.append(des)
                owners.append(np.full(len(kps), k))
        h, w = next(iter(faces.values())).shape[:2]
        self.corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
        self.points = np.vstack(points) if points else np.zeros((0, 2), np.float32)
        self.descriptors = np.vstack(descriptors) if descriptors else np.zeros((0, 32), np.uint8)
        self.owners = np.concatenate(owners) if owners else np.zeros(0, int)
        self._detectors = threading.local()  # an ORB object is mutable state: one per thread and size
        self._remembered = threading.local()
        self._matcher = FaceMatcher(self.descriptors, self.owners)

    def _frame_detector(self, features: int) -> cv2.ORB:
        """This thread's detector for ``features`` keypoints (never retuned while another reads)."""
        detectors: dict[int, cv2.ORB] = self._detectors.__dict__.setdefault("by_features", {})
        if features not in detectors:
            detectors[features] = _orb(features, 6)
        return detectors[features]

    def find(self, frame: np.ndarray, mask: np.ndarray | None = None,
             features: int = FRAME_FEATURES) -> list[KeypointCard]:
        """The enrolled cards placed in a frame (BGR or grey), from at most ``features`` of its
        keypoints; ``mask`` (frame size, uint8) limits the search. The same search made again
        (the same pixels, mask and ``features``) is answered from this thread's memory."""
        h, w = frame.shape[:2]
        scale = min(1.0, SEARCH_H / h)
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        if scale < 1.0:
            size = (max(1, round(w * scale)), SEARCH_H)
            grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
            mask = None if mask is None else cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
        key = _search_key(grey, mask, features, h)
        remembered: OrderedDict[bytes, list[KeypointCard]] = self._remembered.__dict__.setdefault(
            "searches", OrderedDict())
        if key in remembered:
            remembered.move_to_end(key)
            return list(remembered[key])
        found = self._search(grey, mask, features, scale, h)
        remembered[key] = found
        if len(remembered) > REMEMBERED:
            remembered.popitem(last=False)
        return list(found)

    def _search(self, grey: np.ndarray, mask: np.ndarray | None, features: int, scale: float,
                frame_h: int) -> list[KeypointCard]:
        """The cards placed in the search image ``grey`` (the frame scaled by ``scale``)."""
        kps, des = self._frame_detector(features).detectAndCompute(grey, mask)
        if des is None or len(self.descriptors) < 2:
            return []
        matches = self._matcher.match(des)
        frame_pts = cv2.KeyPoint_convert(kps) / scale
        found: list[KeypointCard] = []
        for k, ing in enumerate(self.ingredients):
            chosen = matches.clear & (self.owners[matches.train] == k)
            found += self._place(ing, self.points[matches.train[chosen]], frame_pts[chosen], frame_h, found)
        for card in found:
            card.quad.setflags(write=False)   # remembered: shared by every caller of the same search
        return found

    def _place(self, ing: str, face_pts: np.ndarray, frame_pts: np.ndarray, frame_h: int,
               found: list[KeypointCard]) -> list[KeypointCard]:
        """Cards of one face: fit a homography, take its inliers away, fit again (the deck holds copies)."""
        placed: list[KeypointCard] = []
        for _ in range(3):
            if len(face_pts) < MIN_INLIERS:
                break
            homography, inlier = self._fit(face_pts, frame_pts)
            if homography is None or int(inlier.sum()) < MIN_INLIERS:
                break
            quad = cv2.perspectiveTransform(self.corners, homography).reshape(4, 2)
            used = inlier
            if card_shaped(quad, frame_h):
                inside = np.array([cv2.pointPolygonTest(quad, (float(x), float(y)), False) >= 0
                                   for x, y in frame_pts])
                used = inlier | inside            # the rest of this card's matches are spent too
                if not any(c.ingredient == ing and _same_place(c.quad, quad) for c in found + placed):
                    placed.append(KeypointCard(ing, quad, int(inlier.sum())))
            face_pts, frame_pts = face_pts[~used], frame_pts[~used]
        return placed

    @staticmethod
    def _fit(face_pts: np.ndarray, frame_pts: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        """A homography from face to frame and its inliers (bool per match).

        Few of a face's matches are right when another card or the shelf is in view, and RANSAC on
        4-point samples then needs thousands of tries; a rotation, scale and shift (2-point samples,
        loose: the camera may be tilted) finds the card's matches first, the homography is fitted
        to those.
        """
        none = np.zeros(len(face_pts), bool)
        similar, first = cv2.estimateAffinePartial2D(face_pts, frame_pts, method=cv2.RANSAC,
                                                     ransacReprojThreshold=12.0, maxIters=500)
        if similar is None:
            return None, none
        chosen = first.ravel() == 1
        if int(chosen.sum()) < MIN_INLIERS:
            return None, none
        homography, second = cv2.findHomography(face_pts[chosen], frame_pts[chosen], cv2.RANSAC, 4.0)
        if homography is None:
            return None, none
        inlier = np.zeros(len(face_pts), bool)
        inlier[np.flatnonzero(chosen)[second.ravel() == 1]] = True
        return homography, inlier


def _search_key(grey: np.ndarray, mask: np.ndarray | None, features: int, frame_h: int) -> bytes:
    """What a search's answer depends on beside the faces: the search image, its mask, the
    keypoints asked for and the frame's height (a card's plausible size)."""
    digest = hashlib.sha1(np.ascontiguousarray(grey).data, usedforsecurity=False)
    digest.update(b"no mask" if mask is None else np.ascontiguousarray(mask).data)
    digest.update(f"{grey.shape} {features} {frame_h}".encode())
    return digest.digest()
