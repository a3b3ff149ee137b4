"""Identify the ingredient cards in a camera frame. numpy and OpenCV only.

Pipeline: downscale the frame to about 240 px high; find card-like quads (``detect``); read each by
its thumbnail (``thumbnails``: upright and upside down, against every enrolled face) and accept only
a best match clearly ahead of the runner-up; look again where the outlines fall short (``zoom``,
``second_look``, the fine look, keypoints); account for every card-like thing (``count``); verify
every card named (``verify``); and, with a frame of the empty shelf, settle the reading by what
changed since (``shelf``). Anything card-like that cannot be read confidently makes the frame
"unsure": a wrong ingredient is far worse than asking the player to adjust the cards. The stages
are described in docs/card_reader.md.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Iterator

import cv2
import numpy as np

from .detect import Candidate, Detector, _percentile_u8
from .face_align import FaceAligner
from .quad_fit import order_quad, overlapping, snap_quad
from .fine_look import FineMatcher
from .keypoints import KeypointIndex, quad_area, shared_area, skewed
from .references import References, check_frame
from .keypoint_count import KeypointCount
from .colour_count import colour_twins
from .count import unaccounted
from .reading import CardSighting, FrameReading, sighting
from .thumbnails import THUMB_H, THUMB_W, ThumbnailMatcher, WorkImage, fine_detail, work_image
from .verify import SETTINGS as VERIFY_SETTINGS
from .verify import (Verdict, VerifySettings, covered_by_the_card, out_of_a_cards_shape, runs_past_the_card,
                     verify_card)
from .zoom import SETTINGS as ZOOM_SETTINGS
from .zoom import (CutOut, ZoomSettings, covered, cut_around, cut_out, edge_outlines, larger_than_usual, long_side,
                   small_cards, smaller_than_usual, usual_size)
from .shelf import Comparison, EmptyShelf, ShelfKeeper
from .shelf_step import ReadCloser, told_by_shelf
from .second_look import (HIDING_AREA, cut_off_by_the_frame, hiding_places, keypoint_confidence,
                          may_hide_a_whole_card, outlines_of, paint_out, place_by_keypoints, read_otherwise,
                          settled_cards, unsettled_by)

log = logging.getLogger(__name__)

#: thumbnail detail (relative to brightness) below which a bright quad is glare, not a card
FEATURELESS = 0.03
#: the shelf step's "ok" stands without the outline stages' reading only while the changes no
#: card named explains, each too small to count, add up to less than this share of a card
#: (``EmptyShelf.unexplained_share``): cards of the shelf's light left out changed it in pieces
#: adding up to 0.19 (a grey card of noise on a grey cloth, 0.7 of it in view; woodcut 66200030,
#: a wrong reading of main at 899d798) and 0.08 (a grey card of bricks on a green cloth in a
#: 320 x 240 frame, seen along its border and its title's corner; full-bleed hard 79540536, a
#: wrong reading of the run at 69f650f), which the stages outlined. Right readings of the shelf
#: step alone leave 0.05 or less as a rule: of 390 on 500 seen normal scenes of the five designs
#: (from 66500000) all but 18; of 2376 on 3000 (from 93240000) all but 39, which the stages read
#: right too but for 2 left `unsure` (and one read right that the shelf step had read anyway)
ALONE_PIECES = 0.05
#: a card the count by keypoints places stands in for the search about an outline only where more
#: than this share of it lies in the outline: the card the outline holds lies in it but for the
#: outline's misfit (full-bleed 69570988's scorpion: 0.95 of it), and a copy of its face elsewhere
#: shares at most the 0.3 two cards overlap as a player lays them
IN_THE_OUTLINE = 0.5



def _aspect_variants(q: np.ndarray, aspect: float = 1.4) -> list[np.ndarray]:
    """``q`` (clockwise, short side first) with one side moved so the card gets its usual aspect."""
    def unit(v: np.ndarray) -> np.ndarray:
        return v / max(1e-6, float(np.linalg.norm(v)))

    q0, q1, q2, q3 = (np.asarray(p, np.float64) for p in q)
    top, bottom = float(np.linalg.norm(q1 - q0)), float(np.linalg.norm(q2 - q3))
    left, right = float(np.linalg.norm(q3 - q0)), float(np.linalg.norm(q2 - q1))
    out = []
    ratio = (left + right) / max(1e-6, top + bottom)
    long_variants = [np.array([q0, q1, q1 + unit(q2 - q1) * aspect * top, q0 + unit(q3 - q0) * aspect * top]),
                     np.array([q3 + unit(q0 - q3) * aspect * bottom, q2 + unit(q1 - q2) * aspect * bottom, q2, q3])]
    wide_variants = [np.array([q0, q0 + unit(q1 - q0) * left / aspect, q3 + unit(q2 - q3) * left / aspect, q3]),
                     np.array([q1 + unit(q0 - q1) * right / aspect, q1, q2, q2 + unit(q3 - q2) * right / aspect])]
    if ratio > aspect * 1.05:            # too long: trim an end first
        out = long_variants + wide_variants
    elif ratio < aspect / 1.05:          # too wide: trim a side first
        out = wide_variants + long_variants
    else:                                # both may be stretched a little (a card and its neighbour)
        out = long_variants + wide_variants
    return [v.astype(np.float32) for v in out]


def _with_hiding_places(reading: FrameReading, places: list[np.ndarray]) -> FrameReading | None:
    """An unsure ``reading`` of the outlines with the regions that may hide a card and could not
    be read as one (``places``: rectangles, frame px) as outlines it could not read, or None for
    another reading. With the empty shelf each must then show the shelf's texture
    (``shelf_step``): a card of the table's light lying in one, which the shelf sees change in
    pieces or lit, is no longer dropped from an "ok" naming the cards beside it (class: a grey card
    under a glare on a stone table, beneath another in a heavy overlap)."""
    if reading.status != "unsure":
        return None
    return FrameReading("unsure", list(reading.cards) + [sighting(None, place, 0.0) for place in places])


def _in_frame(part: CutOut, cards: list[CardSighting]) -> list[CardSighting]:
    """The ``cards`` read in a cut-out (``part``), their quads in frame px."""
    return [sighting(c.ingredient, part.to_frame(np.asarray(c.quad)), c.confidence) for c in cards]


class CardReader:
    """Reads the ingredient cards in camera frames against enrolled references.

    ``tolerance`` (0..1) trades "not recognised" against "recognised wrongly": 0 is strict (prefers
    "unsure"), 1 lenient. Constructor and setter misuse raise ValueError/TypeError; a bad frame never
    raises: it reads "unsure" and logs a WARNING.
    """

    def __init__(self, references: References, tolerance: float = 0.5,
                 verify: VerifySettings = VERIFY_SETTINGS, zoom: ZoomSettings = ZOOM_SETTINGS) -> None:
        if not isinstance(references, References):
            raise TypeError(f"references must be References, not {type(references).__name__}")
        self.references = references
        self._matcher = ThumbnailMatcher(references)
        self._keypoints = KeypointIndex(references.faces)
        self._fine = FineMatcher(references.faces)
        self._aligner = FaceAligner(references.faces)
        self._detector = Detector()
        self._keypoint_count = KeypointCount(references.faces, references.back)
        self.tolerance = tolerance
        if not isinstance(verify, VerifySettings):
            raise TypeError(f"verify must be VerifySettings, not {type(verify).__name__}")
        self.verify_settings = verify
        self._verdicts = threading.local()   # the verdicts of the frame this thread reads (``verdict``)
        if not isinstance(zoom, ZoomSettings):
            raise TypeError(f"zoom must be ZoomSettings, not {type(zoom).__name__}")
        self.zoom_settings = zoom
        self._empty_shelf: EmptyShelf | None = None
        self._shelf_keeper: ShelfKeeper | None = None

    @property
    def empty_shelf(self) -> EmptyShelf | None:
        """The frame of the empty shelf the frames are compared with (``shelf``), or None: none was
        captured, and the texture of the shelf is told from cards by the stages alone."""
        return self._empty_shelf

    @empty_shelf.setter
    def empty_shelf(self, shelf: EmptyShelf | None) -> None:
        if shelf is not None and not isinstance(shelf, EmptyShelf):
            raise TypeError(f"empty_shelf must be an EmptyShelf or None, not {type(shelf).__name__}")
        self._empty_shelf = shelf

    @property
    def shelf_keeper(self) -> ShelfKeeper | None:
        """What captures the empty shelf from the frames read (``shelf.ShelfKeeper``), or None:
        the shelf is only the one given to ``empty_shelf``."""
        return self._shelf_keeper

    @shelf_keeper.setter
    def shelf_keeper(self, keeper: ShelfKeeper | None) -> None:
        if keeper is not None and not isinstance(keeper, ShelfKeeper):
            raise TypeError(f"shelf_keeper must be a ShelfKeeper or None, not {type(keeper).__name__}")
        self._shelf_keeper = keeper

    @property
    def tolerance(self) -> float:
        return self._tolerance

    @tolerance.setter
    def tolerance(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"tolerance must be a number in 0..1, not {value!r}")
        if not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"tolerance must be in 0..1, not {value!r}")
        self._tolerance = float(value)

    @property
    def threshold(self) -> float:
        """Confidence a card needs to be read (from the tolerance)."""
        return 0.75 - 0.5 * self._tolerance

    def __repr__(self) -> str:
        return f"CardReader({self.references!r}, tolerance={self._tolerance})"

    # -------------------------------------------------------------- reading

    def identify(self, frame: np.ndarray) -> FrameReading:
        """Read one BGR uint8 frame (640x480 and up). Never raises on a bad frame."""
        try:
            img = check_frame(frame)
        except ValueError as exc:
            log.warning("card reader: unusable frame: %s", exc)
            return FrameReading("unsure")
        self._verdicts.of_frame = {}
        try:
            return self._identify(img)
        except (cv2.error, np.linalg.LinAlgError, FloatingPointError) as exc:
            log.warning("card reader: could not read frame %dx%d: %s", img.shape[1], img.shape[0], exc)
            return FrameReading("unsure")
        except Exception:  # a bug must not stop the camera loop; it is logged loudly
            log.exception("card reader: internal error on a %dx%d frame", img.shape[1], img.shape[0])
            return FrameReading("unsure")
        finally:
            self._verdicts.of_frame = None

    def _identify(self, frame: np.ndarray) -> FrameReading:
        shelf = self._empty_shelf
        compared = shelf.compare(frame) if shelf is not None else None
        if shelf is not None and compared is not None:
            alone = self._read_by_the_shelf_alone(frame, shelf, compared)
            if alone is not None:
                return alone
            unsettled = self._unsettled_by_keypoints(frame)
            if unsettled is None:
                unsettled = self._turned_over(frame)
            if unsettled is not None:
                if self._shelf_keeper is not None:
                    self._shelf_keeper.update(frame, False)
                return unsettled
        reading = self._read_at_every_size(frame)
        if self._shelf_keeper is not None:
            self._empty_shelf = self._shelf_keeper.update(frame, reading.status == "empty") or self._empty_shelf
        if self._empty_shelf is None:
            return reading
        return told_by_shelf(self, frame, reading, self._empty_shelf,
                             compared=compared if self._empty_shelf is shelf else None)

    def _read_by_the_shelf_alone(self, frame: np.ndarray, shelf: EmptyShelf,
                                 compared: Comparison) -> FrameReading | None:
        """The shelf step's "ok" with no reading of the stages (``told_by_shelf``: the cards read in
        the changes since the shelf was empty, placed by keypoints, verified, every hidden-card
        rule and the keypoint count), or None: the frame is then read by every stage.
        Where a frame's every change is a card read in it, the outline stages' work (about half of
        a frame's time) adds nothing the shelf step does not check; its "empty" is not taken: a
        face-down card of the shelf's colours may change it too little, where the outline stages
        still see the card's outline (docs/card_reader.md, "Speed"). Nor is its "ok" where pieces of
        change no card named explains, each too small to count, add up to ``ALONE_PIECES`` of a
        card: a card of the shelf's light and colours may lie there, which the stages outline."""
        alone = told_by_shelf(self, frame, FrameReading("unsure"), shelf, closer=False, compared=compared)
        if alone.status != "ok":
            return None
        if shelf.unexplained_share(compared, [np.asarray(c.quad, np.float32) for c in alone.cards]) >= ALONE_PIECES:
            log.debug("card reader: pieces of change beside the cards the shelf step named: read by every stage")
            return None
        if self._shelf_keeper is not None:
            self._shelf_keeper.update(frame, False)
        log.debug("card reader: ok by the shelf step alone")
        return alone

    def _unsettled_by_keypoints(self, frame: np.ndarray) -> FrameReading | None:
        """"unsure", with the cards the keypoints of the whole frame place unnamed, where those
        placed with a card's shape leave a frame no reading can settle (``second_look.unsettled_by``:
        one cut off by the frame's edge, or two overlapping more than a player lays them); else
        None. The search is the one the shelf step alone made first, remembered. Every later stage
        would read such a frame at length to leave it unsure: a card cut by the edge is never
        named, and the second look refuses the frame on the same search (class: the time of frames
        that must be unsure, 0.7-1.4 s each where a frame read "ok" takes 0.1: a tenth of a normal
        set's frames and half of its time). A ``skewed`` card is left out: a homography a few
        keypoints bent off a card can reach beyond the frame from one lying inside it, which the
        stages read right (class: a card near the frame's edge placed bent, 31 inliers, by a
        face's keypoints)."""
        placed = [c for c in self._keypoints.find(frame)
                  if keypoint_confidence(c.inliers) >= self.threshold and not skewed(c.quad)]
        why = unsettled_by(placed, frame.shape)
        if why is None:
            return None
        log.debug("card reader: unsure: %s, by the keypoints of the whole frame", why)
        return FrameReading("unsure", [sighting(None, c.quad, 0.0) for c in placed])

    def _turned_over(self, frame: np.ndarray) -> FrameReading | None:
        """"unsure" with the backs the count by keypoints places in the whole frame, face down
        (``_backs_told``), or None where it places none. A card face down is never named, and that
        count keeps every "ok" beside a back unsure; every stage and the read closer would read
        such a frame at length to leave it so (class: the time of frames with a card face down,
        0.4-0.9 s each, where the count's search of the whole frame takes 0.02)."""
        told = self._backs_told(frame, FrameReading("unsure"))
        if not told.face_down:
            return None
        log.debug("card reader: unsure: a card lies face down, by the keypoints of the whole frame")
        return told

    def cards_placed_by_keypoints(self, frame: np.ndarray, reading: FrameReading, named: list[CardSighting],
                                  within: np.ndarray | None = None) -> list[CardSighting]:
        """The cards keypoints place beside the ``named`` ones (``place_by_keypoints``; only
        ``within`` a mask of the frame's size, if given): cards whose changes merged into one (two
        overlapping, one under a finger). A card placed short of halfway from the tolerance's
        threshold to certainty is one only where its face reads clearly (``_placed_clearly``)."""
        placed = place_by_keypoints(frame, reading.cards, self._keypoints, self.threshold,
                                    [np.asarray(c.quad, np.float32) for c in named], within)
        return [sighting(ing, q, conf) for ing, q, conf in placed or ()
                if not any(shared_area(np.asarray(c.quad, np.float32), q) > 0.3 * quad_area(q) for c in named)
                and self._placed_clearly(frame, ing, q, conf)]

    def _placed_clearly(self, frame: np.ndarray, ingredient: str, quad: np.ndarray, confidence: float) -> bool:
        """Whether a card keypoints place (``quad``, frame px; ``confidence`` from their inliers)
        is placed clearly enough to name: halfway from the tolerance's threshold to certainty, or
        else the fine look reads its face so at the quad, or else its face passes verification
        leading every other by ``VerifySettings.placed_lead``. A homography fitted to a few
        keypoints of one face (15 inliers) can stretch over other cards and the shelf, where
        verification passes that face leading by 0.005-0.04 and the fine look reads it at 0.0
        (class: a card named where the keypoints misplaced it, the cards in view left out of an
        "ok")."""
        bar = (1 + self.threshold) / 2
        if confidence >= bar:
            return True
        read, fine = self._fine.read(frame, quad)
        if read == ingredient and fine >= bar:
            return True
        return self._leading_clearly(frame, quad, ingredient) is not None

    def _leading_clearly(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> Verdict | None:
        """The verdict of a card not yet named (``ingredient`` at ``quad``, frame px) where its face
        passes verification leading every other by ``VerifySettings.placed_lead``, else None."""
        verdict = self._remembered_verdict(frame, quad, ingredient)     # a candidate, not yet named
        return verdict if verdict.passed and verdict.lead >= self.verify_settings.placed_lead else None

    def read_box(self, frame: np.ndarray, small: np.ndarray, scale: float, box: np.ndarray) -> CardSighting | None:
        """The card a rectangle around a change of the shelf shows (``box``, work px), or None: read
        by the fine look (``_read_region``), or else by the thumbnail (``_read_thumbnail``), or else
        at the outline a face aligned with it moves it to (``_read_aligned``)."""
        return (self._read_region(frame, small, scale, box) or self._read_thumbnail(small, scale, box)
                or self._read_aligned(frame, box / scale))

    def _read_aligned(self, frame: np.ndarray, box: np.ndarray) -> CardSighting | None:
        """The card a change's rectangle (``box``, frame px) stands a few per cent off, read at the
        outline the face that aligns best with it moves it to (``face_align``), or None: the fine
        look must name that face there, halfway from the tolerance's threshold to certainty, like
        ``_read_region``'s (class: a change's rectangle turned or stretched off its card by the
        shelf's coarse comparison, a neighbour's outline cut out of it or a dot of the table's print
        joined to it, which the fine look reads at 0.0 where it reads the card's outline at 1.0)."""
        found = self._aligner.aligned(frame, box)
        if found is None:
            return None
        ingredient, outline = found
        return self.named_at(frame, ingredient, outline)

    def named_at(self, frame: np.ndarray, ingredient: str, quad: np.ndarray) -> CardSighting | None:
        """The card of ``ingredient`` at ``quad`` (frame px, clockwise from the card's own
        top-left) where the fine look names that face there halfway from the tolerance's threshold
        to certainty, or None."""
        read, confidence = self._fine.read(frame, quad)
        if read != ingredient or confidence < (1 + self.threshold) / 2:
            return None
        return sighting(ingredient, quad, confidence)

    def named_again_at(self, frame: np.ndarray, card: CardSighting, quad: np.ndarray) -> CardSighting | None:
        """A card named (``card``) at another outline of it (``quad``, frame px, in the order of
        ``card.quad``), or None: where the fine look names its face there halfway from the
        tolerance's threshold to certainty (``named_at``), or else its face passes verification
        there leading every other by ``VerifySettings.placed_lead``, as a card the keypoints place
        must (``_placed_clearly``): its name stands from where it was read, and verification
        checks the whole face at the new outline. A finger over a face, or a face's smooth
        illustration, keeps the fine look short of halfway at the card's true outline (class: the
        tarot's colour wheel under a finger, named short of itself by the keypoints of its title
        and border, read by the fine look at 0.37 at its outline where its face passes verification
        leading by 0.15: tarot 90640104 of a census, kept `unsure`)."""
        ingredient = str(card.ingredient)
        named = self.named_at(frame, ingredient, quad)
        if named is not None:
            return named
        verdict = self._leading_clearly(frame, quad, ingredient)
        return None if verdict is None else sighting(ingredient, quad, min(card.confidence, verdict.probability))

    def named_where_its_face_aligns(self, frame: np.ndarray, card: CardSighting) -> CardSighting | None:
        """A card read in a change (``card``) whose outline fails verification, named again
        (``named_again_at``) at the outline its own face, aligned with the frame in and around that
        outline (``face_align``), moves it to; None where another face aligns best, or none does.
        The box read around a change can stand a side's width off its card (the change of a card
        touching another, cut round it, 15 px loose), where the card's face still reads well enough
        to name it but fails verification, as its keypoints, placing it bent, do too (class: a card
        read in its change at a loose box, kept unsure beside a card read right: tarot 90640016, a
        touching scene of session 72's census, whose fern's aligned outline passes verification
        leading by 0.26)."""
        found = self._aligner.aligned(frame, np.asarray(card.quad, np.float32))
        if found is None or found[0] != card.ingredient:
            return None
        return self.named_again_at(frame, card, found[1])

    def _read_at_every_size(self, frame: np.ndarray) -> FrameReading:
        small, scale = work_image(frame)
        reading = self._read_whole(frame, small, scale)
        seen = [np.asarray(c.quad, np.float32) * scale for c in reading.cards]
        height = small.shape[0]
        if reading.status == "ok" and not all(smaller_than_usual(q, height, self.zoom_settings) for q in seen):
            return reading
        if reading.status != "ok" and any(larger_than_usual(q, height, self.zoom_settings) for q in seen):
            large = self._read_large(frame, small, scale)
            if large is not None:
                return large
            # an outline too large for a card of the usual size that is no large card is the
            # shelf's (a stone's flag, a tablecloth's square): small cards may lie beside it
            seen = [q for q in seen if not larger_than_usual(q, height, self.zoom_settings)]
        named = [np.asarray(c.quad, np.float32) * scale for c in reading.cards if c.ingredient is not None]
        if reading.status != "ok" and any(usual_size(q, height, self.zoom_settings) for q in named):
            return reading               # cards on one shelf lie at one distance: none is small here
        things = small_cards(small, seen, self.zoom_settings) + edge_outlines(frame, scale, self.zoom_settings)
        zoomed = self._zoomed(frame, small, scale, things)
        if zoomed is not None:
            return zoomed
        if reading.status == "ok" and not all(covered(thing, seen, self.zoom_settings) for thing in things):
            log.debug("card reader: unsure: a small card-like thing beside the small cards named")
            return FrameReading("unsure", reading.cards)
        return reading

    def _read_large(self, frame: np.ndarray, small: np.ndarray, scale: float) -> FrameReading | None:
        """An "ok" reading of cards larger than the outline stages' range (a camera close to its
        shelf), or None: the frame read again whole with outlines of the large cards' range."""
        low, high = self.zoom_settings.large_card
        wide = copy.copy(self)           # the same faces and settings, another range of outlines
        wide._detector = Detector(min_card_height=low, max_card_height=high)
        reading = wide._read_whole(frame, small, scale)
        log.debug("card reader: read again for large cards: %s", reading.status)
        return reading if reading.status == "ok" else None

    def _zoomed(self, frame: np.ndarray, small: np.ndarray, scale: float,
                things: list[np.ndarray]) -> FrameReading | None:
        """The reading of cards too small for the work image, or None (``zoom``): ``things`` (work
        px) are the things of a small card's size seen in it.

        The frame is cut around them and the cut-out read whole, or else each thing is read at its
        own outline (``_read_one_by_one``); neither where the cut-out would bring them up past
        ``largest_factor`` (too coarse to name). Its "ok" stands only when it names every thing seen;
        its cards are then counted against the whole frame at their own size, so a card outside
        the cut-out is never dropped (the reading is then unsure).
        """
        part = self.cut_out(frame, scale, things)
        if part is None:
            return None                  # too small to name, even brought up (``largest_factor``)
        reading = self._read_part(part) or self._read_one_by_one(frame, small, scale, things)
        if reading is None:
            return None
        named = [np.asarray(c.quad, np.float32) * scale for c in reading.cards]
        if max(long_side(q) for q in named) > self.zoom_settings.larger_than_seen * max(long_side(q) for q in things):
            # what was seen was a part of each card (its inner frame): the cut-out was cut for smaller
            # cards and a neighbour may cross its edge, so it is cut again around the cards named
            reading = self._read_cut_out(frame, scale, named)
            if reading is None:
                return None
            named = [np.asarray(c.quad, np.float32) * scale for c in reading.cards]
        if not all(covered(thing, named, self.zoom_settings) for thing in things):
            log.debug("card reader: unsure: a small card-like thing the cut-out's reading does not name")
            return None
        card = max(long_side(q) for q in named) / small.shape[0]
        low, high = self.zoom_settings.count_sizes
        detector = Detector(min_card_height=low * card, max_card_height=high * card)
        reading = self._counted(frame, small, scale, reading, detector)
        if reading.status == "ok":
            reading = self.counted_by_keypoints(frame, reading)
        log.debug("card reader: read in a cut-out: %s", reading.status)
        return reading

    def _read_cut_out(self, frame: np.ndarray, scale: float, things: list[np.ndarray]) -> FrameReading | None:
        """The "ok" reading (frame px) of the cut-out around ``things`` (work px), or None."""
        part = self.cut_out(frame, scale, things)
        return None if part is None else self._read_part(part)

    def _read_part(self, part: CutOut) -> FrameReading | None:
        """The "ok" reading (frame px) of a cut-out (``part``) read whole, or None."""
        inner = self._read_whole(part.image, *work_image(part.image))
        if inner.status != "ok":
            return None
        return FrameReading("ok", _in_frame(part, inner.cards))

    def _read_one_by_one(self, frame: np.ndarray, small: np.ndarray, scale: float,
                         things: list[np.ndarray]) -> FrameReading | None:
        """The "ok" reading (frame px) of ``things`` (work px) each read at its own outline
        (``read_box``) and verified, or None: every thing is one card, or one already read there,
        and no two cards are of one ingredient or overlap more than a player lays them. Small cards
        whose light does not stand out from a busy shelf (a grey card on a grey stone, a teal face
        on green veins) are found by their rims (``edge_outlines``), where the outline stages,
        reading the cut-out, see no outline of them."""
        cards: list[CardSighting] = []
        for thing in things:
            if covered(thing, [np.asarray(c.quad, np.float32) * scale for c in cards], self.zoom_settings):
                continue
            card = self.read_box(frame, small, scale, thing)
            if card is None:
                return None
            cards.append(card)
        quads = [np.asarray(c.quad, np.float32) for c in cards]
        if not cards or len({c.ingredient for c in cards}) < len(cards) or overlapping(quads):
            return None
        reading = self.verified(frame, FrameReading("ok", cards))
        log.debug("card reader: small cards read one by one at their outlines: %s", reading.status)
        return reading if reading.status == "ok" else None

    def shown_since_the_shelf(self, frame: np.ndarray, shelf: EmptyShelf, card: CardSighting) -> bool:
        """Whether ``card``'s face shows where it lies in ``frame`` and not in the frame the empty
        ``shelf`` was captured from (``FineMatcher.shows_only_in``): the card came since, whatever
        the shelf saw change under it."""
        return card.ingredient is not None and self._fine.shows_only_in(
            card.ingredient, frame, shelf.frame, np.asarray(card.quad, np.float32))

    def read_around(self, frame: np.ndarray, changes: list[np.ndarray], shelf: EmptyShelf) -> ReadCloser | None:
        """The cards (frame px) an "ok" reading of the part of ``frame`` around ``changes`` (frame
        px, ``zoom.cut_around``) names, and that part, or None: cards whose changes no card named
        explains, read closer, with the same part of the empty ``shelf`` (``told_by_shelf``, not
        closer again)."""
        part = cut_around(frame, changes, self.zoom_settings)
        if part is None:
            return None
        inner = told_by_shelf(self, part.image, self._read_at_every_size(part.image),
                              EmptyShelf(part.same_part(shelf.frame), shelf.settings), closer=False)
        log.debug("card reader: read again around the changes: %s", inner.status)
        if inner.status != "ok":
            return None
        return ReadCloser(_in_frame(part, inner.cards), part.outline())

    def cut_out(self, frame: np.ndarray, scale: float, things: list[np.ndarray]) -> CutOut | None:
        """``zoom.cut_out``: the part of ``frame`` around ``things`` (work px) read for small cards."""
        return cut_out(frame, scale, things, self.zoom_settings)

    def _read_whole(self, frame: np.ndarray, small: np.ndarray, scale: float) -> FrameReading:
        """The reading of a frame by every stage, at the work image's scale."""
        reading = self._read_outlines(frame, small, scale)
        if reading.status == "ok":
            quads = [np.asarray(c.quad, np.float32) * scale for c in reading.cards]
            if any(skewed(q) for q in quads) or may_hide_a_whole_card(small, quads):
                reading = FrameReading("unsure", reading.cards)
        if reading.status != "ok":       # an empty reading too: glare may have swallowed a card's outline
            reading = self._second_look(frame, small, scale, reading) or reading
        if reading.status == "ok":
            reading = self.verified(frame, reading, refit=True)
        if reading.status == "ok":
            reading = self._counted(frame, small, scale, reading)
        if reading.status == "ok":
            reading = self.counted_by_keypoints(frame, reading)
        elif self.references.back is not None:
            reading = self._backs_told(frame, reading)
        return reading

    def counted_by_keypoints(self, frame: np.ndarray, reading: FrameReading) -> FrameReading:
        """``reading`` ("ok"), or unsure with the cards the keypoints place beside the cards named
        (``keypoint_count``: a card face down, a card as dark as its shelf) or over them but of
        another face (a card beneath one named, outlined into it); or unsure where a card named
        is read otherwise by the frame's keypoints (``_read_otherwise``)."""
        placed = self._keypoint_count.find(frame, [np.asarray(c.quad, np.float32) for c in reading.cards],
                                           [c.ingredient for c in reading.cards])
        if placed:
            log.debug("card reader: unsure: %d card(s) placed by keypoints beside the cards named", len(placed))
            return FrameReading("unsure", reading.cards + [sighting(None, card.quad, 0.0, card.face_down)
                                                           for card in placed])
        if self._read_otherwise(frame, reading.cards):
            log.debug("card reader: unsure: a card named where the keypoints place another face")
            return FrameReading("unsure", reading.cards)
        return reading

    def _read_otherwise(self, frame: np.ndarray, cards: list[CardSighting]) -> bool:
        """Whether the keypoints of the whole frame place a card of another face, at the
        tolerance's threshold, over most of a card named (``second_look.read_otherwise``). The count
        masks the cards named, and an outline of only the visible part of a card beneath another
        hides all of that card's print under it: the part, warped to a card, read as another face
        on a lead of 0.015, where its own face's keypoints placed it whole with 86 inliers (class:
        a heavy overlap's card beneath, named as another ingredient beside the card on top; the
        placeholder's 90040048 of a probe of session 65, wrong at main). The search is the one the
        shelf step makes first, remembered."""
        placed = [c for c in self._keypoints.find(frame) if keypoint_confidence(c.inliers) >= self.threshold]
        return any(read_otherwise(np.asarray(card.quad, np.float32), card.ingredient, there)
                   for card in cards if card.ingredient is not None for there in placed)

    def _backs_told(self, frame: np.ndarray, reading: FrameReading) -> FrameReading:
        """``reading`` ("unsure" or "empty"), with the backs the keypoints place marked face down:
        a card lying face down alone reads empty or as an unreadable outline, and the player is
        better told to turn it over than to adjust it. Unnamed outlines over a back become it."""
        named = [np.asarray(c.quad, np.float32) for c in reading.cards if c.ingredient is not None]
        backs = [card.quad for card in self._keypoint_count.find(frame, named) if card.face_down]
        if not backs:
            return reading
        kept = [c for c in reading.cards if c.ingredient is not None or not any(
            shared_area(np.asarray(c.quad, np.float32), q) > 0.5 * quad_area(q) for q in backs)]
        return FrameReading("unsure", kept + [sighting(None, q, 0.0, face_down=True) for q in backs])

    def _counted(self, frame: np.ndarray, small: np.ndarray, scale: float, reading: FrameReading,
                 detector: Detector | None = None) -> FrameReading:
        """``reading`` ("ok"), or unsure with the card-like outlines no named card accounts for
        (``count.unaccounted`` with ``detector``, by default the outlines' own: a card in shadow,
        below the light the outlines were cut at;
        ``colour_count.colour_twins``: a card of the same deck darker than, or as bright as, its shelf)."""
        named = [np.asarray(c.quad, np.float32) * scale for c in reading.cards]
        missed = unaccounted(frame, small, scale, named, detector or copy.copy(self._detector), self._fine)
        if not missed:
            missed = colour_twins(small, named, self._matcher.frame_px.reshape(THUMB_H, THUMB_W), self._matcher,
                                  WorkImage(small).thumbnails, order_quad)
        if not missed:
            return reading
        log.debug("card reader: unsure: %d card-like outline(s) beside the cards named", len(missed))
        return FrameReading("unsure", reading.cards + [sighting(None, q / scale, 0.0) for q in missed])

    def verified(self, frame: np.ndarray, reading: FrameReading, refit: bool = False) -> FrameReading:
        """``reading`` ("ok") with every named card checked whole (``verify.verify_card``): a card
        that fails is unnamed and the frame unsure; a card that passes carries the verdict's
        probability of being right, where it is lower than the reading's confidence. With
        ``refit``, a card whose outline fails is checked again at the card its face's keypoints
        place over that outline (``_refitted``), and named there if it passes."""
        cards, status, moved = [], "ok", False
        for card in reading.cards:
            if card.ingredient is None:
                cards.append(card)
                continue
            quad = np.asarray(card.quad, np.float32)
            verdict = self.verdict(frame, quad, card.ingredient)
            refitted = self._refitted(frame, quad, card.ingredient) if refit and not verdict.passed else None
            if refitted is not None:
                (quad, verdict), moved = refitted, True
            if verdict.passed:
                cards.append(sighting(card.ingredient, quad, min(card.confidence, verdict.probability)))
            else:
                log.debug("card reader: a card named fails verification: %s", verdict.reason)
                cards.append(CardSighting(None, card.quad, verdict.probability))
                status = "unsure"
        if moved and status == "ok" and overlapping([np.asarray(c.quad, np.float32) for c in cards]):
            status = "unsure"            # refitted, two cards overlap more than a player lays them
        return FrameReading(status, cards)

    def _refitted(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> tuple[np.ndarray, Verdict] | None:
        """The card ``ingredient`` its face's keypoints place over an outline that failed
        verification (``quad``, frame px), and its verdict, when that card covers the outline
        (``verify.covered_by_the_card``) and passes; or None. Class: a card overlapped by
        another, its outline cut short by the top card's edge or bent along it, warps a piece of
        the shelf or of the top card into its face, which then leads every other face by too
        little (-0.06 to 0.09 in the issue-3 benchmark's overlapping scenes); the card its
        keypoints place over the outline led by 0.27 to 0.62. An outline that ran on past the
        card named is not covered by it (``VerifySettings.placed_cover``) and stays refused."""
        placed = self._placed_about(frame, quad, ingredient)
        if placed is None or not covered_by_the_card(quad, placed, self.verify_settings):
            return None
        verdict = self.verdict(frame, placed, ingredient)
        if not verdict.passed:
            return None
        log.debug("card reader: a card named fails verification at its outline, passes at the card "
                  "its keypoints place over it")
        return placed, verdict

    def verdict(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> Verdict:
        """``verify.verify_card`` of the card named ``ingredient`` at ``quad`` (frame px) in
        ``frame``; an outline longer or more skewed than a tilted card that passes it fails when it
        runs on past the card its face's keypoints place (``verify.runs_past_the_card``).
        While ``identify`` reads a frame, a verdict made is remembered and given again: the shelf
        step verifies a card it reads in a change, then every card named with it (half the
        verdicts of a frame, about 6 % of its time)."""
        return self._remembered_verdict(frame, quad, ingredient)

    def _remembered_verdict(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> Verdict:
        """``verdict``'s work, remembered while ``identify`` reads a frame: a candidate checked
        before it is named asks this, so that only the verdicts of cards named are examples of the
        verification's probability (``calibrate``, which records ``verdict``)."""
        remembered: dict[tuple[int, bytes, str], tuple[np.ndarray, Verdict]] | None = getattr(
            self._verdicts, "of_frame", None)
        key = (id(frame), np.asarray(quad, np.float32).tobytes(), ingredient)
        if remembered is not None and key in remembered:
            return remembered[key][1]
        verdict = self._verdict(frame, quad, ingredient)
        if remembered is not None:
            remembered[key] = (frame, verdict)     # the frame kept: no other array takes its id meanwhile
        return verdict

    def _verdict(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> Verdict:
        verdict = verify_card(frame, quad, ingredient, self._fine, self.verify_settings)
        if not verdict.passed or not out_of_a_cards_shape(quad, self.verify_settings):
            return verdict
        placed = self._placed_about(frame, quad, ingredient)
        if placed is None:
            placed = self._placed_in_evened_contrast(frame, quad, ingredient)
        if placed is None or not runs_past_the_card(quad, placed, self.verify_settings):
            return verdict
        return Verdict(False, 0.0, "out of a card's shape: its face's keypoints place the card in a part of it",
                       verdict.own, verdict.lead, True)

    def _placed_in_evened_contrast(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> np.ndarray | None:
        """The card ``ingredient`` the count by keypoints places in the whole frame, its contrast
        evened out (``KeypointCount.placed``), lying mostly (``IN_THE_OUTLINE``) in an outline
        (``quad``, frame px), or None. A smooth face gives ORB too few corners in the frame's own
        contrast for the search about the outline to place it, where the count's search does
        (class: a heavy overlap outlined as the top card widened over three quarters of the card
        beneath, passing verification by 0.026; the top card's smooth photograph placed only so,
        by 17 keypoints: full-bleed 69570988 of the run at 1998cca, wrong there). A card of the
        same face elsewhere (two copies) lies outside the outline and is not taken."""
        placed = [card.quad for card in self._keypoint_count.placed(frame) if card.ingredient == ingredient
                  and shared_area(card.quad, quad) > IN_THE_OUTLINE * quad_area(card.quad)]
        return max(placed, key=lambda p: shared_area(p, quad), default=None)

    def _placed_about(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> np.ndarray | None:
        """The card ``ingredient`` its keypoints place about an outline (``quad``, frame px; the
        search is kept to it and ``placed_margin`` of its short side around it) sharing the most
        of it, or None."""
        mask = np.zeros(frame.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
        q = np.asarray(quad, np.float64)
        short = min(np.linalg.norm(q[(i + 1) % 4] - q[i]) for i in range(4))
        reach = 2 * int(self.verify_settings.placed_margin * short) + 1
        mask = cv2.dilate(mask, np.ones((reach, reach), np.uint8))
        placed = [card.quad for card in self._keypoints.find(frame, mask) if card.ingredient == ingredient]
        return max(placed, key=lambda p: shared_area(p, quad), default=None)

    def _read_outlines(self, frame: np.ndarray, small: np.ndarray, scale: float) -> FrameReading:
        """Read the work image ``small`` (``frame`` scaled by ``scale``, maybe with cards painted out)
        card by card from the outlines found (quads in frame px)."""
        cands = copy.copy(self._detector).find(small)   # a private copy: find() keeps per-frame state
        if not cands:
            return FrameReading("empty")
        histogram = np.add.reduce([cv2.calcHist([small], [c], None, [256], [0, 256]).ravel()
                                   for c in range(small.shape[2])])
        top = _percentile_u8(histogram, 99.5)
        work = WorkImage(small)
        cands = [c for c in cands if c.cut or not self._featureless(work.thumbnails(order_quad(c.quad))[0], top)]
        if not cands:
            return FrameReading("empty")
        cards: list[CardSighting] = []
        status = "ok"
        quads = []
        for cand in cands:
            ing, quad, conf = self._read(frame, work, scale, cand)
            cards.append(sighting(ing, quad / scale, conf))
            quads.append(np.asarray(quad, np.float32))
            if ing is None:
                status = "unsure"
        if status == "ok" and overlapping(quads):
            status = "unsure"            # one card read twice, or cards overlapping more than a player lays them
        return FrameReading(status, cards)

    def _second_look(self, frame: np.ndarray, small: np.ndarray, scale: float,
                     first: FrameReading) -> FrameReading | None:
        """An "ok" reading of a frame the outlines left unsure or found empty, or None (see ``second_look``).

        Where a region that may hide another card is left beside the cards placed by keypoints and
        those the outlines settled, the known cards are painted out of the work image and what is
        left is read again by its outlines: a card merged with a placed one now stands alone.
        A card keypoints place short of halfway to certainty is known only where placed clearly
        (``_placed_clearly``); a card read in a region that may hide one, cut off by the frame
        (``cut_off_by_the_frame``), settles nothing, as a placed one.
        """
        settled = settled_cards(first.cards, self.threshold)
        placed = place_by_keypoints(frame, first.cards, self._keypoints, self.threshold,
                                    [np.asarray(c.quad, np.float32) for c in settled])
        if placed is None:
            return None
        placed = [(ing, q, conf) for ing, q, conf in placed if self._placed_clearly(frame, ing, q, conf)]
        known = [np.asarray(q, np.float32) * scale for _, q, _ in placed]
        known += outlines_of(known, [np.asarray(c.quad, np.float32) * scale for c in first.cards])
        known += [np.asarray(c.quad, np.float32) * scale for c in settled]
        cards = [sighting(ing, q, conf) for ing, q, conf in placed] + settled
        hiding = hiding_places(small, known) if placed or settled else None
        if hiding is None:
            rest = first                 # nothing placed or settled: the outline reading's own cards
        elif hiding:
            rest = self._read_outlines(frame, paint_out(small, known), scale)
        else:
            rest = FrameReading("empty")
        more = [c for c in rest.cards if c.ingredient is not None and c.confidence >= self.threshold]
        cards += more
        if not cards:
            return None
        if more or hiding is None:
            known += [np.asarray(c.quad, np.float32) * scale for c in more]
            hiding = hiding_places(small, known)
        if hiding:
            found = [self._read_hiding_place(frame, small, scale, box, known) for box in hiding]
            if any(card is None for card in found):
                log.debug("second look: unsure: a region that may hide a card cannot be read as one")
                return _with_hiding_places(first, [box / scale for box, card in zip(hiding, found) if card is None])
            if any(cut_off_by_the_frame(np.asarray(card.quad, np.float32), frame.shape) for card in found if card):
                log.debug("second look: unsure: a card read where one may hide is cut off by the frame's edge")
                return None
            cards += [card for card in found if card is not None]
            known += [np.asarray(card.quad, np.float32) * scale for card in found if card is not None]
            if hiding_places(small, known):
                return None
        if overlapping([np.asarray(c.quad, np.float32) for c in cards]):
            return None
        return FrameReading("ok", cards)

    def _read_hiding_place(self, frame: np.ndarray, small: np.ndarray, scale: float, box: np.ndarray,
                           known: list[np.ndarray]) -> CardSighting | None:
        """The card a light region that may hide one shows (``box``: the rectangle around it, work
        px), or None: a region of the known cards' size read as one (``_read_region``)."""
        card_area = float(np.mean([quad_area(q) for q in known]))
        if not HIDING_AREA[0] * card_area <= quad_area(box) <= HIDING_AREA[1] * card_area:
            return None
        return self._read_region(frame, small, scale, box)

    def _read_region(self, frame: np.ndarray, small: np.ndarray, scale: float, box: np.ndarray) -> CardSighting | None:
        """The card a region shows (``box``: the rectangle around it, work px), or None. The
        rectangle, snapped to the card's printed edge and trimmed to its aspect (``_retry_quads``),
        is read by the fine look upright and upside down; as it tries many quads, the best reading
        must be halfway from the tolerance's threshold to certainty, or else its face must pass
        verification leading every other by ``VerifySettings.clear_lead`` where no other face
        aligns best with it (``_aligned_otherwise``). Below the threshold
        (a small card in dim light, soft and noisy, whose face the fine look leads the runner-up
        by too little) the card then carries the verdict's probability of being right."""
        best: tuple[float, str, np.ndarray] | None = None
        for quad in [order_quad(box), *(order_quad(q) for q in self._retry_quads(small, box))]:
            for oriented in (quad, np.roll(quad, 2, axis=0)):
                ing, conf = self._fine.read(frame, oriented / scale)
                if best is None or conf > best[0]:
                    best = (conf, ing, oriented)
        if best is None:
            return None
        confidence, ingredient, quad = best[0], best[1], best[2] / scale
        if confidence >= (1 + self.threshold) / 2:
            return sighting(ingredient, quad, confidence)
        below = confidence < self.threshold       # the fine look's guess, not its reading: not yet named
        verdict = (self._remembered_verdict if below else self.verdict)(frame, quad, ingredient)
        if not verdict.passed or verdict.lead < self.verify_settings.clear_lead:
            return None
        if self._aligned_otherwise(frame, quad, ingredient):
            return None
        return sighting(ingredient, quad, verdict.probability if below else confidence)

    def _aligned_otherwise(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> bool:
        """Whether a face other than ``ingredient`` aligns best with ``quad`` (frame px,
        ``face_align``). A quad a tenth of a small card off it shifts the card's face out of its
        blocks: the fine look's guess there may be another face, and verification can pass that
        face where its coarse colours fall as the card's do (class: a weak reading of a misfitted
        quad confirmed by verification; tarot 93261151 of session 73's A/B, hard: a root read at
        a box 12 px off it as the claw, guessed at 0.44 and leading by 0.19 in verification,
        where the root's own face aligned moves the box onto the card)."""
        found = self._aligner.aligned(frame, quad)
        return found is not None and found[0] != ingredient

    def _read_thumbnail(self, small: np.ndarray, scale: float, box: np.ndarray) -> CardSighting | None:
        """The card a change's rectangle (``box``, work px) shows to the outlines' own reading
        (``read_quad``: the thumbnail, and the rectangle trimmed to a card's aspect), or None; as
        it tries many quads, its reading must be halfway from the tolerance's threshold to
        certainty, like ``_read_region``'s, and the trimmed rectangles are tried until one does (a
        rectangle a few degrees off its card and too large reads it just over the threshold, the
        rectangle snapped to its printed edge at certainty). A face of smooth colour (a colour
        wheel) leaves the fine look's blocks flat, where the thumbnail still reads it (class: a
        card's change found whole, its face unread)."""
        bar = (1 + self.threshold) / 2
        ingredient, quad, confidence, _ = self.read_quad(WorkImage(small), order_quad(box), bar)
        if ingredient is None or confidence < bar:
            return None
        return sighting(ingredient, quad / scale, confidence)

    @staticmethod
    def _featureless(colour: np.ndarray, top: float = 0.0) -> bool:
        """Whether a quad's thumbnail ``colour`` has no fine detail: a glare spot or a lit patch of
        shelf, not a card (``top``: the frame's brightest level).

        Every card shows at least its frame's edges and title; on the benchmark's scenes cards
        stay above 0.05 and glare spots below 0.025 (detail relative to brightness).
        """
        t = colour.mean(axis=2)
        if float(np.percentile(t, 95)) < 0.85 * top:
            return False                 # glare is among the brightest things in the frame
        # glare is white light: its bright half is nearly colourless (a finger, skin, is not)
        bright = t >= np.median(t)
        chroma = float((colour.max(axis=2) - colour.min(axis=2))[bright].mean()) / max(1.0, float(t[bright].mean()))
        if chroma > 0.3:
            return False
        return fine_detail(colour) < FEATURELESS

    def read_quad(self, work: WorkImage, quad: np.ndarray,
                  bar: float | None = None) -> tuple[str | None, np.ndarray, float, float]:
        """Best reading of a quad, trying trimmed variants while the best reading is under ``bar``
        (the tolerance's threshold unless given).

        A glare spot, a finger or a neighbouring card can stretch one side of the outline; the
        variants move one side back to where the card's known aspect (7:5) puts it.
        """
        bar = self.threshold if bar is None else bar
        best = self._read_oriented(work, quad)
        if best[2] >= bar:
            return best
        for retry in self._retry_quads(work.pixels, quad):     # computed only as far as needed
            got = self._read_oriented(work, retry)
            if got[2] > best[2]:
                best = got
            if best[2] >= bar:
                break
        return best

    def _retry_quads(self, small: np.ndarray, quad: np.ndarray) -> Iterator[np.ndarray]:
        """The quad snapped to the card's printed edge, then each aspect variant and it snapped."""
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        ordered = order_quad(quad)
        for i, base in enumerate([ordered, *_aspect_variants(ordered)]):
            if i:
                yield base
            snapped = snap_quad(gray, base)
            if snapped is not None and self._detector._plausible(order_quad(snapped), small.shape[0]):
                yield snapped

    def _read_oriented(self, work: WorkImage, quad: np.ndarray) -> tuple[str | None, np.ndarray, float, float]:
        """Best ingredient, oriented quad, confidence and raw correlation for a quad in the work image.

        The shared layout (where the title strip is) decides upright or upside down first when it
        clearly can; only faces in that orientation compete, which halves the chances of a false match.
        """
        q = order_quad(quad)
        orients = [q, np.roll(q, 2, axis=0)]                       # as found, turned 180 degrees
        sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
        if (sides[1] + sides[3]) / max(1e-6, sides[0] + sides[2]) < 1.2:   # nearly square: try sideways too
            orients += [np.roll(q, 1, axis=0), np.roll(q, 3, axis=0)]
        m = self._matcher
        thumbs = [*work.thumbnails(q), *(work.thumbnails(orients[2]) if len(orients) > 2 else ())]
        layouts = np.array([m.layout_score(t) for t in thumbs])
        keep = [i for i in range(len(orients)) if layouts[i] >= layouts.max() - 0.25]
        per = np.full((len(orients), m.n), -9.0)
        for i in keep:
            per[i] = m.match_upright(thumbs[i])
        flat = per.max(axis=0)                                     # each face's best orientation
        order = np.argsort(flat)[::-1]
        k = int(order[0])
        s1 = float(flat[k])
        s2 = float(flat[order[1]]) if m.n > 1 else 0.0
        o = int(np.argmax(per[:, k]))
        conf = self.confidence(s1, s2, float(layouts[o]))
        return m.ingredients[k], orients[o], conf, s1

    @staticmethod
    def confidence(s1: float, s2: float, layout: float = 1.0) -> float:
        """Confidence from the best and runner-up correlations: high only if both high and far apart.

        ``layout`` (how well the card's shared frame lines up) caps it: a misfitted outline cannot
        be trusted however well some face happens to correlate.
        """
        margin = np.clip((s1 - s2 - 0.2) / 0.4, 0, 1)
        level = np.clip((s1 + 0.1) / 0.4, 0, 1)
        frame = np.clip((layout + 0.3) / 0.3, 0, 1)
        return float(min(np.sqrt(margin * level), frame))

    def _read(self, frame: np.ndarray, work: WorkImage, scale: float,
              cand: Candidate) -> tuple[str | None, np.ndarray, float]:
        """Ingredient (None if unread), oriented quad (work px) and confidence of a candidate."""
        if cand.cut or (not cand.fitted and cand.spill > 0.1):
            # it cannot be read whatever the reading: one look for its confidence, no retries
            _, quad, conf, _ = self._read_oriented(work, cand.quad)
            return None, quad, min(conf, 0.0 if cand.cut else conf * 0.5)
        ing, quad, conf, _ = self.read_quad(work, cand.quad)
        if (not cand.fitted and not cand.cut and cand.spill <= 0.1 and conf >= self.threshold
                and self._detector._plausible(quad, work.pixels.shape[0])
                and 0.75 <= abs(cv2.contourArea(quad)) / max(1.0, abs(cv2.contourArea(cand.quad))) <= 1.25):
            return ing, quad, conf          # a misfitted outline, read well once moved to the card's edges
        if not cand.fitted or cand.cut:
            return None, quad, min(conf, 0.0 if cand.cut else conf * 0.5)
        if conf < self.threshold:
            ing, conf = self._look_finer(frame, quad / scale, ing, conf)
        if conf < self.threshold:
            return None, quad, conf
        return ing, quad, conf

    def _look_finer(self, frame: np.ndarray, quad: np.ndarray, ingredient: str | None,
                    confidence: float) -> tuple[str | None, float]:
        """The reading of a card the thumbnail reads weakly (``ingredient`` with ``confidence``) at
        ``quad`` (frame px, oriented) once the fine look has seen it: where both read the same face
        their confidences add up as independent evidence (1 - (1-a)(1-b)); otherwise the fine
        look's own reading stands if it is the more confident one."""
        fine_ingredient, fine_confidence = self._fine.read(frame, quad)
        if fine_ingredient == ingredient:
            return ingredient, 1.0 - (1.0 - confidence) * (1.0 - fine_confidence)
        if fine_confidence > confidence:
            return fine_ingredient, fine_confidence
        return ingredient, confidence
