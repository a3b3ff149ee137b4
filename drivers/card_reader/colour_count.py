"""Counting by the named cards' own frame colours: another card of the same deck beside them.

The outline stages find cards by their light against the shelf. A card darker than its shelf (a
navy frame on green cloth or a white tablecloth), or as bright as it, gives no outline at any
split of the light, and when its face has little texture of its own (a smooth colour wheel) the
keypoint stages cannot place it either: the frame read "ok" a card short. But every card of a deck
shares its frame, and the cards just named show that frame in this very frame's light. So the
hue and saturation of the named cards' shared frame are compared with the shelf's: where the
frame's colours are likelier than the shelf's, outside the named cards, a region large enough to
be a card's visible part is a candidate, and it is counted when the card's layout or a face shows
in the rectangle around it. Hue and saturation, not brightness: a card in shadow keeps its colour.

A deck whose frame shares its colours with the shelf (parchment on wood) lights up patches of the
shelf, which the layout test has to refuse (it lets about one right reading in a hundred or two go
unsure); a deck without a shared frame (full-bleed faces) is not helped at all. numpy and OpenCV
only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from .keypoints import quad_area
from .settings_check import check_settings
from .thumbnails import fine_detail


@dataclass(frozen=True)
class ColourCountSettings:
    """Every number the colour count uses, with the reason for its value."""

    #: hue and saturation bins: 6 degrees of hue, 8 levels of saturation; finer splits the frame's
    #: few hundred pixels too thinly, coarser merges navy with the green of a cloth
    bins: tuple[int, int] = (30, 32)
    #: a pixel holds the frame's colour when the named frames are at least this much likelier than
    #: the shelf to show it (likelihood share, 0.5 = even): a little above even, so a colour the
    #: shelf shows as often as the frame does (parchment on wood) stays shelf
    likelier: float = 0.55
    #: the named cards, grown by this factor, are left out of both the shelf's colours and the
    #: search: the cut edge and a little shadow around a card are neither frame nor shelf
    grown: float = 1.15
    #: the likeness is smoothed, and its regions closed, over this many work pixels: a gold rim, a
    #: title or a finger breaks a frame's colour by about that much at a card of 35-60 % of the height
    gap: int = 5
    #: a region this large (of a named card's area) can be a card's visible part: a card half under
    #: another still shows about a third of itself; the 12 cards dropped on tuning scenes of a dark
    #: deck (tarot, seeds from 9,100,000) showed 0.26-0.95 of a card
    least_area: float = 0.25
    #: the rectangle around a region this elongated (long side over short) is not a card's visible
    #: part: a card is 1.4, and one cut lengthwise by another card gives up to about 2.3
    most_elongated: float = 2.3
    #: the rectangle around the region shows the cards' shared layout (grey correlation with the
    #: mean face, either way up) at least this well: 8 of those 12 dropped cards gave 0.49-0.73;
    #: patches of stone or wood in the frame's colours, on 400 tuning scenes of the other designs
    #: (seeds from 7,500,000), gave 0.05-0.39
    layout_level: float = 0.45
    #: ... or a face (the thumbnail matcher's score) at least this well: the dropped cards gave
    #: 0.75-0.96 (two more where the layout was hidden), the shelf patches 0.18-0.69
    face_level: float = 0.7
    #: the rectangle around the region shows at least this much fine detail (``fine_detail``,
    #: relative to its brightness), as every card's frame edges and title do: a lit, smooth patch
    #: of a warm shelf beside the cards (glare on wood or copper, pale as a parchment frame) passed
    #: the layout test and left right readings `unsure` (5 of the 793 readable scenes of the issue-3
    #: benchmark at aede04b, 0.008-0.031); on hard scenes of the tarot and woodcut without the shelf
    #: (from 71300000 and 71400000) the 23 cards and card parts counted showed 0.060-0.148 and 9 of
    #: the 10 patches counted 0.006-0.037: the bar lies just above those, a third below the cards
    least_detail: float = 0.04

    def __post_init__(self) -> None:
        # ``gap`` is a Gaussian kernel (OpenCV takes odd sizes only); ``likelier`` a share of the
        # likelihood, 0..1: above 1 no pixel could ever hold the frame's colour
        check_settings(self, odd=("gap",), at_most={"likelier": 1})


SETTINGS = ColourCountSettings()


class ThumbnailMatcher(Protocol):
    """What the reader's thumbnail matcher tells: how well a thumbnail shows the faces' shared
    layout, and each face."""

    def layout_score(self, thumb: np.ndarray) -> float: ...
    def scores(self, thumb: np.ndarray) -> np.ndarray: ...


#: the thumbnails of a quad (work px, clockwise from the card's top-left): upright and turned
Thumbnails = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def grown(quad: np.ndarray, factor: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * factor


def frame_likeness(small: np.ndarray, named: Sequence[np.ndarray], frame_samples: np.ndarray,
                   settings: ColourCountSettings = SETTINGS) -> np.ndarray:
    """0..255 per work pixel: how much likelier the named frames' colours (``frame_samples``, S x 3
    HSV uint8) are than the shelf's to show its hue and saturation; 0 on the named cards."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    shelf = np.full(small.shape[:2], 255, np.uint8)
    for quad in named:
        cv2.fillConvexPoly(shelf, np.round(grown(quad, settings.grown)).astype(np.int32), 0)
    ranges = [0, 180, 0, 256]
    frame_hist = cv2.calcHist([frame_samples[None]], [0, 1], None, list(settings.bins), ranges)
    shelf_hist = cv2.calcHist([hsv], [0, 1], shelf, list(settings.bins), ranges)
    # each histogram spread to its neighbouring bins: a colour cast or a shadow moves a hue by a bin
    frame_hist = cv2.GaussianBlur(frame_hist / max(1.0, float(frame_hist.sum())), (3, 3), 0)
    shelf_hist = cv2.GaussianBlur(shelf_hist / max(1.0, float(shelf_hist.sum())), (3, 3), 0)
    share = (frame_hist / (frame_hist + shelf_hist + 1e-6) * 255).astype(np.float32)
    likeness = cv2.calcBackProject([hsv], [0, 1], share, ranges, 1)
    likeness[shelf == 0] = 0
    return likeness


def frame_samples(small: np.ndarray, named: Sequence[np.ndarray], frame_mask: np.ndarray) -> np.ndarray:
    """The named cards' shared-frame pixels as this frame shows them (S x 3 HSV uint8): each card
    (quad clockwise from its top-left) warped, unblurred, to the mask's size, where a blur would mix
    a gold rim into a navy frame and give neither colour."""
    h, w = frame_mask.shape
    corners = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    pixels = [cv2.warpPerspective(small, cv2.getPerspectiveTransform(np.float32(quad), corners), (w, h))[frame_mask]
              for quad in named]
    return cv2.cvtColor(np.concatenate(pixels)[None], cv2.COLOR_BGR2HSV)[0]


def frame_coloured_regions(likeness: np.ndarray, card: float,
                           settings: ColourCountSettings = SETTINGS) -> list[np.ndarray]:
    """The rectangles (work px, 4 x 2 float32) around regions of the frame's colours that are large
    enough to be a card's visible part and no more elongated than one."""
    level = settings.likelier * 255
    gap = settings.gap
    mask = (cv2.GaussianBlur(likeness, (gap, gap), 0) > level).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((gap, gap), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        if cv2.contourArea(contour) < settings.least_area * card:
            continue
        box = cv2.minAreaRect(contour)
        long, short = max(box[1]), min(box[1])
        if short < 1 or long / short > settings.most_elongated:
            continue
        found.append(cv2.boxPoints(box).astype(np.float32))
    return found


def colour_twins(small: np.ndarray, named: Sequence[np.ndarray], frame_mask: np.ndarray,
                 matcher: ThumbnailMatcher, thumbnails: Thumbnails, order: Callable[[np.ndarray], np.ndarray],
                 settings: ColourCountSettings = SETTINGS) -> list[np.ndarray]:
    """Rectangles (work px) around cards of the named cards' deck that none of them accounts for:
    regions of their frame's colours, with a card's fine detail, where the shared layout or a face
    shows. ``frame_mask`` marks the faces' shared frame on an upright card (rows x columns);
    ``order`` puts a rectangle's corners in the order ``thumbnails`` reads (clockwise from a short
    side)."""
    if not named or not frame_mask.any():
        return []
    card = float(np.mean([quad_area(q) for q in named]))
    likeness = frame_likeness(small, named, frame_samples(small, named, frame_mask), settings)
    found = []
    for box in frame_coloured_regions(likeness, card, settings):
        quad = order(box)
        views = thumbnails(quad)
        if fine_detail(views[0]) < settings.least_detail:
            continue
        layout = max(matcher.layout_score(view) for view in views)
        face = float(matcher.scores(views[0]).max())
        if layout >= settings.layout_level or face >= settings.face_level:
            found.append(quad)
    return found
