"""Face-down cards: the enrolled card back, found by its keypoints where no named card lies. numpy
and OpenCV only.

A card lying face down beside a face-up one is a card in view that cannot be named: the frame must
be unsure ("turn the card over"), never "ok" with the other card. The outline stages cannot count
it: backs are dark or patterned all over, so a back neither stands out by its light nor correlates
with any face. What a back has is its own print, the same on every card: its keypoints are matched
against the back's and the faces' together (a keypoint of the shared face frame matches the faces,
not the back, and falls to the ratio test), and a homography fitted to the back's matches places
the card (``KeypointIndex``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .keypoints import KeypointIndex, quad_area, shared_area

#: the back's key in the keypoint index: no face name can be it (face names are non-empty and
#: printable; this one starts with a NUL)
BACK_KEY = "\0back"


@dataclass(frozen=True)
class BackSettings:
    """Every number the search for backs uses, with the reason for its value."""

    #: frame keypoints searched: the named cards are masked out, so the rest of the frame is left
    #: to the shelf and the back; 1,000 placed as many backs as the second look's 2,000 on the
    #: designs tried, in half the time
    features: int = 1000
    #: a back placed over more than this share of a named card is that card's print misread
    shared: float = 0.3
    #: the frame's contrast is evened out in tiles of this many per side before its keypoints are
    #: found (CLAHE): ORB's corner test has a fixed threshold, and a back in dim light or shadow,
    #: its print a few grey levels deep, gave it no corners
    contrast_tiles: int = 8
    #: ... up to this gain per tile (CLAHE's clip limit): enough for a back at half the light,
    #: little enough that the shelf's grain does not become corners
    contrast_gain: float = 2.0


SETTINGS = BackSettings()


class BackFinder:
    """The enrolled back's keypoints (beside the faces'), and the search for it in a frame."""

    def __init__(self, faces: Mapping[str, np.ndarray], back: np.ndarray,
                 settings: BackSettings = SETTINGS) -> None:
        self._index = KeypointIndex({**faces, BACK_KEY: back})
        self.settings = settings

    def find(self, frame: np.ndarray, named: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Quads (frame px) of card backs in ``frame`` apart from the ``named`` cards' quads."""
        mask = np.full(frame.shape[:2], 255, np.uint8)
        for quad in named:
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 0)
        tiles = self.settings.contrast_tiles
        # a CLAHE object keeps work buffers: one a call, so two threads never share one
        contrast = cv2.createCLAHE(self.settings.contrast_gain, (tiles, tiles))
        grey = contrast.apply(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        found = []
        for card in self._index.find(grey, mask, self.settings.features):
            if card.ingredient != BACK_KEY:
                continue
            area = quad_area(card.quad)
            if any(shared_area(card.quad, q) > self.settings.shared * min(area, quad_area(q)) for q in named):
                continue
            found.append(np.asarray(card.quad, np.float32))
        return found
