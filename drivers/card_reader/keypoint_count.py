"""Counting by keypoints: enrolled cards, face up or face down, placed where no named card of their face lies.
numpy and OpenCV only.

The outline stages count the cards they can see by their light (``count``). Three kinds escape them:

* a card lying face down: a back is dark or patterned all over, so it neither stands out by its
  light nor correlates with any face;
* a card as dark as its shelf (a navy card on slate, a card in deep shadow), or merged into a glare
  spot, whose outline no split of the light gives;
* a card beneath another, taken into the top card's outline (widened over it), whose print
  outside that outline places it over the card named.

All still show their print. The frame's contrast is evened out, the named cards are masked, and
the frame's keypoints are matched against the faces' and, when it was enrolled, the back's together
(a keypoint of the faces' shared frame matches several faces and falls to the ratio test); a
homography fitted to one card's matches places it (``KeypointIndex``, as the second look places
cards). Anything placed apart from the named cards, or over one but of another face, is a card the
reading has not accounted for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .keypoints import KeypointCard, KeypointIndex, quad_area, shared_area
from .settings_check import check_settings

#: the back's key in the keypoint index: no face name can be it (face names are non-empty and
#: printable; this one starts with a NUL)
BACK_KEY = "\0back"


@dataclass(frozen=True)
class KeypointCountSettings:
    """Every number the count by keypoints uses, with the reason for its value."""

    #: frame keypoints searched: the named cards are masked out, so the rest of the frame is left
    #: to the shelf and the cards missed; 1,000 placed as many backs as 2,000 on the designs
    #: tried, and 500 let one face-down card in 150 through
    features: int = 1000
    #: a card of the named card's own face (or over a card whose face is not given) placed over
    #: more than this share of it is that card's print again; another face placed there is a card
    #: beneath it (class: a heavy overlap outlined as the top card widened over the one beneath,
    #: whose keypoints outside the outline placed it over 0.55 of the outline: tarot 29101933,
    #: a wrong reading of the run at f783fb8). On 1250 development and 1500 seen scenes of the
    #: five designs one card was placed over more than this share of an "ok"'s card: another
    #: face, a card beneath a heavy overlap's top card (in a frame unsure anyway); none was a
    #: named card's print again
    shared: float = 0.3
    #: the frame's contrast is evened out in tiles of this many per side before its keypoints are
    #: found (CLAHE): ORB's corner test has a fixed threshold, and a back in dim light or shadow,
    #: its print a few grey levels deep, gave it no corners
    contrast_tiles: int = 8
    #: ... up to this gain per tile (CLAHE's clip limit): enough for a back at half the light,
    #: little enough that the shelf's grain does not become corners
    contrast_gain: float = 2.0

    def __post_init__(self) -> None:
        check_settings(self)


SETTINGS = KeypointCountSettings()


def evened_contrast(frame: np.ndarray, settings: KeypointCountSettings = SETTINGS) -> np.ndarray:
    """``frame`` (BGR) in grey, its contrast evened out tile by tile (CLAHE, ``contrast_tiles``
    and ``contrast_gain``) for ORB's fixed corner threshold."""
    tiles = settings.contrast_tiles
    # a CLAHE object keeps work buffers: one a call, so two threads never share one
    contrast = cv2.createCLAHE(settings.contrast_gain, (tiles, tiles))
    return contrast.apply(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))


@dataclass(frozen=True)
class PlacedCard:
    """A card placed by its keypoints: its corners (frame px) and whether it is the back."""

    quad: np.ndarray
    face_down: bool


class KeypointCount:
    """The enrolled faces' keypoints (and the back's), and the search for cards apart from those named."""

    def __init__(self, faces: Mapping[str, np.ndarray], back: np.ndarray | None = None,
                 settings: KeypointCountSettings = SETTINGS) -> None:
        self._index = KeypointIndex({**faces, **({BACK_KEY: back} if back is not None else {})})
        self.settings = settings

    def placed(self, frame: np.ndarray) -> list[KeypointCard]:
        """Every card this count's search places in the whole of ``frame``, its contrast evened
        out, the back among them (``BACK_KEY``): the search ``find`` makes with no card named,
        remembered with it."""
        everywhere = np.full(frame.shape[:2], 255, np.uint8)
        return self._index.find(evened_contrast(frame, self.settings), everywhere, self.settings.features)

    def find(self, frame: np.ndarray, named: Sequence[np.ndarray],
             faces: Sequence[str | None] | None = None) -> list[PlacedCard]:
        """Cards placed in ``frame`` apart from the ``named`` cards' quads (frame px), whose faces
        (ingredients; None where not known) ``faces`` gives in the same order: a card placed over
        a named card is that card's print again only where it is of that card's face."""
        if faces is not None and len(faces) != len(named):
            raise ValueError(f"KeypointCount.find: {len(faces)} faces for {len(named)} named cards")
        own = list(faces) if faces is not None else [None] * len(named)
        mask = np.full(frame.shape[:2], 255, np.uint8)
        for quad in named:
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 0)
        found = []
        for card in self._index.find(evened_contrast(frame, self.settings), mask, self.settings.features):
            area = quad_area(card.quad)
            if any(face in (None, card.ingredient) and shared_area(card.quad, q) > self.settings.shared * min(
                    area, quad_area(q)) for q, face in zip(named, own)):
                continue
            found.append(PlacedCard(np.asarray(card.quad, np.float32), card.ingredient == BACK_KEY))
        return found
