"""A dark card design for the reader's tests: a navy frame with a gold rim shared by all 8 faces,
and windows of smooth colour (two-colour gradients and soft discs), so a face has little texture of
its own. Laid on a light cloth, such a card is darker than its shelf, and few keypoints place it:
the class of card the colour count exists for."""

from __future__ import annotations

import cv2
import numpy as np

from drivers.card_reader import SHIPPED_FACE_NAMES

FACE_SIZE = (250, 350)
NAVY = (110, 40, 25)
GOLD = (60, 170, 215)


def _smooth_window(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A diagonal gradient between two colours with two large soft discs: no corner to speak of."""
    a, b = rng.integers(40, 255, 3).astype(np.float32), rng.integers(40, 255, 3).astype(np.float32)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = ((xx / width + yy / height) / 2)[:, :, None]
    img = a * (1 - ramp) + b * ramp
    for _ in range(2):
        disc = np.zeros((height, width), np.float32)
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        cv2.circle(disc, centre, int(rng.integers(width // 4, width // 2)), 1.0, -1)
        disc = cv2.GaussianBlur(disc, (0, 0), width / 8)[:, :, None]
        img = img * (1 - disc) + rng.integers(40, 255, 3).astype(np.float32) * disc
    return np.clip(img, 0, 255).astype(np.uint8)


def navy_face(ingredient: str, seed: int) -> np.ndarray:
    """One face (250 x 350 BGR): the shared navy frame, this ingredient's smooth window and title."""
    w, h = FACE_SIZE
    rng = np.random.default_rng(seed)
    shared = np.random.default_rng(515151)
    face = np.empty((h, w, 3), np.float32)
    face[:] = NAVY
    face += shared.normal(0, 5, (h, w, 1)).astype(np.float32)             # the frame's printed weave
    face = np.clip(face, 0, 255).astype(np.uint8)
    cv2.rectangle(face, (8, 8), (w - 9, h - 9), GOLD, 3)                    # the gold rim
    window = (28, 28, w - 28, int(0.74 * h))
    face[window[1]:window[3], window[0]:window[2]] = _smooth_window(rng, window[2] - window[0],
                                                                    window[3] - window[1])
    cv2.rectangle(face, window[:2], window[2:], GOLD, 2)
    (tw, th), _ = cv2.getTextSize(ingredient, cv2.FONT_HERSHEY_SIMPLEX, 0.9, 2)
    cv2.putText(face, ingredient, ((w - tw) // 2, int(0.87 * h) + th // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                GOLD, 2, cv2.LINE_AA)
    return face


def navy_faces(seed: int = 3) -> dict[str, np.ndarray]:
    """The 8 faces of the design, ingredient id -> BGR image."""
    return {ing: navy_face(ing, seed * 100 + i) for i, ing in enumerate(SHIPPED_FACE_NAMES)}


def light_cloth(size: tuple[int, int] = (640, 480), seed: int = 0) -> np.ndarray:
    """A light, faintly woven tablecloth, lighter than a navy card all over."""
    width, height = size
    rng = np.random.default_rng(seed)
    cloth = np.empty((height, width, 3), np.float32)
    cloth[:] = (200, 215, 225)
    weave = ((np.arange(width)[None, :] // 3 + np.arange(height)[:, None] // 3) % 2) * 10.0
    cloth += weave[:, :, None] + rng.normal(0, 4, (height, width, 1))
    return np.clip(cloth, 0, 255).astype(np.uint8)
