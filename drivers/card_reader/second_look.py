"""A second look at a frame the outline reader is unsure of, or finds empty (a glare spot can make
a card's blob look like glare): place the cards by their keypoints.

The outline reader is unsure when some card-like region has no outline it can read: cards merged
into one blob, a finger or a glare spot bent an outline, a card in shadow. ``KeypointIndex`` places
cards without outlines. If a region that may hide another card is left beside them, the cards
known are painted out of the work image and the outline reader reads what is left, where a card
merged with a placed one now stands alone. The frame is read "ok" only if all of this holds:

* no placed card is cut off by the frame's edge (a corner more than a tenth of a card out), and no
  two share more than 30 % of the smaller;
* every card the outline reader read confidently is the placed card lying there, or lies apart;
* what is light outside the cards now known is too small to hide a card, shows far less detail
  than the cards (a finger or a hand coming in from the frame's edge), or fades out instead of
  ending at a card's cut edge (a glare spot or a lit patch of shelf); straight bands from the
  frame's edge (fingers, an arm) are taken out of that light first. A region that may still hide a
  card is read as one by the reader's fine look, or the frame stays unsure.

Otherwise the frame stays "unsure": a wrong ingredient is far worse than asking to adjust the cards.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import NamedTuple, Protocol, TypeVar

import cv2
import numpy as np

from .detect import _morph
from .keypoints import FRAME_FEATURES, KeypointCard, KeypointIndex, quad_area, shared_area, skewed

log = logging.getLogger(__name__)

#: a light region that may hide a card is read as one if the rectangle around it is this large
#: (share of the cards known)
HIDING_AREA = (0.75, 1.5)
#: a leftover region this large (share of a card's area) may hide a card ...
LEFTOVER_AREA = 0.2
#: ... unless its detail (relative to the known cards') is below this
LEFTOVER_DETAIL = 0.25
#: ... or, for a skin-coloured region coming in from the frame's edge (a finger, a hand), this
SKIN_DETAIL = 0.45
#: ... or its outline has less than this much sharp edge (card widths): a card shows at least half
#: of itself, so at least a card width of its cut edge; a glare spot's light fades out
SHARP_EDGE = 1.0
#: a step is sharp where the grey level changes by this share of (cards' frames - shelf) per pixel
SHARP_STEP = 0.15
#: a skin-coloured region from the frame's edge narrower than this share of a card's width is a finger
FINGER_WIDTH = 0.6
#: a region is light (card-like) above this share of the way from the shelf to the cards' frames
LIGHT_SHARE = 0.33
#: a region this large (share of a card) beside cards read whole by their outlines may be a card missed
WHOLE_CARD = 0.6
#: ... unless it comes in from the frame's edge through less than this (card widths): a hand
ENTRY_WIDTH = 0.4
#: a straight light band from the frame's edge, thinner than this and longer than that (card
#: widths), filling this share of its rectangle, is a finger or an arm
BAND_WIDTH, BAND_LENGTH, BAND_FILL = 0.5, 0.8, 0.5
#: ... found among the parts of the light thinner than this (card widths)
THIN = 0.45
#: a card placed by keypoints is cut off by the frame when a corner lies further out than this
#: (card widths): a homography from matches bunched at one end of the card is that far off there
CORNER_SLACK = 0.1
#: inliers that give a keypoint card a confidence of 1 - 1/e
INLIER_SCALE = 15.0
#: a card named where the keypoints place a card of another face over more than this share of
#: it is read otherwise: two cards overlap by less than half as a player lays them (0.45 at most
#: in the benchmark's heavy overlaps), so over half of it can only be the other face's own card
READ_OTHERWISE = 0.5


class Sighting(Protocol):
    """A card of the outline reading: ingredient (None if unread), corners in frame px, confidence."""

    @property
    def ingredient(self) -> str | None: ...
    @property
    def quad(self) -> tuple[tuple[float, float], ...]: ...
    @property
    def confidence(self) -> float: ...


SightingT = TypeVar("SightingT", bound=Sighting)


def keypoint_confidence(inliers: int) -> float:
    return 1.0 - math.exp(-inliers / INLIER_SCALE)


def _skin(bgr: np.ndarray) -> np.ndarray:
    ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    cr, cb = ycc[..., 1], ycc[..., 2]
    return (cr > 135) & (cr < 180) & (cb > 85) & (cb < 135)


def _quantile(channel: np.ndarray, mask: np.ndarray, q: float) -> float | None:
    """The ``q`` quantile (0..1, interpolated as numpy does) of a uint8 channel's pixels under a
    uint8 mask, from their histogram; None if the mask is empty."""
    hist = cv2.calcHist([channel], [0], mask, [256], [0, 256]).ravel()
    n = int(hist.sum())
    if n == 0:
        return None
    cum = np.cumsum(hist)
    at = q * (n - 1)
    below = int(np.searchsorted(cum, math.floor(at) + 1))
    above = int(np.searchsorted(cum, math.ceil(at) + 1))
    return below + (above - below) * (at - math.floor(at))


def _levels(grey: np.ndarray, known_mask: np.ndarray) -> tuple[float, float]:
    """The grey levels of the shelf (median of the dark side) and of the known cards' light frames."""
    level, dark = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    shelf = _quantile(grey, cv2.bitwise_and(dark, cv2.bitwise_not(known_mask)), 0.5)
    cards = _quantile(grey, known_mask, 0.8)
    if shelf is None or cards is None:
        return float(level), float(level)
    return shelf, cards


def _light_level(shelf_level: float, frame_level: float) -> float:
    """A grey level a third of the way from the shelf up to the known cards' light frames.

    Low enough for a card in shadow; the shelf's own lit patches show little detail.
    """
    return shelf_level + LIGHT_SHARE * max(0.0, frame_level - shelf_level)


def _detail(grey: np.ndarray, region: np.ndarray) -> float:
    """Fine detail in ``region`` (bool mask) relative to its brightness."""
    g = grey.astype(np.float32)
    fine = np.abs(cv2.GaussianBlur(g, (0, 0), 0.8) - cv2.GaussianBlur(g, (0, 0), 2.5))
    return float(fine[region].mean()) / max(1.0, float(g[region].mean()))


def paint_out(small: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """The work image with the given cards (quads, a little grown) painted in the shelf's tone."""
    painted = small.copy()
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    _, dark = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    tone = [_quantile(channel, dark, 0.5) or 0.0 for channel in cv2.split(small)]
    for q in quads:
        centre = q.mean(axis=0)
        grown = centre + (q - centre) * (1 + 4.0 / max(1.0, math.sqrt(quad_area(q))))
        cv2.fillConvexPoly(painted, np.round(grown).astype(np.int32), tone)
    return painted


class Leftover(NamedTuple):
    """A light region outside the cards known: what could be a card nobody read."""

    area: float            # in cards
    detail: float          # relative to the known cards'
    skin: float            # share of skin-coloured pixels
    finger_like: bool      # reaches the frame's edge, narrower than a card
    sharp_edge: float      # length of its outline that is a sharp step, in card widths
    entry: float = 0.0     # length along the frame's edge where it comes in, in card widths
    box: np.ndarray | None = None   # the smallest rectangle around it (work px)


def _sharp_steps(grey: np.ndarray, shelf_level: float, frame_level: float) -> np.ndarray:
    """Per pixel, the grey level's step (Sobel) as a share of the known cards' frames over the shelf."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy) / (8.0 * max(1.0, frame_level - shelf_level))


def _sharp_edge(light: np.ndarray, region: np.ndarray, steps: np.ndarray, near_known: np.ndarray) -> float:
    """Pixels of the light area's outline inside ``region`` that are sharp steps, away from the
    known cards (where the painting-out made its own edge) and the frame's border."""
    inside = cv2.bitwise_and(light, region.astype(np.uint8) * 255)
    contours, _ = cv2.findContours(inside, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0
    pts = np.vstack([c.reshape(-1, 2) for c in contours])
    h, w = light.shape
    x, y = pts[:, 0], pts[:, 1]
    away = (near_known[y, x] == 0) & (x > 2) & (y > 2) & (x < w - 3) & (y < h - 3)
    return float(np.count_nonzero(steps[y[away], x[away]] > SHARP_STEP))


def finger_bands(light: np.ndarray, card_w: float) -> np.ndarray:
    """The parts of a light mask (uint8) that are fingers or an arm: straight bands thinner than
    ``BAND_WIDTH`` card widths and longer than ``BAND_LENGTH``, coming in from the frame's edge.

    Taken away before the hull of a light region is drawn, so a glare spot beside a finger is judged
    on its own (its light fades out). A card shows at least half of itself, thicker than such a band,
    and its light frame is a ring, which fills no straight band.
    """
    h, w = light.shape
    bands = np.zeros((h, w), np.uint8)
    thick = _morph(light, cv2.MORPH_OPEN, max(3, int(THIN * card_w) | 1))
    thin = cv2.bitwise_and(light, cv2.bitwise_not(thick))
    x0, y0, roi_w, roi_h = cv2.boundingRect(thin)             # labelled there only
    if roi_w == 0:
        return bands
    count, labels, stats, _ = cv2.connectedComponentsWithStats(thin[y0:y0 + roi_h, x0:x0 + roi_w])
    roi_bands = bands[y0:y0 + roi_h, x0:x0 + roi_w]
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        x, y = x + x0, y + y0
        if area < 0.1 * card_w * card_w or not (x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1):
            continue
        component = (labels == i).astype(np.uint8)
        (_, _), (side_a, side_b), _ = cv2.minAreaRect(cv2.findNonZero(component))
        length, width = max(side_a, side_b), min(side_a, side_b)
        if length >= BAND_LENGTH * card_w and width <= BAND_WIDTH * card_w and area >= BAND_FILL * length * width:
            roi_bands[component > 0] = 255
    return bands


def _may_hold_a_region(left: np.ndarray, min_pixels: float) -> bool:
    """Whether a light mask has a part whose hull could cover ``min_pixels``: the regions made
    from it (hulls of its parts once finger bands are out, then opened) only lose pixels, and a
    filled hull has fewer pixels than its area plus its perimeter and one."""
    contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        hull = cv2.convexHull(contour)
        if cv2.contourArea(hull) + cv2.arcLength(hull, True) + 1 >= min_pixels:
            return True
    return False


def leftover_regions(small: np.ndarray, known: Sequence[np.ndarray], min_area: float = 0.1) -> list[Leftover]:
    """The light regions of the work image outside the ``known`` cards (quads, work pixels), of at
    least ``min_area`` of a card."""
    h, w = small.shape[:2]
    known_mask = np.zeros((h, w), np.uint8)
    for q in known:
        cv2.fillConvexPoly(known_mask, np.round(q).astype(np.int32), 255)
    card_area = float(np.mean([quad_area(q) for q in known]))
    card_w = math.sqrt(card_area / 1.4)
    original = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    grey = cv2.cvtColor(paint_out(small, known), cv2.COLOR_BGR2GRAY)
    levels = _levels(original, known_mask)
    light = cv2.compare(cv2.GaussianBlur(grey, (3, 3), 0), _light_level(*levels), cv2.CMP_GT)
    grown = cv2.dilate(known_mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    left = cv2.bitwise_and(light, cv2.bitwise_not(grown))
    if not _may_hold_a_region(left, max(0.1, min_area) * card_area):
        return []
    left = cv2.bitwise_and(left, cv2.bitwise_not(finger_bands(left, card_w)))
    contours, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    regions = []
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(0.15 * card_w) | 1),) * 2)
    for contour in contours:
        if cv2.contourArea(contour) < 0.03 * card_area:
            continue
        # the hull: a card with a dark illustration shows only its light frame, maybe broken
        region = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(region, cv2.convexHull(contour), 255)
        region = cv2.morphologyEx(cv2.bitwise_and(region, cv2.bitwise_not(grown)), cv2.MORPH_OPEN, disc) > 0
        area = float(np.count_nonzero(region))
        if area >= max(0.1, min_area) * card_area:
            regions.append((region, area))
    if not regions:
        return []
    steps = _sharp_steps(original, *levels)
    inner = cv2.erode(known_mask, np.ones((5, 5), np.uint8)) > 0
    ref_detail = _detail(original, inner) if inner.any() else 0.0
    near_known = cv2.dilate(grown, np.ones((5, 5), np.uint8))
    skin = _skin(small)
    out = []
    for region, area in regions:
        inside = cv2.erode(region.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0   # not its own outline
        detail = _detail(grey, inside if inside.any() else region) / max(1e-6, ref_detail)
        at_edge = bool(region[:2].any() or region[-2:].any() or region[:, :2].any() or region[:, -2:].any())
        (_, _), (side_a, side_b), _ = cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8)))
        finger_like = at_edge and min(side_a, side_b) <= FINGER_WIDTH * card_w
        sharp_edge = _sharp_edge(left, region, steps, near_known) / card_w
        entry = float(np.count_nonzero(region[0]) + np.count_nonzero(region[-1]) + np.count_nonzero(region[1:-1, 0])
                      + np.count_nonzero(region[1:-1, -1])) / card_w
        box = cv2.boxPoints(cv2.minAreaRect(cv2.findNonZero(region.astype(np.uint8)))).astype(np.float32)
        out.append(Leftover(area / card_area, detail, float(skin[region].mean()), finger_like, sharp_edge, entry, box))
    return out


def could_hide_a_card(left: Leftover) -> bool:
    """Whether a leftover region is large, detailed and sharp-edged enough to be a card we could not read.

    A finger comes in from the frame's edge, narrower than a card, skin-coloured; unless it is as
    busy as a card, it is let go. A warm card face (fur, coffee) is skin-coloured too, but lies
    inside the frame; a whole hand is as wide as a card and may cover one. A glare spot lights the
    shelf's texture (as busy as a card) but its light fades out: no card edge bounds it.
    """
    if left.area < LEFTOVER_AREA or left.sharp_edge < SHARP_EDGE:
        return False
    if left.skin > 0.8 and left.finger_like:
        return left.detail >= SKIN_DETAIL
    return left.detail >= LEFTOVER_DETAIL


def hiding_places(small: np.ndarray, known: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The rectangles (work px) around the light regions outside the ``known`` cards (quads, work
    pixels) that may hide another card."""
    places = []
    for left in leftover_regions(small, known):
        if could_hide_a_card(left) and left.box is not None:
            log.debug("second look: a region of %.2f card with detail %.2f, skin %.2f and %.2f card "
                      "widths of sharp edge may hide a card", left.area, left.detail, left.skin, left.sharp_edge)
            places.append(left.box)
    return places


def may_hide_a_whole_card(small: np.ndarray, known: Sequence[np.ndarray]) -> bool:
    """Whether a frame the outlines read whole has a card beside the ``known`` ones that they missed
    (its outline merged into the shelf or a neighbour's): a light region of most of a card, not a
    finger, that could hide one. Players overlap cards by a tenth at most, so a card missed shows
    most of itself; a shred of a known card's outline or a finger is smaller."""
    if not known:
        return False
    for left in leftover_regions(small, known, min_area=WHOLE_CARD):
        if 0 < left.entry < ENTRY_WIDTH:
            continue                     # it comes in through a narrow gap: a hand, maybe glare on it
        if not left.finger_like and could_hide_a_card(left):
            log.debug("second look: needed: a region of %.2f card with detail %.2f beside the cards read "
                      "may be a card the outlines missed", left.area, left.detail)
            return True
    return False


def settled_cards(outline_cards: Sequence[SightingT], threshold: float) -> list[SightingT]:
    """The outline reader's cards that need no second look: read confidently, by an outline no
    more skewed than a tilted card's, lying apart from every other outline (two merged cards' outline
    is skewed or overlaps the other's)."""
    quads = [np.asarray(c.quad, np.float32) for c in outline_cards]
    settled = []
    for i, card in enumerate(outline_cards):
        if card.ingredient is None or card.confidence < threshold or skewed(quads[i]):
            continue
        if any(shared_area(quads[i], q) > 0.02 * quad_area(quads[i]) for j, q in enumerate(quads) if j != i):
            continue
        settled.append(card)
    return settled


def cut_off_by_the_frame(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a card's quad (frame px) has a corner further beyond the frame (of ``shape``) than
    ``CORNER_SLACK`` of its width and 3 px: the frame shows only part of the card."""
    h, w = shape[:2]
    q = np.asarray(quad, np.float32)
    slack = 3 + CORNER_SLACK * math.sqrt(quad_area(q) / 1.4)
    return bool((q < -slack).any() or (q[:, 0] > w + slack).any() or (q[:, 1] > h + slack).any())


def place_by_keypoints(frame: np.ndarray, outline_cards: Sequence[Sighting], index: KeypointIndex,
                       threshold: float, settled: Sequence[np.ndarray] = (),
                       within: np.ndarray | None = None) -> list[tuple[str, np.ndarray, float]] | None:
    """The cards keypoints place in ``frame`` (ingredient, quad in frame px, confidence), or None
    when they cannot settle it: one cut off by the frame's edge, two overlapping more than a player
    lays them, or a card the outline reader read confidently read otherwise.

    The ``settled`` cards (quads in frame px) are left out of the search, which then looks for half
    as many keypoints: a frame's keypoints are spread over its cards, and the search's time grows
    with their number. ``within`` (a uint8 mask of the frame's size), if given, is all the search
    looks at.
    """
    h, w = frame.shape[:2]
    mask, features = (None if within is None else within.copy()), FRAME_FEATURES
    if settled:
        mask = np.full((h, w), 255, np.uint8) if mask is None else mask
        for q in settled:
            cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 0)
        features = FRAME_FEATURES // 2
    placed = [c for c in index.find(frame, mask, features) if keypoint_confidence(c.inliers) >= threshold]
    unsettled = unsettled_by(placed, frame.shape)
    if unsettled is not None:
        log.debug("second look: unsure: %s", unsettled)
        return None
    for seen in outline_cards:
        if seen.ingredient is None or seen.confidence < threshold:
            continue
        quad = np.asarray(seen.quad, np.float32)
        for there in placed:
            if read_otherwise(quad, seen.ingredient, there):
                log.debug("second look: unsure: the outline and the keypoints read a card differently")
                return None
    return [(c.ingredient, c.quad, keypoint_confidence(c.inliers)) for c in placed]


def unsettled_by(placed: Sequence[KeypointCard], shape: tuple[int, ...]) -> str | None:
    """Why the cards keypoints place (``placed``, frame px, in a frame of ``shape``) leave a frame
    no reading can settle, or None: one is cut off by the frame's edge (``cut_off_by_the_frame``:
    a card cut by the edge is never named, issue 15 point 2), or two overlap more than a player
    lays them."""
    if any(cut_off_by_the_frame(c.quad, shape) for c in placed):
        return "a card is cut off by the frame's edge"
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            if shared_area(a.quad, b.quad) > 0.3 * min(quad_area(a.quad), quad_area(b.quad)):
                return "two cards overlap more than a player lays them"
    return None


def read_otherwise(quad: np.ndarray, ingredient: str | None, placed: KeypointCard) -> bool:
    """Whether a card named ``ingredient`` at ``quad`` (frame px) lies mostly (over
    ``READ_OTHERWISE`` of it) under a card the keypoints place (``placed``) of another face."""
    return placed.ingredient != ingredient and shared_area(placed.quad, quad) > READ_OTHERWISE * quad_area(quad)


def outlines_of(placed: Sequence[np.ndarray], outline_quads: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The outline quads that lie on a placed card (shared area over 60 % of their union).

    A homography from a few keypoints can be a little off at the card's corners; the card's own
    outline, where the outline reader found it, marks the rest of it as known.
    """
    out = []
    for q in outline_quads:
        for p in placed:
            shared = shared_area(p, q)
            if shared > 0.6 * (quad_area(p) + quad_area(q) - shared):
                out.append(q)
                break
    return out
