"""Cards smaller or larger than the outline stages read: where to look again. numpy and OpenCV only.

Every stage reads cards in a work image about 240 px high, where a card stands 25-72 % of the
height; the lower bound keeps shelf texture from passing for cards, the upper one the shelf's own
large patches. A camera farther from its shelf shows cards at 15-25 % of the frame: too small to
find there, and too small to name (a thumbnail warped from a card 40 px high has lost its
illustration). Where the outlines name no card of the usual size, things of a small card's size
are looked for, by their outlines in the work image and by their closed edges in the frame (a dark
card's thin rim); the frame is cut around them, brought up to a usual frame's height, and read again
whole, so the cards stand in the cut-out at the size every stage knows. A camera close to its
shelf shows them at 60-85 %: beside an outline longer than the usual range, the frame is read
again with outlines of the large cards' range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .detect import Detector
from .keypoints import quad_area, shared_area
from .settings_check import check_settings


@dataclass(frozen=True)
class ZoomSettings:
    """Every number the zoom uses, with the reason for its value."""

    #: a small card's long side, as a share of the work image's height: the smallest card the kit
    #: reads (15 % of the frame, issue 15 point 3) turned by the camera's tilt is about 0.12; the
    #: upper bound overlaps the outlines' own lower bound (0.25) by a tilted card's bounding box
    card_height: tuple[float, float] = (0.1, 0.3)
    #: a quad seen by the outline stages with a long side in this range (share of the work image's
    #: height) is a card of the usual size, and cards on one shelf lie at one distance, so none is
    #: small: above the small cards' range, below the largest card the outlines read (0.72)
    usual_card: tuple[float, float] = (0.32, 0.72)
    #: a frame the outlines leave unsure with a quad longer than the usual range (a camera close
    #: to its shelf: cards of 60-85 % of the frame, issue 15 point 3) is read again with outlines
    #: of this range: from the middle of the usual range (a tilted card's long side is its height
    #: and more) to the whole height
    large_card: tuple[float, float] = (0.45, 1.0)
    #: a card should stand at most this share of the cut-out's height: a card's neighbour, unseen,
    #: should lie whole inside (a card cut by a frame's edge is the reader's weakest case), and a card
    #: larger than the thing seen of it (its inner frame, its light half) still in the range the
    #: outline stages read (0.25-0.72)
    card_share: float = 0.32
    #: ... and at least this share, or the cut-out gains too little to be read again: the outline
    #: stages' own lower bound (0.25) with room for a card's tilt
    least_share: float = 0.27
    #: the cut-out reaches at least this many card heights beyond the things seen on each side: a
    #: card's outline cut by the cut-out's edge is unreadable
    margin: float = 0.5
    #: a thing seen is a card named in the cut-out when they share this much of the thing's area:
    #: a thing seen is a card's outline or a part of it (its inner frame, its light half)
    covered: float = 0.6
    #: the cut-out is brought up at most this many times: beyond, its cards are blurred past
    #: naming (a card of 15 % in a 320 x 240 frame is 36 px high)
    largest_factor: float = 3.0
    #: a card named in the cut-out longer than this against the largest thing seen shows that the
    #: things were parts of cards (an inner frame is about 0.75 of its card), and the cut-out, cut
    #: for smaller cards, is cut again around the cards named; a card's outline fitted a little
    #: inside or outside its edge differs by a few per cent
    larger_than_seen: float = 1.15
    #: after a reading in a cut-out, the whole frame is counted for outlines of a card this large
    #: against the largest card named (long side): cards on one shelf lie at one distance, and a
    #: tilt of 20 degrees changes a side by about a sixth; a card half under another is counted
    #: by the cut-out's own reading
    count_sizes: tuple[float, float] = (0.7, 1.4)
    #: the cut-out is brought up to this height (px): a usual frame's (640 x 480), so the fine
    #: look, the verification and the keypoints see the card at the size they read it in a frame
    frame_height: int = 480
    #: small cards are also looked for by their edges, in the frame brought down to at most this
    #: height (px): a card's thin light rim around a dark frame (a navy deck on a dark shelf), one
    #: or two px at 480, is lost in the work image, where the outlines see no card-sized blob
    edge_height: int = 480
    #: the edge finder's two levels (Canny's hysteresis, grey levels): on 30 small-card scenes each
    #: of three designs (seeds from 6,100,000) these found 22, 25 and 29 of their 60 cards; 20/60
    #: fewer of each (17, 20, 22: the shelf's texture joins the cards' edges), 60/180 fewer of the
    #: dark deck's (17) for 2-3 more of the others'
    edge_levels: tuple[int, int] = (40, 120)
    #: a closed edge's hull is a quad when it keeps to four corners within this share of its
    #: perimeter: a card's rounded corners and a pixel's rounding stay inside, a finger across it not
    edge_corner_tolerance: float = 0.03
    #: ... and it is card-shaped when it fills this share of the rectangle around it (a card seen
    #: tilted is a trapezium that fills 0.9 or more; a bent shelf pattern's hull far less) ...
    edge_filled: float = 0.8
    #: ... and is as long over short as a card may look: 1.4, tilted up to 20 degrees (the outline
    #: stages' own range); a tablecloth's squares are 1.0
    edge_aspect: tuple[float, float] = (1.1, 1.8)
    #: the rectangle upright around a card is at least as long as the card's long side and at most
    #: this many times it (a card turned 45 degrees: (1 + 1/1.4) / sqrt(2) = 1.21): edges of other
    #: sizes are passed over before their shape is looked at
    edge_box: float = 1.25
    #: a cut-out around changes of the shelf (``cut_around``) reaches this share of the frame's
    #: height beyond them: ``margin`` of the smallest card the kit reads (15 %, issue 15 point 3),
    #: as the cards' own size is unknown where their changes met
    change_margin: float = 0.075
    #: ... and is read only when it shows its cards at least this many times as large as the work
    #: image of the whole frame did: less, and it shows them at the size the stages just failed at
    least_gain: float = 1.1

    def __post_init__(self) -> None:
        # ``edge_levels`` is no range: Canny takes its two levels either way round. A cut-out is cut
        # for its card to stand at most ``card_share`` of it and dropped below ``least_share``: with
        # ``least_share`` over ``card_share`` every cut-out would be dropped, at it nearly every one
        check_settings(self, ordered=("card_height", "usual_card", "large_card", "count_sizes", "edge_aspect"),
                       under=(("least_share", "card_share"),))


SETTINGS = ZoomSettings()


@dataclass(frozen=True)
class CutOut:
    """A part of a frame brought to a usual frame's size: ``image``, its top-left corner in the
    frame (``x``, ``y``) and its ``factor`` (cut-out px per frame px)."""

    image: np.ndarray
    x: int
    y: int
    factor: float

    def to_frame(self, quad: np.ndarray) -> np.ndarray:
        """A quad of the cut-out (cut-out px) in frame px."""
        return np.asarray(quad, np.float32) / np.float32(self.factor) + np.array([self.x, self.y], np.float32)

    def outline(self) -> np.ndarray:
        """The part's corners in frame px, clockwise from its top-left."""
        height, width = self.image.shape[:2]
        return self.to_frame(np.float32([[0, 0], [width, 0], [width, height], [0, height]]))

    def same_part(self, frame: np.ndarray) -> np.ndarray:
        """The same part of another frame of the same size (the empty shelf's), brought up alike."""
        height, width = self.image.shape[:2]
        part = frame[self.y:self.y + round(height / self.factor), self.x:self.x + round(width / self.factor)]
        return cv2.resize(part, (width, height), interpolation=cv2.INTER_LINEAR)


def small_cards(small: np.ndarray, seen: Sequence[np.ndarray], settings: ZoomSettings = SETTINGS) -> list[np.ndarray]:
    """Quads (work px) of things of a small card's size in the work image ``small``: the outlines
    of a detector set to small cards, and the quads already ``seen`` (work px) of that size."""
    low, high = settings.card_height
    detector = Detector(min_card_height=low, max_card_height=high)
    h = small.shape[0]
    quads = [c.quad for c in detector.find(small) if c.fitted] + [np.asarray(q, np.float32) for q in seen]
    return [q for q in quads if low * h <= long_side(q) <= high * h]


def edge_outlines(frame: np.ndarray, scale: float, settings: ZoomSettings = SETTINGS) -> list[np.ndarray]:
    """Quads (work px; ``scale``: work px per frame px) of closed card-shaped edges of a small
    card's size in ``frame``: a card found by its rim where its light does not stand out."""
    factor = min(1.0, settings.edge_height / frame.shape[0])
    image = frame if factor == 1.0 else cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    edges = cv2.dilate(cv2.Canny(grey, *settings.edge_levels), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    low, high = settings.card_height
    height = image.shape[0]
    found = []
    for contour in contours:
        _, _, box_w, box_h = cv2.boundingRect(contour)
        if not low * height <= max(box_w, box_h) <= settings.edge_box * high * height:
            continue
        hull = cv2.convexHull(contour)
        corners = cv2.approxPolyDP(hull, settings.edge_corner_tolerance * cv2.arcLength(hull, True), True)
        if len(corners) != 4:
            continue
        quad = corners.reshape(4, 2).astype(np.float32)
        if not low * height <= long_side(quad) <= high * height:
            continue
        (_, _), (w, h), _ = cv2.minAreaRect(quad)
        if min(w, h) < 1 or not settings.edge_aspect[0] <= max(w, h) / min(w, h) <= settings.edge_aspect[1]:
            continue
        if cv2.contourArea(quad) < settings.edge_filled * w * h:
            continue
        found.append(quad * np.float32(scale / factor))
    return found


def cut_out(frame: np.ndarray, scale: float, quads: Sequence[np.ndarray],
            settings: ZoomSettings = SETTINGS) -> CutOut | None:
    """The part of ``frame`` around ``quads`` (work px; ``scale``: work px per frame px) in which
    the largest of them stands at most ``card_share`` of the height, brought to ``frame_height``;
    None without quads or when a card would stand less than ``least_share`` of it."""
    if not quads:
        return None
    points = np.vstack([np.asarray(q, np.float64).reshape(4, 2) for q in quads]) / scale
    card = max(long_side(q) for q in quads) / scale
    (x0, y0), (x1, y1) = points.min(axis=0) - settings.margin * card, points.max(axis=0) + settings.margin * card
    height = max(y1 - y0, 0.75 * (x1 - x0), card / settings.card_share)
    if card < settings.least_share * height:
        return None
    return _cut(frame, (x0 + x1) / 2, (y0 + y1) / 2, height, settings)


def cut_around(frame: np.ndarray, quads: Sequence[np.ndarray], settings: ZoomSettings = SETTINGS) -> CutOut | None:
    """The part of ``frame`` around ``quads`` (frame px: the rectangles around the changes since
    the shelf was empty), as small as they and ``change_margin`` allow, brought to
    ``frame_height`` (at most ``largest_factor`` times); None without quads, or when it would show
    them less than ``least_gain`` times as large as the whole frame does. Small cards whose
    changes met in one are read there at the size the outline stages know, where the things seen
    in the work image (``cut_out``) were too many or too far apart."""
    if not quads:
        return None
    points = np.vstack([np.asarray(q, np.float64).reshape(4, 2) for q in quads])
    margin = settings.change_margin * frame.shape[0]
    (x0, y0), (x1, y1) = points.min(axis=0) - margin, points.max(axis=0) + margin
    height = max(y1 - y0, 0.75 * (x1 - x0), settings.frame_height / settings.largest_factor)
    if height * settings.least_gain > frame.shape[0]:
        return None
    return _cut(frame, (x0 + x1) / 2, (y0 + y1) / 2, height, settings)


def _cut(frame: np.ndarray, cx: float, cy: float, height: float, settings: ZoomSettings) -> CutOut | None:
    """The part of ``frame`` ``height`` px high and a usual frame's 4:3, centred on (``cx``,
    ``cy``) as far as the frame allows, brought to ``frame_height``; None when that would bring it
    up more than ``largest_factor`` times."""
    frame_h, frame_w = frame.shape[:2]
    height, width = min(height, frame_h), min(height / 0.75, frame_w)
    left = int(round(min(max(0.0, cx - width / 2), frame_w - width)))
    top = int(round(min(max(0.0, cy - height / 2), frame_h - height)))
    part = frame[top:top + int(round(height)), left:left + int(round(width))]
    factor = settings.frame_height / part.shape[0]
    if factor > settings.largest_factor:
        return None
    image = cv2.resize(part, (max(1, round(part.shape[1] * factor)), settings.frame_height),
                       interpolation=cv2.INTER_LINEAR)
    return CutOut(image, left, top, factor)


def usual_size(quad: np.ndarray, height: int, settings: ZoomSettings = SETTINGS) -> bool:
    """Whether a quad (work px; ``height``: the work image's) is a card of the usual size."""
    low, high = settings.usual_card
    return low * height <= long_side(quad) <= high * height


def smaller_than_usual(quad: np.ndarray, height: int, settings: ZoomSettings = SETTINGS) -> bool:
    """Whether a quad (work px) is smaller than a card of the usual size: a card named there lies
    at the edge of the outline stages' range, where they see its neighbours least well."""
    return long_side(quad) < settings.usual_card[0] * height


def larger_than_usual(quad: np.ndarray, height: int, settings: ZoomSettings = SETTINGS) -> bool:
    """Whether a quad (work px) is longer than a card of the usual size."""
    return long_side(quad) > settings.usual_card[1] * height


def covered(thing: np.ndarray, cards: Sequence[np.ndarray], settings: ZoomSettings = SETTINGS) -> bool:
    """Whether a thing seen (a quad) is one of the ``cards`` (quads, the same px)."""
    return any(shared_area(thing, card) >= settings.covered * quad_area(thing) for card in cards)


def long_side(quad: np.ndarray) -> float:
    """The longest side of a quad."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    return float(max(np.linalg.norm(q[(i + 1) % 4] - q[i]) for i in range(4)))
