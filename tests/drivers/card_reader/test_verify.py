"""The verification stage: a named card must look like its enrolled face as a whole card."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from drivers.card_reader import CardReader, SHIPPED_FACE_NAMES, enroll
from drivers.card_reader import calibrate
from drivers.card_reader import reader as reader_module
from drivers.card_reader.designs import design_scene, make_design
from drivers.card_reader.fine_look import FineMatcher
from drivers.card_reader.keypoints import quad_area, shared_area, skewed
from drivers.card_reader.reading import CardSighting, FrameReading, sighting
from drivers.card_reader.scenes import Conditions, Placement, compose_scene
from drivers.card_reader.shelf import EmptyShelf
from drivers.card_reader.thumbnails import work_image
from drivers.card_reader.verify import (SETTINGS, VerifySettings, covered_by_the_card, fit_lead_probability,
                                        grown_quads, lead_probability, runs_past_the_card, shrunk_quads,
                                        side_ratio, verify_card)
from tests.drivers.card_reader.ribbon_design import RIBBON, ribbon_faces


@pytest.fixture(scope="module")
def ribbon() -> dict[str, np.ndarray]:
    return ribbon_faces()


@pytest.fixture(scope="module")
def ribbon_matcher(ribbon: dict[str, np.ndarray]) -> FineMatcher:
    return FineMatcher(enroll(ribbon).faces)


def scene(faces: dict[str, np.ndarray], ingredient: str, angle: float) -> tuple[np.ndarray, np.ndarray]:
    shot = compose_scene(faces, [Placement(ingredient, (0.5, 0.5), angle, 0.55)], "wood", seed=3)
    return shot.image, np.array(shot.cards[0][1], np.float32)


def down_to_the_ribbon(quad: np.ndarray) -> np.ndarray:
    """The outline of the card's parchment above the title ribbon (an inner frame, 0.68 of it)."""
    inner = quad.copy()
    inner[2] = quad[1] + RIBBON[0] * (quad[2] - quad[1])
    inner[3] = quad[0] + RIBBON[0] * (quad[3] - quad[0])
    return inner


def shrunk(quad: np.ndarray, share: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return (centre + share * (quad - centre)).astype(np.float32)


@pytest.mark.parametrize("ingredient", SHIPPED_FACE_NAMES)
def test_a_whole_card_passes_with_a_high_probability(ribbon, ribbon_matcher, ingredient) -> None:
    image, quad = scene(ribbon, ingredient, 25.0)
    verdict = verify_card(image, quad, ingredient, ribbon_matcher)
    assert verdict.passed, verdict
    assert verdict.probability > 0.99 and verdict.own > 0.8


@pytest.mark.parametrize("ingredient", SHIPPED_FACE_NAMES)
def test_an_outline_stopped_at_the_title_ribbon_is_refused(ribbon, ribbon_matcher, ingredient) -> None:
    # failure class 1: the quad covered about 0.7 of the card, then read as another ingredient
    image, quad = scene(ribbon, ingredient, -30.0)
    for named in SHIPPED_FACE_NAMES:
        verdict = verify_card(image, down_to_the_ribbon(quad), named, ribbon_matcher)
        assert not verdict.passed and "sides" in verdict.reason, (named, verdict)


@pytest.mark.parametrize("ingredient", SHIPPED_FACE_NAMES)
def test_an_inner_frame_of_a_card_s_proportions_is_refused(ribbon, ribbon_matcher, ingredient) -> None:
    image, quad = scene(ribbon, ingredient, 60.0)
    inner = shrunk(quad, 0.84)                   # 0.7 of the card's area, its aspect kept
    for named in SHIPPED_FACE_NAMES:
        assert not verify_card(image, inner, named, ribbon_matcher).passed, named


def test_the_same_holds_on_the_shipped_design(faces, references) -> None:
    matcher = FineMatcher(references.faces)
    for ingredient in SHIPPED_FACE_NAMES:
        image, quad = scene(faces, ingredient, 100.0)
        assert verify_card(image, quad, ingredient, matcher).passed, ingredient
        assert not verify_card(image, down_to_the_ribbon(quad), ingredient, matcher).passed
        assert not verify_card(image, shrunk(quad, 0.84), ingredient, matcher).passed


def stretched(quad: np.ndarray, factor: float) -> np.ndarray:
    """``quad`` (top side first) made a trapezoid: its bottom side ``factor`` times its top, their
    mean width kept, as a homography from a few keypoints can stretch a card over its neighbour."""
    out = quad.copy()
    for (a, b), scale in (((0, 1), 2 / (1 + factor)), ((3, 2), 2 * factor / (1 + factor))):
        middle = (quad[a] + quad[b]) / 2
        out[a], out[b] = middle + scale * (quad[a] - middle), middle + scale * (quad[b] - middle)
    return out


def test_an_outline_more_skewed_than_a_tilted_card_fails(ribbon, ribbon_matcher) -> None:
    for axis in range(0, 180, 15):                      # the most a tilt of the shelf skews a card
        tilted = compose_scene(ribbon, [Placement("toad", (0.5, 0.5), 10.0, 0.55)], "wood", seed=3,
                               conditions=Conditions(tilt=20.0, tilt_axis=float(axis)))
        assert not skewed(np.array(tilted.cards[0][1], np.float32), SETTINGS.max_skew), axis
    shot = compose_scene(ribbon, [Placement("toad", (0.5, 0.5), 10.0, 0.55)], "wood", seed=3,
                         conditions=Conditions(tilt=20.0))
    image, quad = shot.image, np.array(shot.cards[0][1], np.float32)
    assert verify_card(image, quad, "toad", ribbon_matcher).passed
    verdict = verify_card(image, stretched(quad, 1.8), "toad", ribbon_matcher)
    assert not verdict.passed and "tilted card" in verdict.reason, verdict


def over_the_card_beneath(faces: dict[str, np.ndarray], top: str, beneath: str) -> tuple[np.ndarray, np.ndarray]:
    """A card on one beneath it, and the top card's outline run on over the one beneath to 1.75:1."""
    shot = compose_scene(faces, [Placement(beneath, (0.5, 0.62), 0.0, 0.5), Placement(top, (0.5, 0.42), 0.0, 0.5)],
                         "wood", seed=3)
    quad = np.array(shot.cards[1][1], np.float32)
    run_on = quad.copy()
    run_on[2], run_on[3] = quad[1] + 1.25 * (quad[2] - quad[1]), quad[0] + 1.25 * (quad[3] - quad[0])
    return shot.image, run_on


@pytest.mark.parametrize("design, top, beneath", [
    ("ribbon", "scorpion", "feather"), ("fullbleed", "flower", "scorpion"), ("fullbleed", "root", "claw"),
    ("fullbleed", "toad", "fern"), ("tarot", "fern", "root"), ("tarot", "mushroom", "toad")])
def test_an_outline_stretched_over_the_card_beneath_is_refused(ribbon, design, top, beneath) -> None:
    # an outline of two overlapping cards as one, fitted to the top card stretched over the other:
    # its face still led the others, and the reading left the card beneath out (an ``ok``)
    faces = ribbon if design == "ribbon" else dict(make_design(design).faces)
    matcher = FineMatcher(enroll(faces).faces)
    image, run_on = over_the_card_beneath(faces, top, beneath)
    assert verify_card(image, run_on, top, matcher, dataclasses.replace(SETTINGS, tilted_aspect=2.0)).passed
    verdict = verify_card(image, run_on, top, matcher)
    assert not verdict.passed and "stretched" in verdict.reason, verdict


@pytest.mark.parametrize("design, top, beneath", [("ribbon", "scorpion", "feather"), ("tarot", "flower", "scorpion")])
def test_an_outline_longer_than_a_card_is_named_on_a_clear_lead_only(ribbon, design, top, beneath) -> None:
    # an outline round two overlapping cards as one, misfitted so that no cut-down outline reads
    # better (here: cut down to 1.59:1 only), named as the top card by a lead under 0.1
    faces = ribbon if design == "ribbon" else dict(make_design(design).faces)
    matcher = FineMatcher(enroll(faces).faces)
    image, run_on = over_the_card_beneath(faces, top, beneath)
    barely_cut = dataclasses.replace(SETTINGS, card_aspect=1.59)
    assert verify_card(image, run_on, top, matcher, dataclasses.replace(barely_cut, long_lead=1e-6)).passed
    verdict = verify_card(image, run_on, top, matcher, barely_cut)
    assert not verdict.passed and "longer than a card" in verdict.reason and verdict.lead < 0.1, verdict


@pytest.mark.parametrize("design, top, beneath", [
    ("ribbon", "scorpion", "feather"), ("tarot", "flower", "scorpion"),
    ("fullbleed", "toad", "fern")])
def test_an_outline_running_on_past_the_card_its_keypoints_place_is_refused(ribbon, design, top, beneath) -> None:
    # an outline round two overlapping cards as one, misfitted so that no cut-down outline reads
    # better (cut down to 1.59:1 only) and named as the top card by a lead the long-outline bar
    # lets through (here: any lead over 0); the top card's keypoints place it over 0.8 of the outline
    faces = ribbon if design == "ribbon" else dict(make_design(design).faces)
    image, run_on = over_the_card_beneath(faces, top, beneath)
    lenient = dataclasses.replace(SETTINGS, card_aspect=1.59, long_lead=1e-6)
    assert CardReader(enroll(faces), verify=dataclasses.replace(lenient, placed_cover=0.5)).verdict(
        image, run_on, top).passed
    verdict = CardReader(enroll(faces), verify=lenient).verdict(image, run_on, top)
    assert not verdict.passed and "keypoints place" in verdict.reason, verdict


@pytest.mark.parametrize("design, top, beneath", [("placeholder", "toad", "fern"), ("fullbleed", "root", "mushroom")])
def test_a_skewed_outline_running_on_past_the_card_its_keypoints_place_is_refused(design, top, beneath) -> None:
    # the class: an outline round two overlapping cards as one, fitted to the top card at one end
    # and to the card beneath at the other, skewed (opposite sides 1.4 apart) rather than long, so
    # its sides keep a card's proportions on average; the top card's face leads and the reading
    # left the card beneath out (full-bleed 26100956). The keypoints place the top card over 0.82
    # of it at most
    faces = dict(make_design(design).faces)
    shot = compose_scene(faces, [Placement(beneath, (0.5, 0.62), 0.0, 0.5), Placement(top, (0.5, 0.42), 0.0, 0.5)],
                         "wood", seed=3)
    quad = np.array(shot.cards[1][1], np.float32)
    skewed_on = quad.copy()
    skewed_on[2] = quad[1] + 1.4 * (quad[2] - quad[1])
    assert side_ratio(skewed_on) < SETTINGS.tilted_aspect and not skewed(skewed_on, SETTINGS.max_skew)
    lenient = dataclasses.replace(SETTINGS, tilted_skew=1.44)                # under max_skew only
    assert CardReader(enroll(faces), verify=lenient).verdict(shot.image, skewed_on, top).passed
    verdict = CardReader(enroll(faces)).verdict(shot.image, skewed_on, top)
    assert not verdict.passed and "keypoints place" in verdict.reason, verdict


#: a heavy overlap of session 74's run (full-bleed, normal, on wood), wrong there and at the code
#: before it: the scorpion's outline widened over three quarters of the mushroom beneath it (frame
#: px), named by a lead of 0.026 in an "ok" that left the mushroom out
WIDENED_OVER = ("fullbleed", 69_570_988, "scorpion", ((233.0, 367.0), (341.0, 153.0), (579.0, 281.0), (489.0, 452.0)))


def test_an_outline_past_the_card_placed_only_with_the_contrast_evened_out_is_refused(monkeypatch) -> None:
    # the class: a smooth face (a photograph) gives ORB too few corners in the frame's own contrast
    # for the search about an outline out of a card's shape to place it; the count by keypoints,
    # the contrast evened out, places it in a part of the outline. A card of that face placed
    # elsewhere (a copy) is not the outline's card, and leaves the verdict as it was
    name, seed, top, outline = WIDENED_OVER
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed)
    quad = np.float32(outline)
    assert reader._placed_about(scene.image, quad, top) is None
    verdict = reader.verdict(scene.image, quad, top)
    assert not verdict.passed and "keypoints place" in verdict.reason, verdict
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert reader.identify(scene.image).status == "unsure"
    placed = reader._keypoint_count.placed
    monkeypatch.setattr(reader._keypoint_count, "placed", lambda frame: [
        dataclasses.replace(card, quad=card.quad - np.float32([300, 0])) for card in placed(frame)])
    assert reader.verdict(scene.image, quad, top).passed


def test_an_outline_longer_than_a_card_inside_the_card_its_keypoints_place_passes(ribbon) -> None:
    # the rule's other side: a right card named from a long, narrow outline inside it (development
    # scenes: the tarot's mushroom, its keypoints' card covering 0.90-1.0 of the outline)
    image, quad = scene(ribbon, "toad", 0.0)
    inside = quad.copy()
    across = (quad[1] - quad[0]) * 0.1
    inside[0], inside[3], inside[1], inside[2] = quad[0] + across, quad[3] + across, quad[1] - across, quad[2] - across
    assert side_ratio(inside) > SETTINGS.tilted_aspect
    lenient = dataclasses.replace(SETTINGS, card_aspect=1.59)
    reader = CardReader(enroll(ribbon), verify=lenient)
    assert verify_card(image, inside, "toad", FineMatcher(enroll(ribbon).faces), lenient).passed
    assert reader._placed_about(image, inside, "toad") is not None       # the rule is asked
    assert reader.verdict(image, inside, "toad").passed


def test_an_outline_runs_past_the_card_placed_only_when_longer_than_a_tilted_card_and_not_covered() -> None:
    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    run_on = card * np.array([1.0, 1.25], np.float32)                        # 1.75:1, the card 0.8 of it
    assert runs_past_the_card(run_on, card)
    assert not runs_past_the_card(run_on, card, dataclasses.replace(SETTINGS, placed_cover=0.75))
    assert not runs_past_the_card(run_on, run_on * 1.1)                     # a card placed over all of it
    loose = card * np.array([1.0, 1.1], np.float32)                          # 1.54:1, under a tilted card's
    assert not runs_past_the_card(loose, card * np.array([1.0, 0.5], np.float32))


def test_an_outline_more_skewed_than_a_tilted_card_runs_past_the_card_placed_when_not_covered() -> None:
    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    skewed_on = card.copy()
    skewed_on[2, 1] = 140 * 1.4                                              # one long side 1.4 times the other
    assert side_ratio(skewed_on) < SETTINGS.tilted_aspect
    assert runs_past_the_card(skewed_on, card)                              # the card 0.83 of it
    assert not runs_past_the_card(skewed_on, card, dataclasses.replace(SETTINGS, placed_cover=0.8))
    assert not runs_past_the_card(skewed_on, card, dataclasses.replace(SETTINGS, tilted_skew=1.44))
    tilted = card.copy()
    tilted[2, 1] = 140 * 1.1                                                 # within a 20 degree tilt's
    assert not runs_past_the_card(tilted, card * np.array([1.0, 0.5], np.float32))


def test_an_outline_is_covered_by_the_card_placed_over_most_of_it() -> None:
    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    assert covered_by_the_card(card * 0.9, card)                             # an inner outline
    assert covered_by_the_card(card * np.array([1.0, 1.15], np.float32), card)  # the card 0.87 of it
    assert not covered_by_the_card(card * np.array([1.0, 1.25], np.float32), card)  # 0.8: run on past it
    assert covered_by_the_card(card * np.array([1.0, 1.25], np.float32), card,
                               dataclasses.replace(SETTINGS, placed_cover=0.75))


def cut_short_under(faces: dict[str, np.ndarray], beneath: str, top: str) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                                    np.ndarray]:
    """A card with another over its corner (0.09 of it), and the card's outline bent in to the top
    card's corner, as the outlines fit it along the top card's edge: the image, that outline, and
    the quads of the card beneath and of the top card."""
    shot = compose_scene(faces, [Placement(beneath, (0.38, 0.5), 0.0, 0.55), Placement(top, (0.64, 0.62), 0.0, 0.55)],
                         "wood", seed=3)
    card, over = (np.array(c[1], np.float32) for c in shot.cards)
    outline = card.copy()
    outline[2] = over[0]
    return shot.image, outline, card, over


@pytest.mark.parametrize("design, beneath, top", [
    ("placeholder", "claw", "mushroom"), ("ribbon", "root", "scorpion"), ("woodcut", "feather", "fern"),
    ("tarot", "scorpion", "toad")])
def test_an_outline_cut_short_by_a_card_over_it_is_named_at_the_card_its_keypoints_place(
        faces, design, beneath, top) -> None:
    # the class: a card overlapped by another, its outline bent along the top card's edge, warps a
    # piece of the shelf or of the top card into its face and fails (the issue-3 benchmark's
    # overlapping scenes, unsure since the lead's bar rose to 0); the card its face's keypoints
    # place over the outline is the card, and passes
    design_faces = faces if design == "placeholder" else dict(make_design(design).faces)
    image, outline, card, over = cut_short_under(design_faces, beneath, top)
    reader = CardReader(enroll(design_faces))
    assert not reader.verdict(image, outline, beneath).passed
    cards = FrameReading("ok", [sighting(beneath, outline, 1.0), sighting(top, over, 1.0)])
    as_outlined = reader.verified(image, cards)
    assert as_outlined.status == "unsure" and as_outlined.cards[0].ingredient is None
    refitted = reader.verified(image, cards, refit=True)
    assert refitted.status == "ok" and [c.ingredient for c in refitted.cards] == [beneath, top]
    named = np.asarray(refitted.cards[0].quad, np.float32)
    assert shared_area(named, card) > 0.85 * max(quad_area(named), quad_area(card))   # it lies where the card lies
    assert refitted.cards[0].confidence > 0.9


def test_an_outline_named_as_a_face_not_in_view_is_not_refitted(faces) -> None:
    # the refit names only the face its keypoints find over the outline: an outline named as a
    # card that is not there stays unnamed however it is fitted
    image, outline, _, over = cut_short_under(faces, "claw", "mushroom")
    reader = CardReader(enroll(faces))
    for absent in (name for name in SHIPPED_FACE_NAMES if name not in ("claw", "mushroom")):
        cards = FrameReading("ok", [sighting(absent, outline, 1.0), sighting("mushroom", over, 1.0)])
        reading = reader.verified(image, cards, refit=True)
        assert reading.status == "unsure" and reading.cards[0].ingredient is None, absent


@pytest.mark.parametrize("design, top, beneath", [("ribbon", "scorpion", "feather"), ("tarot", "flower", "scorpion")])
def test_an_outline_running_on_past_the_card_named_is_not_refitted(ribbon, design, top, beneath) -> None:
    # the refit's other side: the top card its keypoints place covers an outline round two
    # overlapping cards too little (0.8) to be taken for it, and the card beneath is not dropped
    faces = ribbon if design == "ribbon" else dict(make_design(design).faces)
    image, run_on = over_the_card_beneath(faces, top, beneath)
    reader = CardReader(enroll(faces))
    assert not reader.verdict(image, run_on, top).passed
    reading = reader.verified(image, FrameReading("ok", [sighting(top, run_on, 1.0)]), refit=True)
    assert reading.status == "unsure" and reading.cards[0].ingredient is None


def test_cards_refitted_to_overlap_more_than_a_player_lays_them_are_unsure(faces, monkeypatch) -> None:
    image, outline, card, over = cut_short_under(faces, "claw", "mushroom")
    reader = CardReader(enroll(faces))
    cards = FrameReading("ok", [sighting("claw", outline, 1.0), sighting("mushroom", over, 1.0)])
    assert reader.verified(image, cards, refit=True).status == "ok"
    verdict = reader.verdict(image, card, "claw")
    monkeypatch.setattr(CardReader, "_refitted", lambda self, frame, quad, ingredient: (over + 5.0, verdict))
    assert reader.verified(image, cards, refit=True).status == "unsure"


def test_a_card_named_as_another_ingredient_fails(ribbon, ribbon_matcher) -> None:
    image, quad = scene(ribbon, "toad", 10.0)
    for named in SHIPPED_FACE_NAMES:
        if named != "toad":
            verdict = verify_card(image, quad, named, ribbon_matcher)
            assert not verdict.passed and verdict.lead < 0, (named, verdict)


def test_an_ingredient_not_enrolled_fails(ribbon, ribbon_matcher) -> None:
    image, quad = scene(ribbon, "toad", 10.0)
    assert not verify_card(image, quad, "golem", ribbon_matcher).passed


def test_the_reader_unnames_a_card_that_fails_and_is_unsure(ribbon) -> None:
    reader = CardReader(enroll(ribbon))
    image, quad = scene(ribbon, "claw", 15.0)
    misfit = down_to_the_ribbon(quad)
    corners = tuple((float(x), float(y)) for x, y in misfit)
    checked = reader.verified(image, FrameReading("ok", [CardSighting("fern", corners, 0.6)]))  # type: ignore[arg-type]
    assert checked.status == "unsure" and checked.cards[0].ingredient is None
    whole = tuple((float(x), float(y)) for x, y in quad)
    assert reader.verified(image, FrameReading("ok", [CardSighting("claw", whole, 0.9)])).status == "ok"  # type: ignore[arg-type]


def test_geometry_helpers() -> None:
    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    assert side_ratio(card) == pytest.approx(1.4)
    past_bottom, past_top, all_round = grown_quads(card, 0.5)
    assert past_bottom[2, 1] == pytest.approx(210) and past_bottom[0, 1] == 0
    assert past_top[0, 1] == pytest.approx(-70) and past_top[2, 1] == 140
    assert all_round[0] == pytest.approx([-12.5, -17.5]) and all_round[2] == pytest.approx([112.5, 157.5])
    assert shrunk_quads(card, 1.4) == [] and shrunk_quads(card, 1.5) == []
    keep_top, keep_bottom = shrunk_quads(card, 1.0)
    assert keep_top.tolist() == [[0, 0], [100, 0], [100, 100], [0, 100]]
    assert keep_bottom.tolist() == [[0, 40], [100, 40], [100, 140], [0, 140]]
    lying = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], np.float32)    # its long sides across
    assert [q.tolist() for q in shrunk_quads(lying, 1.0)] == [
        [[0, 0], [100, 0], [100, 100], [0, 100]], [[40, 0], [140, 0], [140, 100], [40, 100]]]


def test_the_probability_is_its_bands_and_is_counted_from_known_readings() -> None:
    bands = (0.0, 0.1)
    right = [True] * 9 + [False] + [True] * 3 + [False] * 3
    leads = [0.3] * 10 + [-0.05] * 6
    counted = fit_lead_probability(leads, right, bands)
    assert counted == pytest.approx(((3 + 1) / (6 + 2), (3 + 1) / (6 + 2), (9 + 1) / (10 + 2)))
    settings = dataclasses.replace(SETTINGS, lead_bands=bands, band_right=counted)
    assert lead_probability(-0.05, settings) < lead_probability(0.1, settings) == counted[2]
    with pytest.raises(ValueError, match="truths"):
        fit_lead_probability([0.1, 0.2], [True])


def test_settings_are_one_frozen_object() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SETTINGS.min_lead = 0.0  # type: ignore[misc]
    with pytest.raises(TypeError, match="VerifySettings"):
        CardReader(enroll(ribbon_faces()), verify={"min_lead": 0.0})  # type: ignore[arg-type]
    assert isinstance(VerifySettings(), VerifySettings)


def test_the_verify_settings_defaults_pass_their_checks_and_a_lead_may_be_negative() -> None:
    assert VerifySettings() == SETTINGS
    bands = (-0.2, 0.0, 0.1)
    assert dataclasses.replace(SETTINGS, min_lead=-0.3, lead_bands=bands, band_right=(0.5,) * 4).lead_bands == bands


@pytest.mark.parametrize(("change", "error"), (
    ({"min_own": "0.15"}, TypeError), ({"max_skew": True}, TypeError), ({"min_lead": "-0.1"}, TypeError),
    ({"aspect": 1.4}, TypeError), ({"band_right": (0.5, 0.0, 0.5, 0.5, 0.5, 0.5)}, ValueError),
    ({"grow": -0.47}, ValueError), ({"card_aspect": 1.7}, ValueError), ({"placed_cover": 1.2}, ValueError),
    ({"placed_margin": 0.0}, ValueError), ({"tilted_skew": 1.5}, ValueError),
    ({"lead_bands": (0.0, float("inf"), 0.1, 0.2, 0.3)}, ValueError),
    ({"aspect": (1.8, 1.15)}, ValueError), ({"lead_bands": (0.0, 0.1, 0.05, 0.2, 0.3)}, ValueError),
    ({"band_right": (0.5, 0.9, 0.9, 0.9, 0.9, 1.1)}, ValueError), ({"band_right": (0.5, 0.9)}, ValueError)))
def test_a_bad_verify_setting_is_refused_by_name(change: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match=rf"^VerifySettings\.{next(iter(change))} "):
        dataclasses.replace(SETTINGS, **change)


def test_a_card_another_face_matches_as_well_is_not_shown_to_be_the_card_named(ribbon, ribbon_matcher) -> None:
    # the class: glare over a card left its face about as like another face as its own, and the
    # card was named as the other (a lead of -0.035 passed the old bar of -0.1): a card two faces
    # match alike is shown to be neither, and only the face that leads may name it
    first, second = SHIPPED_FACE_NAMES[0], SHIPPED_FACE_NAMES[3]
    blend = ((ribbon[first].astype(np.float32) + ribbon[second].astype(np.float32)) / 2).astype(np.uint8)
    image, quad = scene({**ribbon, "blend": blend}, "blend", 15.0)
    verdicts = {name: verify_card(image, quad, name, ribbon_matcher) for name in (first, second)}
    assert abs(verdicts[first].lead) < 0.1 and verdicts[first].lead == pytest.approx(-verdicts[second].lead)
    leading, trailing = sorted(verdicts.values(), key=lambda v: v.lead, reverse=True)
    assert trailing.lead < 0 and not trailing.passed
    assert leading.lead >= 0 and leading.passed


@pytest.mark.parametrize("ingredient", ("mushroom", "flower", "toad", "feather"))
def test_a_region_the_fine_look_reads_short_of_halfway_to_certainty_is_named_once_clearly_verified(
        ribbon, ingredient) -> None:
    # the class: a small card, blurred, with a glare on its corner, in a change of the shelf; the
    # fine look reads it above the threshold but short of halfway to certainty, the bar of a
    # region read at many quads, and its face passes verification well ahead of every other
    shot = compose_scene(ribbon, [Placement(ingredient, (0.45, 0.5), 15.0, 0.2)], "copper", seed=5,
                         conditions=Conditions(glare=(0.48, 0.56, 0.08, 1.5), noise=4.0, blur_sigma=2.5))
    quad = np.array(shot.cards[0][1], np.float32)
    reader = CardReader(enroll(ribbon))
    read, confidence = FineMatcher(enroll(ribbon).faces).read(shot.image, quad)
    assert read == ingredient and reader.threshold <= confidence < (1 + reader.threshold) / 2, confidence
    small, scale = work_image(shot.image)
    card = reader._read_region(shot.image, small, scale, quad * scale)
    assert card is not None and card.ingredient == ingredient, card
    strict = CardReader(enroll(ribbon), verify=dataclasses.replace(SETTINGS, clear_lead=2.0))
    assert strict._read_region(shot.image, small, scale, quad * scale) is None


def test_a_region_read_below_the_threshold_is_named_when_clearly_verified_with_its_probability() -> None:
    # the class: a small card in dim light, soft and noisy, whose change the shelf saw whole; the
    # fine look leads the runner-up face by too little to reach the threshold, where its whole
    # face passes verification well ahead of every other (hard scenes of small cards left unsure).
    # It is named with the verdict's probability of being right; short of the clear lead, never
    design = make_design("fullbleed")
    shot = compose_scene(dict(design.faces), [Placement("flower", (0.6, 0.5), 35.0, 0.17)], "copper", seed=3,
                         conditions=Conditions(brightness=0.6, blur_sigma=2.0, noise=6.0))
    quad = np.array(shot.cards[0][1], np.float32)
    reader = CardReader(enroll(dict(design.faces), design.back))
    read, confidence = reader._fine.read(shot.image, quad)
    assert read == "flower" and confidence < reader.threshold, confidence
    small, scale = work_image(shot.image)
    card = reader._read_region(shot.image, small, scale, quad * scale)
    assert card is not None and card.ingredient == "flower", card
    verdict = reader.verdict(shot.image, np.asarray(card.quad, np.float32), "flower")
    assert verdict.lead >= SETTINGS.clear_lead and card.confidence == verdict.probability >= reader.threshold
    strict = CardReader(enroll(dict(design.faces), design.back), verify=dataclasses.replace(SETTINGS, clear_lead=2.0))
    assert strict._read_region(shot.image, small, scale, quad * scale) is None


@pytest.mark.parametrize(("seed", "brightness", "noise"), ((2, 0.8, 6.0), (3, 0.6, 4.0)))
def test_a_small_card_of_a_smooth_face_led_by_less_than_a_sharp_face_is_named_but_a_back_is_not(
        seed: int, brightness: float, noise: float) -> None:
    # the class: a small card of a smooth face (the full-bleed's retina photograph), soft and
    # noisy, whose face the fine look reads below the threshold and verification passes leading
    # every other by 0.15-0.2, where a sharper face leads by more: it stayed unnamed and its
    # change kept the frame unsure. A back in the same light passes as a face by far less
    design = make_design("fullbleed")
    faces = dict(design.faces)
    reader = CardReader(enroll(faces, design.back))
    light = Conditions(brightness=brightness, blur_sigma=1.5, noise=noise)
    shot = compose_scene(faces, [Placement("scorpion", (0.55, 0.5), 25.0, 0.2)], "copper", seed=seed,
                         conditions=light)
    quad = np.array(shot.cards[0][1], np.float32)
    small, scale = work_image(shot.image)
    card = reader._read_region(shot.image, small, scale, quad * scale)
    assert card is not None and card.ingredient == "scorpion", card
    verdict = reader.verdict(shot.image, np.asarray(card.quad, np.float32), "scorpion")
    assert SETTINGS.clear_lead <= verdict.lead < 0.2, verdict
    before = CardReader(enroll(faces, design.back), verify=dataclasses.replace(SETTINGS, clear_lead=0.2))
    assert before._read_region(shot.image, small, scale, quad * scale) is None
    back = compose_scene(faces, [Placement("scorpion", (0.55, 0.5), 25.0, 0.2, face_down=True)], "copper",
                         seed=2, conditions=light, back=design.back)
    quad = np.array(back.cards[0][1], np.float32)
    small, scale = work_image(back.image)
    guess, _ = reader._fine.read(back.image, quad)
    assert reader.verdict(back.image, quad, guess).lead < SETTINGS.clear_lead
    assert reader._read_region(back.image, small, scale, quad * scale) is None


@pytest.mark.parametrize(("ingredient", "named"), (("flower", True), ("claw", False)))
def test_a_guess_checked_by_verification_is_an_example_of_its_probability_only_once_named(
        ingredient: str, named: bool) -> None:
    # the class: the verdicts of the fine look's guesses below the threshold, most of them never
    # named, counted as examples of a named card's probability, pulled the low bands of the lead
    # down (a benchmark run's fitted bands fell to 0.17-0.28 there, and cards named right by other
    # steps carried them); a guess counts once it is named and verified as every card named is
    design = make_design("fullbleed")
    shot = compose_scene(dict(design.faces), [Placement(ingredient, (0.6, 0.5), 35.0, 0.17)], "copper", seed=3,
                         conditions=Conditions(brightness=0.6, blur_sigma=2.0, noise=6.0))
    quad = np.array(shot.cards[0][1], np.float32)
    reader = calibrate._RecordingReader(enroll(dict(design.faces), design.back), SETTINGS)
    reader._frame = shot.image                          # the frame it records, as while it reads one
    assert reader._fine.read(shot.image, quad)[1] < reader.threshold
    small, scale = work_image(shot.image)
    card = reader._read_region(shot.image, small, scale, quad * scale)
    assert reader.verdicts == []
    assert (card is not None and card.ingredient == ingredient) == named, card
    if named:
        reader.verified(shot.image, FrameReading("ok", [card]))
        assert [ing for _, ing, _ in reader.verdicts] == [ingredient]


def test_a_verdict_is_made_once_while_a_frame_is_read_and_each_time_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    # the shelf step verifies a card it reads in a change, then every card named with it: while
    # ``identify`` reads the frame the first verdict is given again, and the reading is the same
    design = make_design("ribbon")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 7_300_028)
    made: list[tuple[int, bytes, str]] = []

    def counted(frame, quad, ingredient, *args):
        made.append((id(frame), np.asarray(quad, np.float32).tobytes(), ingredient))
        return verify_card(frame, quad, ingredient, *args)

    monkeypatch.setattr(reader_module, "verify_card", counted)
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    reading = reader.identify(scene.image)
    assert reading.status == "ok" and len(made) == len(set(made)) > 0, made
    forgetting = CardReader(enroll(dict(design.faces), design.back))
    forgetting.empty_shelf = EmptyShelf(scene.empty_shelf())
    made.clear()
    unremembered = forgetting._identify(scene.image)         # read outside ``identify``: nothing remembered
    assert unremembered == reading and len(made) > len(set(made)), made
    made.clear()
    quad = np.asarray(reading.cards[0].quad, np.float32)
    reader.verdict(scene.image, quad, str(reading.cards[0].ingredient))
    reader.verdict(scene.image, quad, str(reading.cards[0].ingredient))
    assert len(made) == 2
