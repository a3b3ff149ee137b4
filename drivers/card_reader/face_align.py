"""A rectangle a few per cent off its card, moved onto it by aligning the enrolled faces with what
it shows. numpy and OpenCV only.

The rectangle around a change the shelf saw (``shelf_step``) stands off its card: the shelf compares
frames 160 px wide (4 px of a 640 px frame to its pixel), and a neighbour's outline cut out of a
change, or a dot of the table's print joined to it, turns or stretches the rectangle. The fine look,
whose blocks are 6 px of a 60 x 84 face, reads a card 6-8 % off at 0.0 where it reads the card's own
outline at 1.0. Here every enrolled face, either way up, is aligned with the frame seen in and around
the rectangle (``cv2.findTransformECC``, an affine motion: a 20 degree tilt's perspective is small
across one card), small first for every face, then at the fine look's size for the face that
aligned best; the rectangle moved with it is the outline a look then reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from .keypoints import quad_area, shared_area
from .quad_fit import order_quad
from .settings_check import check_settings


@dataclass(frozen=True)
class AlignSettings:
    """Every number the alignment uses, with the reason for its value."""

    #: the size every face, either way up, is first aligned at (width, height): a quarter of the
    #: fine look's pixels, as the best of 16 alignments (8 faces) is all this size must find
    coarse: tuple[int, int] = (30, 42)
    #: ... and the size the best face is aligned at again: the fine look's (``fine_look.FINE_W``, ``FINE_H``)
    fine: tuple[int, int] = (60, 84)
    #: the most iterations of each alignment; one that fits stops sooner, at ``epsilon`` (on the
    #: development scene full-bleed 38100298, 10 and 30 moved the rectangle to the outline 30 and 40
    #: did, to the pixel, in about the same time: an alignment's cost lies in its setting up)
    iterations: tuple[int, int] = (30, 40)
    #: an alignment stops when a step moves the motion by less than this
    epsilon: float = 1e-4
    #: the frame is seen this share of the rectangle's width and height beyond it on every side: a
    #: rectangle a few per cent off leaves the card's edge within it
    margin: float = 0.15
    #: the moved outline and the rectangle share at least this much of the larger: the alignment
    #: moves a rectangle onto its card, it never grows one over a card mostly hidden beside it (the
    #: rectangles of the development scenes it reads right moved onto their cards sharing 0.78-0.95:
    #: full-bleed 38100298, tarot 38100065, 38100114, 38100139; one half off its card, the tests'
    #: tarot cards, is refused)
    least_shared: float = 0.7

    def __post_init__(self) -> None:
        check_settings(self, at_most={"margin": 0.5, "least_shared": 1.0, "epsilon": 0.1})


SETTINGS = AlignSettings()


class FaceAligner:
    """The enrolled faces in grey at the alignment's sizes, and the alignment of a rectangle."""

    def __init__(self, faces: Mapping[str, np.ndarray], settings: AlignSettings = SETTINGS) -> None:
        if not isinstance(settings, AlignSettings):
            raise TypeError(f"settings must be AlignSettings, not {type(settings).__name__}")
        self.settings = settings
        grey = {ing: cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32) for ing, face in faces.items()}
        self._faces = {size: {ing: cv2.resize(g, size, interpolation=cv2.INTER_AREA) for ing, g in grey.items()}
                       for size in (settings.coarse, settings.fine)}

    def aligned(self, frame: np.ndarray, rectangle: np.ndarray) -> tuple[str, np.ndarray] | None:
        """The face that aligns best with the card ``rectangle`` (frame px) stands off, and the
        outline (frame px, clockwise from the card's own top-left) it moves the rectangle to; None
        where no face aligns, or the outline moved away from the rectangle (``least_shared``)."""
        s = self.settings
        start = order_quad(np.asarray(rectangle, np.float32))
        best: tuple[float, str, np.ndarray] | None = None
        for oriented in (start, np.roll(start, 2, axis=0)):
            seen = self._seen(frame, oriented, s.coarse)       # once for every face
            for ingredient, face in self._faces[s.coarse].items():
                moved = self._align(seen, face, s.iterations[0])
                if moved is not None and (best is None or moved[1] > best[0]):
                    best = (moved[1], ingredient, moved[0])
        if best is None:
            return None
        _, ingredient, coarse = best
        if not self._on_the_rectangle(coarse, start):       # collapsed, or moved off to another card
            return None
        moved = self._align(self._seen(frame, coarse, s.fine), self._faces[s.fine][ingredient], s.iterations[1])
        if moved is None or not self._on_the_rectangle(moved[0], start):
            return None
        return ingredient, moved[0]

    def _on_the_rectangle(self, outline: np.ndarray, rectangle: np.ndarray) -> bool:
        """Whether ``outline`` shares ``least_shared`` of the larger of it and ``rectangle``."""
        larger = max(quad_area(outline), quad_area(rectangle))
        return shared_area(outline, rectangle) >= self.settings.least_shared * larger

    def _seen(self, frame: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """The frame in and around ``quad`` (frame px, oriented), grey, the quad warped to ``size``
        with ``margin`` of it beyond on every side; and the warp."""
        w, h = size
        m = self.settings.margin
        seen_at = np.array([[m * w, m * h], [(1 + m) * w, m * h], [(1 + m) * w, (1 + m) * h], [m * w, (1 + m) * h]],
                           np.float32)
        to_seen = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), seen_at)
        warped = cv2.warpPerspective(frame, to_seen, (round((1 + 2 * m) * w), round((1 + 2 * m) * h)),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32), to_seen

    def _align(self, seen: tuple[np.ndarray, np.ndarray], face: np.ndarray,
               iterations: int) -> tuple[np.ndarray, float] | None:
        """The quad ``seen`` was warped from (``_seen``) moved so that ``face`` lines up with the
        frame (frame px), and how well it does (ECC's correlation); None where the alignment fails."""
        image, to_seen = seen
        h, w = face.shape
        m = self.settings.margin
        motion = np.array([[1, 0, m * w], [0, 1, m * h]], np.float32)         # the face where the quad is
        criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, self.settings.epsilon)
        try:
            score, motion = cv2.findTransformECC(face, image, motion, cv2.MOTION_AFFINE, criteria, None, 3)
            from_seen = np.linalg.inv(to_seen)
        except (cv2.error, np.linalg.LinAlgError):  # no convergence (a flat patch, a face unlike it), a flat quad
            return None
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) @ motion[:, :2].T + motion[:, 2]
        outline = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), from_seen).reshape(4, 2)
        if not np.isfinite(outline).all():
            return None
        return outline.astype(np.float32), float(score)
