"""Counting apart from naming: card-like things in view that no named card accounts for. numpy and
OpenCV only.

The outline stages find cards by their light against the shelf, at a level set by the brightest
cards: a card in shadow (half as bright as the one read, fully visible) falls below it with the
shelf and is never a candidate, and the frame read "ok" a card short. Here the cards named are
painted out of the work image in the shelf's tone, what is left is divided by its light at a
card's scale (``flattened``), and the outline detector looks again. An outline of a card's shape
and about the named cards' size, lying apart from them, whose face correlates with some enrolled
face, is a card not accounted for: the frame is unsure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .detect import Detector
from .fine_look import FineMatcher
from .keypoints import quad_area, shared_area
from .second_look import paint_out
from .settings_check import check_settings
from .verify import SETTINGS as VERIFY_SETTINGS
from .verify import side_ratio


@dataclass(frozen=True)
class CountSettings:
    """Every number the count uses, with the reason for its value."""

    #: the light is measured by a blur this wide (card sides): wider than a card's frame and title
    #: (so a card stays lighter than its light), narrower than a shadow's soft edge
    light_scale: float = 0.6
    #: the light is never taken darker than this (grey level): a black shelf's noise stays noise
    darkest: float = 8.0
    #: the level a pixel as bright as its light gets: mid-grey, so a card's frame (about twice its
    #: shelf) stays below white
    shelf_level: float = 100.0
    #: an outline this large against the named cards (area) can be another card: cards on one shelf
    #: lie at one distance, and a tilt of 20 degrees changes their size by about a third
    size: tuple[float, float] = (0.55, 1.8)
    #: an outline whose warped face correlates this much with some enrolled face (either way up) is
    #: a card: a card in shadow still shows its face's detail (0.45 and up on the scenes tried);
    #: shelf grain raised by the gain into a card-shaped blob stays far below
    face_level: float = 0.3
    #: an outline sharing more than this of its area with a named card is that card again
    shared: float = 0.3

    def __post_init__(self) -> None:
        check_settings(self, ordered=("size",))


SETTINGS = CountSettings()


def flattened(small: np.ndarray, card_side: float, settings: CountSettings = SETTINGS) -> np.ndarray:
    """The work image divided by its light at a card's scale: the shelf around a card in shadow is
    as dark as the card's frame is bright against it, whatever the shadow, so one split of the
    light finds cards in shadow and in full light alike."""
    pixels = small.astype(np.float32)
    h, w = small.shape[:2]
    # blurred at 1/8 of the size and brought back: the light is smooth, and a blur as wide as a
    # card at full size cost more than the whole reading
    coarse = cv2.resize(pixels, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
    coarse = cv2.GaussianBlur(coarse, (0, 0), max(0.5, settings.light_scale * card_side / 8))
    light = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(pixels / np.maximum(settings.darkest, light) * settings.shelf_level, 0, 255).astype(np.uint8)


def unaccounted(frame: np.ndarray, small: np.ndarray, scale: float, named: Sequence[np.ndarray],
                detector: Detector, faces: FineMatcher, settings: CountSettings = SETTINGS) -> list[np.ndarray]:
    """Outlines of cards in the work image ``small`` (``frame`` scaled by ``scale``) apart from the
    ``named`` cards' quads (work px): card-shaped, card-sized, and showing a card's face."""
    if not named:
        return []
    card = float(np.mean([quad_area(q) for q in named]))
    rest = flattened(paint_out(small, named), float(np.sqrt(card)), settings)
    found = []
    for cand in detector.find(rest):
        if not cand.fitted or cand.cut:
            continue             # shelf grain raised by the gain makes loose blobs, never a card's outline
        if not VERIFY_SETTINGS.aspect[0] <= side_ratio(cand.quad) <= VERIFY_SETTINGS.aspect[1]:
            continue
        area = quad_area(cand.quad)
        if not settings.size[0] * card <= area <= settings.size[1] * card:
            continue
        if any(shared_area(cand.quad, q) > settings.shared * min(area, quad_area(q)) for q in named):
            continue
        quad = cand.quad / scale
        if max(float(faces.scores(frame, q).max()) for q in (quad, np.roll(quad, 2, axis=0))) < settings.face_level:
            continue
        found.append(cand.quad)
    return found
