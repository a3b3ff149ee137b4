"""Find card-like quadrilaterals in a (downscaled) frame. numpy and OpenCV only.

The cards of one game share a light frame (border) and lie on the cauldron's darker shelf, so a card
shows as a bright, sharp-edged, roughly rectangular blob. Fingers (narrow) are cut off by a
morphological opening scaled to the blob; cards that touch or overlap and merge into one blob are
split along the narrow neck or by the distance transform's peaks; each part gets a quad from four
robust line fits to its outline (``quad_fit``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .detect_settings import CARD_ASPECT, SETTINGS, DetectorSettings
from .quad_fit import (NEXT, angles_ok, fit_quad, hough_quad, order_quad, order_quads, quad_aspect, side_lengths,
                       side_steps, snap_quad)


@dataclass
class Candidate:
    """A card-like region: its quad (work-image pixels, clockwise, short side first) and quality."""

    quad: np.ndarray          # 4 x 2 float32
    fill: float               # share of the quad covered by the blob (1 = fully visible)
    cut: bool                 # touches the frame edge: probably cut off
    fitted: bool              # the quad fits the blob well (False: card-like but unreadable)
    spill: float = 1.0        # share of the blob outside the quad (1 when unknown)


def _percentile_u8(hist: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` (linear method) of uint8 values given by their 256-bin histogram, bit for bit."""
    n = int(hist.sum())
    cum = np.cumsum(hist)
    pos = float((n - 1) * np.true_divide(q, 100))             # in the sorted values, as numpy works it out
    if pos >= n - 1:
        return float(np.searchsorted(cum, n - 1, side="right"))
    below = math.floor(pos)
    a = int(np.searchsorted(cum, below, side="right"))         # the sorted values at below and below + 1
    b = int(np.searchsorted(cum, below + 1, side="right"))
    gamma, diff = pos - below, float(b - a)
    return b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma


def _median_u8(hist: np.ndarray) -> float:
    """``np.median(values)`` of uint8 values given by their 256-bin histogram."""
    n = int(hist.sum())
    cum = np.cumsum(hist)
    upper = int(np.searchsorted(cum, n // 2, side="right"))
    if n % 2:
        return float(upper)
    return (int(np.searchsorted(cum, n // 2 - 1, side="right")) + upper) / 2


def _mean_u8(hist: np.ndarray, start: int = 0) -> float:
    """Mean of the uint8 values at least ``start`` given by their histogram (as numpy's, exact sums)."""
    counts = hist[start:].astype(np.int64)
    return int(counts @ np.arange(start, 256, dtype=np.int64)) / int(counts.sum())


def _median(values: list[float]) -> float:
    """``np.median`` of a short list of floats."""
    v = sorted(values)
    half = len(v) // 2
    return v[half] if len(v) % 2 else (v[half - 1] + v[half]) / 2


def _overlap(a: np.ndarray, b: np.ndarray) -> int:
    """Pixels set in both masks."""
    return cv2.countNonZero(cv2.bitwise_and(a, b))


def _morph(mask: np.ndarray, op: int, k: int) -> np.ndarray:
    """``cv2.morphologyEx`` with an elliptical k x k kernel, worked out on the mask's bounding box only."""
    out = np.zeros_like(mask)
    x, y, w, h = cv2.boundingRect(mask)          # of the non-zero pixels
    if w == 0:
        return out
    pad = k + 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(mask.shape[1], x + w + pad), min(mask.shape[0], y + h + pad)
    roi = mask[y0:y1, x0:x1]
    r = k / 2.0

    def erode(m: np.ndarray) -> np.ndarray:        # a disc of radius r, via the distance transform
        dist = cv2.distanceTransform(m, cv2.DIST_L2, 3)
        return cv2.threshold(dist, r, 255, cv2.THRESH_BINARY)[1].astype(np.uint8)            # dist > r

    def dilate(m: np.ndarray) -> np.ndarray:
        dist = cv2.distanceTransform(cv2.bitwise_not(m), cv2.DIST_L2, 3)
        return cv2.threshold(dist, r, 255, cv2.THRESH_BINARY_INV)[1].astype(np.uint8)        # dist <= r

    if op == cv2.MORPH_OPEN:
        core = erode(roi)
        if cv2.countNonZero(core):                 # dilating nothing gives nothing
            out[y0:y1, x0:x1] = dilate(core)
    elif op == cv2.MORPH_CLOSE:
        out[y0:y1, x0:x1] = erode(dilate(roi))
    else:
        raise ValueError(f"unsupported morphology {op}")
    return out


def _iou(a: np.ndarray, b: np.ndarray, shape: tuple[int, int]) -> float:
    ma = np.zeros(shape, np.uint8)
    mb = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(ma, np.round(a).astype(np.int32), 1)
    cv2.fillConvexPoly(mb, np.round(b).astype(np.int32), 1)
    inter = int(np.count_nonzero(ma & mb))
    return inter / max(1, int(np.count_nonzero(ma | mb)))


class Detector:
    """Card candidates in a BGR work image (about 240 px high).

    ``settings`` holds every number it uses; ``min_card_height``, ``max_card_height`` and
    ``edge_min``, when given, override those of ``settings``.
    """

    def __init__(self, min_card_height: float | None = None, max_card_height: float | None = None,
                 edge_min: float | None = None, *, settings: DetectorSettings = SETTINGS) -> None:
        if not isinstance(settings, DetectorSettings):
            raise TypeError(f"settings must be DetectorSettings, not {type(settings).__name__}")
        given = {"min_card_height": min_card_height, "max_card_height": max_card_height, "edge_min": edge_min}
        overrides = {name: value for name, value in given.items() if value is not None}
        self.settings = replace(settings, **overrides) if overrides else settings
        s = self.settings
        # angle tolerances as numpy scalars, so that comparisons with float32 angles stay in float64
        self._same_line_angle = np.radians(s.same_line_angle)
        self._parallel = np.radians(s.parallel)
        self._right_angle = np.radians(s.right_angle)
        self._detail = np.zeros((1, 1), np.float32)
        self._contrast = 1.0
        self._small = np.zeros((1, 1, 3), np.uint8)
        self._gray = np.zeros((1, 1), np.uint8)
        self._top = 255.0
        self._chroma: np.ndarray | None = None   # per pixel: brightest minus darkest channel
        self._grad: np.ndarray | None = None     # per pixel: 8 x the grey level's gradient
        self._quad_details: dict[bytes, float | None] = {}

    def mask(self, gray: np.ndarray) -> tuple[np.ndarray, float]:
        s = self.settings
        g = cv2.GaussianBlur(gray, (s.light_blur, s.light_blur), 0)
        thr, m = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((s.light_close, s.light_close), np.uint8))
        return m, float(thr)

    def upper_mask(self, gray: np.ndarray, thr: float) -> tuple[np.ndarray, float]:
        """Otsu's threshold among the pixels above ``thr``: for a small card on a shelf whose light
        varies (a vignette, a gradient), where the first split is between the shelf's own halves."""
        k = self.settings.light_blur
        g = cv2.GaussianBlur(gray, (k, k), 0)
        return self._split_again(g, g[g > thr], self.settings)

    def lower_mask(self, gray: np.ndarray, thr: float) -> tuple[np.ndarray, float]:
        """Otsu's threshold among the pixels at or below ``thr``: for a dim card beside a glare
        spot, where the first split is between the glare and everything else."""
        k = self.settings.light_blur
        g = cv2.GaussianBlur(gray, (k, k), 0)
        return self._split_again(g, g[g <= thr], self.settings)

    @staticmethod
    def _split_again(g: np.ndarray, pixels: np.ndarray,
                     settings: DetectorSettings = SETTINGS) -> tuple[np.ndarray, float]:
        """The mask of the blurred work image ``g`` above Otsu's level of ``pixels``, and the level."""
        if pixels.size < settings.least_split:
            return np.zeros_like(g), 255.0
        level, _ = cv2.threshold(pixels.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        _, m = cv2.threshold(g, level, 255, cv2.THRESH_BINARY)
        k = settings.light_close
        return cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)), float(level)

    def find(self, small: np.ndarray) -> list[Candidate]:
        """The card-like candidates of a work image. When the first split of its light finds none,
        the brightest part of the light, then the dimmer part, is split again and searched for card
        outlines (a dim card on a shelf of nearly its tone, or beside a glare spot); blobs found
        there without one are the shelf's own light patches."""
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        self._small, self._gray = small, gray
        self._chroma, self._quad_details, self._grad = None, {}, None
        hist = np.bincount(gray.ravel(), minlength=256)
        self._top = _percentile_u8(hist, self.settings.top_percentile)
        m, thr = self.mask(gray)
        found = self._find_in(gray, hist, m, thr)
        for split_again in (self.upper_mask, self.lower_mask):
            if found:
                break
            m_again, thr_again = split_again(gray, thr)
            found = [c for c in self._find_in(gray, hist, m_again, thr_again) if c.fitted]
        return found

    def _find_in(self, gray: np.ndarray, hist: np.ndarray, m: np.ndarray, thr: float) -> list[Candidate]:
        """The candidates of the light mask ``m`` (pixels above ``thr``) of the work image."""
        s = self.settings
        h, w = gray.shape
        hist_hi = cv2.calcHist([gray], [0], m, [256], [0, 256]).ravel().astype(np.int64)
        hist_lo = hist - hist_hi
        lo = _mean_u8(hist_lo) if hist_lo.any() else 0.0
        hi = _mean_u8(hist_hi) if hist_hi.any() else 0.0
        if hi - lo < s.least_contrast:
            return []
        self._contrast = hi - lo
        if self._grad is None:                        # once a frame, whichever split of the light
            gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
            gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
            self._grad = cv2.magnitude(gx, gy)        # 8 x the gradient: divided where sampled
            gf = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), s.detail_band[0])
            self._detail = np.asarray(cv2.absdiff(gf, cv2.GaussianBlur(gf, (0, 0), s.detail_band[1])), np.float32)
        grad = self._grad
        card_area_min = (s.min_card_height * h) ** 2 / CARD_ASPECT
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        out: list[Candidate] = []
        for c in contours:
            area = cv2.contourArea(c)
            if area < s.least_blob * card_area_min:
                continue
            pts = c.reshape(-1, 2)
            # a card's outline is sharp; a glare spot's or a lit patch's is soft
            sharp = float((grad[pts[:, 1], pts[:, 0]] / 8.0).mean()) / max(1.0, hi - lo)
            if sharp < s.edge_min:
                continue
            blob = np.zeros((h, w), np.uint8)
            cv2.drawContours(blob, [c], -1, 255, -1)
            hull_area = cv2.contourArea(cv2.convexHull(c))
            if area < s.solid * hull_area:
                # a card whose light frame is broken somewhere (a dim edge, a finger) leaves its
                # dark illustration unfilled: bridge small gaps in the frame, then fill again
                ring = cv2.bitwise_and(m, blob)
                k = max(s.refill_least, int(s.refill_gap * math.sqrt(hull_area)) | 1)
                ring = _morph(ring, cv2.MORPH_CLOSE, k)
                cs, _ = cv2.findContours(ring, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
                refilled = np.zeros((h, w), np.uint8)
                cv2.drawContours(refilled, cs, -1, 255, -1)
                if np.count_nonzero(refilled) > s.refill_gain * np.count_nonzero(blob):
                    blob = refilled
                    area = float(np.count_nonzero(blob))
            found = self._split_and_fit(blob, area, card_area_min)
            if not any(c.fitted for c in found) and self.is_glare(blob):
                continue                      # a glare spot or a lit patch of shelf
            for cand in found:                 # a card reaching out of the frame is cut off
                q, e = cand.quad, s.cut_margin
                if ((q[:, 0] < -e).any() or (q[:, 1] < -e).any()
                        or (q[:, 0] > w - 1 + e).any() or (q[:, 1] > h - 1 + e).any()):
                    cand.cut = True
            out.extend(found)
        out.extend(self._unexplained(gray, out, thr, lo))
        # unreadable blobs with far less detail than the cards found: glare, not a hidden card
        card_detail = self._card_detail([c for c in out if c.fitted])
        if card_detail is not None:
            kept: list[Candidate] = []
            for cand in out:
                if not cand.fitted and not cand.cut:
                    qm = np.zeros((h, w), np.uint8)
                    cv2.fillConvexPoly(qm, np.round(cand.quad).astype(np.int32), 255)
                    if self.is_glare(qm, card_detail):
                        continue
                kept.append(cand)
            out = kept
        return self._drop_flat(out)

    def _drop_flat(self, cands: list[Candidate]) -> list[Candidate]:
        """Drop a card-thick quad with far less detail than every other card found: a glare spot.

        Glare on the shelf can make a bright, sharp enough, card-sized quad; every printed card
        (even the darkest illustration) shows at least 0.45 of the busiest card's detail on the
        tuning scenes, a glare spot or a lit patch under 0.25. Thin quads (a card mostly hidden) stay.
        """
        if len(cands) < 2:
            return cands
        details, shorts = [], []
        for c in cands:
            detail = self._quad_detail(c.quad)
            details.append(-1.0 if detail is None else detail)
            sides = side_lengths(c.quad).tolist()
            shorts.append(min((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
        s = self.settings
        kept = []
        for i, c in enumerate(cands):
            ref = [details[j] for j, o in enumerate(cands) if j != i and o.fitted and not o.cut]
            ref_w = [shorts[j] for j, o in enumerate(cands) if j != i and o.fitted and not o.cut]
            if (ref and details[i] >= 0 and details[i] < s.flat_detail * max(ref)
                    and shorts[i] > s.flat_thick * max(ref_w)):
                continue
            if ref_w and not c.fitted and self._finger_like(c.quad, shorts[i], max(ref_w)):
                continue
            kept.append(c)
        return kept

    def _finger_like(self, quad: np.ndarray, short: float, card_short: float) -> bool:
        """A thin, long leftover reaching the frame's edge: a finger or an arm, not a card.

        A card mostly hidden under another is thin too, but lies inside the frame (a readable
        scene's cards do) or, cut off by the frame, shows at least half a card's width.
        """
        s = self.settings
        h, w = self._detail.shape
        long_ = max(side_lengths(quad).tolist())
        b = s.finger_border
        border = bool((quad[:, 0] < b).any() or (quad[:, 1] < b).any()
                      or (quad[:, 0] > w - 1 - b).any() or (quad[:, 1] > h - 1 - b).any())
        return border and short < s.finger_thin * card_short and long_ > s.finger_long * short

    def _unexplained(self, gray: np.ndarray, found: list[Candidate], thr: float, lo: float) -> list[Candidate]:
        """Card-sized, detailed regions a little darker than the cards found: a card in shadow.

        The brightest card sets the threshold; a second card in a darker corner can fall below it.
        Reading such a frame "ok" with one card would be wrong, so it becomes an unreadable
        candidate (the frame reads "unsure").
        """
        fitted = [c for c in found if c.fitted]
        if not fitted:
            return []
        s = self.settings
        h, w = gray.shape
        covered = np.zeros((h, w), np.uint8)
        for c in found:
            cv2.fillConvexPoly(covered, np.round(c.quad).astype(np.int32), 255)
        covered = cv2.dilate(covered, np.ones((s.shadow_grown, s.shadow_grown), np.uint8))
        areas = [abs(cv2.contourArea(c.quad)) for c in fitted]
        card_area = _median(areas)
        card_w = math.sqrt(card_area / CARD_ASPECT)
        g = cv2.GaussianBlur(gray, (s.light_blur, s.light_blur), 0)
        m = ((g > lo + s.shadow_level * (thr - lo)) & (covered == 0)).astype(np.uint8) * 255
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((s.shadow_close, s.shadow_close), np.uint8))
        contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        m = np.zeros_like(m)
        cv2.drawContours(m, contours, -1, 255, -1)                # a card's dark picture counts too
        m[covered > 0] = 0
        if cv2.countNonZero(m) < s.shadow_least * card_area:
            return []                         # the opening below only takes pixels away
        k = max(3, int(s.shadow_opening * card_w) | 1)
        m = _morph(m, cv2.MORPH_OPEN, k)
        card_detail = self._card_detail(fitted)
        out = []
        for piece in self._components(m, s.shadow_least * card_area):
            if self.is_glare(piece, card_detail) or self.is_smooth(piece, card_detail):
                continue
            out.append(Candidate(self._box(piece), 0.0, False, False))
        return out

    def _fit_region(self, region: np.ndarray) -> Candidate | None:
        s = self.settings
        h, w = region.shape
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            return None
        c = max(contours, key=cv2.contourArea)
        pts = c.reshape(-1, 2)
        box = order_quad(cv2.boxPoints(cv2.minAreaRect(c)))
        starts = [box]
        hq = hough_quad(pts, (h, w))
        if hq is not None:
            starts.insert(0, hq)
        quad = None
        for start in starts:
            quad = order_quad(fit_quad(pts, start))
            if self._plausible(quad, h):
                break
        assert quad is not None
        qarea = abs(cv2.contourArea(quad))
        if qarea < 1:
            return None
        qm = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(qm, np.round(quad).astype(np.int32), 255)
        inter = float(_overlap(qm, region))
        fill = inter / max(1.0, float(np.count_nonzero(qm)))
        spill = 1 - inter / max(1.0, float(np.count_nonzero(region)))
        t, e = s.edge_touch, s.cut_margin
        cut = bool((pts[:, 0] <= t).any() or (pts[:, 1] <= t).any()
                   or (pts[:, 0] >= w - 1 - t).any() or (pts[:, 1] >= h - 1 - t).any()
                   or (quad[:, 0] < -e).any() or (quad[:, 1] < -e).any()
                   or (quad[:, 0] > w - 1 + e).any() or (quad[:, 1] > h - 1 + e).any())
        fitted = fill >= s.least_fill and spill <= s.most_spill and self._plausible(quad, h)
        return Candidate(quad, fill, cut, fitted, spill)

    def _plausible(self, quad: np.ndarray, h: int) -> bool:
        s = self.settings
        sides = side_lengths(quad).tolist()
        return (s.min_card_height * h <= max(sides) <= s.max_card_height * h
                and s.aspect[0] <= quad_aspect(quad, sides) <= s.aspect[1] and angles_ok(quad))

    def _plausible_quads(self, qs: np.ndarray, h: int) -> list[np.ndarray]:
        """The finite, plausible ones of Q quads (Q x 4 x 2 float32), in order."""
        s = self.settings
        finite = np.isfinite(qs).all(axis=(1, 2))
        e = qs[:, NEXT] - qs
        sides = np.sqrt((e * e).sum(axis=2)).astype(np.float64)        # as _side_lengths, in Python floats
        long_side = sides.max(axis=1)
        aspect = ((sides[:, 1] + sides[:, 3]) / 2) / np.maximum(1e-6, (sides[:, 0] + sides[:, 2]) / 2)
        maybe = (finite & (s.min_card_height * h <= long_side) & (long_side <= s.max_card_height * h)
                 & (s.aspect[0] <= aspect) & (aspect <= s.aspect[1]))
        return [q for q in qs[maybe] if angles_ok(q)]

    def _split_and_fit(self, blob: np.ndarray, area: float, card_area_min: float, depth: int = 0) -> list[Candidate]:
        s = self.settings
        h = blob.shape[0]
        w_est = min(math.sqrt(area / CARD_ASPECT), s.max_card_height * h / CARD_ASPECT * s.width_cap)
        # cut off fingers and thin bridges
        k = max(3, int(s.opening * w_est) | 1)
        opened = _morph(blob, cv2.MORPH_OPEN, k)
        parts = self._components(opened, s.least_part * card_area_min)
        if not parts:
            return [Candidate(self._box(blob), 0.0, False, False)]
        out: list[Candidate] = []
        for part in parts:
            two = self._split_at_notches(part, card_area_min)     # cards merged into one outline?
            if two:
                out.extend(two)
                continue
            cand = self._fit_region(part)
            if cand is not None and cand.fitted:
                out.append(cand)
                continue
            split = (self._split_merged(part, card_area_min) or self._card_and_glare(part, card_area_min)
                     or self._split_by_lines(part, card_area_min))
            if not split and self.is_glare(part):
                continue                      # a glare spot or a lit patch of shelf
            out.extend(split or [cand or Candidate(self._box(part), 0.0, False, False)])
        # whatever thick is left over (a second card the opening swallowed) is looked at too:
        # a finger or a hand is thinner than a card and vanishes in the opening
        fitted = [c for c in out if c.fitted]
        if fitted and depth == 0:
            covered = np.zeros_like(blob)
            for c in fitted:
                cv2.fillConvexPoly(covered, np.round(c.quad).astype(np.int32), 255)
            covered = cv2.dilate(covered, np.ones((s.grown, s.grown), np.uint8))
            raw_rest = cv2.bitwise_and(blob, cv2.bitwise_not(covered))
            card_w = min(float(np.linalg.norm(c.quad[1] - c.quad[0])) for c in fitted)
            k2 = max(3, int(s.leftover_opening * card_w) | 1)
            min_piece = s.leftover_piece * card_w * card_w * CARD_ASPECT
            # the opening only takes pixels away: too few to make a piece, none is left
            rest = _morph(raw_rest, cv2.MORPH_OPEN, k2) if cv2.countNonZero(raw_rest) >= min_piece else None
            card_detail = self._card_detail(fitted)
            added = False
            for piece in self._components(rest, min_piece) if rest is not None else []:
                if self.is_glare(piece, card_detail):
                    continue                  # a glare spot next to the card
                more = self._split_and_fit(piece, float(np.count_nonzero(piece)), card_area_min, depth + 1)
                out.extend(more if more else [Candidate(self._box(piece), 0.0, False, False)])
                added = True
            if not added:
                out.extend(self._hidden_frames(raw_rest, card_w, card_detail))
        return out

    def _hidden_frames(self, rest: np.ndarray, card_w: float, card_detail: float | None) -> list[Candidate]:
        """The thin frame of a card mostly hidden under another: wide as a card, though thin.

        A finger is as thin but also narrow; the L of a covered card's frame spans most of a card.
        """
        s = self.settings
        out = []
        for piece in self._components(rest, s.hidden_piece * card_w * card_w * CARD_ASPECT):
            pts = cv2.findNonZero(piece)
            if pts is None:
                continue
            hull = cv2.convexHull(pts)
            (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
            if (min(rw, rh) < s.hidden_span * card_w
                    or cv2.contourArea(hull) < s.hidden_hull * card_w * card_w * CARD_ASPECT):
                continue
            filled = np.zeros_like(piece)
            cv2.fillConvexPoly(filled, hull, 255)
            if self.is_glare(filled, card_detail):
                continue
            out.append(Candidate(self._box(piece), 0.0, False, False))
        return out

    def _split_at_notches(self, region: np.ndarray, card_area_min: float, need: int = 2) -> list[Candidate]:
        """Cards merged into one blob: cut its outline at the notches where two outlines cross.

        Two overlapping or touching cards make an outline with a notch (a reflex corner) on each
        side of the contact; between two notches the outline belongs to one card, usually with
        three of its corners, which fixes its quad.
        """
        s = self.settings
        h, w = region.shape
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            return []
        c = max(contours, key=cv2.contourArea)
        area = cv2.contourArea(c)
        hull = cv2.convexHull(c, returnPoints=False)
        if hull is None or len(hull) < 4:
            return []
        try:
            defects = cv2.convexityDefects(c, np.sort(hull.ravel()).reshape(-1, 1))
        except cv2.error:
            return []
        if defects is None:
            return []
        ds = sorted(defects.reshape(-1, 4).tolist(), key=lambda d: -d[3])
        deep = sorted(int(d[2]) for d in ds if d[3] / 256.0 > s.notch_depth * math.sqrt(area))
        if len(deep) == 1 and need == 2 and len(ds) > 1 and ds[1][3] / 256.0 > s.shallow_notch:
            deep = sorted(deep + [int(ds[1][2])])      # the other crossing can be a shallow notch
        if len(deep) < need:
            return []
        if len(deep) == 1:
            deep = [deep[0], deep[0] + len(c) - 1]
        pts = c.reshape(-1, 2)
        n_pts = len(pts)
        spans = [(deep[i], deep[(i + 1) % len(deep)]) for i in range(len(deep))]
        if len(deep) >= 3:                                # a glare or finger notch may cut a card's outline
            spans += [(deep[i], deep[(i + 2) % len(deep)]) for i in range(len(deep))]
        cands: list[Candidate] = []
        for start, end in spans:
            chain = pts[start:end + 1] if end > start else np.concatenate([pts[start:], pts[:end + 1]])
            if len(chain) < s.least_run or len(chain) > s.most_run * n_pts:
                continue
            box = order_quad(cv2.boxPoints(cv2.minAreaRect(chain.astype(np.float32))))
            quad = order_quad(fit_quad(chain, box))
            qm = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(qm, np.round(quad).astype(np.int32), 255)
            qn = float(np.count_nonzero(qm))
            if qn < card_area_min * s.notch_least_area:
                continue
            fill = float(_overlap(qm, region)) / max(1.0, qn)
            if not (fill >= s.notch_fill and self._plausible(quad, h)):
                continue
            if any(_iou(quad, other.quad, (h, w)) > s.notch_same for other in cands):
                continue
            cands.append(Candidate(quad, fill, False, True))
        if len(cands) < need:
            return []
        if need == 1:
            return cands
        # together the cards must explain the blob
        union = np.zeros((h, w), np.uint8)
        for cand in cands:
            cv2.fillConvexPoly(union, np.round(cand.quad).astype(np.int32), 255)
        if np.count_nonzero(region & ~union) > s.notch_rest * np.count_nonzero(region):
            return []
        return cands

    def is_glare(self, region: np.ndarray, card_detail: float | None = None) -> bool:
        """Glare or a lit patch of shelf: smooth, among the brightest things in view, and white.

        A finger or a hand is smooth too but skin-coloured; a card in shadow is not the brightest.
        Anything else stays a candidate: an unreadable card makes the frame "unsure", never "ok".
        """
        if not self.is_smooth(region, card_detail):
            return False
        s = self.settings
        sel = region > 0
        grey = self._gray[sel]
        if grey.size == 0:
            return False
        hist = np.bincount(grey, minlength=256)
        if _percentile_u8(hist, s.glare_percentile) < s.glare_top * self._top:
            return False
        median = _median_u8(hist)
        bright = grey >= median
        colour = float(self._chroma_image()[sel][bright].astype(np.float32).mean())
        return colour / max(1.0, _mean_u8(hist, math.ceil(median))) < s.glare_colour

    def _chroma_image(self) -> np.ndarray:
        if self._chroma is None:
            channels = cv2.split(self._small)
            brightest = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
            darkest = cv2.min(cv2.min(channels[0], channels[1]), channels[2])
            self._chroma = cv2.subtract(brightest, darkest)
        return self._chroma

    def is_smooth(self, region: np.ndarray, card_detail: float | None = None) -> bool:
        """A region without fine detail: a glare spot or a lit patch of shelf, not a card.

        ``card_detail`` (the detail of cards found in the same frame) makes the test relative.
        """
        s = self.settings
        inner = cv2.erode(region, np.ones((s.detail_inset, s.detail_inset), np.uint8))
        if cv2.countNonZero(inner) < s.least_inside:
            return False                  # too thin to tell: keep it (unsure beats wrong)
        detail = float(self._detail[inner > 0].mean())
        limit = s.smooth_max * max(1.0, self._contrast)
        if card_detail is not None:
            limit = max(limit, s.smooth_card_share * card_detail)
        return detail < limit

    def _card_detail(self, cands: list[Candidate]) -> float | None:
        vals = [d for d in (self._quad_detail(c.quad) for c in cands) if d is not None]
        return _median(vals) if vals else None

    def _quad_detail(self, quad: np.ndarray) -> float | None:
        """Mean detail inside ``quad`` (its outer 2 px left out); None if nothing is left. Once per frame."""
        corners = np.round(quad).astype(np.int32)
        key = corners.tobytes()
        if key not in self._quad_details:
            m = np.zeros(self._detail.shape, np.uint8)
            cv2.fillConvexPoly(m, corners, 1)
            k = self.settings.detail_inset
            m = cv2.erode(m, np.ones((k, k), np.uint8)) > 0
            self._quad_details[key] = float(self._detail[m].mean()) if m.any() else None
        return self._quad_details[key]

    def _card_and_glare(self, region: np.ndarray, card_area_min: float) -> list[Candidate]:
        """A card merged with a glare spot: the card's quad, if what is left is smooth or thin."""
        cands = self._split_at_notches(region, card_area_min, need=1)
        if not cands:
            return []
        s = self.settings
        covered = np.zeros_like(region)
        for c in cands:
            cv2.fillConvexPoly(covered, np.round(c.quad).astype(np.int32), 255)
        rest = cv2.bitwise_and(region, cv2.bitwise_not(cv2.dilate(covered, np.ones((s.grown, s.grown), np.uint8))))
        card_w = min(float(np.linalg.norm(c.quad[1] - c.quad[0])) for c in cands)
        k = max(3, int(s.glare_opening * card_w) | 1)
        rest = _morph(rest, cv2.MORPH_OPEN, k)
        for piece in self._components(rest, s.glare_piece * card_w * card_w * CARD_ASPECT):
            if not self.is_glare(piece):
                return []
        return cands

    def _split_merged(self, region: np.ndarray, card_area_min: float) -> list[Candidate]:
        """Cards merged into one blob without notches to cut it at: split by the distance peaks."""
        dist = cv2.distanceTransform(region, cv2.DIST_L2, 5)
        peak = float(dist.max())
        for frac in self.settings.peak_levels:
            cores = (dist > frac * peak).astype(np.uint8)
            n, labels = cv2.connectedComponents(cores)
            if n - 1 < 2:
                continue
            markers = labels.astype(np.int32)
            markers[region == 0] = n                      # background marker
            cv2.watershed(cv2.cvtColor(region, cv2.COLOR_GRAY2BGR), markers)
            cands = []
            for i in range(1, n):
                part = ((markers == i).astype(np.uint8)) * 255
                if np.count_nonzero(part) < self.settings.merged_least_part * card_area_min:
                    continue
                cand = self._fit_region(part)
                if cand is not None:
                    cands.append(cand)
            if len(cands) >= 2 and all(c.fitted for c in cands):
                return cands
        return []

    def _split_by_lines(self, region: np.ndarray, card_area_min: float) -> list[Candidate]:
        """Cards merged into one blob (overlapping, or bridged by glare): find them by their edges.

        Straight edges in the image (the cards' printed cut edges, visible even where the cards
        touch) give lines; two parallel pairs at right angles make a card-shaped quad; a quad is
        kept when each of its sides is a light-inside, dark-outside step and it lies in the blob.
        The best non-overlapping quads must explain the blob together, else nothing is returned.
        """
        s = self.settings
        h, w = region.shape
        n_region = float(np.count_nonzero(region))
        if n_region < s.lines_least_area * card_area_min:
            return []
        x, y, bw, bh = cv2.boundingRect(region)
        pad = s.lines_pad
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
        g = cv2.GaussianBlur(self._gray[y0:y1, x0:x1], (s.edge_blur, s.edge_blur), 0)
        lo = max(s.canny_least, int(s.canny_share * self._contrast))
        edges = cv2.Canny(g, lo, s.canny_ratio * lo)
        near = cv2.dilate(region[y0:y1, x0:x1], np.ones((s.lines_near, s.lines_near), np.uint8))
        edges[near == 0] = 0
        min_len = s.min_card_height * h / s.aspect[1]      # the smallest card's short side
        lines = cv2.HoughLines(edges, 1, np.pi / 180, max(s.least_votes, int(s.line_votes * min_len)))
        if lines is None:
            return []
        same_angle, same_distance = self._same_line_angle, s.same_line_distance
        picked: list[tuple[float, float]] = []
        for rho, theta in lines.reshape(-1, 2)[:s.most_lines]:
            rho = float(rho) + x0 * math.cos(theta) + y0 * math.sin(theta)   # back to work-image coordinates
            if any(abs(theta - t) < same_angle and abs(rho - r) < same_distance for r, t in picked) or \
               any(abs(abs(theta - t) - np.pi) < same_angle and abs(rho + r) < same_distance for r, t in picked):
                continue
            picked.append((rho, float(theta)))
            if len(picked) >= s.most_picked:
                break

        def ang(a: float, b: float) -> float:
            d = abs(a - b) % np.pi
            return min(d, np.pi - d)

        def norm(l: tuple[float, float], ref: float) -> tuple[float, float]:
            r, t = l                     # the same line with theta near ref (rho sign follows)
            if abs(t - ref) > np.pi / 2:
                return (-r, t - np.pi) if t > ref else (-r, t + np.pi)
            return l

        pairs = []
        for i in range(len(picked)):
            for j in range(i + 1, len(picked)):
                if ang(picked[i][1], picked[j][1]) < self._parallel:
                    a, b = picked[i], norm(picked[j], picked[i][1])
                    if abs(a[0] - b[0]) >= s.least_pair_gap * min_len:
                        pairs.append((a, b))

        def meet(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float] | None:
            ca, sa, cb, sb = math.cos(a[1]), math.sin(a[1]), math.cos(b[1]), math.sin(b[1])
            det = ca * sb - sa * cb
            if abs(det) < 1e-6:
                return None
            return ((a[0] * sb - b[0] * sa) / det, (ca * b[0] - cb * a[0]) / det)

        quads: list[tuple[float, np.ndarray]] = []
        if not pairs:
            return []
        spans = np.array([abs(a[0] - b[0]) for a, b in pairs])
        thetas = np.array([a[1] for a, _ in pairs])
        ratio = spans[None, :] / np.maximum(spans[:, None], 1e-6)            # [ia, ib]: ib's span over ia's
        dt = np.abs(thetas[:, None] - thetas[None, :]) % np.pi
        dt = np.minimum(dt, np.pi - dt)
        ok = ((ratio >= s.aspect[0] * s.pair_aspect_slack[0]) & (ratio <= s.aspect[1] * s.pair_aspect_slack[1])
              & (spans[None, :] >= s.pair_height_slack[0] * s.min_card_height * h)
              & (spans[None, :] <= s.pair_height_slack[1] * s.max_card_height * h)
              & (np.abs(dt - np.pi / 2) <= self._right_angle))
        corners = []
        for ia, ib in zip(*np.nonzero(ok)):
            pa, pb = pairs[ia], pairs[ib]
            cs = [meet(pa[0], pb[0]), meet(pb[0], pa[1]), meet(pa[1], pb[1]), meet(pb[1], pa[0])]
            if not any(c is None for c in cs):
                corners.append(cs)
        shapes = self._plausible_quads(order_quads(np.array(corners, np.float32).reshape(-1, 4, 2)), h)
        if not shapes:
            return []
        all_steps = np.sort(side_steps(self._gray, np.array(shapes)), axis=1)
        for q, steps in zip(shapes, all_steps):
            if float(steps[1]) < s.cut_edge_step * self._contrast:     # three sides at least: a card's cut edge
                continue
            full = float(steps[0]) >= s.cut_edge_step * self._contrast    # all four first
            quads.append((float(steps[1:].sum() + s.weakest_side * steps[0]) + (1e4 if full else 0.0), q))
        if not quads:
            return []
        quads.sort(key=lambda t: -t[0])
        chosen: list[Candidate] = []

        def pick(full_only: bool) -> None:
            for score, q in quads[:s.most_quads]:
                if full_only and score < 1e4:
                    break
                qm = np.zeros((h, w), np.uint8)
                cv2.fillConvexPoly(qm, np.round(q).astype(np.int32), 255)
                qn = float(np.count_nonzero(qm))
                fill = float(_overlap(qm, region)) / max(1.0, qn)
                if fill < s.lines_fill or any(_iou(q, c.quad, (h, w)) > s.lines_overlap for c in chosen):
                    continue
                chosen.append(Candidate(q, fill, False, True, 0.0))
                if len(chosen) == s.most_cards:
                    break

        pick(True)                           # quads with all four edges found first
        if not chosen:
            pick(False)
        if len(chosen) == 1:                # the other card: the rest of the blob, its sides snapped to its edges
            covered = np.zeros_like(region)
            cv2.fillConvexPoly(covered, np.round(chosen[0].quad).astype(np.int32), 255)
            rest = cv2.bitwise_and(region, cv2.bitwise_not(cv2.dilate(covered, np.ones((s.grown, s.grown), np.uint8))))
            card_w = float(np.linalg.norm(chosen[0].quad[1] - chosen[0].quad[0]))
            rest = _morph(rest, cv2.MORPH_OPEN, max(3, int(s.other_opening * card_w) | 1))
            pieces = self._components(rest, s.other_piece * card_w * card_w * CARD_ASPECT)
            if pieces:
                piece = max(pieces, key=np.count_nonzero)
                cand = self._fit_region(piece)
                q = snap_quad(self._gray, cand.quad) if cand is not None else None
                if q is not None:
                    q = order_quad(q)
                    steps = np.sort(side_steps(self._gray, q))
                    if (self._plausible(q, h) and float(steps[1]) >= s.cut_edge_step * self._contrast
                            and _iou(q, chosen[0].quad, (h, w)) < s.lines_overlap):
                        chosen.append(Candidate(q, 1.0, False, True, 0.0))
        if len(chosen) == 1:
            pick(False)
        if len(chosen) < 2:
            return []
        union = np.zeros((h, w), np.uint8)
        for c in chosen:
            cv2.fillConvexPoly(union, np.round(c.quad).astype(np.int32), 255)
        rest = cv2.bitwise_and(region, cv2.bitwise_not(cv2.dilate(union, np.ones((s.grown, s.grown), np.uint8))))
        if np.count_nonzero(rest) > s.lines_rest * n_region:
            # what is left must be glare (smooth, bright, white), not a part of another card
            card_w = min(float(np.linalg.norm(c.quad[1] - c.quad[0])) for c in chosen)
            rest = _morph(rest, cv2.MORPH_OPEN, max(3, int(s.rest_opening * card_w) | 1))
            card_detail = self._card_detail(chosen)
            for piece in self._components(rest, s.rest_piece * card_w * card_w * CARD_ASPECT):
                if not self.is_glare(piece, card_detail):
                    return []
        return chosen

    @staticmethod
    def _components(mask: np.ndarray, min_area: float) -> list[np.ndarray]:
        x, y, w, h = cv2.boundingRect(mask)      # of the non-zero pixels
        if w == 0:
            return []
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask[y:y + h, x:x + w])
        out = []
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] >= min_area:
                full = np.zeros_like(mask)
                full[y:y + h, x:x + w] = (labels == i).astype(np.uint8) * 255
                out.append(full)
        return out

    @staticmethod
    def _box(region: np.ndarray) -> np.ndarray:
        pts = cv2.findNonZero(region)
        return order_quad(cv2.boxPoints(cv2.minAreaRect(pts)))


