"""A rectangle a few per cent off its card, moved onto it by aligning the faces with what it shows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from drivers.card_reader import CardReader, enroll, shelf_step
from drivers.card_reader.designs import design_scene, judge, lies_at, make_design
from drivers.card_reader.face_align import AlignSettings, FaceAligner
from drivers.card_reader.fine_look import FineMatcher
from drivers.card_reader.keypoints import quad_area
from drivers.card_reader.scenes import Placement, compose_scene
from drivers.card_reader.shelf import EmptyShelf
from drivers.card_reader.thumbnails import work_image


def _off_by(quad: np.ndarray, turn: float, shift: float, stretch: float) -> np.ndarray:
    """``quad`` turned by ``turn`` degrees about its centre, grown by ``stretch`` and moved along its
    first side by ``shift`` of the card's width."""
    centre = quad.mean(axis=0)
    a = math.radians(turn)
    rotation = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    along = quad[1] - quad[0]
    return ((quad - centre) @ rotation.T * stretch + centre + shift * along).astype(np.float32)


def _card(design_name: str, ingredient: str, angle: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    design = make_design(design_name)
    scene = compose_scene(dict(design.faces), [Placement(ingredient, (0.5, 0.5), angle, 0.45)], "wood", seed=seed)
    (_, quad), = scene.cards
    return scene.image, np.float32(quad)


@pytest.mark.parametrize("design_name", ["fullbleed", "tarot", "placeholder"])
def test_a_rectangle_a_few_per_cent_off_its_card_is_moved_onto_it(design_name: str) -> None:
    # the class: the rectangle round a change the shelf saw stands 3-6 % off its card (turned,
    # moved, grown); the fine look, which reads the card's own outline, reads it there at 0.0
    design = make_design(design_name)
    fine, aligner = FineMatcher(design.faces), FaceAligner(design.faces)
    unread_off = moved_on = 0
    for i, ingredient in enumerate(design.faces):
        frame, card = _card(design_name, ingredient, 25.0 * i + 10, seed=i)
        off = _off_by(card, turn=(-3.0, 3.0)[i % 2], shift=0.04, stretch=1.04)
        unread_off += fine.read(frame, off)[1] < 0.5
        found = aligner.aligned(frame, off)
        if found is None:
            continue
        name, outline = found
        width = math.sqrt(quad_area(card) / 1.4)
        assert name == ingredient, (ingredient, name)
        assert np.abs(outline - card).max() < 0.04 * width, (ingredient, outline, card)
        read, confidence = fine.read(frame, outline)
        moved_on += read == ingredient and confidence >= 0.75
    assert unread_off >= 4, unread_off        # 5-6 of 8 in each design
    assert moved_on >= 6, moved_on            # 7-8 of 8


def test_a_rectangle_of_bare_shelf_is_read_as_no_card() -> None:
    reader = CardReader(enroll(dict(make_design("fullbleed").faces)))
    for seed, shelf in enumerate(("wood", "copper", "iron")):
        frame = compose_scene(reader.references.faces, [], shelf, seed=seed).image
        box = np.float32([[220, 110], [400, 110], [400, 362], [220, 362]])
        assert reader._read_aligned(frame, box) is None


def test_a_rectangle_over_half_a_card_is_not_grown_onto_it() -> None:
    # the alignment moves a rectangle onto its card; it never grows or moves one onto a card that
    # lies mostly beside it (a card under another, or beyond a change)
    design = make_design("tarot")
    aligner = FaceAligner(design.faces)
    for i, ingredient in enumerate(list(design.faces)[:4]):
        frame, card = _card("tarot", ingredient, 30.0 * i, seed=10 + i)
        beside = _off_by(card, turn=0.0, shift=0.5, stretch=1.0)
        assert aligner.aligned(frame, beside) is None


def test_the_reader_reads_a_change_s_rectangle_off_its_card_by_the_alignment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # development scene (full-bleed 38100298, touching cards on a dotted tablecloth): the rectangle
    # round the change the feather made, once the toad beside it was placed, stands 12 px off it
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 38100298, hard=False)
    small, scale = work_image(scene.image)
    rectangle = np.float32([[337, 314], [250, 141], [377, 78], [463, 250]])
    read = reader.read_box(scene.image, small, scale, rectangle * scale)
    assert read is not None and read.ingredient == "feather"
    feather, = (card for card in scene.cards if card.ingredient == "feather")
    assert lies_at(feather, read.ingredient, read.quad)
    # since session 62 the fine look's region, verified by a lead of 0.17, names it too: that way
    # is closed here, so the aligned faces are tested alone
    monkeypatch.setattr(reader, "_read_region", lambda frame, small, scale, box: None)
    read = reader.read_box(scene.image, small, scale, rectangle * scale)
    assert read is not None and lies_at(feather, read.ingredient, read.quad)
    monkeypatch.setattr(reader, "_read_aligned", lambda frame, box: None)
    assert reader.read_box(scene.image, small, scale, rectangle * scale) is None


def test_a_scene_whose_change_s_rectangle_stands_off_its_card_reads_right(monkeypatch: pytest.MonkeyPatch) -> None:
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 38100298, hard=False)
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "right"
    monkeypatch.setattr(reader, "_read_aligned", lambda frame, box: None)
    # since session 58 the part around the changes' parts wider than a finger, read closer, also
    # reads this card: that way is closed here, so the aligned faces are tested alone
    monkeypatch.setattr(EmptyShelf, "parts", lambda self, region, cards: [])
    # and since session 71 the keypoints of the changes alone place it, searched last: closed too
    monkeypatch.setattr(shelf_step, "_changed_area", lambda shelf, compared, shape: np.zeros(shape[:2], np.uint8))
    assert judge(scene, reader.identify(scene.image)).outcome == "unsure"


@pytest.mark.parametrize("field, value", [("coarse", (30,)), ("iterations", (0, 40)), ("margin", 0.6),
                                          ("least_shared", 1.2), ("epsilon", -1.0)])
def test_a_bad_setting_is_refused_by_its_name(field: str, value: object) -> None:
    with pytest.raises((TypeError, ValueError), match=f"AlignSettings.{field}"):
        AlignSettings(**{field: value})  # type: ignore[arg-type]


def test_the_aligner_refuses_settings_of_another_kind() -> None:
    with pytest.raises(TypeError, match="AlignSettings"):
        FaceAligner({}, settings=object())  # type: ignore[arg-type]


@pytest.mark.parametrize("rectangle", [[[100, 100], [200, 100], [300, 100], [400, 100]],
                                       [[100, 100], [100, 100], [100, 100], [100, 100]]])
def test_a_flat_rectangle_is_aligned_with_no_face(rectangle: list[list[int]]) -> None:
    frame, _ = _card("fullbleed", "feather", 20.0, seed=4)
    assert FaceAligner(make_design("fullbleed").faces).aligned(frame, np.float32(rectangle)) is None
