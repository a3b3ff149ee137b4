"""The reader's last step, with a frame of the empty shelf: a reading settled by what changed
since the shelf was empty (docs/card_reader.md, step 13). numpy and OpenCV only.

``told_by_shelf`` takes the reading of the stages (steps 1-12) and the shelf's comparison of the
frame (``shelf.EmptyShelf``): "empty" where nothing of a card's size changed; "ok" where every
change lies under a card named, read by the stages or in the change itself, and every card passes
verification; else "unsure". It reads cards in the changes through the reader (``CardLooks``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import NamedTuple, Protocol

import cv2
import numpy as np

from .detect import Detector
from .keypoints import quad_area, shared_area
from .quad_fit import overlapping
from .reading import CardSighting, FrameReading
from .second_look import HIDING_AREA
from .shelf import Comparison, EmptyShelf
from .thumbnails import work_image

log = logging.getLogger(__name__)

#: a change since the shelf was empty is read as a card if the rectangle around it has a card's
#: aspect (1.4), give or take the camera's tilt (20 degrees: 1.15-1.75) ...
CHANGE_ASPECT = (1.15, 1.75)
#: ... and, with no card named beside it, a long side in the range of the cards the kit reads
#: (15-85 % of the frame's height, issue 15 point 3), tilted
CHANGE_HEIGHT = (0.13, 0.95)
#: the cards named in a change are all it holds when no more than 1 - this share of it lies
#: outside them in parts that may be a card (``EmptyShelf.uncovered_share``): the fringe of glare
#: or shadow beside a card left 0.00 (tests, and development scenes where the cards read right
#: covered 0.76-0.98 of their changes); the visible part of a second card 25-45 % under the
#: first, 0.31-0.37, and, with glare on it or on a shelf of its colours, too little of it to count
#: as a card of its own once the first was named
WHOLE_CHANGE = 0.8
#: a card read again closer is one named already when it shares this much of its area with a
#: card of its ingredient: the outlines of one card fitted twice differ by a few pixels, and two
#: cards of one ingredient overlap by far less (more than 0.3 is never how a player lays them)
SAME_CARD = 0.7
#: an outline the stages could not read is one of a change's cards when at least this share of it
#: lies in the change: a card shows at least half of itself, and its change is the card's
OUTLINE_IN_CHANGE = 0.5
#: the changes' hulls searched for keypoints reach this share of the frame's height beyond them:
#: a card's rim the shelf saw unchanged (its border of the shelf's light) is a pixel of the
#: shelf's comparison (160 px wide: 4 px of a 640 x 480 frame, 0.8 % of its height)
CHANGED_RIM = 0.01
#: a card read from a change whose corner lies further than this beyond the frame (px) is cut by
#: its edge: an outline snapped to a card's printed edge strays by a pixel or two
EDGE_SLACK = 3.0


def _cut_by_the_edge(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a card's quad (frame px) reaches beyond the frame by more than its outline's slack."""
    h, w = shape[:2]
    return bool((quad < -EDGE_SLACK).any() or (quad[:, 0] > w - 1 + EDGE_SLACK).any()
                or (quad[:, 1] > h - 1 + EDGE_SLACK).any())


class ReadCloser(NamedTuple):
    """The cards read in a part of the frame brought up (frame px), and that part's outline."""

    cards: list[CardSighting]
    part: np.ndarray


class CardLooks(Protocol):
    """What the shelf step asks of the reader: its threshold, and its ways of reading a card."""

    @property
    def threshold(self) -> float: ...

    def cards_placed_by_keypoints(self, frame: np.ndarray, reading: FrameReading, named: list[CardSighting],
                                  within: np.ndarray | None = None) -> list[CardSighting]: ...

    def read_box(self, frame: np.ndarray, small: np.ndarray, scale: float, box: np.ndarray) -> CardSighting | None: ...

    def named_at(self, frame: np.ndarray, ingredient: str, quad: np.ndarray) -> CardSighting | None: ...

    def named_again_at(self, frame: np.ndarray, card: CardSighting, quad: np.ndarray) -> CardSighting | None: ...

    def named_where_its_face_aligns(self, frame: np.ndarray, card: CardSighting) -> CardSighting | None: ...

    def verified(self, frame: np.ndarray, reading: FrameReading, refit: bool = False) -> FrameReading: ...

    def counted_by_keypoints(self, frame: np.ndarray, reading: FrameReading) -> FrameReading: ...

    def read_around(self, frame: np.ndarray, changes: list[np.ndarray], shelf: EmptyShelf) -> ReadCloser | None: ...

    def shown_since_the_shelf(self, frame: np.ndarray, shelf: EmptyShelf, card: CardSighting) -> bool: ...


def told_by_shelf(looks: CardLooks, frame: np.ndarray, reading: FrameReading, shelf: EmptyShelf,
                  closer: bool = True, compared: Comparison | None = None) -> FrameReading:
    """``reading`` settled by what changed since the shelf was empty (``shelf``): "empty" where
    nothing of a card's size changed, or where the stages read the frame empty, no card is read in
    the changes and each is light (``EmptyShelf.light_on_the_empty_shelf``); "ok" where every
    change lies under a card named, read by the stages, in the change itself or (``closer``) in
    the part of the frame around the changes, and every card passes verification; else "unsure". ``compared`` is the shelf's comparison of
    ``frame`` where it was made already (``EmptyShelf.compare``).
    What the stages alone could not tell from a card is then the shelf's own texture, or a
    shadow or glare over it; and an "ok" of the stages that left a card out is told by the
    change the card made."""
    if compared is None:
        compared = shelf.compare(frame)
    if compared is None:
        return reading
    changes, sharp = compared.changes, compared.sharp
    if reading.status != "ok":
        reading = _unnamed_where_unchanged(looks, shelf, frame, changes, reading)
    named = [c for c in reading.cards if c.ingredient is not None
             and (reading.status == "ok" or c.confidence >= looks.threshold)]   # an "ok" was verified
    if reading.status != "ok":
        named = _refitted(looks, frame, named)
    if _unchanged(looks, shelf, frame, changes, named):
        return _unsure(reading, "a card named where nothing changed since the shelf was empty")
    regions = shelf.unexplained_regions(changes, _quads(named), sharp)
    if not regions and not named:
        return _empty_unless_outlined(frame, reading, shelf, compared, "nothing of a card's size changed")
    if reading.status == "ok" and not regions:
        return _unless_hidden(shelf, frame, compared, named, reading)
    read_closer = None
    if regions:
        found, placed, read_closer = _cards_in_the_changes(looks, frame, reading, shelf, compared, named, closer)
        named = _grown(looks, frame, shelf, compared, named + found)
        if not named and reading.status == "empty" and all(
                shelf.light_on_the_empty_shelf(region, compared) for region in regions):
            return _empty_unless_outlined(frame, reading, shelf, compared, "every change is light")
        if shelf.unexplained(changes, _quads(named), sharp):
            return _unsure(reading, "a change since the shelf was empty that no card named explains")
        if not all(_cover(shelf, compared, region, named) for region in regions if _lies_in(shelf, region, placed)):
            return _unsure(reading, "a change holds more than the cards keypoints placed in it")
    if not _only_the_shelf_unread(frame, reading, shelf, compared, named, read_closer):
        return _unsure(reading, "an outline the stages could not read is not the shelf's")
    if _unchanged(looks, shelf, frame, changes, named):
        return _unsure(reading, "a card named where nothing changed since the shelf was empty")
    if overlapping(_quads(named)):
        return _unsure(reading, "cards named in the changes overlap more than a player lays them")
    verified = looks.verified(frame, FrameReading("ok", named))
    if verified.status != "ok":
        return _unsure(reading, "a card named in the changes fails verification")
    settled = _unless_hidden(shelf, frame, compared, named, verified)
    if settled.status != "ok":
        return settled
    log.debug("card reader: ok: every change since the shelf was empty lies under a card named")
    # the stages count by keypoints beside the cards they name, and this step may name others: the
    # count is made again beside these (class: a back the shelf saw no change for, placed by its
    # keypoints only once the card beside it is masked, dropped from an "ok")
    return looks.counted_by_keypoints(frame, settled)


def _empty_unless_outlined(frame: np.ndarray, reading: FrameReading, shelf: EmptyShelf, compared: Comparison,
                           why: str) -> FrameReading:
    """"empty" for a frame where no card is named and the shelf saw no change of a card (``why``),
    unless an outline of ``reading`` the stages could not read is not the shelf's (then ``reading``)."""
    if not _only_the_shelf_unread(frame, reading, shelf, compared, []):
        log.debug("card reader: %s: an outline the stages could not read is not the shelf's", reading.status)
        return reading
    log.debug("card reader: empty: %s since the shelf was empty", why)
    return FrameReading("empty")


def _refitted(looks: CardLooks, frame: np.ndarray, named: list[CardSighting]) -> list[CardSighting]:
    """The cards ``named`` by the stages short of "ok" (not verified), each that fails
    verification at its outline and passes at the card its face's keypoints place over that
    outline named there (``CardLooks.verified``'s ``refit``, as the stages' own "ok" is); the rest
    as they were. Class: a card the stages name at an outline a little loose (it took in the
    shelf's print beside the card) in a frame they read short of "ok", whose face there leads
    too little, which kept a right reading unsure where its keypoints place it at its edge
    (woodcut 90330139 of a census)."""
    if not named:
        return named
    checked = looks.verified(frame, FrameReading("ok", named), refit=True).cards
    return [moved if moved.ingredient is not None and not np.array_equal(moved.quad, card.quad) else card
            for moved, card in zip(checked, named)]


def _cards_in_the_changes(looks: CardLooks, frame: np.ndarray, reading: FrameReading, shelf: EmptyShelf,
                          compared: Comparison, named: list[CardSighting],
                          closer: bool) -> tuple[list[CardSighting], list[CardSighting], np.ndarray | None]:
    """The cards that explain the changes the cards ``named`` leave unexplained, each passing
    verification: placed by the keypoints, read in each change, and last (``closer``) read in the
    part of the frame around them and, where changes are still unexplained, placed by the
    keypoints of the changes alone (``_changed_area``), the changes read again beside them; with
    the cards placed, and that part (frame px) or None. The search of the changes alone is made
    last, as a frame it does not settle stays unsure: most frames the shelf step alone leaves
    unexplained (a third of normal ones) the outline stages settle."""
    small, scale = work_image(frame)
    placed = _passing(looks, frame, looks.cards_placed_by_keypoints(frame, reading, named))
    found = list(placed)
    unread = [np.asarray(c.quad, np.float32) for c in reading.cards if c.ingredient is None and not c.face_down]
    found += _read_in_the_changes(looks, frame, small, scale, shelf, compared, named + found, unread)
    if not closer:
        return found, placed, None
    part = None
    again = _read_closer(looks, frame, shelf, compared, named + found)
    if again is not None:
        found, part = found + again.cards, again.part
    if shelf.unexplained_regions(compared.changes, _quads(named + found), compared.sharp):
        within = _changed_area(shelf, compared, frame.shape)
        more = _passing(looks, frame, looks.cards_placed_by_keypoints(frame, reading, named + found, within))
        if more:
            log.debug("card reader: %d card(s) placed by the keypoints of the changes alone", len(more))
            placed, found = placed + more, found + more
            found += _read_in_the_changes(looks, frame, small, scale, shelf, compared, named + found, unread)
    return found, placed, part


def _read_in_the_changes(looks: CardLooks, frame: np.ndarray, small: np.ndarray, scale: float, shelf: EmptyShelf,
                         compared: Comparison, named: list[CardSighting],
                         unread: Sequence[np.ndarray]) -> list[CardSighting]:
    """The cards read, each passing verification, in the changes the cards ``named`` leave
    unexplained (``_read_changed_region``); a card that fails is named again where its face aligns
    (``_passing_or_aligned``)."""
    found: list[CardSighting] = []
    for region in shelf.unexplained_regions(compared.changes, _quads(named), compared.sharp):
        found += _passing_or_aligned(looks, frame, _read_changed_region(looks, frame, small, scale, compared,
                                                                        region, named + found, shelf, unread))
    return found


def _passing_or_aligned(looks: CardLooks, frame: np.ndarray, cards: list[CardSighting]) -> list[CardSighting]:
    """The ``cards`` read in a change that pass verification (``_passing``), each that fails named
    again where its own face aligned with its outline moves it and passing there
    (``CardLooks.named_where_its_face_aligns``), unless that outline is cut by the frame's edge, as
    no card read in a change may be (``_read_change``)."""
    checked = looks.verified(frame, FrameReading("ok", cards)).cards
    passing: list[CardSighting] = []
    for card, verdict in zip(cards, checked):
        if verdict.ingredient is not None:
            passing.append(verdict)
        elif card.ingredient is not None:
            again = looks.named_where_its_face_aligns(frame, card)
            if again is not None and not _cut_by_the_edge(np.asarray(again.quad, np.float32), frame.shape):
                passing += _passing(looks, frame, [again])
    return passing


def _changed_area(shelf: EmptyShelf, compared: Comparison, shape: tuple[int, ...]) -> np.ndarray:
    """Where the frame (of ``shape``) changed since the shelf was empty: each change's hull, a
    uint8 mask at the frame's size, widened by ``CHANGED_RIM`` of the frame's height. A patterned
    table (dots, checks, a striped grain) has corners all over, and the search of the whole frame
    spends its keypoints on them: the hull keeps those of a card's face, its smooth parts the shelf
    saw unchanged too."""
    count, labels = cv2.connectedComponents(compared.changes.astype(np.uint8))
    hulls = np.zeros(compared.changes.shape, np.uint8)
    for label in range(1, count):
        cv2.fillConvexPoly(hulls, cv2.convexHull(cv2.findNonZero((labels == label).astype(np.uint8))), 255)
    within = cv2.resize(hulls, (shape[1], shape[0]), interpolation=cv2.INTER_NEAREST)
    rim = 2 * max(1, round(CHANGED_RIM * shape[0])) + 1
    return cv2.dilate(within, np.ones((rim, rim), np.uint8))


def _grown(looks: CardLooks, frame: np.ndarray, shelf: EmptyShelf, compared: Comparison,
           named: list[CardSighting]) -> list[CardSighting]:
    """The cards ``named``, each that leaves a change along its side unexplained grown over it
    (``EmptyShelf.grown_over``) where the rectangle has a card's aspect (``CHANGE_ASPECT``), the
    card is named there again (``CardLooks.named_again_at``: the fine look names its face halfway
    from the threshold to certainty, or its face passes verification leading clearly) and it
    passes verification. Class: a card named at a quad short of itself, the keypoints of one part
    of its face (its title, its border) placing it smaller than it is, the rest of it smooth: its
    rest kept a right reading unsure."""
    cards = list(named)
    for region in shelf.unexplained_regions(compared.changes, _quads(cards), compared.sharp):
        for i, card in enumerate(cards):
            grown = shelf.grown_over(region, np.asarray(card.quad, np.float32), compared.changes)
            if grown is None or not _card_aspect(grown) or card.ingredient is None:
                continue
            there = looks.named_again_at(frame, card, grown)
            passing = _passing(looks, frame, [there]) if there is not None else []
            if passing:
                log.debug("card reader: a card named short of itself grown over the change along its side")
                cards[i] = passing[0]
                break
    return cards


def _card_aspect(quad: np.ndarray) -> bool:
    """Whether a rectangle (frame px) has a card's aspect, give or take the camera's tilt."""
    sides = sorted(float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(2))
    return CHANGE_ASPECT[0] <= sides[1] / max(1.0, sides[0]) <= CHANGE_ASPECT[1]


def _quads(cards: list[CardSighting]) -> list[np.ndarray]:
    """The quads (frame px) of ``cards``."""
    return [np.asarray(c.quad, np.float32) for c in cards]


def _passing(looks: CardLooks, frame: np.ndarray, cards: list[CardSighting]) -> list[CardSighting]:
    """The ``cards`` that pass verification (``CardLooks.verified``). A card the keypoints place by
    a homography misfitted over part of it (its quad stretched, one side short) fails, and must not
    explain the change it lies in: the rest of that card's change, too small and out of shape to
    read alone, would keep the frame unsure, where the change read whole is the card."""
    return [c for c in looks.verified(frame, FrameReading("ok", cards)).cards if c.ingredient is not None]


def _unless_hidden(shelf: EmptyShelf, frame: np.ndarray, compared: Comparison, named: list[CardSighting],
                   reading: FrameReading) -> FrameReading:
    """``reading`` ("ok"), or unsure where beyond the cards ``named`` the shelf's texture is hidden
    over a card's quarter (``EmptyShelf.hides_a_card``: a card of the shelf's colours left out), its
    hue changed over a share of a card (``EmptyShelf.recoloured``: a card of the shelf's light left
    out), it shows a print it did not have over a card's quarter (``EmptyShelf.printed``: a card
    of the shelf's light, printed stronger than the shelf's texture, left out), its fine grain is
    covered over a card's quarter where the frame at its full resolution does not show it again
    (``EmptyShelf.covers_the_grain``: a card of the shelf's light and texture, a ringed back on a
    striped wood, left out) or a card may lie burnt out by a glare
    (``EmptyShelf.lost_in_glare``: its pieces of change and the burnt-out pixels by them make a
    card's quarter)."""
    if shelf.hides_a_card(frame, compared.changes, _quads(named)):
        return _unsure(reading, "beyond the cards named the shelf's texture is hidden as by a card")
    if shelf.recoloured(frame, compared, _quads(named)):
        return _unsure(reading, "beyond the cards named the shelf's colour changed as under a card")
    if shelf.printed(compared, _quads(named)):
        return _unsure(reading, "beyond the cards named the shelf shows a card's print")
    if shelf.covers_the_grain(compared, _quads(named), frame):
        return _unsure(reading, "beyond the cards named the shelf's grain is covered as by a card")
    if shelf.lost_in_glare(compared, _quads(named)):
        return _unsure(reading, "beyond the cards named a card may lie burnt out by a glare")
    return reading


def _only_the_shelf_unread(frame: np.ndarray, reading: FrameReading, shelf: EmptyShelf, compared: Comparison,
                           named: list[CardSighting], read_closer: np.ndarray | None = None) -> bool:
    """Whether every outline of ``reading`` the stages could not read is, beyond the cards
    ``named``, the shelf's own texture (``EmptyShelf.shows_the_shelf``). With no card named, the
    parts of an outline where glare washed the shelf's texture out, or the comparison found the
    shelf under glare, are not judged: the frame then reads empty, where a card lost in the glare
    whole is a miss; beside cards named it would make an "ok" leave it out, so there they are
    judged, and such an outline keeps the frame unsure.
    The part of the frame ``read_closer`` (frame px), if any, is not judged: its own reading,
    with the shelf, judged the outlines there at the size the outline stages read."""
    unread = [np.asarray(c.quad, np.float32) for c in reading.cards if c.ingredient is None]
    if not unread:
        return True
    texture = shelf.texture(frame)               # once a frame, not once an outline
    quads = _quads(named)
    unexplained = shelf.unexplained_parts(compared.changes, quads, compared.sharp) if quads else None
    washed_by = None if quads else compared
    return all(shelf.shows_the_shelf(texture, compared.changes, quad, quads, unexplained, washed_by, read_closer,
                                     compared.burnt)
               for quad in unread)


def _unnamed_where_unchanged(looks: CardLooks, shelf: EmptyShelf, frame: np.ndarray, changes: np.ndarray,
                             reading: FrameReading) -> FrameReading:
    """``reading`` (not "ok": its names unverified) with each card named where nothing changed
    (``_where_nothing_changed``) left unnamed: what the stages named there is the shelf's own
    print, and is judged as an outline they could not read (``shows_the_shelf``), where a card
    would not show the shelf's texture again (class: a patterned table's print named short of
    verification on an empty table, which kept the frame unsure). An "ok" keeps its names: a
    verified card where nothing changed keeps the frame unsure."""
    named = [c for c in reading.cards if c.ingredient is not None]
    unchanged = iter(_where_nothing_changed(looks, shelf, frame, changes, named))    # in the order of ``named``
    return FrameReading(reading.status, [dataclasses.replace(c, ingredient=None, confidence=0.0)
                                         if c.ingredient is not None and next(unchanged) else c
                                         for c in reading.cards])


def _unchanged(looks: CardLooks, shelf: EmptyShelf, frame: np.ndarray, changes: np.ndarray,
               named: list[CardSighting]) -> bool:
    """Whether a card ``named`` lies where nothing changed (``_where_nothing_changed``)."""
    return any(_where_nothing_changed(looks, shelf, frame, changes, named))


def _where_nothing_changed(looks: CardLooks, shelf: EmptyShelf, frame: np.ndarray, changes: np.ndarray,
                           cards: list[CardSighting]) -> list[bool]:
    """For each of the ``cards``, whether it lies where the shelf saw next to no change
    (``changed_share`` under ``least_card``), its print does not hide the shelf's texture
    (``hides_the_shelf``: a card of the shelf's colours) and its face does not show there only
    since the shelf was captured (``CardLooks.shown_since_the_shelf``: a card of the shelf's light
    on a shelf whose own texture is as strong as its print, a grey card of bricks on a stone). The
    frame's texture is made only when a card lies so."""
    quads = _quads(cards)
    quiet = [shelf.changed_share(changes, q) < shelf.settings.least_card for q in quads]
    if not any(quiet):
        return quiet
    texture = shelf.texture(frame)
    return [still and not shelf.hides_the_shelf(texture, changes, q)
            and not looks.shown_since_the_shelf(frame, shelf, c) for still, q, c in zip(quiet, quads, cards)]


def _unsure(reading: FrameReading, why: str) -> FrameReading:
    """``reading`` as "unsure" where it was "ok" or "empty" (``why`` logged, also where it was
    unsure already: the last reason the step found): a change the shelf saw speaks against both."""
    log.debug("card reader: unsure: %s", why)
    if reading.status == "unsure":
        return reading
    return FrameReading("unsure", reading.cards)


def _read_changed_region(looks: CardLooks, frame: np.ndarray, small: np.ndarray, scale: float,
                         compared: Comparison, region: np.ndarray, named: list[CardSighting],
                         shelf: EmptyShelf, unread: Sequence[np.ndarray] = ()) -> list[CardSighting]:
    """The cards a change of the shelf (``region``) shows: itself read as one card, or else its
    parts wider than a finger (``EmptyShelf.parts``: a card with a finger on it, cards whose
    changes met at a corner), or else the card outlines in the change (``outlines_of_change``:
    cards side by side), or else the outlines the stages found and could not read lying in it
    (``unread``, frame px; ``OUTLINE_IN_CHANGE``: a card with a finger from the frame's edge on it,
    its change too long for a card and its parts cut round the finger's base, which the stages
    outlined and read upside down), each read as one; or else the cards of these readings, each
    card once (class: two cards whose changes met, one read in its part, the other, its part
    widened off it by a glare, in its outline); none unless together they cover the change but
    for its fringe (``WHOLE_CHANGE``): else it holds more than the cards read, and none where one
    card is read as two ingredients."""
    card = _read_change(looks, frame, small, scale, shelf.box(region), named)
    if card is not None and _cover(shelf, compared, region, [card]):
        return [card]
    quads = _quads(named)
    outlines = [q for q in unread if shelf.share_in(region, q) >= OUTLINE_IN_CHANGE]
    every: list[CardSighting] = []          # the cards of these readings, each card once
    for boxes in (shelf.parts(region, quads), outlines_of_change(shelf, compared.changes, region, small.shape),
                  outlines):
        cards = [c for c in (_read_change(looks, frame, small, scale, box, named) for box in boxes) if c is not None]
        if _cover(shelf, compared, region, cards):
            return cards
        for read in cards:
            same = [other for other in every if _one_card(read, other)]
            if any(other.ingredient != read.ingredient for other in same):
                return []                   # one card read as two ingredients
            if not same:
                every.append(read)
    return every if _cover(shelf, compared, region, every) else []


def _one_card(card: CardSighting, other: CardSighting) -> bool:
    """Whether two cards read in one change are one card read twice: they share over ``SAME_CARD``
    of the smaller (a card's part and its outline, read each)."""
    a, b = np.asarray(card.quad, np.float32), np.asarray(other.quad, np.float32)
    return shared_area(a, b) > SAME_CARD * min(quad_area(a), quad_area(b))


def _read_closer(looks: CardLooks, frame: np.ndarray, shelf: EmptyShelf, compared: Comparison,
                 named: list[CardSighting]) -> ReadCloser | None:
    """The cards read, beside the cards ``named``, in the part of the frame around every change
    where the cards named leave one unexplained, with the same part of the empty shelf
    (``CardLooks.read_around``), or None: cards too small for the work image whose changes met in
    one, or lie beside a thing of a small card's size elsewhere that kept the reader from cutting
    the frame around them. The part holds the cards named too (a card cut by its edge would keep
    it unsure); read there again at their place, they are not named twice.
    Where that part reads no "ok", the part around the changes' parts wider than a finger
    (``EmptyShelf.parts``) is read instead (class: small cards whose change a narrower one joins,
    most often the player's finger, which runs two card heights off the card it lies on: the
    part around the changes, finger and all, is too large to show the cards any closer)."""
    if not shelf.unexplained_regions(compared.changes, _quads(named), compared.sharp):
        return None
    regions = shelf.unexplained_regions(compared.changes, [], compared.sharp)
    every = [shelf.box(region) for region in regions]
    again = looks.read_around(frame, every, shelf)
    if again is None:
        parts = [shelf.parts(region, []) for region in regions]
        if not any(parts):
            return None
        wide = [box for region, found in zip(regions, parts) for box in found or [shelf.box(region)]]
        again = looks.read_around(frame, wide, shelf)
    if again is None:
        return None
    return again._replace(cards=[card for card in again.cards if not _named_already(card, named)])


def _named_already(card: CardSighting, named: list[CardSighting]) -> bool:
    """Whether ``card`` is one of the cards ``named``: the same ingredient over most of it."""
    quad = np.asarray(card.quad, np.float32)
    return any(c.ingredient == card.ingredient
               and shared_area(np.asarray(c.quad, np.float32), quad) >= SAME_CARD * quad_area(quad) for c in named)


def outlines_of_change(shelf: EmptyShelf, changes: np.ndarray, region: np.ndarray,
                       work_shape: tuple[int, ...]) -> list[np.ndarray]:
    """The card outlines (frame px) that lie in a change left unexplained (``region``, a mask at
    the shelf's width): the outline detector's, fitted to the whole change that holds it, its holes
    filled, drawn white on black at the work image's size (``work_shape``). Cards side by side, or
    pale on a pale shelf, whose outlines the stages never found (the shelf lighter than they are),
    make one change of no card's shape that the detector splits at its notches, as it splits the
    light of cards that touch."""
    _, labels = cv2.connectedComponents(changes.astype(np.uint8))
    whole = (np.isin(labels, np.unique(labels[region & (labels > 0)])) * 255).astype(np.uint8)
    gap = int(shelf.settings.gap)                                      # a card's parts the shelf joins
    whole = cv2.morphologyEx(whole, cv2.MORPH_CLOSE, np.ones((gap, gap), np.uint8))
    outside = cv2.copyMakeBorder(whole, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)   # a way round every change
    cv2.floodFill(outside, np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8), (0, 0), 255)
    filled = cv2.bitwise_or(whole, cv2.bitwise_not(outside[1:-1, 1:-1]))
    image = cv2.resize(filled, (work_shape[1], work_shape[0]), interpolation=cv2.INTER_LINEAR)
    work_px = work_shape[1] / changes.shape[1] * shelf.scale()         # work px per frame px
    quads = [c.quad / work_px for c in Detector().find(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
             if c.fitted and not c.cut]
    return [q for q in quads if shelf.share_in(region, q) >= shelf.settings.least_card]


def _lies_in(shelf: EmptyShelf, region: np.ndarray, cards: list[CardSighting]) -> bool:
    """Whether one of the ``cards`` lies in a change (``region``): at least ``least_card`` of it."""
    return any(shelf.share_in(region, np.asarray(c.quad, np.float32)) >= shelf.settings.least_card for c in cards)


def _cover(shelf: EmptyShelf, compared: Comparison, region: np.ndarray, cards: list[CardSighting]) -> bool:
    """Whether ``cards`` together cover a change (``region``) but for ``1 - WHOLE_CHANGE`` of it
    in parts that may be a card. A finger on them, as the changes left unexplained tell one
    (``EmptyShelf.fingers``), is not part of the change: it holds a card's width of sharp edge
    and more, and made a fifth to a third of the change of a small card it crossed (class: a card
    with a finger on it, read in its change, the frame left unsure)."""
    quads = _quads(cards)
    if not quads:
        return False
    bare = region & ~shelf.fingers(region, quads, compared.sharp)
    return shelf.uncovered_share(bare, quads, compared.sharp) <= 1 - WHOLE_CHANGE


def _read_change(looks: CardLooks, frame: np.ndarray, small: np.ndarray, scale: float, box: np.ndarray,
                 named: list[CardSighting]) -> CardSighting | None:
    """The card a change of the shelf shows (``box``: the rectangle around it, frame px), or
    None: a change of a card's shape and size (that of the cards ``named``, or of any card the
    kit reads) read as one."""
    if not _card_aspect(box):
        return None
    sides = sorted(float(np.linalg.norm(box[(i + 1) % 4] - box[i])) for i in range(2))
    if named:
        card_area = float(np.mean([quad_area(np.asarray(c.quad, np.float32)) for c in named]))
        if not HIDING_AREA[0] * card_area <= quad_area(box) <= HIDING_AREA[1] * card_area:
            return None
    elif not CHANGE_HEIGHT[0] <= sides[1] / frame.shape[0] <= CHANGE_HEIGHT[1]:
        return None
    card = looks.read_box(frame, small, scale, box * scale)
    if card is None or _cut_by_the_edge(np.asarray(card.quad, np.float32), frame.shape):
        return None                  # a card cut by the frame's edge is never read (issue 15 point 2)
    return card
