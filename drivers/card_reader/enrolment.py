"""Checks of a set of enrolled faces: which way up each is, and faces too alike to tell apart. numpy
and OpenCV only.

Enrolment photos come turned (a phone's photo lying on its side, a scan fed upside down); stored
that way, the face would be read with every quad turned. The cards of one game share a layout
(frame, title ribbon), so a face that matches the layout of the *other* faces better turned 180
degrees than as given was enrolled upside down: it is stored turned, with a warning. A face whose
whole card matches another face closely, or which has almost no detail (a card back, a blank
photo), is kept but warned about: the reader could not tell such cards apart. The cards' back is
checked the same way: a back that looks like a face (the card was laid face up) or shows almost no
detail (no card was there) is kept but warned about, as face-down cards would not be told by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from .fine_look import FineMatcher
from .settings_check import check_settings


@dataclass(frozen=True)
class EnrolmentSettings:
    """Every number the enrolment checks use, with the reason for its value."""

    #: the layout is compared on grey thumbnails this large: the frame and ribbon, not the pictures
    layout_size: tuple[int, int] = (30, 42)
    #: a face is turned when its layout correlates this much better turned than as given: faces
    #: enrolled upright lead their turned selves by 0.3 and more on the shipped and a ribbon design
    turned_by: float = 0.15
    #: two faces whose whole cards correlate this much are too alike (distinct faces of the shipped
    #: design correlate 0.5 at most, a face with itself 1.0); a back this much like a face is that
    #: face (the backs of the five benchmark designs correlate 0.10-0.35 with their own faces)
    alike: float = 0.8
    #: a face or back whose grey detail (standard deviation, grey levels) is below this is blank: a
    #: plain photo or shelf (the five benchmark designs' backs measure 21-89)
    blank: float = 12.0

    def __post_init__(self) -> None:
        check_settings(self)


SETTINGS = EnrolmentSettings()


def _layout(face: np.ndarray, settings: EnrolmentSettings) -> np.ndarray:
    grey = cv2.cvtColor(cv2.resize(face, settings.layout_size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    g = grey.astype(np.float32).ravel()
    return (g - g.mean()) / max(1e-3, float(g.std()))


def upright_faces(faces: Mapping[str, np.ndarray], settings: EnrolmentSettings = SETTINGS) -> tuple[dict[str, np.ndarray], list[str]]:
    """The faces with any enrolled upside down turned upright, and a warning for each turned."""
    out = dict(faces)
    warnings: list[str] = []
    if len(out) < 3:
        return out, warnings       # two faces cannot outvote each other on the layout
    for ing, face in faces.items():
        others = [_layout(other, settings) for name, other in out.items() if name != ing]
        shared = np.mean(others, axis=0)
        as_given = float(_layout(face, settings) @ shared) / shared.size
        turned = float(_layout(face[::-1, ::-1], settings) @ shared) / shared.size
        if turned > as_given + settings.turned_by:
            out[ing] = np.ascontiguousarray(face[::-1, ::-1])
            warnings.append(f"the face of {ing!r} was upside down (its frame matches the others turned); stored upright")
    return out, warnings


def alike_faces(faces: Mapping[str, np.ndarray], settings: EnrolmentSettings = SETTINGS) -> list[str]:
    """Warnings for faces that look like another face (either way up) or like a blank card back."""
    warnings = []
    for ing, face in faces.items():
        if is_blank(face, settings):
            warnings.append(f"the face of {ing!r} shows almost no detail: a card back or a blank photo?")
    names = list(faces)
    if len(names) < 2:
        return warnings
    matcher = FineMatcher({name: faces[name] for name in names})
    for i, ing in enumerate(names):
        scores = _whole_card_scores(matcher, faces[ing])
        for j in range(i + 1, len(names)):
            if scores[j] > settings.alike:
                warnings.append(f"the faces of {ing!r} and {names[j]!r} look alike ({scores[j]:.2f}): "
                                f"the reader may not tell them apart")
    return warnings


def _whole_card_scores(matcher: FineMatcher, card: np.ndarray) -> np.ndarray:
    """How well a whole enrolled-size card matches each of the matcher's faces, the better way up."""
    h, w = card.shape[:2]
    whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return np.maximum(matcher.scores(card, whole), matcher.scores(card, np.roll(whole, 2, axis=0)))


def is_blank(image: np.ndarray, settings: EnrolmentSettings = SETTINGS) -> bool:
    """Whether an enrolled-size card shows almost no detail (a plain photo, a patch of shelf)."""
    return float(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).std()) < settings.blank


def face_like(back: np.ndarray, faces: Mapping[str, np.ndarray],
              settings: EnrolmentSettings = SETTINGS) -> tuple[str, float] | None:
    """The face a captured back looks like (either way up: the card was laid face up) and how
    closely, or None."""
    if not faces:
        return None
    names = list(faces)
    scores = _whole_card_scores(FineMatcher(dict(faces)), back)
    best = int(np.argmax(scores))
    return (names[best], float(scores[best])) if scores[best] > settings.alike else None


def back_warnings(back: np.ndarray, faces: Mapping[str, np.ndarray],
                  settings: EnrolmentSettings = SETTINGS) -> list[str]:
    """Warnings for a captured back that would not tell face-down cards: one with almost no detail
    (nothing, or a blank patch of shelf, was captured), or one that looks like a face."""
    warnings = []
    if is_blank(back, settings):
        warnings.append("the back shows almost no detail: was a card lying face down on the shelf?")
    like = face_like(back, faces, settings)
    if like is not None:
        warnings.append(f"the back looks like the face of {like[0]!r} ({like[1]:.2f}): was the card laid face up?")
    return warnings
