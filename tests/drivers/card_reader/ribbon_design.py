"""A card design of the independent tester's kind, for the reader's tests: one shared frame for all 8
faces (a parchment face, a dark border, an emblem, a title ribbon across the card), only the
illustration and the title differ. Unlike the shipped placeholder faces, the ribbon splits the
card's light parchment in two, so an outline can stop at it (an inner frame of the card)."""

from __future__ import annotations

import cv2
import numpy as np

from drivers.card_reader import SHIPPED_FACE_NAMES

FACE_SIZE = (250, 350)
#: the title ribbon's rows (fractions of the card height): the parchment above it is 0.68 of the card
RIBBON = (0.68, 0.80)


def _illustration(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Coloured shapes on a two-tone gradient: detailed, and different from seed to seed."""
    top, bottom = rng.integers(30, 230, 3), rng.integers(30, 230, 3)
    ramp = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    img = (top * (1 - ramp) + bottom * ramp) * np.ones((1, width, 1), np.float32)
    for _ in range(14):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        axes = (int(rng.integers(6, width // 3)), int(rng.integers(6, height // 3)))
        if rng.random() < 0.5:
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        else:
            pts = rng.integers(0, [width, height], (4, 2)).astype(np.int32)
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def ribbon_face(ingredient: str, seed: int) -> np.ndarray:
    """One face of the design (250 x 350 BGR): the shared frame, this ingredient's picture and title."""
    w, h = FACE_SIZE
    rng = np.random.default_rng(seed)
    shared = np.random.default_rng(424242)                       # the frame is the same on every face
    face = np.empty((h, w, 3), np.float32)
    face[:] = (40, 48, 70)                                       # dark brown border, up to the cut edge
    grain = shared.normal(0, 6, (h, w, 1)).astype(np.float32)
    cv2.rectangle(face, (14, 14), (w - 15, h - 15), (170, 205, 225), -1)      # parchment
    face[14:h - 14, 14:w - 14] += grain[14:h - 14, 14:w - 14]
    win = (30, 44, w - 30, int(RIBBON[0] * h) - 12)                          # illustration window
    face[win[1]:win[3], win[0]:win[2]] = _illustration(rng, win[2] - win[0], win[3] - win[1])
    cv2.rectangle(face, win[:2], win[2:], (60, 70, 90), 2)
    y0, y1 = int(RIBBON[0] * h), int(RIBBON[1] * h)
    cv2.rectangle(face, (0, y0), (w, y1), (40, 40, 140), -1)               # ribbon, border to border
    face = np.clip(face, 0, 255).astype(np.uint8)
    (tw, th), _ = cv2.getTextSize(ingredient, cv2.FONT_HERSHEY_DUPLEX, 1.0, 2)
    cv2.putText(face, ingredient, ((w - tw) // 2, (y0 + y1 + th) // 2), cv2.FONT_HERSHEY_DUPLEX, 1.0,
                (200, 230, 240), 2, cv2.LINE_AA)
    cv2.circle(face, (w // 2, 22), 16, (40, 150, 200), -1, cv2.LINE_AA)    # emblem on the top border
    cv2.circle(face, (w // 2, 22), 16, (30, 60, 90), 2, cv2.LINE_AA)
    for x in (40, w - 40):                                                   # the same motif below the ribbon
        cv2.circle(face, (x, int(0.9 * h)), 9, (90, 120, 150), -1, cv2.LINE_AA)
    return face


def ribbon_faces(seed: int = 7) -> dict[str, np.ndarray]:
    """The 8 faces of the design, ingredient id -> BGR image."""
    return {ing: ribbon_face(ing, seed * 100 + i) for i, ing in enumerate(SHIPPED_FACE_NAMES)}
