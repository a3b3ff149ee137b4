"""The last stage before a card is named: the whole card, warped by its outline, must look like its
enrolled face, clearly more than like any other face in either orientation, and nothing larger around
the outline may look like a card better. numpy and OpenCV only.

Every earlier stage (outlines, thumbnails, the fine look, keypoints) may name a card from part of
it: an outline fitted to an inner frame of the card (stopped at a title ribbon that runs across
it) warps a stretched part of the face, and that can correlate with some other face a little better
than with the rest. Here the outline is judged as a card:

* its sides must have a card's proportions (7:5, as a tilt of up to 20 degrees and a little
  misfit leave them), and its opposite sides no more different than such a tilt makes them;
* the face warped from the full frame is compared with every face, upright and turned (``FineMatcher``
  blocks, 60 x 84): the named face must correlate at least ``min_own`` and lead every other (face,
  orientation) by ``min_lead`` (0: match the card at least as well as any other);
* the outline grown (at either end, or all round) must not read better than the outline itself:
  if it does, the outline was an inner frame of a larger card;
* an outline longer than a tilted card, cut down to a card's proportions at either end, must not
  read better either: if it does, the outline ran on over a card beneath it; and, a shape no card
  on the shelf has, it is named only on a clear lead (``long_lead``) and when the card its face's
  keypoints place covers it (``runs_past_the_card``: the reader places the card), as it must an
  outline whose opposite sides differ more than a tilt makes them.

``verify_card`` is a pure function of the frame, the quad, the ingredient named, the enrolled faces'
blocks and a frozen ``VerifySettings``; its ``Verdict`` carries a probability of being right, that
of its lead's band (``fit_lead_probability`` counts it on readings of scenes whose truth is known:
``calibrate.py``; the benchmark counts it on designs other than the one it measures).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .fine_look import FineMatcher
from .keypoints import MAX_SKEW, quad_area, shared_area, skewed
from .settings_check import check_settings


@dataclass(frozen=True)
class VerifySettings:
    """Every number the verification uses, with the reason for its value."""

    #: the named face's own correlation (either way up) below this is no reading of it: on 723 cards
    #: read right on tuning scenes of two designs (glare, shadow, blur, fingers, overlaps) the
    #: lowest was 0.16; the outline checks below, not this, refuse inner frames (0.12-0.35)
    min_own: float = 0.15
    #: lead over the best other face (either way up): a whole card that another face matches as
    #: well or better is not shown to be the card named (a card under glare named as another face
    #: led by -0.035, a wrong reading of the full run at 2d4c5c7). Right cards led by less in 2 of
    #: 913 verdicts of development scenes of five designs (``card_reader_calibrate``); until
    #: 9ea2534 the bar lay below the lowest right card of two designs (-0.08), at -0.1
    min_lead: float = 0.0
    #: long over short side of the outline: 1.4 for the card, 1.2-1.6 under a 20 degree tilt;
    #: an outline stopped at a ribbon across the card is about square (0.95)
    aspect: tuple[float, float] = (1.15, 1.8)
    #: opposite sides differing more than this (long over short) are not one card's: a 20 degree
    #: tilt makes them differ by 1.15 at most, and a side misfitted by a finger or glare by a little
    #: more (``keypoints.MAX_SKEW``, the second look's bar); a homography fitted to a few keypoints
    #: of a low-texture face stretched one over its neighbour with sides 1.67 apart
    max_skew: float = MAX_SKEW
    #: the outline is grown by this share of its height at either end, and half of it all round:
    #: a ribbon at 0.68 of the card leaves an inner frame that needs 0.47 to reach the card's end
    grow: float = 0.47
    #: a grown outline reading better than the outline by this much shows the outline is an inner
    #: frame (grown correct outlines take in shelf and read worse)
    grown_gain: float = 0.08
    #: an outline longer than a tilted card (long over short side) is judged cut down to a card's
    #: proportions (``card_aspect``) at either end: if that reads better by ``grown_gain``, the
    #: outline ran on over what lies beyond the card (two overlapping cards outlined as one, fitted
    #: to the top card stretched over the one beneath, whose strip the shelf then took for the
    #: card's fringe). A 20 degree tilt shows a card at 1.58 at most (2440 whole cards of the
    #: benchmark's scenes: 1.51 at the 99th percentile). At or below it, a cut-down outline reads
    #: better for right cards whose outline is a little loose (5 of the development scenes' right
    #: readings, from 1.44)
    tilted_aspect: float = 1.6
    #: a card's own proportions, 7:5
    card_aspect: float = 1.4
    #: an outline longer than a tilted card has a shape no card on the shelf has, so its face must
    #: lead clearly: an outline round two overlapping cards as one, named as the top card, led by
    #: 0.004 and 0.05 (wrong readings of the runs at 703ae47 and 4715aa9, the card beneath left
    #: out). On the 1250 development scenes such outlines named 4 cards, all right: 3 led by
    #: 0.14-0.36; one, in a frame with a hand in it, read `unsure` anyway, by 0.004 (now refused).
    #: 0.1 lies in the right cards' 5th percentile (0.06-0.24, ``lead_bands``). Its cost, on the
    #: 1000 normal scenes from 22000000 of the full-bleed and tarot designs: 4 right cards refused
    #: (leads -0.05 to 0.02), one readable scene `unsure` (tarot 22000938)
    long_lead: float = 0.1
    #: an outline longer than a tilted card is judged against the card its named face's keypoints
    #: place (a homography, as the second look places cards; the reader's part): a card covering
    #: less than this share of the outline shows the outline ran on past it. Outlines that ran on
    #: past the card named (round two overlapping cards as one, or a card and a hand or the shelf
    #: beside it) were covered 0.69-0.80 by it (ribbon 25000155, a wrong reading of the run at
    #: 703ae47, and three refused by the rules above); the right cards named from
    #: such outlines on the 1250 development scenes 0.90-1.0 (long, narrow outlines inside a card),
    #: on the 2000 normal full-bleed and tarot scenes from 22000000 0.93-0.99. The same bar, the
    #: other way round, lets the reader name a card whose outline failed at the card its keypoints
    #: place over it (``covered_by_the_card``; ``CardReader._refitted``)
    placed_cover: float = 0.85
    #: ... and so is an outline whose opposite sides differ more than a 20 degree tilt makes them
    #: (long over short, ``max_skew``'s reason): two overlapping cards outlined as one, fitted
    #: to the top card at one end and to the card beneath at the other, whose sides keep a card's
    #: proportions on average (full-bleed 26100956, a wrong reading of the run at fa24fe8: sides
    #: 1.36 apart, covered 0.74 by the card its keypoints place). Of 897 right cards of 600
    #: normal and 335 hard seen scenes of the five designs (seeds 28100000 and 38100000), 27
    #: were outlined more skewed than this (to 1.35), covered 0.87-1.0
    tilted_skew: float = 1.15
    #: ... the keypoints searched within the outline and this share of its short side around it:
    #: a card's keypoints lie on its print, not its rim
    placed_margin: float = 0.1
    #: a card the fine look reads in a region short of halfway from the threshold to certainty, or
    #: below the threshold, is named only when its face passes leading by this much
    #: (``CardReader._read_region``). Of the outlines left unnamed in seen scenes of the five
    #: designs (1000 normal from 58750000, 870 hard from 68740000-68770029) that a face passed
    #: verification at, the 56 named wrong led by 0.074 at most, the fine look reading them at
    #: 0.0; of the 42 named right, the 20 it read at 0.5 or more led by 0.227 to 0.639. On new
    #: seen scenes (120 normal a design from 69600000, 150 hard from 79600000), of 213 verdicts
    #: passing a face at an outline of another card or of a back, one led by 0.111 (a card beneath
    #: in a heavy overlap) and the rest by 0.079 at most, where 113 right verdicts led by 0.15-0.2,
    #: most of them small cards of a smooth face (a retina's photograph) left `unsure` at 0.2
    clear_lead: float = 0.15
    #: a card keypoints place short of halfway from the threshold to certainty, whose face the fine
    #: look does not read so at its quad, is named only when its face passes leading by this much
    #: (``CardReader._placed_clearly``). Homographies fitted to 15 keypoints of a face, stretched
    #: over other cards and the shelf (or 0.45 over its own card), passed leading by 0.038 and
    #: 0.005 (full-bleed 79960032, a wrong reading of a census, and 79980092). Right cards so
    #: placed led by 0.098 at the least in frames of about 1550 new hard scenes (73 verdicts), and
    #: by 0.073-0.136 in cut-outs read closer round small cards (4, in 98 `small` hard scenes from
    #: 79200000), which ``clear_lead`` refused. The edge of the lowest band of ``lead_bands``
    placed_lead: float = 0.05
    #: the lead's bands, from low to high, for its probability of being right: the right cards of
    #: the tuning scenes led by -0.08 at the least, 0.0-0.04 at their 1st percentile, 0.06-0.24 at
    #: their 5th and 0.46-0.59 at their median, so the narrow low bands part the tail where a card
    #: named wrong would lead from the bulk
    lead_bands: tuple[float, ...] = (0.0, 0.05, 0.1, 0.2, 0.3)
    #: the probability of being right in each band (below the first edge, between edges, above the
    #: last): the share of cards named right among the verdicts of scenes of known truth, counted
    #: with one right and one wrong more (``fit_lead_probability``). Counted on 913 verdicts of 150
    #: development scenes of each design with the shelf captured, none of them wrong
    #: (``./dev bench card_reader_calibrate --scenes 150 --seed 7400000 --shelf``): each band is
    #: only as sure as its count of right verdicts makes it (2, 16, 20, 31, 64 and 780)
    band_right: tuple[float, ...] = (0.75, 0.9444, 0.9545, 0.9697, 0.9848, 0.9987)

    def __post_init__(self) -> None:
        # a lead is a difference of correlations: its bar and its bands' edges lie anywhere on it
        check_settings(self, signed=("min_lead", "lead_bands"), ordered=("aspect", "lead_bands"),
                       at_most={"band_right": 1.0, "placed_cover": 1.0},
                       under=(("card_aspect", "tilted_aspect"), ("tilted_skew", "max_skew")))
        if len(self.band_right) != len(self.lead_bands) + 1:
            raise ValueError(f"VerifySettings.band_right must hold one probability a band "
                             f"({len(self.lead_bands) + 1}), not {self.band_right!r}")


SETTINGS = VerifySettings()


@dataclass(frozen=True)
class Verdict:
    """Whether a named card passes, its probability of being right, and why it fails if it does."""

    passed: bool
    probability: float
    reason: str = ""
    own: float = 0.0
    lead: float = 0.0
    #: whether the face was compared (``own`` and ``lead`` measured): an outline refused for its
    #: shape, or a name not enrolled, never is
    measured: bool = False


def side_ratio(quad: np.ndarray) -> float:
    """Long over short side of a quad (means of opposite sides)."""
    q = np.asarray(quad, np.float64)
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return max(a, b) / max(1e-6, min(a, b))


def _down_and_across(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean of a quad's two sides down it, and of its two sides across it (clockwise from its top-left)."""
    return ((q[3] - q[0]) + (q[2] - q[1])) / 2, ((q[1] - q[0]) + (q[2] - q[3])) / 2


def grown_quads(quad: np.ndarray, grow: float) -> list[np.ndarray]:
    """``quad`` (clockwise from its top-left) grown by ``grow`` of its height past its bottom, past
    its top, and by half of that all round."""
    q = np.asarray(quad, np.float64)
    down, across = _down_and_across(q)
    past_bottom = q + np.array([0, 0, 1, 1])[:, None] * grow * down
    past_top = q - np.array([1, 1, 0, 0])[:, None] * grow * down
    each_side = grow / 4                     # the height and the width each grow by half of ``grow``
    all_round = q + each_side * (np.array([-1, 1, 1, -1])[:, None] * across
                                 + np.array([-1, -1, 1, 1])[:, None] * down)
    return [v.astype(np.float32) for v in (past_bottom, past_top, all_round)]


def shrunk_quads(quad: np.ndarray, aspect: float) -> list[np.ndarray]:
    """``quad`` (clockwise from its top-left) cut down along its long sides to ``aspect`` (long over
    short), keeping either end; none if it is no longer than that."""
    q = np.asarray(quad, np.float64)
    down, across = _down_and_across(q)
    long, short = sorted((float(np.linalg.norm(down)), float(np.linalg.norm(across))), reverse=True)
    if long <= aspect * short:
        return []
    keep = aspect * short / long
    # the two long sides, each from its first corner to its last: down the quad, or across it
    long_sides = ((0, 3), (1, 2)) if np.linalg.norm(down) >= np.linalg.norm(across) else ((0, 1), (3, 2))
    quads = []
    for keep_first_end in (True, False):
        cut = q.copy()
        for side in long_sides:
            kept, moved = side if keep_first_end else side[::-1]
            cut[moved] = q[kept] + keep * (q[moved] - q[kept])
        quads.append(cut.astype(np.float32))
    return quads


def out_of_a_cards_shape(quad: np.ndarray, settings: VerifySettings = SETTINGS) -> bool:
    """Whether an outline is longer (``tilted_aspect``) or more skewed (``tilted_skew``) than a
    tilted card shows: it may have run on past the card (``runs_past_the_card`` judges it)."""
    q = np.asarray(quad, np.float32)
    return side_ratio(q) > settings.tilted_aspect or skewed(q, settings.tilted_skew)


def runs_past_the_card(quad: np.ndarray, placed: np.ndarray, settings: VerifySettings = SETTINGS) -> bool:
    """Whether an outline (``quad``) runs on past the card its named face's keypoints place
    (``placed``, the same frame's px): it is out of a tilted card's shape (``out_of_a_cards_shape``),
    and that card does not cover it (``covered_by_the_card``)."""
    return out_of_a_cards_shape(quad, settings) and not covered_by_the_card(quad, placed, settings)


def covered_by_the_card(quad: np.ndarray, placed: np.ndarray, settings: VerifySettings = SETTINGS) -> bool:
    """Whether the card its named face's keypoints place (``placed``) covers at least
    ``placed_cover`` of an outline (``quad``, the same frame's px): the outline lies on that card,
    however misfitted, and has not run on past it."""
    q = np.asarray(quad, np.float32)
    return shared_area(np.asarray(placed, np.float32), q) >= settings.placed_cover * quad_area(q)


def lead_probability(lead: float, settings: VerifySettings = SETTINGS) -> float:
    """The probability that a card named with this ``lead`` is right (its band's, fitted)."""
    return settings.band_right[bisect.bisect_right(settings.lead_bands, lead)]


def verify_card(frame: np.ndarray, quad: np.ndarray, ingredient: str, faces: FineMatcher,
                settings: VerifySettings = SETTINGS) -> Verdict:
    """Whether the card at ``quad`` (frame px, clockwise from its own top-left) is ``ingredient``."""
    q = np.asarray(quad, np.float32)
    if ingredient not in faces.ingredients:
        return Verdict(False, 0.0, f"{ingredient!r} is not enrolled")
    ratio = side_ratio(q)
    if not settings.aspect[0] <= ratio <= settings.aspect[1]:
        return Verdict(False, 0.0, f"outline sides {ratio:.2f}:1, not a card's")
    if skewed(q, settings.max_skew):
        return Verdict(False, 0.0, "opposite sides differ more than a tilted card's")
    upright, turned = faces.scores(frame, q), faces.scores(frame, np.roll(q, 2, axis=0))
    named = faces.ingredients.index(ingredient)
    own = max(float(upright[named]), float(turned[named]))     # the quad's start corner is not judged here
    others = np.concatenate([np.delete(upright, named), np.delete(turned, named)])
    lead = own - float(others.max()) if len(others) else own
    probability = lead_probability(lead, settings)
    best = max(own, float(others.max()))
    if _any_reads_better(frame, grown_quads(q, settings.grow), faces, best + settings.grown_gain):
        return Verdict(False, 0.0, "an inner frame: a larger outline reads better", own, lead, True)
    shrunk = shrunk_quads(q, settings.card_aspect) if ratio > settings.tilted_aspect else []
    if _any_reads_better(frame, shrunk, faces, best + settings.grown_gain):
        return Verdict(False, 0.0, "stretched past the card: a shorter outline reads better", own, lead, True)
    if ratio > settings.tilted_aspect and lead < settings.long_lead:
        return Verdict(False, probability, f"outline longer than a card's, its face leading by {lead:+.2f} only",
                       own, lead, True)
    if own < settings.min_own:
        return Verdict(False, probability, f"its face correlates {own:.2f} only", own, lead, True)
    if lead < settings.min_lead:
        return Verdict(False, probability, f"another face or orientation is as close ({lead:+.2f})", own, lead, True)
    return Verdict(True, probability, "", own, lead, True)


def _any_reads_better(frame: np.ndarray, quads: list[np.ndarray], faces: FineMatcher, bar: float) -> bool:
    """Whether any face, either way up, correlates over ``bar`` at any of ``quads``."""
    return any(float(faces.scores(frame, oriented).max()) > bar
               for quad in quads for oriented in (quad, np.roll(quad, 2, axis=0)))


def fit_lead_probability(leads: Sequence[float], right: Sequence[bool],
                         bands: Sequence[float] = SETTINGS.lead_bands) -> tuple[float, ...]:
    """The probability of being right in each band of the lead (below ``bands[0]``, between edges,
    above the last), from readings whose truth is known (each card named: its lead, whether it
    was right): the share right counted with one right and one wrong more (the rule of
    succession: a band without a wrong reading is not certain), pooled where a band lies below a
    lower one (a larger lead is never less likely). A band without readings takes the band's
    below it, or a coin toss if that is lower than the band's above it.

    Fit it on scenes of designs other than the one measured, so the probability is not tuned to it.
    """
    if len(leads) != len(right) or not len(leads):
        raise ValueError(f"need as many truths as leads, and some: {len(leads)} leads, {len(right)} truths")
    if list(bands) != sorted(set(bands)):
        raise ValueError(f"the lead's bands must rise, not {tuple(bands)!r}")
    band = np.searchsorted(np.asarray(bands, np.float64), np.asarray(leads, np.float64), side="right")
    right_counts = np.bincount(band, weights=np.asarray(right, np.float64), minlength=len(bands) + 1)
    counts = np.bincount(band, minlength=len(bands) + 1)
    pools: list[list[float]] = []          # [right + 1, verdicts + 2, bands pooled], low to high
    for r, n in zip(right_counts, counts):
        if n:
            pools.append([float(r) + 1, float(n) + 2, 1])
        while len(pools) > 1 and pools[-1][0] / pools[-1][1] < pools[-2][0] / pools[-2][1]:
            r2, n2, k2 = pools.pop()
            pools[-1] = [pools[-1][0] + r2, pools[-1][1] + n2, pools[-1][2] + k2]
    pooled = iter([r / n for r, n, k in pools for _ in range(int(k))])
    probabilities: list[float] = []
    for n in counts:
        probabilities.append(next(pooled) if n else probabilities[-1] if probabilities else math.nan)
    first = next(p for p in probabilities if not math.isnan(p))
    return tuple(min(0.5, first) if math.isnan(p) else p for p in probabilities)
