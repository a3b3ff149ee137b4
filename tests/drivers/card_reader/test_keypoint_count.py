"""Counting by keypoints (issue 15, point 2): a card lying face down beside a named one makes the
frame unsure once the cards' back is enrolled, and so does a face-up card the naming left out;
the back survives the reference file."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from drivers.card_reader import CardReader, FrameReading, ReferenceFileError, References, enroll, load_references
from drivers.card_reader.keypoint_count import SETTINGS, KeypointCount, KeypointCountSettings
from drivers.card_reader.designs import CardDesign, DesignScene, design_scene, judge, make_design
from drivers.card_reader.keypoints import quad_area, shared_area
from drivers.card_reader.reading import sighting
from drivers.card_reader.references import FACE_H, FACE_W
from drivers.card_reader.shelf import EmptyShelf

#: designs whose backs differ in kind: a gold lattice, a star field, a printed word
DESIGNS = ("ribbon", "tarot", "fullbleed")
#: face-down scenes with a face-up card beside the back, per design
SCENES = 3
#: seeds apart from the benchmark's (3,000,000 on) and the subset test's (900,000 on)
FIRST_SEED = 7_300_000


def _beside_a_face_up_card(design: CardDesign) -> list[DesignScene]:
    """The first ``SCENES`` face-down scenes of ``design`` with a face-up card too."""
    scenes: list[DesignScene] = []
    seed = FIRST_SEED
    while len(scenes) < SCENES:
        scene = design_scene(design, seed, kind="face_down")
        if any(card.face_up for card in scene.cards):
            scenes.append(scene)
        seed += 1
    return scenes


@pytest.fixture(scope="module")
def designs() -> dict[str, CardDesign]:
    return {name: make_design(name) for name in DESIGNS}


@pytest.mark.parametrize("name", DESIGNS)
def test_a_card_face_down_beside_a_named_one_makes_the_frame_unsure(designs: dict[str, CardDesign],
                                                                     name: str) -> None:
    design = designs[name]
    reader = CardReader(enroll(dict(design.faces), design.back))
    backs_seen = 0
    for scene in _beside_a_face_up_card(design):
        reading = reader.identify(scene.image)
        assert judge(scene, reading).outcome != "wrong", f"seed {scene.seed}: {reading.status}"
        back = next(np.asarray(c.quad, np.float32) for c in scene.cards if not c.face_up)
        told = [np.asarray(c.quad, np.float32) for c in reading.cards if c.face_down and c.ingredient is None]
        backs_seen += any(shared_area(q, back) > 0.5 * quad_area(back) for q in told)
    assert backs_seen, "no back was told face down where it lies (the frames may be unsure for another reason)"


def test_without_the_back_a_face_down_card_is_missed(designs: dict[str, CardDesign]) -> None:
    """The class this stage fixes: with the faces alone the outlines never count a back."""
    outcomes = []
    for name in DESIGNS:
        design = designs[name]
        reader = CardReader(enroll(dict(design.faces)))
        outcomes += [judge(scene, reader.identify(scene.image)).outcome for scene in _beside_a_face_up_card(design)]
    assert "wrong" in outcomes


def _count(design: CardDesign) -> KeypointCount:
    refs = enroll(dict(design.faces), design.back)
    return KeypointCount(refs.faces, refs.back)


@pytest.mark.parametrize("name", DESIGNS)
def test_nothing_is_placed_where_every_card_is_named(designs: dict[str, CardDesign], name: str) -> None:
    count = _count(designs[name])
    for seed in range(FIRST_SEED, FIRST_SEED + 6):
        scene = design_scene(designs[name], seed, kind="touching")
        named = [np.asarray(c.quad, np.float32) for c in scene.cards]
        assert count.find(scene.image, named) == [], f"seed {seed}"


def test_a_back_under_a_named_card_is_that_card(designs: dict[str, CardDesign]) -> None:
    count = _count(designs["tarot"])
    scene = _beside_a_face_up_card(designs["tarot"])[0]
    back = next(np.asarray(c.quad, np.float32) for c in scene.cards if not c.face_up)
    placed = count.find(scene.image, [])
    assert any(card.face_down and shared_area(card.quad, back) > 0.8 * quad_area(back) for card in placed)
    assert not any(card.face_down for card in count.find(scene.image, [back]))


@pytest.mark.parametrize("name", DESIGNS)
def test_a_face_up_card_left_out_of_the_naming_is_placed(designs: dict[str, CardDesign], name: str) -> None:
    """The class of a card as dark as its shelf: whatever the outlines missed, its print is there."""
    count = _count(designs[name])
    found = 0
    for seed in range(FIRST_SEED, FIRST_SEED + 4):
        scene = design_scene(designs[name], seed, kind="apart")
        named, missed = (np.asarray(c.quad, np.float32) for c in scene.cards)
        placed = count.find(scene.image, [named])
        assert all(shared_area(card.quad, named) < 0.3 * quad_area(named) for card in placed)
        found += any(not card.face_down and shared_area(card.quad, missed) > 0.6 * quad_area(missed)
                     for card in placed)
    assert found >= 3, f"{found} of 4 cards left out were placed"


#: a heavy overlap (toad beneath, mushroom on top, on iron), a wrong reading of the run at f783fb8:
#: the stages outlined the mushroom widened over the toad, and the toad's print outside that
#: outline placed it over 0.55 of it
BENEATH = ("tarot", 29_101_933)
#: the stages' outline there, frame px
WIDENED = np.float32([[342, 301], [150, 406], [30, 178], [221, 72]])


def test_a_card_of_another_face_placed_over_a_named_card_is_a_card_beneath_it() -> None:
    # the class: a card beneath another, taken into the top card's outline; its keypoints
    # outside that outline place it over the card named, which is not that card's print again
    name, seed = BENEATH
    design = make_design(name)
    scene = design_scene(design, seed)
    toad = next(np.asarray(c.quad, np.float32) for c in scene.cards if c.ingredient == "toad")
    count = _count(design)
    placed = count.find(scene.image, [WIDENED], ["mushroom"])
    assert any(shared_area(card.quad, toad) > 0.8 * quad_area(toad) for card in placed), placed
    assert count.find(scene.image, [WIDENED], ["toad"]) == []          # the named card's own print
    assert count.find(scene.image, [WIDENED]) == []                    # faces not given: as before
    with pytest.raises(ValueError, match="2 faces for 1 named cards"):
        count.find(scene.image, [WIDENED], ["mushroom", "toad"])


def test_a_card_beneath_the_top_cards_widened_outline_keeps_the_frame_unsure() -> None:
    # the same class end to end, with and without the empty shelf captured: the "ok" named the
    # top card alone
    name, seed = BENEATH
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed)
    for shelf in (None, EmptyShelf(scene.empty_shelf())):
        reader.empty_shelf = shelf
        reading = reader.identify(scene.image)
        assert judge(scene, reading).outcome == "right", (shelf, reading.status, reading.cards)


#: a heavy overlap of a probe of session 65: the outline stages named the feather's visible part,
#: beside the scorpion lying over it, as the fern (a wrong reading at main, 0.015 ahead of the
#: next face); the feather's own keypoints place it whole over that outline
READ_AS_ANOTHER = ("placeholder", 90_040_048)
#: the outline the fern was named at, frame px
VISIBLE_PART = ((304.0, 95.0), (321.0, 245.0), (200.0, 259.0), (173.0, 109.0))


def test_a_card_named_where_the_keypoints_place_another_face_over_most_of_it_is_not_ok() -> None:
    # the class: a card's visible part beneath another, outlined alone and named as another face;
    # the count masks it, so its own print places nothing, but the frame's keypoints place its
    # face over it. The named face placed there, or another face over less than half of it, is
    # no reading otherwise
    name, seed = READ_AS_ANOTHER
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, kind="heavy_overlap")
    scorpion = next(c.quad for c in scene.cards if c.ingredient == "scorpion")
    named = FrameReading("ok", [sighting("scorpion", scorpion, 1.0), sighting("fern", VISIBLE_PART, 0.71)])
    assert reader.counted_by_keypoints(scene.image, named).status == "unsure"
    right = FrameReading("ok", [sighting("scorpion", scorpion, 1.0), sighting("feather", VISIBLE_PART, 0.71)])
    assert reader.counted_by_keypoints(scene.image, right).status == "ok"
    feather = next(np.asarray(c.quad, np.float32) for c in scene.cards if c.ingredient == "feather")
    beside = feather + np.float32([140, 0])                                 # 0.38 of it over the feather
    assert 0.3 * quad_area(beside) < shared_area(beside, feather) < 0.45 * quad_area(beside)
    assert not reader._read_otherwise(scene.image, [sighting("fern", beside, 0.71)])


def test_a_card_beneath_another_named_as_another_face_keeps_the_frame_unsure() -> None:
    # the same class end to end, with the empty shelf captured
    name, seed = READ_AS_ANOTHER
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, kind="heavy_overlap")
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    reading = reader.identify(scene.image)
    assert judge(scene, reading).outcome == "right", (reading.status, reading.cards)


def test_the_back_survives_the_reference_file(designs: dict[str, CardDesign], tmp_path: Path) -> None:
    design = designs["ribbon"]
    refs = enroll(dict(design.faces), design.back)
    assert refs.back is not None and refs.back.shape == (FACE_H, FACE_W, 3)
    refs.save(tmp_path / "cards.json")
    loaded = load_references(tmp_path / "cards.json")
    assert loaded.back is not None and np.array_equal(loaded.back, refs.back)
    enroll(dict(design.faces)).save(tmp_path / "faces.json")
    assert load_references(tmp_path / "faces.json").back is None


def test_a_damaged_back_is_named(designs: dict[str, CardDesign], tmp_path: Path) -> None:
    design = designs["ribbon"]
    data = enroll(dict(design.faces), design.back).to_json()
    data["back"] = "not base64!"
    (tmp_path / "cards.json").write_text(json.dumps(data))
    with pytest.raises(ReferenceFileError, match="back cannot be decoded"):
        load_references(tmp_path / "cards.json")


def test_a_bad_back_is_refused_by_name(designs: dict[str, CardDesign]) -> None:
    faces = dict(designs["ribbon"].faces)
    with pytest.raises(ValueError, match="the back"):
        enroll(faces, np.zeros((10, 10), np.uint8))
    with pytest.raises(ValueError, match="the back"):
        References(enroll(faces).faces, back=np.zeros((5, 5, 3), np.uint8))


def test_a_card_face_down_alone_is_told_once_the_back_is_enrolled(designs: dict[str, CardDesign]) -> None:
    design = designs["tarot"]
    alone = []
    seed = FIRST_SEED
    while len(alone) < 3:
        scene = design_scene(design, seed, kind="face_down")
        if len(scene.cards) == 1:
            alone.append(scene)
        seed += 1
    with_back = CardReader(enroll(dict(design.faces), design.back))
    faces_only = CardReader(enroll(dict(design.faces)))
    told = [with_back.identify(scene.image).face_down for scene in alone]
    assert sum(told) >= 2, told
    assert not any(faces_only.identify(scene.image).face_down for scene in alone)
    for seed in range(FIRST_SEED, FIRST_SEED + 4):
        assert with_back.identify(design_scene(design, seed, kind="empty").image).status != "ok"


def test_the_keypoint_count_settings_defaults_pass_their_checks() -> None:
    assert KeypointCountSettings() == SETTINGS


@pytest.mark.parametrize(("change", "error"), (
    ({"features": 1000.0}, TypeError), ({"contrast_tiles": 8.5}, TypeError), ({"shared": True}, TypeError),
    ({"contrast_gain": "2"}, TypeError), ({"features": 0}, ValueError), ({"contrast_gain": -2.0}, ValueError)))
def test_a_bad_keypoint_count_setting_is_refused_by_name(change: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match=rf"^KeypointCountSettings\.{next(iter(change))} "):
        dataclasses.replace(SETTINGS, **change)
