"""A textbook card matcher, the yardstick of issue 15: ORB keypoints, Lowe's ratio test, RANSAC homography.

It is what a computer-vision course would write first, with no tuning to any card design: ORB on each
enrolled face and on the frame, a brute-force Hamming matcher with the ratio test, and per face a
homography fitted by RANSAC; a face with enough inliers whose corners make a card-shaped quad is
read (and looked for once more, for a second copy). No cards: ``empty``; otherwise ``ok``. It never
says ``unsure``. The benchmark times it in the same run as the reader (benchmarks/card_reader_designs.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

#: keypoints per enrolled face and per frame (OpenCV's default is 500: too few once a patterned table
#: takes most of the frame's keypoints; 5000 leaves the cards theirs)
FACE_FEATURES = 1000
FRAME_FEATURES = 5000
#: Lowe's ratio test, as in his paper (0.8)
RATIO = 0.8
#: RANSAC reprojection error, px of the frame (OpenCV's tutorial uses 5)
RANSAC_PX = 5.0
#: inliers a homography needs to count as a card (OpenCV's tutorial asks for 10 matches)
MIN_INLIERS = 12


@dataclass(frozen=True)
class TextbookCard:
    ingredient: str
    quad: list[tuple[float, float]]
    inliers: int


@dataclass(frozen=True)
class TextbookReading:
    status: str
    cards: list[TextbookCard] = field(default_factory=list)


def _card_shaped(quad: np.ndarray, frame_area: float) -> bool:
    """Convex, not tiny, opposite sides alike (a card tilted at most about 30 degrees)."""
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    area = abs(float(cv2.contourArea(quad.astype(np.float32))))
    if area < 0.005 * frame_area:
        return False
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    return bool(max(sides[0], sides[2]) < 1.6 * min(sides[0], sides[2])
                and max(sides[1], sides[3]) < 1.6 * min(sides[1], sides[3]))


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(inter) / max(1e-6, min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32))))


class TextbookMatcher:
    """ORB + ratio test + RANSAC homography per face. ``identify(frame)`` -> TextbookReading.

    As in Lowe's object recognition (2004), each frame keypoint is matched to its two nearest
    keypoints among all enrolled faces together, so a keypoint of the frame every face shares
    (border, title ribbon) has near-equal neighbours on two faces and fails the ratio test."""

    def __init__(self, faces: Mapping[str, np.ndarray]) -> None:
        orb_face = cv2.ORB_create(FACE_FEATURES)
        self._orb_frame = cv2.ORB_create(FRAME_FEATURES)
        self._matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self._names: list[str] = []
        self._corners: list[np.ndarray] = []
        points, owners, descriptors = [], [], []
        for index, (ingredient, face) in enumerate(faces.items()):
            grey = cv2.cvtColor(np.asarray(face), cv2.COLOR_BGR2GRAY)
            keypoints, desc = orb_face.detectAndCompute(grey, None)
            h, w = grey.shape
            self._names.append(ingredient)
            self._corners.append(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2))
            if desc is not None:
                points += [k.pt for k in keypoints]
                owners += [index] * len(keypoints)
                descriptors.append(desc)
        self._points = np.float32(points)
        self._owners = np.array(owners)
        self._descriptors = np.vstack(descriptors)

    def identify(self, frame: np.ndarray) -> TextbookReading:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        keypoints, descriptors = self._orb_frame.detectAndCompute(grey, None)
        if descriptors is None or len(keypoints) < MIN_INLIERS:
            return TextbookReading("empty")
        frame_area = float(grey.shape[0] * grey.shape[1])
        pairs = self._matcher.knnMatch(descriptors, self._descriptors, k=2)
        good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
        found: list[TextbookCard] = []
        for index, ingredient in enumerate(self._names):
            mine = [m for m in good if self._owners[m.trainIdx] == index]
            for _ in range(2):                      # a second copy of the same card
                if len(mine) < MIN_INLIERS:
                    break
                src = self._points[[m.trainIdx for m in mine]].reshape(-1, 1, 2)
                dst = np.float32([keypoints[m.queryIdx].pt for m in mine]).reshape(-1, 1, 2)
                homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, RANSAC_PX)
                if homography is None:
                    break
                inliers = mask.ravel().astype(bool)
                if int(inliers.sum()) < MIN_INLIERS:
                    break
                quad = cv2.perspectiveTransform(self._corners[index], homography).reshape(4, 2)
                if _card_shaped(quad, frame_area):
                    found.append(TextbookCard(ingredient, [(float(x), float(y)) for x, y in quad], int(inliers.sum())))
                mine = [m for m, inlier in zip(mine, inliers) if not inlier]
        # one card per place: of two quads over one another, the one with more inliers stands
        found.sort(key=lambda c: -c.inliers)
        kept: list[TextbookCard] = []
        for card in found:
            if all(_overlap(np.array(card.quad), np.array(k.quad)) < 0.5 for k in kept):
                kept.append(card)
        return TextbookReading("ok" if kept else "empty", kept)
