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
  orientation) by ``min_lead``;
* the outline grown (at either end, or all round) must not read better than the outline itself:
  if it does, the outline was an inner frame of a larger card.

``verify_card`` is a pure function of the frame, the quad, the ingredient named, the enrolled faces'
blocks and a frozen ``VerifySettings``; its ``Verdict`` carries a probability of being right from
the lead (``fit_lead_probability`` fits it to readings of scenes whose truth is known, so a benchmark
can fit it on designs other than the one it measures).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .fine_look import FineMatcher
from .keypoints import MAX_SKEW, skewed
from .settings_check import check_settings


@dataclass(frozen=True)
class VerifySettings:
    """Every number the verification uses, with the reason for its value."""

    #: the named face's own correlation (either way up) below this is no reading of it: on 723 cards
    #: read right on tuning scenes of two designs (glare, shadow, blur, fingers, overlaps) the
    #: lowest was 0.16; the outline checks below, not this, refuse inner frames (0.12-0.35)
    min_own: float = 0.15
    #: lead over the best other face (either way up): a whole card that another face matches
    #: clearly better is not the card named; the 723 right cards led by -0.08 at the least
    min_lead: float = -0.1
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
    #: the lead's probability of being right: 1 / (1 + exp(-(lead - centre) / width)), fitted by
    #: ``fit_lead_probability`` on readings of the shipped design (see docs/card_reader.md)
    lead_centre: float = 0.06
    lead_width: float = 0.03

    def __post_init__(self) -> None:
        # a lead is a difference of correlations, and the logistic's centre lies anywhere on it
        check_settings(self, signed=("min_lead", "lead_centre"), ordered=("aspect",))


SETTINGS = VerifySettings()


@dataclass(frozen=True)
class Verdict:
    """Whether a named card passes, its probability of being right, and why it fails if it does."""

    passed: bool
    probability: float
    reason: str = ""
    own: float = 0.0
    lead: float = 0.0


def side_ratio(quad: np.ndarray) -> float:
    """Long over short side of a quad (means of opposite sides)."""
    q = np.asarray(quad, np.float64)
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return max(a, b) / max(1e-6, min(a, b))


def grown_quads(quad: np.ndarray, grow: float) -> list[np.ndarray]:
    """``quad`` (clockwise from its top-left) grown by ``grow`` of its height past its bottom, past
    its top, and by half of that all round."""
    q = np.asarray(quad, np.float64)
    down = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    across = ((q[1] - q[0]) + (q[2] - q[3])) / 2
    past_bottom = q + np.array([0, 0, 1, 1])[:, None] * grow * down
    past_top = q - np.array([1, 1, 0, 0])[:, None] * grow * down
    each_side = grow / 4                     # the height and the width each grow by half of ``grow``
    all_round = q + each_side * (np.array([-1, 1, 1, -1])[:, None] * across
                                 + np.array([-1, -1, 1, 1])[:, None] * down)
    return [v.astype(np.float32) for v in (past_bottom, past_top, all_round)]


def lead_probability(lead: float, settings: VerifySettings = SETTINGS) -> float:
    """The probability that a card named with this ``lead`` is right (the fitted logistic)."""
    return 1.0 / (1.0 + math.exp(-(lead - settings.lead_centre) / settings.lead_width))


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
    for grown in grown_quads(q, settings.grow):
        for oriented in (grown, np.roll(grown, 2, axis=0)):
            if float(faces.scores(frame, oriented).max()) > best + settings.grown_gain:
                return Verdict(False, 0.0, "an inner frame: a larger outline reads better", own, lead)
    if own < settings.min_own:
        return Verdict(False, probability, f"its face correlates {own:.2f} only", own, lead)
    if lead < settings.min_lead:
        return Verdict(False, probability, f"another face or orientation is as close ({lead:+.2f})", own, lead)
    return Verdict(True, probability, "", own, lead)


def fit_lead_probability(leads: Sequence[float], right: Sequence[bool]) -> tuple[float, float]:
    """``(lead_centre, lead_width)`` of the logistic best fitting readings whose truth is known
    (each card named: its lead, whether it was right), by maximum likelihood over a grid.

    Fit it on scenes of designs other than the one measured, so the threshold is not tuned to it.
    """
    x = np.asarray(leads, np.float64)
    y = np.asarray(right, bool)
    if len(x) != len(y) or not len(x):
        raise ValueError(f"need as many truths as leads, and some: {len(x)} leads, {len(y)} truths")
    best = (-math.inf, 0.0, 0.0)
    for centre in np.linspace(-0.1, 0.3, 81):
        for width in np.linspace(0.01, 0.1, 19):
            p = 1 / (1 + np.exp(-(x - centre) / width))
            p = np.clip(p, 1e-9, 1 - 1e-9)
            likelihood = float(np.log(np.where(y, p, 1 - p)).sum())
            if likelihood > best[0]:
                best = (likelihood, float(centre), float(width))
    return best[1], best[2]
