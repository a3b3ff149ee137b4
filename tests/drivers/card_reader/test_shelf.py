"""The empty shelf captured before the game tells the shelf's own texture, and a shadow or glare
over it, from a card: an empty patterned table reads empty, a card beside the table's lit patches
reads ok, and a change no card named explains keeps the frame unsure."""

from __future__ import annotations

import copy
import dataclasses
import logging

import cv2
import numpy as np
import pytest

from drivers.card_reader import SHIPPED_FACE_NAMES, CardReader, enroll, shelf_step
from drivers.card_reader import reader as reader_module
from drivers.card_reader import shelf as shelf_module
from drivers.card_reader.designs import BACKGROUND_KINDS, PATTERNED, design_scene, empty_shelf, judge, make_design
from drivers.card_reader.designs import table_background
from drivers.card_reader.fine_look import FineMatcher
from drivers.card_reader.keypoints import KeypointCard, quad_area, shared_area
from drivers.card_reader.quad_fit import order_quad
from drivers.card_reader.reading import FrameReading, sighting
from drivers.card_reader.second_look import cut_off_by_the_frame
from drivers.card_reader.scenes import Conditions, Finger, Placement, compose_scene
from drivers.card_reader.shelf import SETTINGS, EmptyShelf, ShelfKeeper, ShelfSettings
from drivers.card_reader.shelf_step import WHOLE_CHANGE
from drivers.card_reader.thumbnails import WorkImage, work_image

SIZE = (640, 480)
#: the light of a game's frame; the captured shelf's light drifts from it (``empty_shelf``)
LIGHT = Conditions(brightness=0.9, cast=(1.05, 1.0, 0.92), uneven=0.3, uneven_angle=40.0, noise=3.0, jpeg=80)


def table_scene(faces, kind: str, placements, conditions: Conditions = LIGHT, seed: int = 1):
    """A frame of cards on table ``kind`` and the same table captured empty before the game."""
    frame = compose_scene(faces, placements, table_background(kind, SIZE, seed), seed, SIZE, conditions)
    return frame, EmptyShelf(empty_shelf(kind, SIZE, seed, conditions, seed))


def one_card(index: int = 0) -> list[Placement]:
    return [Placement(SHIPPED_FACE_NAMES[index], (0.4 + 0.03 * index, 0.5), 20.0 + 9 * index, 0.45)]


def test_the_channel_reductions_give_numpys_values_exactly() -> None:
    # the shelf combines a pixel's three channels plane by plane, for speed: the values must be
    # numpy's own reductions over the last axis, bit for bit (NaN where the shelf's light around
    # is unknown, infinities where a channel is burnt out), in numpy's own types
    rng = np.random.default_rng(5)
    light = rng.normal(0.0, 1.0, (120, 160, 3)).astype(np.float32)
    light[3, 4, 1], light[7, 8, 0], light[9, 9, 2] = np.nan, np.inf, -np.inf
    for ours, numpys in ((shelf_module._channel_max, light.max(axis=2)), (shelf_module._channel_min, light.min(axis=2)),
                         (shelf_module._channel_sum, light.sum(axis=2)), (shelf_module._channel_mean, light.mean(axis=2))):
        got = ours(light)
        assert got.dtype == numpys.dtype and np.array_equal(got, numpys, equal_nan=True), ours.__name__
    burnt = light > 1.0
    assert np.array_equal(shelf_module._channel_any(burnt), burnt.any(axis=2))
    counts = shelf_module._channel_sum((~burnt).astype(np.int64))
    assert counts.dtype == (~burnt).sum(axis=2).dtype and np.array_equal(counts, (~burnt).sum(axis=2))


@pytest.mark.parametrize("among", (False, True))
def test_the_light_fit_by_its_normal_equations_is_numpys_least_squares(among) -> None:
    # the light's fit solves its six terms' normal equations (in float64) where numpy's lstsq
    # took two thirds of the fit's time: after its rounds, the light fitted must be lstsq's to
    # float32's precision (a real frame and its shelf, with glare and cards as outliers;
    # ``among``: the fit on a mask, as ``recoloured`` makes it)
    scene = design_scene(make_design("fullbleed"), 38_100_005, hard=False)
    shelf = EmptyShelf(scene.empty_shelf())
    difference = shelf_module._log_light(scene.image, SETTINGS) - shelf._light
    mask = shelf.compare(scene.image).changes == 0 if among else None
    h, w = difference.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (xx / w - 0.5).ravel(), (yy / h - 0.5).ravel()
    terms = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=1)
    values = difference.reshape(-1, 3)
    chosen = np.ones(len(values), bool) if mask is None else mask.ravel()
    misfit = np.abs(values - np.median(values[chosen], axis=0)).sum(axis=1)
    used = chosen & (misfit <= np.quantile(misfit[chosen], SETTINGS.fit_share))
    for _ in range(SETTINGS.fit_rounds):
        coefficients, *_ = np.linalg.lstsq(terms[used], values[used], rcond=None)
        misfit = np.abs(values - terms @ coefficients).sum(axis=1)
        used = chosen & (misfit <= np.quantile(misfit[chosen], SETTINGS.fit_share))
    fitted = shelf_module._light_drift(difference, SETTINGS, mask)
    assert fitted.dtype == np.float32 and fitted.shape == difference.shape
    assert np.abs(fitted - (terms @ coefficients).reshape(h, w, 3)).max() < 1e-5


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_an_empty_table_under_drifted_light_shows_no_change_of_a_card_size(faces, kind) -> None:
    frame, shelf = table_scene(faces, kind, [])
    assert shelf.unexplained(shelf.changes(frame.image), []) == []


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_a_card_is_the_one_change_and_none_is_left_once_it_is_named(faces, kind) -> None:
    frame, shelf = table_scene(faces, kind, one_card())
    card = np.asarray(frame.cards[0][1], np.float32)
    boxes = shelf.unexplained(shelf.changes(frame.image), [])
    assert len(boxes) == 1, boxes
    assert shared_area(boxes[0], card) >= 0.8 * quad_area(card)
    assert quad_area(boxes[0]) <= 1.3 * quad_area(card)
    assert shelf.unexplained(shelf.changes(frame.image), [card]) == []


@pytest.mark.parametrize("kind", ("stone", "striped_wood", "tablecloth", "wood"))
def test_a_shadow_over_a_textured_table_is_the_shelf_seen_through(faces, kind) -> None:
    # the class: a shadow come since the capture darkens the table more than the light's smooth
    # fit explains; the table's texture still shows through it, where a card's face would not
    shadow = dataclasses.replace(LIGHT, shadow=(0.3, 0.6, 0.3, 0.45))
    frame, shelf = table_scene(faces, kind, [], shadow)
    assert shelf.unexplained(shelf.changes(frame.image), []) == []


def test_a_finger_from_the_frame_edge_over_a_card_named_is_not_another_card(faces) -> None:
    placements = [Placement(SHIPPED_FACE_NAMES[2], (0.5, 0.45), 10.0, 0.45)]
    finger = Finger(0, side=2, along=0.5, depth=0.2, width=0.35)
    frame, shelf = table_scene(faces, "felt", placements, dataclasses.replace(LIGHT, fingers=(finger,)))
    card = np.asarray(frame.cards[0][1], np.float32)
    changes = shelf.changes(frame.image)
    assert shelf.unexplained(changes, [card]) == []


def test_a_frame_of_another_size_cannot_be_compared(faces) -> None:
    frame, shelf = table_scene(faces, "stone", one_card())
    assert shelf.changes(frame.image[:240, :320].copy()) is None


def test_a_bad_capture_or_setting_is_refused_by_name() -> None:
    with pytest.raises(ValueError):
        EmptyShelf(np.zeros((480, 640), np.float32))
    with pytest.raises(ValueError, match="ShelfSettings.change"):
        dataclasses.replace(SETTINGS, change=0)
    with pytest.raises(TypeError, match="ShelfSettings.width"):
        dataclasses.replace(SETTINGS, width=160.0)
    with pytest.raises(ValueError, match="ShelfSettings.fit_share"):
        dataclasses.replace(SETTINGS, fit_share=1.5)
    with pytest.raises(ValueError, match="ShelfSettings.finger .* must be under finger_across"):
        dataclasses.replace(SETTINGS, finger_across=0.4)
    with pytest.raises(TypeError, match="ShelfSettings"):
        EmptyShelf(np.zeros((480, 640, 3), np.uint8), settings={"change": 0.2})   # type: ignore[arg-type]
    assert isinstance(SETTINGS, ShelfSettings)


# ---------------------------------------------------------------- the reader with its empty shelf

#: scenes each test reads; the seeds are the designs run's own, far from every seed tuned on
SCENES = 8


def read(reader: CardReader, scene, with_shelf: bool):
    reader.empty_shelf = EmptyShelf(scene.empty_shelf()) if with_shelf else None
    return judge(scene, reader.identify(scene.image)).outcome


def _without_the_glares_hidden_texture(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glare judged as before session 70, where it need not show the shelf's texture
    (``ShelfSettings.glare_texture`` off): a pale card taken for glare then changes the shelf no
    more than it did, as the scenes of the rules older than it need to test those rules alone."""
    glare = EmptyShelf._glare
    monkeypatch.setattr(EmptyShelf, "_glare", lambda self, light, drift, detail, share, seen_through:
                        glare(self, light, drift, detail, share, np.ones_like(seen_through)))


@pytest.fixture(scope="module")
def placeholder():
    design = make_design("placeholder")
    return design, CardReader(enroll(dict(design.faces), design.back))


def test_patterned_empty_tables_read_empty_with_the_shelf(placeholder) -> None:
    # the class: a lit patch of stone, a striped grain or a dotted cloth taken for a card nobody
    # can read ("unsure" on an empty table)
    design, reader = placeholder
    scenes = [design_scene(design, 4_100_000 + i, kind="empty_pattern") for i in range(SCENES)]
    alone = [read(reader, s, False) for s in scenes]
    shelf = [read(reader, s, True) for s in scenes]
    assert shelf.count("right") == SCENES, shelf
    assert alone.count("right") < SCENES, alone     # the class is there: the stages alone miss some


def test_cards_on_patterned_tables_read_ok_with_the_shelf_and_never_wrong(placeholder) -> None:
    design, reader = placeholder
    scenes = [design_scene(design, 4_200_000 + i, kind="one", background=PATTERNED[i % 3]) for i in range(SCENES)]
    alone = [read(reader, s, False) for s in scenes]
    shelf = [read(reader, s, True) for s in scenes]
    assert "wrong" not in shelf
    assert shelf.count("right") >= SCENES - 1, shelf
    assert shelf.count("right") > alone.count("right"), (alone, shelf)


def test_a_card_nobody_enrolled_keeps_the_frame_unsure(faces) -> None:
    # the class: a change no card named explains; the reader knows seven of the eight faces, and
    # the eighth lies beside a known one on a table whose patches the stages alone take for cards
    known = {name: face for name, face in faces.items() if name != SHIPPED_FACE_NAMES[7]}
    reader = CardReader(enroll(known))
    for kind in ("stone", "tablecloth", "striped_wood"):
        placements = [Placement(SHIPPED_FACE_NAMES[1], (0.3, 0.5), 15.0, 0.42),
                      Placement(SHIPPED_FACE_NAMES[7], (0.72, 0.5), -10.0, 0.42)]
        frame, shelf = table_scene(faces, kind, placements)
        reader.empty_shelf = shelf
        reading = reader.identify(frame.image)
        assert reading.status != "ok", (kind, reading)


def _stages_read(reader: CardReader, monkeypatch: pytest.MonkeyPatch) -> list[np.ndarray]:
    """The images every stage reads (``CardReader._read_at_every_size``), recorded."""
    images: list[np.ndarray] = []
    every_size = reader._read_at_every_size
    monkeypatch.setattr(reader, "_read_at_every_size", lambda image: images.append(image) or every_size(image))
    return images


@pytest.mark.parametrize("kind, placements", [
    ("felt", [Placement(SHIPPED_FACE_NAMES[1], (0.35, 0.5), 10.0, 0.45),
              Placement(SHIPPED_FACE_NAMES[4], (0.96, 0.45), -5.0, 0.45)]),
    ("stone", [Placement(SHIPPED_FACE_NAMES[2], (0.6, 0.45), 80.0, 0.4),
               Placement(SHIPPED_FACE_NAMES[6], (0.3, 0.05), 170.0, 0.4)]),
])
def test_a_card_cut_off_by_the_frame_keeps_it_unsure_before_every_stage_reads_it(
        faces, reader, monkeypatch, kind, placements) -> None:
    # the class: a frame that must be unsure read by every stage and read closer, 0.7-1.4 s, to be
    # left unsure; the keypoints of the whole frame, searched by the shelf step first, place the
    # card cut by the frame's edge, which is never named
    frame, shelf = table_scene(faces, kind, placements)
    reader.empty_shelf = shelf
    stages = _stages_read(reader, monkeypatch)
    reading = reader.identify(frame.image)
    assert reading.status == "unsure" and not stages
    assert all(card.ingredient is None for card in reading.cards)
    assert any(cut_off_by_the_frame(np.asarray(card.quad), frame.image.shape) for card in reading.cards)
    monkeypatch.setattr(reader, "_unsettled_by_keypoints", lambda image: None)
    assert reader.identify(frame.image).status == "unsure" and stages      # at length, to the same end


@pytest.mark.parametrize("quad, bent", [
    ([[500, 150], [700, 150], [700, 430], [500, 430]], False),
    ([[589, 187], [723, 581], [345, 492], [396, 209]], True),     # opposite sides 1.4 and 2.0 apart
])
def test_only_a_card_placed_with_a_cards_shape_beyond_the_frame_keeps_it_unsure_before_the_stages(
        faces, reader, monkeypatch, quad, bent) -> None:
    # the class: a homography a few keypoints bent off a card lying inside the frame reaches beyond
    # its edge; the stages read that frame (a card placed so, here beside the card in view, in a
    # frame the shelf step alone leaves to them)
    frame, shelf = table_scene(faces, "felt", one_card(2))
    reader.empty_shelf = shelf
    search = reader._keypoints.find
    placed = KeypointCard(SHIPPED_FACE_NAMES[5], np.float32(quad), 60)
    monkeypatch.setattr(reader._keypoints, "find", lambda image, *args: search(image, *args) + [placed])
    monkeypatch.setattr(reader, "_read_by_the_shelf_alone", lambda *args: None)
    stages = _stages_read(reader, monkeypatch)
    reading = reader.identify(frame.image)
    assert bool(stages) is bent
    assert bent or (reading.status == "unsure" and all(c.ingredient is None for c in reading.cards)
                    and any(np.allclose(np.asarray(c.quad), quad) for c in reading.cards))


def test_a_card_face_down_keeps_the_frame_unsure_before_every_stage_reads_it(placeholder, monkeypatch) -> None:
    # the class: a frame with a card face down read by every stage and read closer, 0.4-0.9 s, to be
    # left unsure; the count by keypoints of the whole frame places the back, and the player is
    # told to turn it over as before
    design, reader = placeholder
    first, second = list(design.faces)[:2]
    placements = [Placement(first, (0.3, 0.5), 12.0, 0.42), Placement(second, (0.68, 0.5), -8.0, 0.42, face_down=True)]
    scene = compose_scene(dict(design.faces), placements, table_background("felt", SIZE, 1), 1, SIZE, LIGHT,
                          back=design.back)
    back = np.float32(scene.cards[1][1])
    reader.empty_shelf = EmptyShelf(empty_shelf("felt", SIZE, 1, LIGHT, 1))
    stages = _stages_read(reader, monkeypatch)
    reading = reader.identify(scene.image)
    assert reading.status == "unsure" and not stages
    assert any(c.face_down and shared_area(np.asarray(c.quad, np.float32), back) > 0.5 * quad_area(back)
               for c in reading.cards), reading
    monkeypatch.setattr(reader, "_turned_over", lambda image: None)
    assert reader.identify(scene.image).face_down and stages                # at length, to the same end


def test_two_cards_overlapping_more_than_a_player_lays_them_keep_it_unsure_before_every_stage_reads_it(
        faces, reader, monkeypatch) -> None:
    placements = [Placement(SHIPPED_FACE_NAMES[3], (0.42, 0.5), 0.0, 0.5),
                  Placement(SHIPPED_FACE_NAMES[5], (0.55, 0.55), 25.0, 0.5)]
    frame, shelf = table_scene(faces, "cloth", placements)
    reader.empty_shelf = shelf
    stages = _stages_read(reader, monkeypatch)
    reading = reader.identify(frame.image)
    assert reading.status == "unsure" and not stages
    quads = [np.asarray(card.quad, np.float32) for card in reading.cards]
    assert any(shared_area(a, b) > 0.3 * min(quad_area(a), quad_area(b)) for i, a in enumerate(quads) for b in quads[i + 1:])


def test_a_glare_spot_on_the_table_beside_a_card_is_not_a_card(faces, reader) -> None:
    glare = dataclasses.replace(LIGHT, glare=(0.8, 0.25, 0.06, 0.9))
    readings = []
    for index, kind in enumerate(("stone", "felt", "tablecloth")):
        frame, shelf = table_scene(faces, kind, one_card(index), glare, seed=index)
        reader.empty_shelf = shelf
        readings.append(reader.identify(frame.image))
    assert all(r.status != "ok" or r.ingredients == (SHIPPED_FACE_NAMES[i],) for i, r in enumerate(readings))
    assert sum(r.status == "ok" for r in readings) >= 2, readings


def test_a_pale_card_washed_out_by_a_glare_on_a_textured_table_is_a_change_and_the_glare_alone_is_not() -> None:
    # the class: a pale card under a glare adds white light to the shelf's, with a print as
    # strong as the shelf's grain washed out by the glare, and was taken for the glare: the shelf
    # saw no change where it lay and the "ok" named the card beside it alone. Washed out by the
    # glare's share of the light, the grain would still show there; the card's print hides it
    rng = np.random.default_rng(3)
    h, w = 480, 640
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = 100 + 40 * np.sin(2 * np.pi * (y + 0.15 * x) / 24)            # stripes 24 px apart
    print_across = 190 + 40 * np.sin(2 * np.pi * (x - 0.15 * y) / 24)     # a pale card's print, across the grain
    glare = 0.65 * np.exp(-((x - 400) ** 2 + (y - 240) ** 2) / (2 * 70.0 ** 2))

    def frame(grey: np.ndarray, lit: bool) -> np.ndarray:
        share = 1 - glare[..., None] if lit else 1.0
        return np.clip(grey[..., None] * share + 255 * (1 - share) + rng.normal(0, 2, (h, w, 3)), 0, 255).astype(np.uint8)

    shelf = EmptyShelf(frame(grain, lit=False))
    card = np.float32([(372, 200), (428, 200), (428, 280), (372, 280)])
    with_card = grain.copy()
    with_card[200:281, 372:429] = print_across[200:281, 372:429]
    assert not shelf.compare(frame(grain, lit=True)).changes.any()
    assert shelf.changed_share(shelf.compare(frame(with_card, lit=True)).changes, card) >= 0.5


def test_a_shelf_of_another_camera_mode_changes_nothing(faces, reader) -> None:
    frame, _ = table_scene(faces, "tablecloth", one_card())
    alone = reader.identify(frame.image)
    reader.empty_shelf = EmptyShelf(np.zeros((960, 1280, 3), np.uint8))
    assert reader.identify(frame.image) == alone


def test_the_reader_takes_only_an_empty_shelf(reader) -> None:
    with pytest.raises(TypeError, match="EmptyShelf"):
        reader.empty_shelf = np.zeros((480, 640, 3), np.uint8)   # type: ignore[assignment]
    assert reader.empty_shelf is None


# ---------------------------------------------------------------- capturing the empty shelf


def test_the_keeper_captures_a_shelf_read_empty_that_lay_still(faces) -> None:
    frame, _ = table_scene(faces, "stone", [])
    keeper = ShelfKeeper(3)
    assert [keeper.update(frame.image, True) is not None for _ in range(3)] == [False, False, True]


def test_a_frame_not_read_empty_starts_the_capture_over(faces) -> None:
    frame, _ = table_scene(faces, "stone", [])
    keeper = ShelfKeeper(3)
    got = [keeper.update(frame.image, empty) for empty in (True, True, False, True, True)]
    assert all(shelf is None for shelf in got)
    assert keeper.update(frame.image, True) is not None


def test_a_hand_over_the_shelf_during_the_capture_starts_it_over(faces) -> None:
    # the class: a hand the stages do not take for a card, resting on the shelf for a moment,
    # must not be captured as the shelf (it would be a change that no card explains once gone)
    empty = table_scene(faces, "felt", [])[0].image
    hand = empty.copy()
    cv2.fillPoly(hand, [np.int32([[250, 479], [300, 300], [360, 290], [400, 479]])], (120, 150, 200))
    keeper = ShelfKeeper(3)
    got = [keeper.update(f, True) for f in (empty, hand, empty, hand)]
    assert all(shelf is None for shelf in got)
    assert [keeper.update(empty, True) is not None for _ in range(3)] == [False, False, True]


def test_a_keeper_needs_a_positive_count_of_frames() -> None:
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="frames"):
            ShelfKeeper(bad)   # type: ignore[arg-type]


def test_a_reader_with_a_keeper_reads_with_the_shelf_it_captured(faces, reader) -> None:
    empty, _ = table_scene(faces, "felt", [])
    reader.shelf_keeper = ShelfKeeper(2)
    assert reader.identify(empty.image).status == "empty"
    assert reader.empty_shelf is None
    reader.identify(empty.image)
    assert isinstance(reader.empty_shelf, EmptyShelf)
    with pytest.raises(TypeError, match="ShelfKeeper"):
        reader.shelf_keeper = 3   # type: ignore[assignment]


# ---------------------------------------------------------------- the shelf step first


def _stages_counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, ...]]:
    """The frames (their shapes) the reader's stages read from now on, filled in as they read."""
    calls: list[tuple[int, ...]] = []
    stages = CardReader._read_at_every_size

    def counted(self: CardReader, frame: np.ndarray) -> FrameReading:
        calls.append(frame.shape)
        return stages(self, frame)
    monkeypatch.setattr(CardReader, "_read_at_every_size", counted)
    return calls


def test_a_frame_whose_every_change_is_a_card_read_in_it_is_read_by_the_shelf_step_alone(
        placeholder, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: two cards apart on the shelf, each change a card read and verified; the outline
    # stages, about half a frame's time, would add nothing the shelf step does not check
    design, reader = placeholder
    calls = _stages_counted(monkeypatch)
    alone = []
    for seed in range(4_200_000, 4_200_006):
        scene = design_scene(design, seed, kind="apart")
        calls.clear()
        assert read(reader, scene, True) == "right", seed
        alone.append(not calls)
    assert alone.count(True) >= 5, alone


def test_an_empty_shelf_is_still_read_by_the_stages(placeholder, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: the shelf step alone reads "empty" where a face-down card of the shelf's colours
    # changed it too little; the stages' outlines must still be looked at, so its "empty" is
    # never taken first
    design, reader = placeholder
    calls = _stages_counted(monkeypatch)
    scenes = [design_scene(design, seed, kind="empty") for seed in range(4_200_010, 4_200_014)]
    assert [read(reader, scene, True) for scene in scenes] == ["right"] * len(scenes)
    assert len(calls) == len(scenes)


def test_what_changes_no_card_named_explains_add_up_to_is_a_share_of_a_card(faces) -> None:
    # pieces of change beyond a card named, each too small to count, measured against that card
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    pieces = [[(x, 100), (x + 5, 100), (x + 5, 105), (x, 105)] for x in (70, 90, 110, 130, 150)]
    changes = _mask_of([named] + pieces)
    blank = np.zeros_like(changes)
    compared = shelf_module.Comparison(changes, changes, np.ones(changes.shape, np.float32), blank,
                                       *(np.zeros(changes.shape, np.float32),) * 2, blank)
    assert shelf.unexplained_share(compared, [card]) == pytest.approx(5 * 36 / (31 * 43), rel=0.1)
    assert shelf.unexplained_share(compared._replace(changes=_mask_of([named])), [card]) == 0.0
    assert shelf.unexplained_share(compared, []) == 0.0


def test_pieces_of_change_beside_the_cards_the_shelf_step_named_send_the_frame_to_the_stages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a grey card of noise on a grey dotted cloth, 0.7 of it in view beside the card
    # lying over it, changed only in pieces each too small to count (0.19 of a card together);
    # the shelf step alone named the card on top, and its "ok" left the other out, where the
    # stages outline and read it (woodcut 66200030, a wrong reading of main at 899d798)
    design = make_design("woodcut")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 66_200_030, kind="heavy_overlap")
    calls = _stages_counted(monkeypatch)
    assert read(reader, scene, True) == "read anyway"                # every card in view named right
    assert calls
    monkeypatch.setattr(reader_module, "ALONE_PIECES", float("inf"))
    assert read(reader, scene, True) == "wrong"


def test_a_card_of_the_shelfs_light_seen_along_its_border_in_a_small_frame_sends_it_to_the_stages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: in a 320 x 240 frame a grey card of bricks on a green cloth, its light the
    # cloth's, changed the shelf only in specks along its white border and at its title's corner
    # (0.08 of a card together); the shelf step alone named the card beside it, and its "ok" left
    # this one out, where the stages outline it (full-bleed hard 79540536, a wrong reading of the
    # run at 69f650f)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 79_540_536, hard=True)
    assert scene.image.shape[:2] == (240, 320)
    shelf = EmptyShelf(scene.empty_shelf())
    named = [np.float32(card.quad) for card in scene.cards if card.ingredient == "toad"]
    share = shelf.unexplained_share(shelf.compare(scene.image), named)
    assert reader_module.ALONE_PIECES <= share < 0.1
    calls = _stages_counted(monkeypatch)
    assert read(reader, scene, True) == "unsure"
    assert calls
    monkeypatch.setattr(reader_module, "ALONE_PIECES", 0.1)
    assert read(reader, scene, True) == "wrong"


def test_the_rest_of_a_finger_beyond_its_band_from_the_edge_runs_from_the_edge(faces) -> None:
    # the class: ``finger_bands`` takes a finger's thin part from the frame's edge, and the rest
    # of it, cut off where it widens (its shadow beside it) or reaches a card's margin, is a piece
    # neither at the edge nor long, which kept right readings unsure (census scene ribbon
    # 90230025). A piece touching a band is the band's finger (``_beyond_a_band``); a piece apart
    # from it is not
    frame, shelf = table_scene(faces, "felt", [])
    band = _mask_of([[(0, 55), (40, 55), (40, 62), (0, 62)]])
    rest = _mask_of([[(41, 52), (56, 52), (56, 66), (41, 66)]])
    apart = _mask_of([[(70, 100), (90, 100), (90, 110), (70, 110)]])
    found = shelf._beyond_a_band(rest | apart, band)
    assert found[rest].all() and not found[apart].any()
    assert not shelf._beyond_a_band(rest | apart, np.zeros_like(band)).any()


def test_a_scene_with_the_rest_of_a_finger_beyond_its_band_reads_right(monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: a census scene of session 66, right with the rule and unsure without
    design = make_design("ribbon")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 90_230_025)
    assert scene.conditions.fingers
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(EmptyShelf, "_beyond_a_band", lambda self, beside, bands: np.zeros_like(beside))
    assert read(reader, scene, True) == "unsure"


def test_a_finger_seen_in_pieces_is_a_finger_where_its_piece_at_the_edge_misses_the_card(faces) -> None:
    # the class: a finger from the frame's edge crossing a stretch of the table of its own light,
    # seen in two pieces: the one on the card is a finger, the one at the edge reaches no card and
    # was left unexplained (census scene ribbon 90310088). Together they make the band
    # ``finger_bands`` takes from a finger seen whole. A card's part at the edge as wide as half a
    # card, or a piece at the edge too short to make a band with a finger on the card, is not
    frame, shelf = table_scene(faces, "felt", [])
    card = np.float32([[240, 240], [400, 240], [400, 464], [240, 464]])      # 60-100 x 60-116 at the shelf's width
    on_card = [(76, 32), (84, 32), (84, 70), (76, 70)]
    at_edge = [(76, 0), (84, 0), (84, 24), (76, 24)]              # too short for a band alone
    changes = _mask_of([[(60, 60), (100, 60), (100, 116), (60, 116)], on_card, at_edge])
    assert shelf.unexplained_parts(changes, [card], None) == []
    for edge_piece in ([(62, 0), (98, 0), (98, 24), (62, 24)], [(76, 0), (84, 0), (84, 8), (76, 8)]):
        kept = _mask_of([[(60, 60), (100, 60), (100, 116), (60, 116)], on_card, edge_piece])
        parts = shelf.unexplained_parts(kept, [card], None)
        assert any(part[_mask_of([edge_piece])].any() for part in parts), edge_piece
    assert not shelf._in_a_finger_band(_mask_of([at_edge]), np.zeros_like(changes))


def test_a_scene_with_a_finger_seen_in_pieces_off_the_card_at_the_edge_reads_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: a census scene of session 67, right with the rule and unsure without
    design = make_design("ribbon")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 90_310_088)
    assert scene.conditions.fingers
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(EmptyShelf, "_in_a_finger_band", lambda self, region, in_pieces: False)
    assert read(reader, scene, True) == "unsure"


def test_a_card_the_stages_name_short_of_ok_at_a_loose_outline_is_named_where_its_keypoints_place_it() -> None:
    # the class: in a frame the stages read short of "ok", a card named at an outline a little
    # loose (it took in the cloth's print beside the card) fails verification there, and kept a
    # right reading unsure, where the card its face's keypoints place over that outline passes
    # (census scene woodcut 90330139). A name the keypoints place nowhere there, or that fails at
    # their card too, stays as it was
    design = make_design("woodcut")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 90_330_139)
    loose = np.float32([[26, 238], [170, 177], [246, 383], [97, 430]])     # the stages' outline of the toad
    truth = next(np.float32(card.quad) for card in scene.cards if card.ingredient == "toad")
    named = [sighting("toad", loose, 0.51), sighting("fern", loose, 0.51)]
    assert not reader.verdict(scene.image, loose, "toad").passed
    toad, fern = shelf_step._refitted(reader, scene.image, named)
    assert toad.ingredient == "toad" and not np.array_equal(np.float32(toad.quad), loose)
    assert reader.verdict(scene.image, np.float32(toad.quad), "toad").passed
    assert shared_area(np.float32(toad.quad), truth) > 0.85 * quad_area(truth)
    assert fern is named[1]
    assert shelf_step._refitted(reader, scene.image, []) == []


def test_a_scene_with_a_card_the_stages_name_at_a_loose_outline_reads_right(monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: the census scene, right with the rule and unsure without
    design = make_design("woodcut")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 90_330_139)
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(shelf_step, "_refitted", lambda looks, frame, named: named)
    assert read(reader, scene, True) == "unsure"


def test_a_region_that_may_hide_a_card_unread_by_the_stages_must_show_the_shelf(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a grey card of coins beneath another in a heavy overlap, on a stone table, under
    # a glare; the shelf sees its part in view lit (its change the glare's light) and in pieces;
    # the stages' second look finds a region that may hide a card there and cannot read it, and
    # the shelf step's "ok" named the card on top alone (full-bleed 68700046 of an A/B of session
    # 61, a wrong reading of main at d9f5113). The region is now one of the outlines the stages
    # could not read, and must show the shelf's texture (``reader._with_hiding_places``)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 68_700_046, kind="heavy_overlap")
    assert read(reader, scene, True) == "right"                      # unsure, as the benchmark asks
    _without_the_glares_hidden_texture(monkeypatch)                  # which shows the card beneath too
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(reader_module, "_with_hiding_places", lambda reading, places: None)
    assert read(reader, scene, True) == "wrong"


def test_a_frame_read_by_the_shelf_step_alone_starts_the_keepers_capture_over(placeholder) -> None:
    # the class: a frame of cards the stages never read must still tell the keeper the shelf was
    # not empty, or a capture would run on over a game's frames
    design, reader = placeholder
    scene = design_scene(design, 4_200_001, kind="apart")           # an iron table the stages read empty
    empty = scene.empty_shelf()
    shelf = EmptyShelf(empty)
    reader.empty_shelf, reader.shelf_keeper = shelf, ShelfKeeper(2)
    try:
        assert reader.identify(empty).status == "empty"
        assert judge(scene, reader.identify(scene.image)).outcome == "right"
        assert reader.identify(empty).status == "empty"
        assert reader.empty_shelf is shelf                     # two empty frames, but not in a row
        reader.identify(empty)
        assert reader.empty_shelf is not shelf
    finally:
        reader.shelf_keeper = None


def test_a_card_cut_by_the_frame_edge_is_never_read_from_its_change(faces, reader) -> None:
    # the class: the change of a card mostly outside the frame, read as a whole card by a quad
    # reaching beyond the frame's edge; a card cut by the edge keeps the frame unsure (point 2)
    for index, kind in enumerate(("stone", "felt", "tablecloth")):
        cut = [Placement(SHIPPED_FACE_NAMES[index], (0.04, 0.5), 30.0, 0.55)]
        frame, shelf = table_scene(faces, kind, cut, seed=index)
        reader.empty_shelf = shelf
        assert reader.identify(frame.image).status != "ok", kind


def test_an_outline_the_stages_cannot_read_over_a_faint_card_keeps_the_frame_unsure(placeholder) -> None:
    # the class: a card hardly changing its shelf (a back on a wood of its colour, a card cut by
    # the edge whose white matches a white cloth): its outline, seen by the stages, is not the
    # shelf's texture, so the change-less frame is not read "ok" without it
    design, reader = placeholder
    kinds = ("face_down", "edge_cut", "three", "hand")
    scenes = [design_scene(design, 4_300_000 + i, kind=kinds[i % 4], hard=True) for i in range(2 * SCENES)]
    outcomes = [read(reader, s, True) for s in scenes]
    assert "wrong" not in outcomes, outcomes


def test_an_ok_that_left_out_a_card_under_a_finger_and_glare_does_not_stand() -> None:
    # the class: the stages' "ok" names one card; the other (the tarot's smooth colour wheel), with
    # a finger on it and glare beside it, makes one wide change, which once passed for light the
    # fit could not follow; the "ok" does not stand. The scene is the one wrong reading of the run
    # at 71d3851 (README), read "ok" with one card there
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 8_600_746, hard=False)
    assert read(reader, scene, True) != "wrong"


@pytest.mark.parametrize(("kind", "strength"), (("iron", 1.0), ("copper", 1.0), ("felt", 1.0), ("cloth", 1.0),
                                                ("tablecloth", 1.6), ("stone", 1.6), ("striped_wood", 1.6),
                                                ("wood", 1.6)))
def test_a_strong_glare_on_an_empty_table_is_not_a_change(faces, kind, strength) -> None:
    # three classes: a glare the light's fit leans towards leaves the table around it darker than
    # the fit (the fit starts from the median change instead: iron); a glare's core burnt out at
    # 255 is not white added to a coloured table in every channel (its tint is judged by the
    # channels below: copper, felt, cloth); and a glare burnt out over a pattern washes it out
    # whole, where a glare short of that leaves some of its detail: the pattern gone there is no
    # card (the dots of a tablecloth washed out one by one were taken for a card's pieces, and an
    # empty table of the seen seeds, placeholder 25000000, read unsure). The burnt glare at
    # (0.25, 0.3) reaches the frame's top edge with its slope (another class, a glare meeting the
    # frame's edge: ``test_a_glare_meeting_the_frames_edge_on_an_empty_table_is_not_a_change``)
    for seed, spot in enumerate(((0.25, 0.3), (0.5, 0.45), (0.7, 0.7))):
        glare = dataclasses.replace(LIGHT, glare=(*spot, 0.1 if strength == 1.0 else 0.12, strength))
        frame, shelf = table_scene(faces, kind, [], glare, seed=seed)
        compared = shelf.compare(frame.image)
        assert compared is not None
        assert shelf.unexplained(compared.changes, [], compared.sharp) == [], (kind, spot)


def test_a_slope_of_light_has_no_texture_up_to_the_frames_edge() -> None:
    # the class below at its root: the texture of a plane of light is none, at the edge as inside
    yy, xx = np.mgrid[0:120, 0:160].astype(np.float32)
    plane = (3.0 + 0.02 * xx - 0.015 * yy)[..., None].repeat(3, axis=2)
    assert np.abs(shelf_module._texture(plane, SETTINGS)).max() < 1e-3
    assert np.abs(shelf_module._coarse_texture(plane, SETTINGS)).max() < 1e-3


@pytest.mark.parametrize("kind", ("iron", "copper", "felt", "stone", "wood", "tablecloth"))
def test_a_glare_meeting_the_frames_edge_on_an_empty_table_is_not_a_change(faces, kind) -> None:
    # the class: a glare's slope meets the frame's edge; mirrored there to be blurred, the slope
    # became a ridge whose texture was taken for detail no glare adds, and the strip along the
    # edge for a change (on dark tables: 8 of 96 such glares on copper and iron; two empty tables
    # of the seen seeds, woodcut 26100412 and 26102836, read unsure)
    for seed in range(6):
        for spot in ((0.1, 0.4), (0.9, 0.6)):
            glare = dataclasses.replace(LIGHT, glare=(*spot, 0.09, 1.0))
            frame, shelf = table_scene(faces, kind, [], glare, seed=seed)
            compared = shelf.compare(frame.image)
            assert compared is not None
            assert shelf.unexplained(compared.changes, [], compared.sharp) == [], (kind, seed, spot)


@pytest.mark.parametrize(("kind", "seed", "turns"), (("cloth", 2, (0, 1, 2, 3, 4, 5, 7)), ("copper", 1, (2,))))
def test_a_glare_on_a_shadows_rim_on_an_empty_table_is_not_a_change(faces, kind, seed, turns) -> None:
    # the class: a glare on a shadow's rim adds white light to the shadowed table; measured against
    # the room's light alone, the table's, its light is tinted by the shadow and its rim passed for
    # no glare: a change on an empty table (placeholder 27101157 of the run at a9167be read unsure).
    # The glare is judged against the light of the table seen around it as well. These placements
    # fail on the old code; others of the same compound (the shadow's change meeting the glare's
    # steep slope takes it for a card's edge) are still changes (docs/card_reader.md, Known limits)
    for turn in turns:
        angle = 2 * np.pi * turn / 8
        light = dataclasses.replace(LIGHT, shadow=(0.45, 0.5, 0.25, 0.45),
                                    glare=(0.45 + 0.1875 * np.cos(angle), 0.5 + 0.25 * np.sin(angle), 0.07, 1.0))
        frame, shelf = table_scene(faces, kind, [], light, seed=seed)
        compared = shelf.compare(frame.image)
        assert compared is not None
        assert shelf.unexplained(compared.changes, [], compared.sharp) == [], (kind, seed, turn)


def _glare_in_a_shadow(turn: int) -> Conditions:
    """A shadow over the middle of the table, and a glare inside it, ``turn`` eighths round it."""
    angle = 2 * np.pi * turn / 8
    return dataclasses.replace(LIGHT, shadow=(0.5, 0.45, 0.24, 0.42),
                               glare=(0.5 + 0.144 * np.cos(angle), 0.45 + 0.1 * np.sin(angle), 0.055, 0.75))


@pytest.mark.parametrize(("kind", "seed", "turns"), (("copper", 0, (0, 1, 3, 4, 5, 7)), ("copper", 2, (0, 1, 3, 4)),
                                                     ("cloth", 0, (0, 4))))
def test_a_glare_in_a_shadow_on_an_empty_table_is_light_once_its_slope_is_left_out(faces, kind, seed, turns) -> None:
    # the class: on a dark table a glare climbs in log light as steeply as a card's outline, and
    # the shadow round it is a change whose rim and inside hold that slope: taken for a card's
    # edge, the empty table read unsure (placeholder 90720040 of a probe). Where no card is named,
    # the glare's own slope is left out. These placements leave a change on the old code; others
    # of the compound still do (docs/card_reader.md, Known limits)
    for turn in turns:
        frame, shelf = table_scene(faces, kind, [], _glare_in_a_shadow(turn), seed=seed)
        compared = shelf.compare(frame.image)
        assert compared is not None
        regions = shelf.unexplained_regions(compared.changes, [], compared.sharp)
        assert regions, (kind, seed, turn)                     # a change, as the cards-named rules see it
        assert all(shelf.light_on_the_empty_shelf(region, compared) for region in regions), (kind, seed, turn)


def _card_in_a_shadow(seed: int, turn: int, height: float) -> list[Placement]:
    """A card of ``height`` in the shadow of ``_glare_in_a_shadow(turn)``, a tenth of the frame
    from its middle and a third of a turn round it from the glare."""
    angle = np.pi * turn / 4 + 2
    return [Placement(SHIPPED_FACE_NAMES[(seed + turn) % 8], (0.5 + 0.1 * np.cos(angle), 0.45 + 0.1 * np.sin(angle)),
                      30.0 * turn, height)]


@pytest.mark.parametrize("kind", ("copper", "iron"))
def test_a_card_in_a_shadow_apart_from_a_glare_on_a_table_where_no_card_is_named_is_not_light(faces, kind) -> None:
    # the class the rule above must not take in: a card keeps its own sharp outline apart from
    # the glare's slope (judged as the smallest card: a card's usual width took two of the
    # smallest cards on iron for light)
    for seed in (0, 1):
        for turn in range(8):
            for height in (0.25, 0.45):
                frame, shelf = table_scene(faces, kind, _card_in_a_shadow(seed, turn, height), _glare_in_a_shadow(turn),
                                           seed=seed)
                compared = shelf.compare(frame.image)
                assert compared is not None
                regions = shelf.unexplained_regions(compared.changes, [], compared.sharp)
                assert any(not shelf.light_on_the_empty_shelf(region, compared) for region in regions), \
                    (kind, seed, turn, height)


@pytest.mark.parametrize(("kind", "seed", "turn"), (("copper", 1, 7), ("iron", 0, 2), ("iron", 2, 3), ("felt", 0, 2),
                                                    ("felt", 0, 3), ("felt", 2, 3), ("felt", 2, 6)))
def test_the_smallest_card_under_the_glares_slope_in_a_shadow_is_never_read_empty(faces, reader, kind, seed,
                                                                                   turn) -> None:
    # the smallest card the kit reads, lying in the glare's slope, loses most of its outline with
    # it and the change round it is taken for light; the frame is empty only where the shelf step
    # read no card in that change either (read first, felt 0 3 read ok; the rule judged before
    # the change was read made it empty)
    frame, shelf = table_scene(faces, kind, _card_in_a_shadow(seed, turn, 0.15), _glare_in_a_shadow(turn), seed=seed)
    reader.empty_shelf = shelf
    try:
        assert reader.identify(frame.image).status != "empty"
    finally:
        reader.empty_shelf = None


@pytest.mark.parametrize("seed", (90_720_040, 90_720_263))
def test_an_empty_table_with_a_glare_whose_slope_bounds_the_change_round_it_reads_empty(seed: int) -> None:
    # the class above, end to end: a glare in a shadow on copper, and the fringe round a glare on
    # felt that the glare's test left (its added light short of ``glare_level``)
    design = make_design("placeholder")
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, seed, kind="empty"), True) == "right"


def test_a_change_of_a_card_size_the_stages_see_no_outline_of_is_not_read_empty(faces, reader) -> None:
    # the class: the stages read "empty" (a blank card out of focus: no edge to outline) while
    # the shelf sees a card's size of change that no card explains; the kit does not say the
    # shelf is empty with something of a card's size on it
    for kind in ("felt", "cloth", "iron", "wood"):
        frame, shelf = table_scene(faces, kind, [])
        patch = np.zeros(frame.image.shape[:2], np.float32)
        cv2.fillConvexPoly(patch, np.int32([[250, 150], [390, 160], [380, 350], [240, 340]]), 1.0)
        patch = cv2.GaussianBlur(patch, (0, 0), 10.0)[..., None]
        blank = np.float32([150, 190, 210])
        image = np.clip(frame.image * (1 - patch) + blank * patch, 0, 255).astype(np.uint8)
        assert reader.identify(image).status == "empty", kind          # the stages alone
        reader.empty_shelf = shelf
        assert reader.identify(image).status == "unsure", kind
        reader.empty_shelf = None


#: a card named, 30 x 42 px at the shelf's width (160 px)
NAMED = [(60, 40), (90, 40), (90, 82), (60, 82)]


def _mask_of(quads: list[list[tuple[int, int]]], size: tuple[int, int] = (160, 120)) -> np.ndarray:
    mask = np.zeros((size[1], size[0]), np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(mask, np.int32(quad), 1)
    return mask > 0


def test_a_card_the_shelf_sees_in_pieces_beside_a_card_named_is_unexplained(faces) -> None:
    # the class: glare washes a pale card out, or its colours match the shelf's in places, and
    # the shelf sees it in pieces (its edge, a corner, part of its face), each under a quarter of
    # a card: alone none counted, and the "ok" stood with the other card. Pieces of one card lie
    # close and fit in one; specks strung over more than a card are no card's
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    pieces = [[(80, 30), (110, 30), (110, 34), (80, 34)], [(80, 38), (84, 38), (84, 72), (80, 72)],
              [(96, 58), (108, 58), (108, 70), (96, 70)], [(90, 42), (98, 42), (98, 50), (90, 50)]]
    least = SETTINGS.least_card * 30 * 42
    assert all(_mask_of([piece]).sum() < least for piece in pieces)
    assert _mask_of(pieces).sum() >= least
    card = np.float32(named) / shelf.scale()
    boxes = shelf.unexplained(_mask_of([named] + pieces), [card])
    assert len(boxes) == 1, boxes
    strung = [[(x, 90), (x + 10, 90), (x + 10, 100), (x, 100)] for x in range(20, 140, 13)]
    assert _mask_of(strung).sum() >= least
    assert shelf.unexplained(_mask_of([named] + strung), [card]) == []


def test_a_long_finger_on_a_card_named_is_not_a_card_wherever_it_ends(faces) -> None:
    # the class: a finger over a card named whose hand lies out of view (lifted, or the finger
    # drawn short on a small card) ends before the frame's edge, and its change kept the frame
    # unsure; no part of a card is as long and as narrow. A band as long but wider than a finger
    # may be a card's visible part
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()

    def band(length: int, width: int) -> list[tuple[int, int]]:
        return [(50, 45), (50 + length, 45), (50 + length, 45 + width), (50, 45 + width)]

    assert shelf.unexplained(_mask_of([named, band(70, 9)]), [card]) == []            # 1.7 card lengths
    assert len(shelf.unexplained(_mask_of([named, band(70, 16)]), [card])) == 1       # 0.53 card widths


def test_a_finger_drawn_short_meets_the_card_at_its_end_where_a_cards_strip_meets_it_along_its_side(faces) -> None:
    # the class: a finger drawn short (its hand lifted out of view) runs about a card's length
    # beyond the card named, short of ``finger_length``, and kept right readings unsure; it meets
    # the card across its end. A part of a card beneath another, as narrow, is narrowed by the card
    # on top and meets it along its whole length; a band meeting the card at its end but shorter
    # than ``finger_at_its_end`` says nothing of where it meets
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    least = SETTINGS.least_card * 30 * 42
    finger = [(50, 45), (96, 45), (96, 55), (50, 55)]                     # 1.1 card lengths, 0.33 card widths
    assert shelf.unexplained(_mask_of([named, finger]), [card]) == []
    strip = [(50, 30), (62, 30), (62, 72), (50, 72)]                      # 1 card length, 0.43 card widths
    assert _mask_of([strip]).sum() < SETTINGS.finger * 30 * 43
    assert len(shelf.unexplained(_mask_of([named, strip]), [card])) == 1
    stub = [(50, 40), (81, 40), (81, 52), (50, 52)]                       # 0.68 card lengths beyond its margin
    assert _mask_of([stub]).sum() >= least
    assert len(shelf.unexplained(_mask_of([named, stub]), [card])) == 1


def test_a_finger_on_a_card_read_in_its_change_is_not_a_part_the_card_leaves_uncovered(faces) -> None:
    # the class: a card with a finger on it, read in its change (the read closer's too); the
    # finger holds a card's width of sharp edge and more, and it made a fifth to a third of the
    # change of a small card it crossed, which the card left uncovered, so the frame stayed
    # unsure. The changes left unexplained tell a finger from a card's strip: the strip counts
    frame, shelf = table_scene(faces, "felt", [])
    compared = shelf.compare(frame.image)
    assert compared is not None
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = sighting(SHIPPED_FACE_NAMES[0], np.float32(named) / shelf.scale(), 1.0)
    finger = [(50, 45), (96, 45), (96, 55), (50, 55)]                     # drawn short: 1.1 card lengths
    strip = [(50, 30), (62, 30), (62, 72), (50, 72)]                      # a card's strip beside it
    for beside, covered in ((finger, True), (strip, False)):
        region = _mask_of([named, beside])
        sharp_all_over = compared._replace(sharp=region.copy())
        assert np.count_nonzero(_mask_of([beside]) & ~_mask_of([named])) > (1 - WHOLE_CHANGE) * region.sum()
        assert shelf_step._cover(shelf, sharp_all_over, region, [card]) is covered, beside
    no_fingers = EmptyShelf(shelf.frame, dataclasses.replace(SETTINGS, finger_length=99.0, finger_at_its_end=99.0))
    region = _mask_of([named, finger])
    assert not shelf_step._cover(no_fingers, compared._replace(sharp=region.copy()), region, [card])


@pytest.mark.parametrize("seed", (69_560_111, 69_560_641))
def test_a_scene_with_a_finger_on_a_card_read_in_its_change_reads_right(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: normal tarot scenes of session 73's run, a finger over a card (from
    # the frame's edge, and drawn short), each left unsure while the finger counted in its change
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed)
    assert scene.conditions.fingers
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(EmptyShelf, "fingers", lambda self, changes, cards, sharp: np.zeros(changes.shape, bool))
    assert read(CardReader(enroll(dict(design.faces), design.back)), scene, True) == "unsure"


def test_a_cards_rim_meeting_the_card_at_its_end_is_not_a_finger_drawn_short(faces) -> None:
    # the class: a card of the shelf's light changes it only along its rim; seen along two of its
    # sides, an L of change, it meets a card named at its end and is as narrow as a finger on
    # average, and was taken for a finger drawn short and left out of an "ok". A finger is
    # straight: its rectangle stands as wide as it is thick, where the L's stands as wide as the
    # card while the L is a rim thick
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    along = [(50, 45), (88, 45), (88, 51), (50, 51)]                      # 0.93 card lengths, a rim thick
    down = [(82, 45), (88, 45), (88, 64), (82, 64)]                       # 0.67 card widths across with it
    rim = _mask_of([along, down])
    assert SETTINGS.least_card * 30 * 42 <= rim.sum() <= SETTINGS.finger * 30 * 39   # a card's, narrow on average
    assert len(shelf.unexplained(_mask_of([named, along, down]), [card])) == 1
    finger = [(50, 45), (88, 45), (88, 55), (50, 55)]                     # as long, 0.37 card widths
    assert shelf.unexplained(_mask_of([named, finger]), [card]) == []


def test_a_card_named_short_of_itself_grows_over_the_change_along_its_side(faces) -> None:
    # the class: the keypoints of one part of a card's face (its title, its border; the rest of
    # it smooth) place it smaller than it is, and the rest of its card is a change along its
    # side, left unexplained. The rectangle round both is the card, its corners in the order of
    # the quad named (the card's own top-left first)
    frame, shelf = table_scene(faces, "felt", [])
    whole = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    short = np.float32([(20, 44), (50, 44), (50, 72), (20, 72)]) / shelf.scale()      # 2/3 of it
    strip = _mask_of([[(20, 30), (50, 30), (50, 41), (20, 41)]])          # beyond the card's margin
    grown = shelf.grown_over(strip, short, _mask_of([whole]))
    assert grown is not None
    assert np.abs(grown - np.float32(whole) / shelf.scale()).max() <= 1.5 / shelf.scale(), grown
    turned = np.roll(short, 1, axis=0)                                    # named turned: the order follows
    assert np.abs(shelf.grown_over(strip, turned, _mask_of([whole])) - np.roll(grown, 1, axis=0)).max() < 1e-3


def test_a_change_off_a_cards_side_or_larger_than_it_does_not_grow_it(faces) -> None:
    # a change at the card's corner (a card beside it, a finger's tip) leaves the rectangle round
    # both half empty; the rest of a card named at a third of itself is no card the fine look named
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]
    card = np.float32(named) / shelf.scale()
    corner = [(52, 74), (64, 74), (64, 86), (52, 86)]
    assert shelf.grown_over(_mask_of([corner]), card, _mask_of([named, corner])) is None
    third = np.float32([(20, 58), (50, 58), (50, 72), (20, 72)]) / shelf.scale()
    rest = [(20, 30), (50, 30), (50, 55), (20, 55)]
    assert shelf.grown_over(_mask_of([rest]), third, _mask_of([named])) is None
    assert shelf.grown_over(_mask_of([rest]), card, _mask_of([named])) is not None   # the same rest, beside the whole card


@pytest.mark.parametrize("seed", (90_630_184, 90_630_405))
def test_a_card_named_short_of_itself_beside_another_reads_right(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: census scenes of session 71 (normal), the tarot's colour-wheel face
    # placed by the keypoints of its title and border at 0.64 and 0.53 of itself, the rest of it
    # a change along its side, which kept them unsure
    _right_and_unsure_without(monkeypatch, "tarot", seed, shelf_step, "_grown",
                              lambda looks, frame, shelf, compared, named: list(named))


def test_a_card_is_grown_only_where_its_face_reads_there(monkeypatch: pytest.MonkeyPatch) -> None:
    # a card grown over a change is named there only where its face reads at the grown quad (the
    # fine look, or verification leading clearly): named another face there, the scene stays
    # unsure
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 90_630_184)
    named_again_at = CardReader.named_again_at
    grown = []

    def another_face(self, frame, card, quad):
        grown.append(card.ingredient)
        other = dataclasses.replace(card, ingredient="toad" if card.ingredient != "toad" else "root")
        return named_again_at(self, frame, other, quad)

    monkeypatch.setattr(CardReader, "named_again_at", another_face)
    assert read(reader, scene, True) == "unsure"
    assert "mushroom" in grown


def _touching_tarot_under_a_finger():
    """The tarot's touching scene 90640104 of session 72's census: the colour wheel (the mushroom)
    under a finger beside the claw, and a reader of the tarot's faces."""
    design = make_design("tarot")
    return CardReader(enroll(dict(design.faces), design.back)), design_scene(design, 90_640_104, kind="touching")


def test_a_card_named_again_at_its_outline_stands_where_its_face_passes_verification_leading_clearly() -> None:
    # the class: a finger over a face (or its smooth illustration) keeps the fine look short of
    # halfway to certainty at the card's true outline, where verification of the whole face
    # leads every other clearly; a card named elsewhere is named again there by its face's
    # verification, and never as a face that is not there
    reader, scene = _touching_tarot_under_a_finger()
    truth = {card.ingredient: np.float32(card.quad) for card in scene.cards}
    frame, wheel = scene.image, truth["mushroom"]
    assert reader.named_at(frame, "mushroom", wheel) is None                      # the fine look falls short
    again = reader.named_again_at(frame, sighting("mushroom", wheel, 0.8), wheel)
    assert again is not None and again.ingredient == "mushroom" and 0.5 < again.confidence <= 0.8
    assert reader.named_again_at(frame, sighting("claw", wheel, 0.8), wheel) is None
    assert reader.named_again_at(frame, sighting("mushroom", truth["claw"], 0.8), truth["claw"]) is None


def test_a_card_named_short_of_itself_under_a_finger_grows_where_its_face_passes_verification(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: the colour wheel under a finger, placed by the keypoints of its title
    # and border short of itself; the fine look reads it at 0.37 at its outline, which kept the
    # frame unsure (tarot 90640104 of session 72's census)
    reader, scene = _touching_tarot_under_a_finger()
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "right"
    monkeypatch.setattr(CardReader, "named_again_at",
                        lambda self, frame, card, quad: self.named_at(frame, str(card.ingredient), quad))
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "unsure"


def _touching_tarot_on_a_striped_cloth():
    """The tarot's touching scene 90640016 of session 72's census: the fern touching the scorpion on
    a striped cloth, and a reader of the tarot's faces."""
    design = make_design("tarot")
    return CardReader(enroll(dict(design.faces), design.back)), design_scene(design, 90_640_016, kind="touching")


def test_a_card_read_at_a_loose_box_is_named_again_where_its_own_face_aligns() -> None:
    # the class: the box read around a card's change stands a side's width off the card (its
    # change cut round the card it touches); its face reads there, but fails verification. Its
    # own face aligned with the frame there moves the box onto the card, where it passes; a face
    # that is not there is never named so
    reader, scene = _touching_tarot_on_a_striped_cloth()
    truth = {card.ingredient: np.float32(card.quad) for card in scene.cards}
    frame = scene.image
    loose = np.float32([[285, 302], [174, 172], [360, 13], [471, 143]])   # the box read around its change
    fern = truth["fern"]
    assert shared_area(loose, fern) < 0.92 * quad_area(loose)                 # a tenth of it off the card
    assert not reader.verdict(frame, loose, "fern").passed
    again = reader.named_where_its_face_aligns(frame, sighting("fern", loose, 0.9))
    assert again is not None and again.ingredient == "fern"
    outline = np.float32(again.quad)
    assert shared_area(outline, fern) > 0.97 * quad_area(outline)          # on the card ...
    assert shared_area(outline, fern) > 0.9 * quad_area(fern)              # ... and most of it
    assert reader.verdict(frame, outline, "fern").passed
    assert reader.named_where_its_face_aligns(frame, sighting("scorpion", loose, 0.9)) is None


def test_a_card_read_in_its_change_failing_verification_is_named_where_its_face_aligns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: two cards touching on a striped cloth; the fern, read at the box
    # around its change, fails verification, its keypoints place it bent, and it kept the frame
    # unsure beside the scorpion read right (tarot 90640016 of session 72's census)
    reader, scene = _touching_tarot_on_a_striped_cloth()
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "right"
    monkeypatch.setattr(CardReader, "named_where_its_face_aligns", lambda self, frame, card: None)
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "unsure"


class _PassesWhereAligned:
    """Stands in for the reader's verification and alignment (``shelf_step.CardLooks``): a named card
    passes verification only at ``aligned``, where its face aligned moves any outline; the cards
    asked to align are kept."""

    threshold = 0.5

    def __init__(self, aligned: np.ndarray) -> None:
        self.aligned = aligned
        self.asked: list[str | None] = []

    def verified(self, frame, reading, refit=False):
        cards = [card if np.allclose(card.quad, self.aligned) else sighting(None, np.float32(card.quad), 0.0)
                 for card in reading.cards]
        return FrameReading("ok" if all(c.ingredient for c in cards) else "unsure", cards)

    def named_where_its_face_aligns(self, frame, card):
        self.asked.append(card.ingredient)
        return sighting(card.ingredient, self.aligned, card.confidence)


def test_a_card_read_in_a_change_is_named_where_its_face_aligns_only_within_the_frame() -> None:
    # the class: a card read in its change that fails verification is named where its own face
    # aligns and passes; but an outline the alignment moved beyond the frame's edge is a card cut
    # by the frame, never read in a change (issue 15 point 2), else the frame reads "ok" with it
    frame = np.zeros((480, 640, 3), np.uint8)
    loose = np.float32([[200, 100], [330, 100], [330, 290], [200, 290]])
    inside = loose + np.float32([8, 6])
    looks = _PassesWhereAligned(inside)
    (card,) = shelf_step._passing_or_aligned(looks, frame, [sighting("fern", loose, 0.9)])
    assert card.ingredient == "fern" and np.allclose(card.quad, inside)
    assert shelf_step._passing_or_aligned(looks, frame, [sighting("fern", inside, 0.9)])[0].ingredient == "fern"
    assert looks.asked == ["fern"]                                          # a card that passes stays
    beyond = loose - np.float32([0, 130])                                   # 30 px above the frame
    assert shelf_step._passing_or_aligned(_PassesWhereAligned(beyond), frame, [sighting("fern", loose, 0.9)]) == []


def test_a_card_cut_by_the_frame_whose_face_aligns_beyond_it_keeps_the_frame_unsure() -> None:
    # the class end to end: a card reaching 26-62 px beyond the frame's top edge, read in its change
    # within the frame and failing verification there; its face aligned moves it beyond the edge
    # (placeholder 93261092 of session 73's A/B, hard, read "ok" with it before the edge's check)
    design = make_design("placeholder")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 93_261_092, hard=True)
    assert scene.kind == "edge_cut" and scene.expected_status == "unsure"
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "right"


def test_a_weak_reading_of_a_misfitted_box_is_not_named_where_another_face_aligns_best(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a small card's box a tenth of it off the card; the fine look guesses another face
    # there short of the threshold and verification passes that face, leading clearly, where its
    # coarse colours fall as the shifted card's do. The face that aligns best with the box is the
    # card's own, and the guess is not named (tarot 93261151 of session 73's A/B, hard: the root
    # read as the claw in an "ok")
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 93_261_151, hard=True)
    root = next(np.float32(card.quad) for card in scene.cards if card.ingredient == "root")
    misfitted = np.float32([[376, 349], [297, 314], [348, 224], [416, 253]])   # the box read, 12 px off
    frame = scene.image
    assert reader.verdict(frame, misfitted, "claw").passed                     # verification is fooled
    assert reader._aligned_otherwise(frame, misfitted, "claw")
    assert not reader._aligned_otherwise(frame, misfitted, "root")
    assert not reader._aligned_otherwise(frame, root, "root")
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "right"
    monkeypatch.setattr(CardReader, "_aligned_otherwise", lambda self, frame, quad, ingredient: False)
    reader.empty_shelf = EmptyShelf(scene.empty_shelf())
    assert judge(scene, reader.identify(scene.image)).outcome == "wrong"


def test_the_changed_area_searched_for_keypoints_holds_each_changes_hull_and_its_rim(faces) -> None:
    # the class: on a patterned table (dots, checks) the search of the whole frame spends its
    # keypoints on the table's corners and places no card; the search within the changes keeps
    # those of the cards' faces, the smooth parts the shelf saw unchanged (holes) too
    scene, shelf = table_scene(faces, "felt", [])
    frame = scene.image
    compared = shelf.compare(frame)
    card, hole = [(20, 30), (50, 30), (50, 72), (20, 72)], [(28, 40), (42, 40), (42, 60), (28, 60)]
    changes = _mask_of([card]) & ~_mask_of([hole])
    within = shelf_step._changed_area(shelf, compared._replace(changes=changes), frame.shape)
    assert within.shape == frame.shape[:2] and within.dtype == np.uint8
    per = 1 / shelf.scale()                                               # frame px per shelf px
    assert within[int(50 * per), int(35 * per)] == 255                   # the hole, in the hull
    assert within[int(72 * per) + 3, int(35 * per)] == 255                # the rim below the card
    assert within[int(72 * per) + 12, int(35 * per)] == 0                 # the table beyond
    assert within[int(50 * per), int(100 * per)] == 0


@pytest.mark.parametrize(("name", "seed"), (("tarot", 90_630_261), ("fullbleed", 90_630_064)))
def test_cards_on_a_patterned_table_starving_the_whole_frames_search_read_right(name: str, seed: int,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: census scenes of session 71 (normal), two cards on a dotted
    # tablecloth whose corners took most of the frame's 2000 keypoints (1650 in the tarot's): the
    # whole frame's search placed neither card (the tarot's) or one by 18 inliers where the
    # changes give 35 (the full-bleed's feather), and the changes' parts were read as no card,
    # which kept them unsure; the search within the changes places both
    design = make_design(name)
    scene = design_scene(design, seed)
    assert scene.background == "tablecloth" and len(scene.cards) == 2
    _right_and_unsure_without(monkeypatch, name, seed, shelf_step, "_changed_area",
                              lambda shelf, compared, shape: np.zeros(shape[:2], np.uint8))


def test_a_long_finger_widened_where_it_meets_the_card_is_a_finger_but_not_a_card_wide_change(faces) -> None:
    # the class: where a long finger meets the card named, the shelf's fringe around both widens
    # the rectangle around its change past a finger's width; on average (its area over its
    # length) it is still a finger's. A change as narrow on average that stands a card's width
    # across (a finger and a rim of another card beyond it), or 0.75 of it (a finger and a strip
    # of a card beside it), may be a card's visible part
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    finger = [(50, 45), (120, 45), (120, 54), (50, 54)]                   # 1.7 card lengths, 0.3 card widths
    base = [(50, 38), (62, 45), (62, 54), (50, 61)]                       # 0.63 card widths across off the card
    assert shelf.unexplained(_mask_of([named, finger, base]), [card]) == []
    rim = [(112, 45), (120, 45), (120, 78), (112, 78)]                    # 1.1 card widths across
    assert len(shelf.unexplained(_mask_of([named, finger, rim]), [card])) == 1


def test_a_long_finger_with_a_cards_part_joined_beside_it_is_not_a_finger(faces) -> None:
    # the class: the visible part of a card lying under a long finger joins the finger's change;
    # diluted by the finger's length, the change is still as narrow as a finger on average (its
    # area over its length), but its part wider than a finger is a card's
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    finger = [(50, 45), (120, 45), (120, 54), (50, 54)]                   # 2.3 card widths long, 0.3 wide
    part = [(95, 45), (111, 45), (111, 61), (95, 61)]                     # 0.2 of a card, 0.53 card widths across
    change = _mask_of([finger, part])
    assert change.sum() <= SETTINGS.finger * 30 * 70                      # a finger's width on average
    assert len(shelf.unexplained(_mask_of([named, finger, part]), [card])) == 1
    assert shelf.unexplained(_mask_of([named, finger]), [card]) == []


@pytest.mark.parametrize(("name", "seed", "kind"), (("ribbon", 69_621_429, None), ("placeholder", 93_363_048, "covered"),
                                                    ("fullbleed", 93_363_009, "covered")))
def test_a_cards_part_joined_to_a_finger_with_a_little_of_it_wider_than_a_finger_is_not_a_finger(
        name: str, seed: int, kind: str | None) -> None:
    # the class above with less of the card's part wider than a finger: a tenth of a card or
    # less (0.0996: the mushroom below a finger across it, beside the toad, left out of an "ok",
    # a wrong reading of the ribbon's run at d3f3531; 0.055-0.096: cards under a hand read "ok"
    # anyway, of session 76's A/B), where fingers alone leave none
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, seed, kind=kind), True) == "right"


def test_a_long_finger_with_a_strip_of_a_card_beside_it_is_not_a_finger(faces) -> None:
    # the class: in a heavy overlap, the card beneath shows strips narrower than a finger along
    # the card on top; the finger lying across them joins them into one change, as narrow as a
    # finger on average and with no part wider than a finger, but it stands most of a card's
    # width across, which no finger does
    frame, shelf = table_scene(faces, "felt", [])
    named = [(20, 30), (50, 30), (50, 72), (20, 72)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    finger = [(50, 45), (140, 45), (140, 53), (50, 53)]                   # 2.1 card lengths, 0.3 card widths
    strip = [(100, 58), (125, 58), (125, 69), (100, 69)]                  # 0.4 card widths, under a finger's 0.45
    joined = [(100, 53), (102, 53), (102, 58), (100, 58)]
    change = _mask_of([finger, strip, joined])
    assert change.sum() <= SETTINGS.finger * 30 * 90                      # a finger's width on average
    assert not shelf._wider_than_a_finger(change, 30).any()
    assert len(shelf.unexplained(_mask_of([named, finger, strip, joined]), [card])) == 1
    assert shelf.unexplained(_mask_of([named, finger]), [card]) == []


def test_a_finger_from_the_frame_edge_widened_by_its_fringe_is_a_finger_but_not_a_card_cut_by_the_edge(faces) -> None:
    # the class: a finger from the frame's edge to a card named, with a lump of its shadow or of
    # the glare's fringe beside it, stands wider across than a finger, and kept the frame unsure;
    # on average (its area over its length) it is a finger's width and no part of it is wider.
    # A card cut by the edge shows a strip wider than a finger, and a card's part beside the
    # finger is wider than a finger
    frame, shelf = table_scene(faces, "felt", [])
    named = [(60, 40), (90, 40), (90, 82), (60, 82)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    finger = [(0, 55), (60, 55), (60, 64), (0, 64)]                       # 0.33 card widths, from the edge
    lump = [(20, 64), (25, 64), (25, 71), (20, 71)]                       # 0.53 card widths across with it
    assert shelf.unexplained(_mask_of([named, finger]), [card]) == []
    assert shelf.unexplained(_mask_of([named, finger, lump]), [card]) == []
    strip = [(0, 50), (60, 50), (60, 68), (0, 68)]                        # 0.63 card widths of a cut card
    assert len(shelf.unexplained(_mask_of([named, strip]), [card])) == 1
    part = [(20, 64), (36, 64), (36, 80), (20, 80)]                       # 0.2 of a card, 0.57 card widths
    assert len(shelf.unexplained(_mask_of([named, finger, part]), [card])) == 1


def test_a_card_beneath_one_named_counts_with_its_part_in_the_margin(faces) -> None:
    # the class: a card beneath a card named whose outline took in part of it, the rest a strip
    # along that outline: beyond the named card's margin (``card_margin``) the strip was under
    # the least change that may be a card (``least_card``, half of a card in view) and the "ok"
    # left the card out (a wrong reading of the full-bleed's run at 9c29453, a heavy overlap).
    # With the changed pixels of the margin it reaches, the strip is as large as it is in view
    frame, shelf = table_scene(faces, "felt", [])
    card = np.float32(NAMED) / shelf.scale()
    beneath = [(50, 40), (60, 40), (60, 82), (50, 82)]                    # 10 px: 0.33 of a card in view
    regions = shelf.unexplained_regions(_mask_of([NAMED, beneath]), [card])
    assert len(regions) == 1 and np.count_nonzero(regions[0]) < SETTINGS.least_card * 30 * 42
    fringe = [(54, 40), (60, 40), (60, 82), (54, 82)]                     # 6 px: 0.2 of a card, the margin half
    assert shelf.unexplained_regions(_mask_of([NAMED, fringe]), [card]) == []


def test_a_finger_from_the_frame_edge_the_shelf_sees_in_pieces_is_a_finger(faces, monkeypatch) -> None:
    # the class: a finger from the frame's edge to a card named crosses a stretch of the table of
    # its own light (a pale flag of a stone floor); the shelf sees it in two pieces, and the piece
    # on the card, a card length long, neither reaches the frame's edge nor is longer than any
    # part of a card, so it stayed a change no card explains and kept a right "ok" unsure. Joined
    # across a gap narrower than a finger, the pieces come in from the edge as a finger does whole
    # (``_finger_in_pieces``), its fringe where it meets the card and all. Alone, or with a gap
    # wider than a finger off its line, the piece may be a card's visible part; a card cut by the
    # edge is wider than a finger, in pieces or whole. (The piece on the card alone meets it across
    # its end, a finger drawn short since session 65: that rule is off here, as it is the pieces'
    # rule that is asked.)
    monkeypatch.setattr(EmptyShelf, "_meets_at_its_end", lambda *args: False)
    frame, shelf = table_scene(faces, "felt", [])
    named = [(60, 40), (90, 40), (90, 82), (60, 82)]                      # 30 x 42 px at the shelf's width
    card = np.float32(named) / shelf.scale()
    on_the_card = [(20, 55), (60, 55), (60, 64), (20, 64)]                # 0.3 card widths, a card length
    at_the_edge = [(0, 55), (14, 55), (14, 64), (0, 64)]                  # 6 px apart: 0.2 card widths
    assert shelf.unexplained(_mask_of([named, at_the_edge, on_the_card]), [card]) == []
    lump = [(50, 64), (55, 64), (55, 71), (50, 71)]                       # its fringe where it meets the card
    assert shelf.unexplained(_mask_of([named, at_the_edge, on_the_card, lump]), [card]) == []
    assert len(shelf.unexplained(_mask_of([named, on_the_card]), [card])) == 1
    strip = [[(0, 50), (14, 50), (14, 68), (0, 68)], [(20, 50), (60, 50), (60, 68), (20, 68)]]   # 0.63 wide
    assert len(shelf.unexplained(_mask_of([named, *strip]), [card])) == 1


def test_a_finger_the_shelf_sees_in_pieces_far_apart_in_one_line_is_a_finger(faces, monkeypatch) -> None:
    # the class: a finger from the frame's edge to a card named crosses a table of its own colours
    # (a striped wood's grain) and the shelf sees it in pieces far apart, a gap wider than a
    # finger between them: a piece at the frame's edge and a piece on the card, neither long
    # enough to be a finger alone; beside the cards they added up to 0.2 of a card and sent a
    # right "ok" of the shelf step to every stage, which the grain kept unsure (census scenes
    # of session 64, tarot and woodcut). Each narrower than a finger, they lie in one straight
    # band narrower than a finger (``_finger_in_line``); a card's visible part stands wider. (A
    # finger drawn short, ``_meets_at_its_end``, is off, as above.)
    monkeypatch.setattr(EmptyShelf, "_meets_at_its_end", lambda *args: False)
    frame, shelf = table_scene(faces, "felt", [])
    card = np.float32(NAMED) / shelf.scale()

    def unexplained(*quads: list[tuple[int, int]]) -> int:
        return len(shelf.unexplained(_mask_of([NAMED, *quads]), [card]))

    on_the_card = [(20, 55), (60, 55), (60, 64), (20, 64)]                # 0.3 card widths, a card length
    at_the_edge = [(0, 55), (4, 55), (4, 64), (0, 64)]                    # 16 px apart: 0.53 card widths
    assert unexplained(at_the_edge, on_the_card) == 0
    assert unexplained([(0, 35), (4, 35), (4, 44), (0, 44)], on_the_card) == 1     # off its line
    assert unexplained(at_the_edge, [(20, 50), (60, 50), (60, 68), (20, 68)]) == 1  # 0.6 card widths: a card's part


@pytest.mark.parametrize(("kind", "shadow"), (("copper", (0.6, 0.8)), ("felt", (0.45, 0.75))))
def test_a_finger_from_the_frame_edge_joined_by_a_shadow_is_a_finger_but_a_card_in_the_shadow_is_not(
        kind: str, shadow: tuple[float, float], monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a finger from the frame's edge to a card named crosses a wide soft shadow on a
    # smooth table, whose change joins the finger's: too wide for a finger, and with the finger's
    # sharp outline along it not light, the change kept a right "ok" unsure (seen scenes of
    # session 61). What of it is wider than a finger is light (``_finger_in_light``); a card
    # lying in that shadow keeps its own outline inside it and stays a change no card explains
    design = make_design("fullbleed")
    faces = dict(design.faces)
    finger = Conditions(shadow=(*shadow, 0.2, 0.5), fingers=(Finger(0, 2, 0.5, 0.25, 0.25, 0.0),))
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, Conditions(), 1))
    named = [Placement("fern", (0.55, 0.32), 0.0, 0.45)]
    frame = compose_scene(faces, named, table_background(kind, SIZE, 1), 1, SIZE, finger)
    card = np.asarray(frame.cards[0][1], np.float32)
    compared = shelf.compare(frame.image)
    assert shelf.unexplained_regions(compared.changes, [card], compared.sharp) == []
    in_the_shadow = [Placement("claw", (0.62, 0.8), 80.0, 0.3, light=0.6), *named]
    frame = compose_scene(faces, in_the_shadow, table_background(kind, SIZE, 1), 1, SIZE, finger)
    compared = shelf.compare(frame.image)
    assert len(shelf.unexplained_regions(compared.changes, [card], compared.sharp)) == 1
    monkeypatch.setattr(EmptyShelf, "_finger_in_light", lambda *args: False)
    # the finger with its light (session 66) sets the shadow aside too: the other route closed
    monkeypatch.setattr(EmptyShelf, "_finger_with_its_light", lambda *args: False)
    frame = compose_scene(faces, named, table_background(kind, SIZE, 1), 1, SIZE, finger)
    compared = shelf.compare(frame.image)
    assert len(shelf.unexplained_regions(compared.changes, [card], compared.sharp)) == 1


def _outline_of(mask: np.ndarray) -> np.ndarray:
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0


def test_a_finger_with_its_shadow_along_it_is_a_finger_but_not_with_a_cards_part(faces, monkeypatch) -> None:
    # the class: a finger from the frame's edge to a card named, a shadow (or a glare's rim) lying
    # along it, the two one change wider than a finger; its wide part holds the finger's sharp
    # outline where it meets the shelf, so it is not light beside the cards (``_finger_in_light``),
    # and right readings of one card and of cards apart were left unsure (census scenes of
    # session 66). Cut at its sharp edges, the shadow's part is soft where it meets the shelf and
    # is set aside; the finger is left (``_finger_with_its_light``). A card's part beside the
    # finger keeps its sharp outline and stays with the finger, too wide for one; so does a card's
    # straight edge inside the shadow (a card beneath another whose part joined a hand's shadow
    # passed for a finger's outline so in session 64, full-bleed 69998077)
    frame, shelf = table_scene(faces, "felt", [])
    card = np.float32(NAMED) / shelf.scale()
    finger = _mask_of([[(0, 55), (61, 55), (61, 62), (0, 62)]])             # 0.23 card widths, to the card
    shadow = _mask_of([[(20, 62), (50, 62), (50, 74), (20, 74)]])            # beside it: 0.63 across with it
    sharp = _outline_of(_mask_of([NAMED])) | _outline_of(finger)
    changes = _mask_of([NAMED]) | finger | shadow
    assert shelf.unexplained_regions(changes, [card], sharp) == []
    assert len(shelf.unexplained_regions(changes, [card], sharp | _outline_of(shadow))) == 1   # a card's part
    card_in_the_shadow = _outline_of(_mask_of([[(26, 65), (44, 65), (44, 71), (26, 71)]]))
    assert len(shelf.unexplained_regions(changes, [card], sharp | card_in_the_shadow)) == 1
    a_cards_edge = _mask_of([[(28, 70), (42, 70), (42, 71), (28, 71)]])     # in the shadow, 0.53 across with the finger
    assert len(shelf.unexplained_regions(changes, [card], sharp | a_cards_edge)) == 1
    monkeypatch.setattr(EmptyShelf, "_finger_with_its_light", lambda *args: False)
    assert len(shelf.unexplained_regions(changes, [card], sharp)) == 1


@pytest.mark.parametrize(("name", "seed", "kind"), (("ribbon", 90_200_420, "one"), ("ribbon", 90_200_463, "one"),
                                                   ("woodcut", 90_200_010, "apart")))
def test_a_scene_with_a_finger_and_its_light_along_it_reads_right(name: str, seed: int, kind: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: census scenes of session 66, a finger with a shadow or a glare's rim
    # along it, right with the rule and unsure without
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, kind=kind)
    assert scene.conditions.fingers
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(EmptyShelf, "_finger_with_its_light", lambda *args: False)
    assert read(reader, scene, True) == "unsure"


def test_a_card_seen_as_a_band_along_its_outline_joined_to_a_finger_in_light_counts(faces) -> None:
    # the class: a finger crosses a soft shadow from the frame's edge to the card named, and onto
    # a card of pale smooth face the shelf sees only as a band along its outline (its face taken
    # for glare on a smooth table), each part narrower than a finger. What of the change is wider
    # than a finger is the shadow alone, light, and the whole was taken for a finger crossing
    # light: the "ok" named the other card alone (a wrong reading of the full-bleed's run at
    # 2881a75, a heavy overlap on cloth). A finger stands less than ``finger_across`` card widths
    # across; the finger and the band stand a card's width
    frame, shelf = table_scene(faces, "felt", [])
    card = np.float32(NAMED) / shelf.scale()
    shadow = _mask_of([[(0, 0), (40, 0), (40, 30), (0, 30)]])            # from the frame's edge, soft
    finger = _mask_of([[(38, 31), (104, 31), (104, 36), (38, 36)]])      # 0.2 card widths, to the card named
    outer, inner = (_mask_of([[(100, 14), (130, 14), (130, 56), (100, 56)]]),
                    _mask_of([[(104, 18), (126, 18), (126, 52), (104, 52)]]))
    band = outer & ~inner                                                  # 4 px along the pale card's outline
    sharp = _outline_of(_mask_of([NAMED])) | _outline_of(finger)
    sharp &= ~(_outline_of(shadow) & ~_outline_of(finger))
    assert shelf.unexplained_regions(_mask_of([NAMED]) | shadow | finger, [card], sharp) == []
    sharp_with_the_card = sharp | _outline_of(outer) | _outline_of(inner)
    assert len(shelf.unexplained_regions(_mask_of([NAMED]) | shadow | finger | band, [card], sharp_with_the_card)) == 1


@pytest.mark.parametrize(("name", "seed"), (("fullbleed", 26_101_141), ("ribbon", 29_100_370)))
def test_a_card_under_a_long_finger_across_two_cards_keeps_the_frame_unsure(name: str, seed: int) -> None:
    # the same classes end to end: a finger from the frame's edge across the card beneath onto the
    # card on top; the part of the card beneath left in view (a part wider than a finger, or
    # strips beside the finger) joined the finger's change and was taken for it, and the "ok"
    # named the top card alone. Wrong readings of the runs at fa24fe8 (seeds from 26100000) and
    # f783fb8 (from 29100000), heavy overlaps the benchmark asks "unsure" of
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed)
    assert scene.conditions.fingers and len(scene.cards) == 2
    assert read(reader, scene, True) == "right"


def test_a_card_seen_by_its_rim_under_a_finger_beside_a_card_beneath_it_is_never_left_out() -> None:
    # a heavy overlap on a checked cloth: the feather on top, a finger from the frame's edge over
    # it, the shelf seeing the feather's change only along its rim; once the claw beneath is
    # named, the feather's rim and the finger are one piece under half a card, running from the
    # edge to the claw, that ``_finger_on_a_card`` takes for a finger. Session 69's keypoint
    # search within the changes left unexplained (measured, not kept) named the claw and read
    # the frame "ok" with the claw alone: a wrong reading of the woodcut's run at e5a07e9
    # (docs/card_reader.md, Known limits). It must stay "unsure"
    design = make_design("woodcut")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 69_500_811)
    assert scene.kind == "heavy_overlap" and scene.conditions.fingers
    assert read(reader, scene, True) == "right"


def test_a_small_pale_card_washed_out_by_a_glare_beside_a_card_is_never_left_out() -> None:
    # the class end to end: a small pale card under a glare on striped wood beside another, taken
    # for the glare, so the shelf saw no change where it lay, and the shelf step's "ok" named the
    # other card alone (a wrong reading of an A/B run of session 70, small cards). It must stay
    # "unsure" or name both
    design = make_design("placeholder")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 90_510_075, kind="small", hard=True)
    assert scene.conditions.glare and scene.background == "striped_wood" and len(scene.cards) == 2
    assert read(reader, scene, True) in ("right", "unsure")


def test_a_small_card_of_the_shelfs_light_seen_by_its_rim_beside_a_card_is_never_left_out() -> None:
    # the class end to end: a small grey card of bricks on grey stone beside another, the shelf
    # seeing it only along two of its sides, an L meeting the other card's margin at its end that
    # was taken for a finger drawn short; the stages found no outline of it, and the "ok" named
    # the other card alone (a wrong reading of the full-bleed's run at b97005b). It must read
    # "unsure" or name both (both since the glare must show the shelf's texture: the flower,
    # pale in places, was partly taken for glare too)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 79_510_819, hard=True)
    assert scene.kind == "small" and not scene.conditions.fingers and len(scene.cards) == 2
    assert read(reader, scene, True) in ("right", "unsure")


@pytest.mark.parametrize(("name", "seed", "hard"), (("woodcut", 7_300_135, False), ("woodcut", 7_300_090, True),
                                                   ("fullbleed", 7_300_090, True)))
def test_a_scene_with_a_finger_ending_before_the_frames_edge_reads_right(name: str, seed: int, hard: bool) -> None:
    # the class end to end: development scenes of a finger drawn short, over two overlapping cards,
    # over a small card, and widened where it meets a small card
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, hard=hard)
    assert scene.conditions.fingers
    assert read(reader, scene, True) == "right"


@pytest.mark.parametrize(("name", "seed"), (("ribbon", 69_993_226), ("woodcut", 69_993_035)))
def test_a_scene_with_a_finger_drawn_short_across_its_card_reads_right(name: str, seed: int,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: census scenes of session 64 (normal), a finger drawn short running
    # 1.06-1.12 card lengths beyond its card, meeting it across its end, which kept them unsure
    _right_and_unsure_without(monkeypatch, name, seed, EmptyShelf, "_meets_at_its_end", lambda *args: False)


def test_a_change_splits_into_the_cards_that_met_at_a_corner(faces) -> None:
    # the class: two cards whose changes met at a corner are one change of no card's shape;
    # its parts wider than a finger are the two cards
    frame, shelf = table_scene(faces, "felt", [])
    first, second = [(40, 30), (70, 30), (70, 72), (40, 72)], [(70, 72), (100, 72), (100, 114), (70, 114)]
    parts = shelf.parts(_mask_of([first, second]), [])
    assert len(parts) == 2, parts
    centres = sorted(tuple(np.round(p.mean(axis=0) * shelf.scale())) for p in parts)
    assert centres == [(55.0, 51.0), (85.0, 93.0)], centres


def test_the_outlines_of_a_change_of_cards_side_by_side_are_the_cards(faces) -> None:
    # the class: two cards side by side, one a little ahead, make one change of no card's shape
    # that no opening parts; the outline detector splits it at its notches into the two cards
    frame, shelf = table_scene(faces, "felt", [])
    first, second = [(40, 30), (70, 30), (70, 72), (40, 72)], [(70, 45), (100, 45), (100, 87), (70, 87)]
    change = _mask_of([first, second])
    assert len(shelf.parts(change, [])) == 1
    outlines = shelf_step.outlines_of_change(shelf, change, change, (240, 320, 3))
    centres = sorted(tuple(np.round(q.mean(axis=0) * shelf.scale())) for q in outlines)
    assert len(centres) == 2 and np.abs(np.subtract(centres, [(55, 51), (85, 66)])).max() <= 2, centres
    beside = _mask_of([[(110, 45), (140, 45), (140, 87), (110, 87)]])        # left unexplained: the two do not lie in it
    assert len(shelf_step.outlines_of_change(shelf, change | beside, beside, (240, 320, 3))) == 1


def test_cards_side_by_side_on_a_pale_table_are_read_from_the_outlines_of_their_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the same class end to end: two cards side by side on a white tablecloth, darker than it, which
    # the stages outline as one light region round the whole table; one is placed by keypoints, the
    # other (a colour wheel) only its outline in the change reads. A development scene. The faces
    # aligned with the change's rectangle read the colour wheel too (``_read_aligned``, since
    # session 48): it is off here, so the outlines of the change are tested alone
    monkeypatch.setattr(reader_module.CardReader, "_read_aligned", lambda self, frame, box: None)
    _right_and_unsure_without(monkeypatch, "tarot", 7_200_011, shelf_step, "outlines_of_change", lambda *args: [])


def test_a_change_without_the_finger_on_it_is_the_card(faces) -> None:
    # the class: a finger from the frame's edge onto a card no stage named makes one change too
    # long for a card; its part wider than a finger is the card alone
    frame, shelf = table_scene(faces, "felt", [])
    card, finger = [(60, 30), (100, 30), (100, 86), (60, 86)], [(0, 50), (70, 50), (70, 58), (0, 58)]
    (part,) = shelf.parts(_mask_of([card, finger]), [])
    sides = sorted(np.linalg.norm(part[i] - part[i - 1]) * shelf.scale() for i in range(2))
    assert abs(sides[0] - 40) <= 3 and abs(sides[1] - 56) <= 3, sides


@pytest.mark.parametrize("kind", ("iron", "copper", "felt", "cloth"))
def test_a_wide_soft_shadow_on_a_smooth_empty_table_is_not_a_change(faces, kind) -> None:
    # the class: a shadow wider than the shelf seen around it explains, on a table too smooth for
    # its texture to be seen through; its edge is soft all round, where a card's is its outline
    for seed, spot in enumerate(((0.3, 0.3), (0.6, 0.5), (0.45, 0.7))):
        shadow = dataclasses.replace(LIGHT, shadow=(*spot, 0.3, 0.4))
        frame, shelf = table_scene(faces, kind, [], shadow, seed=seed)
        assert shelf.unexplained(shelf.changes(frame.image), []) == [], (kind, spot)


#: wide soft shadows, each joined to a card laid at the middle of the frame
SHADOWS_BESIDE = ((0.64, 0.5, 0.34, 0.4), (0.35, 0.3, 0.34, 0.35))


def _card_beside_a_shadow(faces, kind: str, seed: int, spot: tuple[float, float, float, float]):
    """A card laid at the middle of table ``kind``, the shadow ``spot`` joined to it: the frame,
    its shelf, the card's quad and the frame compared with the shelf."""
    placements = [Placement(SHIPPED_FACE_NAMES[seed + 1], (0.45, 0.5), 15.0 * seed, 0.42)]
    frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, shadow=spot), seed=seed)
    compared = shelf.compare(frame.image)
    assert compared is not None
    return frame, shelf, np.asarray(frame.cards[0][1], np.float32), compared


@pytest.mark.parametrize("kind", ("iron", "copper", "cloth"))
def test_a_shadow_joined_to_a_card_named_is_not_an_unexplained_change(faces, kind) -> None:
    # the class: the shadow's change joins the card's, so the card's outline keeps the whole
    # change sharp-edged; once the card named is taken away, what is left has a soft edge and
    # nothing sharp inside: light, not a card left out
    left_without_the_rule = 0
    for seed, spot in enumerate(SHADOWS_BESIDE):
        _, shelf, card, compared = _card_beside_a_shadow(faces, kind, seed, spot)
        assert shelf.unexplained(compared.changes, [card], compared.sharp) == [], (kind, spot)
        left_without_the_rule += len(shelf.unexplained(compared.changes, [card]))
    assert left_without_the_rule > 0          # the class is there: the shadow alone is left over


@pytest.mark.parametrize("kind", ("iron", "copper", "felt", "cloth"))
def test_a_card_in_a_shadow_beside_a_card_named_is_still_unexplained(faces, kind) -> None:
    # the light beside a card is told by what lies inside it too: a card in the shadow has a soft
    # edge where the shadow meets the table, and its own sharp outline inside
    for seed, spot in enumerate(SHADOWS_BESIDE):
        placements = [Placement(SHIPPED_FACE_NAMES[seed + 3], (0.62, 0.5), -20.0 + 10 * seed, 0.42),
                      Placement(SHIPPED_FACE_NAMES[seed + 1], (0.45, 0.5), 15.0 * seed, 0.42)]
        frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, shadow=spot), seed=seed + 1)
        named = np.asarray(frame.cards[-1][1], np.float32)
        compared = shelf.compare(frame.image)
        assert compared is not None
        assert len(shelf.unexplained(compared.changes, [named], compared.sharp)) == 1, (kind, spot)


@pytest.mark.parametrize("kind", ("iron", "copper", "felt", "cloth"))
def test_a_card_in_a_wide_shadow_on_a_smooth_table_is_a_change(faces, kind) -> None:
    # the class: a card lying in a shadow that the light's fit did not follow makes one change
    # with it, whose edge is the shadow's soft one; the card's outline inside keeps it a change
    for seed, spot in enumerate(((0.55, 0.5, 0.34, 0.4), (0.5, 0.45, 0.3, 0.5))):
        placements = [Placement(SHIPPED_FACE_NAMES[seed + 3], (0.55, 0.5), -20.0 + 10 * seed, 0.3 + 0.1 * seed)]
        frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, shadow=spot), seed=seed)
        card = np.asarray(frame.cards[0][1], np.float32)
        boxes = shelf.unexplained(shelf.changes(frame.image), [])
        assert len(boxes) == 1, (kind, spot)
        assert shared_area(boxes[0], card) >= 0.9 * quad_area(card)


@pytest.mark.parametrize("kind", ("felt", "copper", "cloth", "stone"))
def test_an_unread_outline_of_a_card_named_round_its_finger_is_the_cards(faces, kind) -> None:
    # the class: the stages outline a card named once more, misfitted round the finger on it;
    # beyond the card lies less than the shelf counts as a card (a quarter of one), all finger;
    # an outline reaching more than half a card past it, over the finger, may hide a card
    placements = [Placement(SHIPPED_FACE_NAMES[2], (0.5, 0.42), 10.0, 0.45)]
    finger = Finger(0, side=2, along=0.5, depth=0.25, width=0.35)
    frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, fingers=(finger,)))
    card = np.asarray(frame.cards[0][1], np.float32)
    changes, texture = shelf.changes(frame.image), shelf.texture(frame.image)
    top, bottom = card[:2], card[2:]

    def grown(share: float) -> np.ndarray:
        return np.vstack([top, bottom + (bottom - top[::-1]) * share]).astype(np.float32)

    assert shelf.shows_the_shelf(texture, changes, grown(0.15), [card])
    assert not shelf.shows_the_shelf(texture, changes, grown(0.6), [card])


def _outline_towards(card: np.ndarray, spot: tuple[float, float], share: float) -> np.ndarray:
    """An outline misfitted round a card (frame px) and what lies beside it towards ``spot``
    (fractions of the frame): the rectangle round the card and the card moved ``share`` of its
    width that way."""
    width = float(np.linalg.norm(card[1] - card[0]))
    way = np.float32(spot) * SIZE - card.mean(axis=0)
    moved = card + way / max(1e-6, float(np.linalg.norm(way))) * share * width
    return cv2.boxPoints(cv2.minAreaRect(np.vstack([card, moved]).astype(np.float32))).astype(np.float32)


@pytest.mark.parametrize("kind", ("iron", "copper", "cloth"))
def test_an_unread_outline_round_a_card_named_and_the_shadow_beside_it_is_the_cards(faces, kind) -> None:
    # the class: the stages outline a card named once more, misfitted round it and the shadow
    # joined to it; beyond the card lies light (soft-edged, nothing sharp inside) and less than a
    # card of unchanged table. A card lying in that shadow keeps such an outline unexplained
    taken_without_the_rule = 0
    for seed, spot in enumerate(SHADOWS_BESIDE):
        frame, shelf, card, compared = _card_beside_a_shadow(faces, kind, seed, spot)
        texture, outline = shelf.texture(frame.image), _outline_towards(card, spot[:2], 0.4)
        unexplained = shelf.unexplained_parts(compared.changes, [card], compared.sharp)
        assert shelf.shows_the_shelf(texture, compared.changes, outline, [card], unexplained), (kind, spot)
        taken_without_the_rule += shelf.shows_the_shelf(texture, compared.changes, outline, [card])

        placements = [Placement(SHIPPED_FACE_NAMES[seed + 3], (0.62, 0.5), -20.0 + 10 * seed, 0.42),
                      Placement(SHIPPED_FACE_NAMES[seed + 1], (0.45, 0.5), 15.0 * seed, 0.42)]
        frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, shadow=spot), seed=seed + 1)
        named, other = (np.asarray(c[1], np.float32) for c in frame.cards[::-1])
        compared = shelf.compare(frame.image)
        assert compared is not None
        outline = _outline_towards(named, tuple(other.mean(axis=0) / SIZE), 0.4)
        unexplained = shelf.unexplained_parts(compared.changes, [named], compared.sharp)
        assert not shelf.shows_the_shelf(shelf.texture(frame.image), compared.changes, outline, [named],
                                         unexplained), (kind, spot)
    assert taken_without_the_rule < len(SHADOWS_BESIDE)       # the class is there: the old rule kept it unsure


@pytest.mark.parametrize("kind", ("cloth", "felt", "iron", "copper"))
def test_an_unread_outline_of_an_unchanged_table_beside_a_card_named_is_the_shelfs(faces, kind) -> None:
    # the class: the stages outline a card named once more, misfitted round it and the table
    # beside it, which did not change; on a table of faint texture (cloth, felt, iron, copper)
    # under the sensor's noise that texture is not seen again, and the frame stayed unsure. No
    # card lies there unless a glare burnt it out whole: a card beside it, or in the glare, keeps
    # the outline not the shelf's
    light = dataclasses.replace(LIGHT, noise=5.0)
    taken_without_the_rule = 0
    for seed in range(3):
        named = Placement(SHIPPED_FACE_NAMES[seed + 2], (0.35, 0.5), 10.0 * seed, 0.42)
        frame, shelf = table_scene(faces, kind, [named], light, seed=seed)
        card = np.asarray(frame.cards[0][1], np.float32)
        outline = _outline_towards(card, (0.9, 0.5), 1.0)

        def shows_the_shelf(frame, shelf, rule: bool = True) -> bool:
            compared = shelf.compare(frame.image)
            unexplained = shelf.unexplained_parts(compared.changes, [card], compared.sharp)
            return shelf.shows_the_shelf(shelf.texture(frame.image), compared.changes, outline, [card], unexplained,
                                         None, None, compared.burnt if rule else None)

        assert shows_the_shelf(frame, shelf), (kind, seed)
        taken_without_the_rule += shows_the_shelf(frame, shelf, rule=False)
        other = Placement(SHIPPED_FACE_NAMES[seed + 4], (0.62, 0.5), -15.0, 0.42)
        assert not shows_the_shelf(*table_scene(faces, kind, [named, other], light, seed=seed)), (kind, seed)
        glare = dataclasses.replace(light, glare=(0.62, 0.5, 0.12, 1.2))
        assert not shows_the_shelf(*table_scene(faces, kind, [named], glare, seed=seed)), (kind, seed)
    assert taken_without_the_rule < 3                         # the class is there: the old rule kept it unsure


@pytest.mark.parametrize(("name", "seed", "hard"), (("fullbleed", 36_100_018, False), ("tarot", 36_100_022, False)))
def test_a_scene_with_an_unread_outline_of_an_unchanged_table_beside_its_cards_reads_right(
        name: str, seed: int, hard: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same class end to end: outlines of a cloth table beside the cards named. Development
    # scenes (normal seeds 36100000 on). A third, of a copper table under a glare (woodcut, hard
    # 46100240), no longer needs the rule since session 56: the glare's patch that kept it unsure
    # without the rule was counted as a card by its colours, which it no longer is (no fine detail)
    _right_and_unsure_without(monkeypatch, name, seed, EmptyShelf, "_nothing_lost_in_glare",
                              lambda self, unchanged, burnt, cards: False, hard)


def test_an_unread_card_under_a_named_cards_misfitted_outline_keeps_the_frame_unsure() -> None:
    # the class: the stages name a card by an outline misfitted over the card beside it, and
    # outline that card unread; little of it lies beyond the misfitted outline, but it is not the
    # named card outlined again (it covers 0.53 of it). The scene is a wrong reading of a run at
    # 06f6c78 (seeds from 15000000), read "ok" with one card of the two
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, 15_000_197), True) == "right"


def test_a_card_whose_change_is_found_whole_is_read_by_the_thumbnail_where_the_fine_look_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: the shelf finds a card's change whole, but its face is of smooth colour (the
    # tarot's colour wheel) or dark, and the fine look's blocks stay flat; the outlines' own
    # thumbnail reads the change's rectangle. Development scenes (seeds 7200000 on), where the
    # stages left these cards unread
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scenes = [design_scene(design, seed) for seed in (7_200_011, 7_200_015, 7_200_022, 7_200_046)]
    outcomes = [read(reader, scene, True) for scene in scenes]
    assert "wrong" not in outcomes
    assert outcomes.count("right") >= 3, outcomes
    monkeypatch.setattr(CardReader, "_read_thumbnail", lambda *args: None)
    # the fine look alone, at halfway to certainty: since session 62 the region it reads short of
    # that, verified by a clear lead of 0.15, reads these cards too
    reader.verify_settings = dataclasses.replace(reader.verify_settings, clear_lead=2.0)
    alone = [read(reader, scene, True) for scene in scenes].count("right")
    assert alone < outcomes.count("right"), (alone, outcomes)


@pytest.mark.parametrize("background", ("iron", "wood"))
def test_a_change_rectangle_the_thumbnail_reads_short_of_the_bar_is_read_again_at_its_retries(
        background: str) -> None:
    # the class: the shelf's rectangle round a card's change stands a few degrees off the card and
    # a little larger (a shadow or a neighbour joined to the change); the thumbnail reads the
    # smooth face (the tarot's colour wheel) over the threshold but short of the bar a change's
    # reading must reach, and the retries (snapped to the printed edge, trimmed to a card's
    # aspect), which read it at certainty, were never tried: the card stayed unread (seen scenes
    # of session 61, a card in shadow touching or beside another)
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    shot = compose_scene(dict(design.faces), [Placement("mushroom", (0.45, 0.5), 30.0, 0.5)], background, seed=1)
    card = np.asarray(shot.cards[0][1], np.float32)
    turn = np.radians(4.0)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
    box = (card - card.mean(axis=0)) @ rotation.T * 1.15 + card.mean(axis=0) + np.float32([6, -4])
    small, scale = work_image(shot.image)
    _, _, first, _ = reader.read_quad(WorkImage(small), order_quad(box * scale))
    assert reader.threshold <= first < (1 + reader.threshold) / 2, first
    read = reader._read_thumbnail(small, scale, box * scale)
    assert read is not None and read.ingredient == "mushroom" and read.confidence >= (1 + reader.threshold) / 2
    assert shared_area(np.asarray(read.quad, np.float32), card) > 0.85 * quad_area(card)


def _right_and_unsure_without(monkeypatch: pytest.MonkeyPatch, name: str, seed: int, owner: object, rule: str,
                              stand_in: object, hard: bool = False) -> None:
    """A development scene of design ``name`` (normal, or ``hard``) reads right, and ``unsure``
    with the ``rule`` of ``owner`` replaced by ``stand_in`` (the rule off). With the rule off the
    frame is read by every stage, where the rule acts: the shelf step alone, tried first, and the
    outline stages' refit of a card whose outline fails (``CardReader._refitted``, since session
    56) and a region the fine look reads short of halfway to certainty, named once verified by a
    clear lead (``VerifySettings.clear_lead``, 0.15 since session 62), may read it right by another
    way, and are off too; so is the check of a card keypoints place short of halfway
    (``CardReader._placed_clearly``, since session 63), which refuses a misplaced one, a
    finger's pieces far apart in one line (``EmptyShelf._finger_in_line``, since session 64), and
    the last ways of session 71: the keypoints of the changes alone (``shelf_step._changed_area``)
    and a card named short of itself grown over its change (``shelf_step._grown``)."""
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, hard=hard)
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(CardReader, "_read_by_the_shelf_alone", lambda *args: None)
    monkeypatch.setattr(CardReader, "_refitted", lambda *args: None)
    reader.verify_settings = dataclasses.replace(reader.verify_settings, clear_lead=2.0)   # no lead reaches 2
    monkeypatch.setattr(CardReader, "_placed_clearly", lambda *args: True)
    monkeypatch.setattr(EmptyShelf, "_finger_in_line", lambda self, beside, *args: np.zeros_like(beside))
    monkeypatch.setattr(shelf_step, "_changed_area", lambda shelf, compared, shape: np.zeros(shape[:2], np.uint8))
    monkeypatch.setattr(shelf_step, "_grown", lambda looks, frame, shelf, compared, named: list(named))
    monkeypatch.setattr(owner, rule, stand_in)
    assert read(reader, scene, True) == "unsure"


@pytest.mark.parametrize(("name", "seed"), (("tarot", 7_200_017), ("fullbleed", 7_300_133), ("ribbon", 7_300_028)))
def test_a_card_the_keypoints_misplace_does_not_explain_its_own_change(
        name: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: the keypoints place a card beside the cards named by a homography misfitted over
    # part of it (its quad stretched, one side short), which fails verification; counted as
    # explaining its change, it left the rest of that change, too small and out of shape to read
    # alone, and the frame unsure. Development scenes (normal, seeds 7200000 and 7300000 on)
    _right_and_unsure_without(monkeypatch, name, seed, shelf_step, "_passing",
                              lambda looks, frame, cards: cards)                  # every placed card explains


@pytest.mark.parametrize("kind", ("stone", "tablecloth"))
def test_an_outline_over_the_shelf_seen_again_in_the_coarse_band_is_the_shelfs(kind) -> None:
    # the class: an outline the stages could not read over the empty table, where the table's fine
    # grain no longer correlates with the capture's (motion blur, noise in a shadow, a camera
    # settled by a few pixels: here 3.5 px) and the frame stayed unsure; its coarse band still
    # shows the shelf. A card there hides both bands
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    settled = cv2.warpAffine(empty_shelf(kind, SIZE, 1, LIGHT, 2), np.float32([[1, 0, 3.5], [0, 1, 3.5]]), SIZE,
                             borderMode=cv2.BORDER_REFLECT)
    card = _brick_print(settled, (220, 120, 420, 400), 0.35)
    outline = np.float32([[60, 60], [580, 60], [580, 420], [60, 420]])
    textures = shelf.texture(settled)
    changes = shelf.compare(settled)[0]
    assert shelf.shows_the_shelf(textures, changes, outline, [])
    assert not shelf.shows_the_shelf(textures._replace(coarse=np.zeros_like(textures.coarse)), changes, outline, [])
    assert not shelf.shows_the_shelf(shelf.texture(card), shelf.compare(card)[0], outline, [])


@pytest.mark.parametrize(("name", "seed"), (("fullbleed", 7_300_008), ("woodcut", 7_300_063)))
def test_a_scene_whose_unread_outlines_show_the_shelf_in_the_coarse_band_reads_right(
        name: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same class end to end: an empty striped table under motion blur, its stripes outlined;
    # two cards touching on a tablecloth beside an outline of the cloth. Development scenes. An
    # outline beside cards named over a table that did not change is theirs also where nothing can
    # lie lost in a glare (``_nothing_lost_in_glare``): off here, the coarse band alone is tested
    monkeypatch.setattr(EmptyShelf, "_nothing_lost_in_glare", lambda self, unchanged, burnt, cards: False)
    both_bands = EmptyShelf._seen_again
    _right_and_unsure_without(monkeypatch, name, seed, EmptyShelf, "_seen_again", lambda self, texture, where, *block:
                              both_bands(self, texture._replace(coarse=np.zeros_like(texture.coarse)), where, *block))


@pytest.mark.parametrize("kind", ("stone", "wood", "striped_wood", "tablecloth"))
def test_an_outline_round_a_glare_on_an_empty_table_is_the_shelf_where_the_glare_left_it(faces, kind) -> None:
    # the class: glare burns the table out, or washes its texture below what can be seen, and an
    # outline the stages could not read round it did not show the shelf's texture there: an
    # empty table read unsure. The washed-out part is not judged; a card beside the glare still is
    frame, shelf = table_scene(faces, kind, [], dataclasses.replace(LIGHT, glare=(0.5, 0.5, 0.12, 1.2)))
    outline = np.float32([[200, 120], [440, 120], [440, 400], [200, 400]])
    compared, texture = shelf.compare(frame.image), shelf.texture(frame.image)
    assert shelf.shows_the_shelf(texture, compared.changes, outline, [], None, compared)
    assert not shelf.shows_the_shelf(texture, compared.changes, outline, [])      # judged where washed out
    card = _brick_print(frame.image, (260, 300, 380, 400), 0.35)
    compared = shelf.compare(card)
    assert not shelf.shows_the_shelf(shelf.texture(card), compared.changes, outline, [], None, compared)


@pytest.mark.parametrize(("kind", "glare"), (("stone", (0.5, 0.5, 0.08, 0.8)), ("felt", (0.5, 0.5, 0.05, 0.5)),
                                             ("felt", (0.31, 0.25, 0.08, 0.8)), ("wood", (0.45, 0.6, 0.04, 1.2))))
def test_an_outline_over_a_soft_glare_on_an_empty_table_is_judged_off_the_glare(faces, kind, glare) -> None:
    # the class: a soft glare, not burnt out, on an empty table, under an outline the stages could
    # not read; the glare's own slope fills both bands of the texture where it lies, and a block
    # at its rim did not show the shelf again: an empty table read unsure. Judged off the pixels
    # the comparison found the shelf under glare, it shows the shelf; a card under it does not
    frame, shelf = table_scene(faces, kind, [], dataclasses.replace(LIGHT, glare=glare))
    outline = np.float32([[200, 120], [440, 120], [440, 400], [200, 400]])
    compared, texture = shelf.compare(frame.image), shelf.texture(frame.image)
    assert np.count_nonzero(compared.burnt) < np.count_nonzero(compared.glare) / 2     # soft: mostly not burnt out
    assert shelf.shows_the_shelf(texture, compared.changes, outline, [], None, compared)
    unaware = compared._replace(glare=np.zeros_like(compared.glare), burnt=np.zeros_like(compared.burnt))
    assert not shelf.shows_the_shelf(texture, compared.changes, outline, [], None, unaware)
    frame, shelf = table_scene(faces, kind, one_card(), dataclasses.replace(LIGHT, glare=glare))
    card = np.asarray(frame.cards[0][1], np.float32)
    compared = shelf.compare(frame.image)
    assert not shelf.shows_the_shelf(shelf.texture(frame.image), compared.changes, card, [], None, compared)


def test_an_outline_where_the_shelf_was_captured_burnt_out_on_an_empty_table_is_the_shelf(faces) -> None:
    # the class: the shelf was captured under a brighter lamp, burnt out over a part of it (the
    # pale threads of a cloth), and an outline the stages could not read there was judged on the
    # whole by pixels where the shelf holds no texture to see again: an empty table read unsure
    # (the ribbon's 69610936 of session 75's run, a checked tablecloth). Burnt out, they are not
    # judged; a card's print in the outline still is
    frame, _ = table_scene(faces, "cloth", [])
    shelf = EmptyShelf(np.clip(empty_shelf("cloth", SIZE, 1, LIGHT, 1).astype(np.float32) * 2.2, 0, 255)
                       .astype(np.uint8))
    outline = np.float32([[200, 120], [440, 120], [440, 400], [200, 400]])
    compared, texture = shelf.compare(frame.image), shelf.texture(frame.image)
    assert compared is not None
    inside = shelf._inside(compared.changes.shape, outline)
    assert np.count_nonzero(inside & compared.burnt) > 0.1 * np.count_nonzero(inside)    # burnt out in part
    assert shelf.shows_the_shelf(texture, compared.changes, outline, [], None, compared, burnt=compared.burnt)
    printed = _brick_print(frame.image, (260, 180, 380, 340), 0.35)
    compared = shelf.compare(printed)
    assert compared is not None
    assert not shelf.shows_the_shelf(shelf.texture(printed), compared.changes, outline, [], None, compared,
                                     burnt=compared.burnt)


def test_an_empty_table_captured_burnt_out_under_an_outline_reads_empty() -> None:
    # the class above, end to end
    design = make_design("ribbon")
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, 69_610_936), True) == "right"


def test_an_unread_outline_in_a_glare_beside_a_card_named_keeps_the_frame_unsure(faces) -> None:
    # the class's limit: a card lost whole in a glare leaves nothing to see. With no card named the
    # frame then reads empty, a miss; beside a card named an "ok" would leave it out, so there the
    # washed-out part is judged and the outline round the glare keeps the frame unsure
    glare = dataclasses.replace(LIGHT, glare=(0.5, 0.5, 0.12, 1.2))
    frame, shelf = table_scene(faces, "stone", [Placement(SHIPPED_FACE_NAMES[1], (0.15, 0.3), 5.0, 0.2)], glare)
    card = sighting(SHIPPED_FACE_NAMES[1], np.asarray(frame.cards[0][1], np.float32), 1.0)
    outline = sighting(None, np.float32([[200, 120], [440, 120], [440, 400], [200, 400]]), 0.0)
    compared = shelf.compare(frame.image)
    alone = FrameReading("unsure", [outline])
    assert shelf_step._only_the_shelf_unread(frame.image, alone, shelf, compared, [])
    beside = FrameReading("unsure", [card, outline])
    assert not shelf_step._only_the_shelf_unread(frame.image, beside, shelf, compared, [card])


def _largest(mask: np.ndarray) -> np.ndarray:
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    return labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


@pytest.mark.parametrize("kind", ("cloth", "copper", "felt", "stone", "wood"))
def test_a_change_of_two_overlapping_cards_is_not_covered_by_one_of_them(faces, kind) -> None:
    # the class: two overlapping cards make one change; a card named in it (read from its
    # rectangle, or placed by keypoints) leaves the other's visible part, with its outline and
    # face inside, uncovered, where a shadow's fringe beside a card holds no sharp edge
    placements = [Placement(SHIPPED_FACE_NAMES[3], (0.55, 0.5), -15.0, 0.42),
                  Placement(SHIPPED_FACE_NAMES[1], (0.45, 0.5), 10.0, 0.42)]
    frame, shelf = table_scene(faces, kind, placements)
    below, top = (np.asarray(quad, np.float32) for _, quad in frame.cards)
    compared = shelf.compare(frame.image)
    assert compared is not None
    region = _largest(compared.changes)
    assert shelf.uncovered_share(region, [top], compared.sharp) > 1 - WHOLE_CHANGE
    assert shelf.uncovered_share(region, [top, below], compared.sharp) < 0.05
    for seed, spot in enumerate(SHADOWS_BESIDE):
        placements = [Placement(SHIPPED_FACE_NAMES[seed + 1], (0.45, 0.5), 15.0 * seed, 0.42)]
        frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, shadow=spot), seed=seed)
        compared = shelf.compare(frame.image)
        assert compared is not None
        card = np.asarray(frame.cards[0][1], np.float32)
        assert shelf.uncovered_share(_largest(compared.changes), [card], compared.sharp) < 0.05, spot


def test_the_parts_of_a_card_beneath_that_the_rim_alone_cuts_apart_are_judged_as_one(faces) -> None:
    # the class: the visible part of a card beneath runs round the corner of the card on top,
    # along its side narrower than the rim left round it; the rim cuts that part in two, each
    # holding under a card's width of sharp edge inside, and the card on top was taken for the
    # whole change (an "ok" naming it alone). Parts the card on top alone keeps apart stay apart
    _, shelf = table_scene(faces, "felt", [])
    top = np.float32([[160, 120], [400, 120], [400, 440], [160, 440]])      # frame px: rows 30-110, columns 40-100 here
    region = np.zeros((120, 160), bool)
    region[30:111, 40:101] = True
    above, beside = (slice(0, 30), slice(60, 104)), (slice(40, 90), slice(101, 130))
    apart = region.copy()
    apart[above] = apart[beside] = True
    joined = apart.copy()
    joined[0:41, 101:103] = True                     # along the card's side, 2 px: narrower than its rim
    sharp = np.zeros_like(region)
    edge = round(0.7 * 3 * shelf._card_width(region, [top]))             # 0.7 of a card's width of edge a part
    for rows, cols in ((slice(4, 21), slice(64, 99)), (slice(44, 87), slice(110, 127))):  # off each part's rim
        inner = sharp[rows, cols].reshape(-1)
        inner[:edge] = True
        sharp[rows, cols] = inner.reshape(sharp[rows, cols].shape)
    assert shelf.uncovered_share(joined, [top], sharp) > 1 - WHOLE_CHANGE
    assert shelf.uncovered_share(apart, [top], sharp) < 0.05


def test_a_heavy_overlap_whose_part_beneath_the_rim_cut_in_two_is_not_read_ok() -> None:
    # the class end to end: a heavy overlap of session 74's A/B on a dotted cloth under a glare,
    # read "ok" with the fern alone in the read closer's part of the frame, the toad's part cut
    # in two by the rim round the fern's corner
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 93_320_092, kind="heavy_overlap")
    assert scene.expected_status == "unsure"
    assert read(reader, scene, True) == "right"


def _inward(quad: np.ndarray, share: float) -> np.ndarray:
    """``quad`` with each corner moved ``share`` of the card's width towards its centre."""
    width = np.sqrt(quad_area(quad) / SETTINGS.card_aspect)
    towards = quad.mean(axis=0) - quad
    return np.float32(quad + towards / np.linalg.norm(towards, axis=1, keepdims=True) * share * width)


@pytest.mark.parametrize("kind", ("cloth", "copper", "felt"))
def test_the_rim_of_a_card_placed_a_little_inside_its_outline_is_not_a_part_of_a_change(faces, kind) -> None:
    # the class: a card's quad stands a few per cent inside its outline (placed by keypoints), and
    # the rim left outside it, with the card's sharp outline, joined to the soft change of a
    # shadow beside the card: that change counted as a part that may be a card, and a card read
    # right kept the frame unsure ("a change holds more than the cards keypoints placed in it")
    # (corners off by twice the rim leave the card's sides within it: a corner moved along the
    # diagonal moves a side by about 0.6 of that)
    frame, shelf, card, compared = _card_beside_a_shadow(faces, kind, 1, SHADOWS_BESIDE[1])
    region, placed = _largest(compared.changes), _inward(card, 2 * SETTINGS.placed_rim)
    assert shelf.uncovered_share(region, [placed], compared.sharp) < 0.05
    assert shelf.uncovered_share(region, [card], compared.sharp) < 0.05
    narrow = EmptyShelf(shelf.frame, dataclasses.replace(SETTINGS, placed_rim=0.001))    # a pixel's rim
    assert narrow.uncovered_share(region, [placed], compared.sharp) > 0.2


@pytest.mark.parametrize(("name", "seed"), (("tarot", 14_002_433), ("fullbleed", 14_000_039), ("fullbleed", 14_001_565)))
def test_an_ok_with_a_card_covering_part_of_a_change_does_not_stand(name: str, seed: int) -> None:
    # the same class, read whole: a card 25-45 % under another, whose change, once the other is
    # named, is too small to count as a card (glare on it, a shelf of its colours). The scenes are
    # wrong readings of the run at 2d4c5c7 (README), read "ok" with one card of the two
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, seed), True) == "right"


def test_a_pale_card_under_glare_on_a_textured_table_is_a_change_not_glare() -> None:
    # the class: a pale card adds white light to its table and little detail of its own, as glare
    # does; but glare washes the table's texture out only in part, and the card hides it. The
    # scene (a development seed) read "ok" without the card under glare beside the one named
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 7_000_094, hard=False)
    assert read(reader, scene, True) != "wrong"


def test_an_unread_outline_around_the_table_may_hide_a_card_of_the_shelfs_light() -> None:
    # the class: the stages' unread outline runs round most of the table; on the whole its texture
    # is the shelf's, but a grey card of the stone's light, hardly a change, hides it in one part.
    # The scene (a development seed) read "ok" with the other card alone, read from its change
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 7_000_115, hard=False)
    assert read(reader, scene, True) != "wrong"


def test_a_card_named_where_nothing_changed_since_the_capture_is_not_read_ok(faces, reader) -> None:
    # the class: the stages name a card where the shelf saw no change: the shelf's own texture
    # read as a card (a striped grain named as a face with little confidence), or a card that lay
    # there when the shelf was captured; the frame is unsure, never "ok" with it
    for index, kind in enumerate(("felt", "wood", "cloth")):
        frame, _ = table_scene(faces, kind, one_card(index), seed=index)
        assert reader.identify(frame.image).ingredients == (SHIPPED_FACE_NAMES[index],), kind   # the stages alone
        reader.empty_shelf = EmptyShelf(frame.image)          # the card captured with the shelf
        assert reader.identify(frame.image).status == "unsure", kind
        reader.empty_shelf = None


def test_an_ok_that_left_out_a_card_under_a_hand_does_not_stand() -> None:
    # the class: a hand from the frame's edge over one of two cards; the card and the hand make one
    # change wider than a card, which once passed for light the fit could not follow, and the
    # stages' "ok" with the other card stood. The scene is a development seed
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 4_500_051, kind="hand", hard=True)
    assert len(scene.cards) == 2
    assert read(reader, scene, True) != "wrong"


def _brick_print(frame: np.ndarray, box: tuple[int, int, int, int], strength: float) -> np.ndarray:
    """``frame`` with a card's print of its own colours in ``box`` (x0, y0, x1, y1): bricks, their
    mortar darker and their faces lighter, the mean light about the shelf's. The card hides the
    shelf's texture: it is printed on the shelf's light, blurred over more than the coarse band."""
    x0, y0, x1, y1 = box
    yy, xx = np.mgrid[0:frame.shape[0], 0:frame.shape[1]]
    mortar = ((yy % 14) < 2) | (((xx + 20 * ((yy // 14) % 2)) % 40) < 2)
    light = cv2.GaussianBlur(frame.astype(np.float32), (0, 0), 16)
    printed = light * (1 + strength * np.where(mortar, -1.0, 0.25))[..., None]
    inside = np.zeros(frame.shape[:2], bool)
    inside[y0:y1, x0:x1] = True
    return np.where(inside[..., None], np.clip(printed, 0, 255), frame).astype(np.uint8)


@pytest.mark.parametrize("kind", ("cloth", "felt", "iron", "copper"))
def test_a_card_of_the_shelfs_colours_hides_the_shelfs_texture(kind) -> None:
    # the class: a card whose colours are the shelf's changes next to nothing, and a card named
    # where nothing changed kept the frame unsure; its print still hides the shelf's texture,
    # which neither the shelf under other light nor a card captured with the shelf does
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    again = empty_shelf(kind, SIZE, 1, LIGHT, 2)         # the shelf once more: other light, settled
    box = (220, 120, 420, 400)
    quad = np.float32([[220, 120], [420, 120], [420, 400], [220, 400]])
    card = _brick_print(again, box, 0.35)
    for frame, hides in ((card, True), (again, False), (_brick_print(again, box, 0.1), False)):
        changes = shelf.compare(frame)[0]
        assert shelf.changed_share(changes, quad) < SETTINGS.least_card, kind
        assert shelf.hides_the_shelf(shelf.texture(frame), changes, quad) is hides, kind
    captured = EmptyShelf(card)                          # the card lay there when the shelf was captured
    changes = captured.compare(card)[0]
    assert not captured.hides_the_shelf(captured.texture(card), changes, quad), kind


@pytest.mark.parametrize("kind", ("stone", "tablecloth", "striped_wood"))
def test_a_card_named_short_of_verification_where_nothing_changed_is_the_shelfs_print(
        reader, kind, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: the stages name a patterned table's print as a card, short of verification
    # ("unsure"), on an empty table; the shelf saw nothing change there, and the frame stayed
    # unsure. Left unnamed, it is judged as an outline: the shelf's texture, empty. A verified
    # name where nothing changed, or a card there, still keeps the frame unsure
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    again = empty_shelf(kind, SIZE, 1, LIGHT, 2)         # the shelf once more: other light, settled
    quad = np.float32([[220, 120], [420, 120], [420, 400], [220, 400]])
    named = FrameReading("unsure", [sighting(SHIPPED_FACE_NAMES[2], quad, 0.56)])
    assert shelf_step.told_by_shelf(reader, again, named, shelf).status == "empty", kind
    assert shelf_step.told_by_shelf(reader, again, FrameReading("ok", named.cards), shelf).status == "unsure", kind
    card = _brick_print(again, (220, 120, 420, 400), 0.35)
    assert shelf_step.told_by_shelf(reader, card, named, shelf).status == "unsure", kind
    monkeypatch.setattr(shelf_step, "_unnamed_where_unchanged", lambda looks, shelf, frame, changes, reading: reading)
    assert shelf_step.told_by_shelf(reader, again, named, shelf).status == "unsure", kind


def test_a_card_of_the_shelfs_colours_named_and_verified_reads_ok() -> None:
    # the class end to end: a grey card of bricks on a grey cloth, named and verified by the
    # stages; the shelf saw a fifth of it change, and its print hides the cloth
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 7_300_071, hard=False)
    shelf = EmptyShelf(scene.empty_shelf())
    changes = shelf.compare(scene.image)[0]
    assert min(shelf.changed_share(changes, np.float32(c.quad)) for c in scene.cards) < SETTINGS.least_card
    assert read(reader, scene, True) == "right"


def test_a_card_of_the_shelfs_light_on_a_shelf_as_textured_as_its_print_reads_ok(monkeypatch) -> None:
    # the class: a grey card of bricks on a grey stone table changes under a quarter of itself,
    # and the stone's own texture is as strong as the bricks' (so its print does not hide the
    # shelf, ``hides_the_shelf``): the stages alone read it, and a card named where nothing
    # changed kept the frame unsure. Its face shows there in the frame and not in the capture.
    # The same card captured with the shelf under another light still keeps the frame unsure.
    # (Glare as judged before session 70: the card, pale in places, was taken for glare there,
    # which it no longer is, and changes more.)
    _without_the_glares_hidden_texture(monkeypatch)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    other_light = Conditions(brightness=1.1, cast=(0.95, 1.0, 1.05), uneven=0.2, uneven_angle=-30.0, noise=3.0)
    for seed in (6, 8, 17, 18):
        card = [Placement("flower", (0.65, 0.55), 20.0 + 7 * seed, 0.45)]
        frame = compose_scene(dict(design.faces), card, table_background("stone", SIZE, seed), seed, SIZE, LIGHT)
        shelf = EmptyShelf(empty_shelf("stone", SIZE, seed, LIGHT, seed))
        changes, quad = shelf.compare(frame.image).changes, np.float32(frame.cards[0][1])
        assert shelf.changed_share(changes, quad) < SETTINGS.least_card, seed
        assert not shelf.hides_the_shelf(shelf.texture(frame.image), changes, quad), seed
        reader.empty_shelf = shelf
        assert reader.identify(frame.image).ingredients == ("flower",), seed
        captured = compose_scene(dict(design.faces), card, table_background("stone", SIZE, seed), seed, SIZE,
                                 other_light)
        reader.empty_shelf = EmptyShelf(captured.image)
        assert reader.identify(frame.image).status == "unsure", seed


def test_a_face_shows_only_where_it_came_since_the_other_frame(faces) -> None:
    # ``FineMatcher.shows_only_in``: a card's face shows in a frame and not in the shelf captured
    # without it; not where the other frame shows it too (under other light), not where the frame
    # shows another face, and not for an ingredient not enrolled
    frame, shelf = table_scene(faces, "stone", one_card(2))
    again, _ = table_scene(faces, "stone", one_card(2), Conditions(brightness=1.2, uneven=0.1, noise=2.0))
    fine, quad = FineMatcher(faces), np.float32(frame.cards[0][1])
    assert fine.shows_only_in(SHIPPED_FACE_NAMES[2], frame.image, shelf.frame, quad)
    assert not fine.shows_only_in(SHIPPED_FACE_NAMES[2], frame.image, again.image, quad)
    assert not fine.shows_only_in(SHIPPED_FACE_NAMES[5], frame.image, shelf.frame, quad)
    assert not fine.shows_only_in("no such card", frame.image, shelf.frame, quad)


NAMED_LEFT = [np.float32([[60, 100], [200, 100], [200, 300], [60, 300]])]
RIGHT_BOX = (330, 140, 470, 340)


def _patched(frame: np.ndarray, other: np.ndarray, box: tuple[int, int, int, int] = RIGHT_BOX) -> np.ndarray:
    """``frame`` with ``other`` in ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    out = frame.copy()
    out[y0:y1, x0:x1] = other[y0:y1, x0:x1]
    return out


@pytest.mark.parametrize("other", (5, 9, 13))
def test_a_card_of_the_shelfs_colours_beside_a_card_named_hides_the_shelfs_texture(other) -> None:
    # the class: a card whose colours are the shelf's lies beside the card named; the shelf saw it
    # change in part only, under a card's quarter, and the "ok" with the other card stood (a wrong
    # reading). Beyond the card named, it hides the shelf's grain: here a card printed with
    # another wood's grain
    shelf = EmptyShelf(empty_shelf("wood", SIZE, 1, LIGHT, 1))
    frame = _patched(empty_shelf("wood", SIZE, 1, LIGHT, 2), empty_shelf("wood", SIZE, other, LIGHT, 2))
    changes = shelf.compare(frame)[0]
    assert shelf.changed_share(changes, np.float32([[330, 140], [470, 140], [470, 340], [330, 340]])) < 0.25
    assert shelf.hides_a_card(frame, changes, NAMED_LEFT)
    assert not shelf.hides_a_card(frame, changes, [])     # nothing named: the change rules judge


def test_a_card_of_the_shelfs_light_hiding_a_faint_check_beside_a_card_named_is_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a grey card of bricks of the light of a pastel check in a dim light, beside the
    # card named; the shelf saw it change at its edge only, its print is no stronger than the
    # check's, and the check's coarse texture (0.029-0.044) stood under the bar the hidden
    # pattern was looked for over (0.04): "ok" with the card left out. Full-bleed 45100305 (hard),
    # the wrong reading of the run at e61c12f
    design = make_design("fullbleed")
    scene = design_scene(design, 45_100_305, hard=True)
    shelf = EmptyShelf(scene.empty_shelf())
    named = [np.float32(c.quad) for c in scene.cards if c.ingredient == "fern"]
    changes = shelf.compare(scene.image)[0]
    assert shelf.hides_a_card(scene.image, changes, named)
    monkeypatch.setattr(shelf, "settings", dataclasses.replace(SETTINGS, coarse_texture=0.04))
    assert not shelf.hides_a_card(scene.image, changes, named)


def test_a_scene_with_a_card_hiding_a_faint_check_beside_the_card_named_reads_unsure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 45_100_305, hard=True)
    assert read(reader, scene, True) == "unsure"
    before = dataclasses.replace(SETTINGS, coarse_texture=0.04)
    hides = shelf_module.EmptyShelf.hides_a_card
    monkeypatch.setattr(shelf_module.EmptyShelf, "hides_a_card", lambda self, *args: hides(_with(self, before), *args))
    assert read(reader, scene, True) == "wrong"


def _with(shelf: EmptyShelf, settings: ShelfSettings) -> EmptyShelf:
    """``shelf`` judged by other ``settings`` (a copy: the shelf itself is left as it was)."""
    other = copy.copy(shelf)
    other.settings = settings
    return other


@pytest.mark.parametrize("kind", ("wood", "stone", "tablecloth", "striped_wood"))
def test_the_shelf_again_or_in_a_shadow_hides_no_card(kind) -> None:
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    again = empty_shelf(kind, SIZE, 1, LIGHT, 2)          # the shelf once more: other light, settled
    shadow = _patched(again, (again * 0.6).astype(np.uint8))
    for frame in (again, shadow):
        assert not shelf.hides_a_card(frame, shelf.compare(frame)[0], NAMED_LEFT), kind


@pytest.mark.parametrize("kind", ("iron", "cloth", "felt"))
def test_a_smooth_shelf_has_no_texture_to_hide(kind) -> None:
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    again = empty_shelf(kind, SIZE, 1, LIGHT, 2)
    frame = _patched(again, cv2.GaussianBlur(again, (0, 0), 6))
    assert not shelf.hides_a_card(frame, shelf.compare(frame)[0], NAMED_LEFT), kind


def _recoloured_box(frame: np.ndarray, gains: tuple[float, float, float], box=RIGHT_BOX) -> np.ndarray:
    """``frame`` with its channels (B, G, R) in ``box`` scaled by ``gains``: the shelf's light and
    grain, another hue."""
    return _patched(frame, np.clip(frame * np.float32(gains), 0, 255).astype(np.uint8), box)


#: a back of the wood's light, not of its hue: one channel lighter and another darker than the
#: wood's by under the change in light the shelf sees (``change``, 0.25), as the backs of the
#: striped wood's colour were (0.12-0.14 of log light a channel, in opposite directions)
BACK_HUE = (1.15, 1.0, 0.87)


@pytest.mark.parametrize("kind", ("striped_wood", "wood", "stone", "felt"))
def test_a_card_of_the_shelfs_light_in_another_hue_beside_a_card_named_recolours_the_shelf(kind) -> None:
    # the class: a back of the wood's light beside the card named; the shelf saw it change in
    # specks only, and the "ok" with the other card stood (wrong readings of the run at 703ae47)
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    frame = _recoloured_box(empty_shelf(kind, SIZE, 1, LIGHT, 2), BACK_HUE)
    compared = shelf.compare(frame)
    back = np.float32([[330, 140], [470, 140], [470, 340], [330, 340]])
    assert shelf.changed_share(compared.changes, back) < SETTINGS.least_card, kind   # the change misses it
    assert shelf.recoloured(frame, compared, NAMED_LEFT), kind
    assert not shelf.recoloured(frame, compared, [])     # nothing named: the change rules judge
    assert not shelf.recoloured(frame, compared, [back]), kind      # named, it is no other card


@pytest.mark.parametrize("kind", ("wood", "stone"))
def test_a_finger_of_the_shelfs_light_in_another_hue_from_the_frames_edge_does_not_recolour_the_shelf(kind) -> None:
    # the class: a finger from the frame's edge onto the card named, of the shelf's light but not
    # of its hue (skin on a green stone); the shelf saw no change along it, and it was taken for a
    # card of the shelf's light, which kept right readings of small cards unsure. A card of that
    # hue beside the finger still recolours the shelf. (On these tables a finger so wide moves
    # the channels apart over more than ``hue_card`` of a card; on others less.)
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    finger = _recoloured_box(empty_shelf(kind, SIZE, 1, LIGHT, 2), BACK_HUE, (200, 190, 640, 238))   # 0.34 card widths
    assert not shelf.recoloured(finger, shelf.compare(finger), NAMED_LEFT), kind
    card = _recoloured_box(finger, BACK_HUE, (330, 238, 470, 438))
    assert shelf.recoloured(card, shelf.compare(card), NAMED_LEFT), kind


def test_small_cards_under_a_finger_of_the_tables_light_in_another_hue_read_right() -> None:
    # the class end to end: two small cards on a green stone, a finger from the frame's edge on
    # one; read closer, both are named, and the finger's part over the stone, of its light but
    # not its hue, kept the frame unsure as a card of the stone's light (a census scene of
    # session 70)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 93_100_045, kind="small", hard=True)
    assert scene.conditions.fingers and scene.background == "stone"
    assert read(reader, scene, True) == "right"


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_light_alone_does_not_recolour_the_shelf(kind) -> None:
    # a shadow or a glare moves every channel the same way: the shelf again under another light,
    # in a shadow, or under a glare (white added, burnt out at its core) beside the card named
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    again = empty_shelf(kind, SIZE, 1, LIGHT, 2)
    yy, xx = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    white = 400 * np.exp(-((xx - 400) ** 2 + (yy - 240) ** 2) / (2 * 60.0 ** 2))[..., None]
    frames = {"again": again, "shadow": _recoloured_box(again, (0.6, 0.6, 0.6)),
              "glare": np.clip(again + white, 0, 255).astype(np.uint8)}
    for name, frame in frames.items():
        assert not shelf.recoloured(frame, shelf.compare(frame), NAMED_LEFT), (kind, name)


def test_a_shelf_burnt_out_under_a_colour_cast_is_not_recoloured() -> None:
    # the class: a white cloth burnt out over most of the frame in one channel, under a cast the
    # capture did not have; the room's light fitted on the burnt-out pixels misses the cast in that
    # channel, and the rest of the shelf looks moved apart (a development scene of small cards)
    design = make_design("woodcut")
    scene = design_scene(design, 7_300_008, hard=True)
    shelf = EmptyShelf(scene.empty_shelf())
    assert not shelf.recoloured(scene.image, shelf.compare(scene.image), [np.float32(c.quad) for c in scene.cards])


@pytest.mark.parametrize("name,seed", (("placeholder", 35_000_508), ("ribbon", 35_000_231)))
def test_a_back_of_the_woods_light_beside_the_card_read_keeps_the_frame_unsure(name, seed) -> None:
    # the class end to end: face-down cards whose backs have the striped wood's light, not its
    # hue, beside a card read; the "ok" named the card alone (wrong readings of the run at 703ae47)
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, seed, hard=True), True) == "right"


def _bricks(frame: np.ndarray, mortar: float = 0.6, box=RIGHT_BOX) -> np.ndarray:
    """``frame`` with a grey card of bricks in ``box``: rows of 8 px, bricks of 16, lines of mortar
    2 px wide at ``mortar`` of the light; the shelf's light on average, and its grain beneath."""
    x0, y0, x1, y1 = box
    yy, xx = np.mgrid[0:y1 - y0, 0:x1 - x0]
    gain = np.where((yy % 8 < 2) | ((xx + yy // 8 % 2 * 8) % 16 < 2), mortar, 1.0)
    out = frame.astype(np.float32)
    out[y0:y1, x0:x1] *= (gain / gain.mean())[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("kind", ("iron", "copper", "cloth", "felt"))
def test_a_card_of_the_shelfs_light_printed_beside_a_card_named_shows_its_print(kind) -> None:
    # the class: a card of the shelf's light whose print is stronger than the shelf's texture (a
    # grey card of bricks on pale stone, grey noise on a plain cloth) beside the card named; the
    # shelf saw it change in specks only, and the "ok" named the other card alone (wrong readings
    # of the run at 1905957)
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    frame = _bricks(empty_shelf(kind, SIZE, 1, LIGHT, 2))
    compared = shelf.compare(frame)
    card = np.float32([[330, 140], [470, 140], [470, 340], [330, 340]])
    assert shelf.changed_share(compared.changes, card) < SETTINGS.least_card, kind   # the change misses it
    assert not shelf.hides_a_card(frame, compared.changes, NAMED_LEFT), kind        # no texture to hide
    assert shelf.printed(compared, NAMED_LEFT), kind
    assert not shelf.printed(compared, [])        # nothing named: the change rules judge
    assert not shelf.printed(compared, [card]), kind      # named, it is no other card


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_light_alone_shows_no_print(kind) -> None:
    # the shelf again under other light, a shadow sharp to the pixel, a glare burnt out at its
    # core, a third of the light with twice the sensor's noise, and a frame sharper than its
    # capture (a capture out of focus): each keeps the shelf's texture or washes it out
    capture = empty_shelf(kind, SIZE, 1, LIGHT, 1)
    again = empty_shelf(kind, SIZE, 1, LIGHT, 2)
    yy, xx = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    white = 400 * np.exp(-((xx - 400) ** 2 + (yy - 240) ** 2) / (2 * 60.0 ** 2))[..., None]
    frames = {"again": (capture, again), "shadow": (capture, _recoloured_box(again, (0.6, 0.6, 0.6))),
              "glare": (capture, np.clip(again + white, 0, 255).astype(np.uint8)),
              "dark": (capture, empty_shelf(kind, SIZE, 1, dataclasses.replace(LIGHT, brightness=0.3, noise=6.0), 2)),
              "sharper": (cv2.GaussianBlur(capture, (0, 0), 1.5), again)}
    for name, (captured, frame) in frames.items():
        shelf = EmptyShelf(captured)
        assert not shelf.printed(shelf.compare(frame), NAMED_LEFT), (kind, name)


def test_a_shadows_sharp_rim_is_no_print_once_opened() -> None:
    # the texture along a shadow's rim sharp to the pixel is a band: without the opening, it
    # would pass for a print on a plain shelf
    shelf = EmptyShelf(empty_shelf("iron", SIZE, 1, LIGHT, 1))
    frame = _recoloured_box(empty_shelf("iron", SIZE, 1, LIGHT, 2), (0.6, 0.6, 0.6))
    assert not shelf.printed(shelf.compare(frame), NAMED_LEFT)
    shelf.settings = dataclasses.replace(SETTINGS, print_opening=1)
    assert shelf.printed(shelf.compare(frame), NAMED_LEFT)


@pytest.mark.parametrize("name,seed", (("fullbleed", 41_100_401), ("woodcut", 41_100_390)))
def test_a_small_card_of_the_shelfs_light_beside_the_card_read_keeps_the_frame_unsure(name, seed,
                                                                                      monkeypatch) -> None:
    # the class end to end: a small grey card of bricks on a pale stone, a small card of grey noise
    # on a plain cloth, beside a small card the shelf step read in its change; the "ok" named that
    # card alone (wrong readings of the run at 1905957). The full-bleed's pale stone is burnt out
    # round its card, where ``lost_in_glare`` also keeps it unsure, and since session 54 its print
    # in place of the stone's faint grain (``faint_grain``) too: both off here, the print alone is
    # tested
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, hard=True)
    assert read(reader, scene, True) == "unsure"
    monkeypatch.setattr(EmptyShelf, "lost_in_glare", lambda self, compared, cards: False)
    first_bar_alone, covers = dataclasses.replace(SETTINGS, faint_grain_print=100.0), EmptyShelf.covers_the_grain
    monkeypatch.setattr(EmptyShelf, "covers_the_grain", lambda self, *args: covers(_with(self, first_bar_alone), *args))
    assert read(reader, scene, True) == "unsure"
    _without_the_glares_hidden_texture(monkeypatch)                  # which shows more of the card
    assert read(reader, scene, True) == "unsure"
    monkeypatch.setattr(EmptyShelf, "printed", lambda *args: False)
    assert read(reader, scene, True) == "wrong"


def _the_same_table(kind: str, seed: int, conditions: Conditions = LIGHT, back: bool = False):
    """The table ``kind`` under ``conditions``, the camera where it was (``seed``: the sensor's
    noise), with a back of the placeholder design (brown, ringed) beside ``NAMED_LEFT`` if ``back``:
    the ``Scene``."""
    design = make_design("placeholder")
    placements = [Placement(next(iter(design.faces)), (0.625, 0.5), 8.0, 0.42, face_down=True)] if back else []
    return compose_scene(dict(design.faces), placements, table_background(kind, SIZE, 1), seed, SIZE, conditions,
                         back=design.back)


def test_a_back_of_the_striped_woods_light_beside_a_card_named_covers_its_grain(monkeypatch) -> None:
    # the class: a ringed back of the striped wood's light and texture beside the card named; the
    # shelf saw it change in specks only, and neither its hue, nor its print, nor the coarse band
    # told it from the wood (placeholder 41100601 and 42100925, wrong readings of two runs). Glare
    # as judged before session 70, which took its pale rings for glare: it changes more since
    _without_the_glares_hidden_texture(monkeypatch)
    shelf = EmptyShelf(_the_same_table("striped_wood", 1).image)
    scene = _the_same_table("striped_wood", 2, back=True)
    frame, back = scene.image, [np.float32(quad) for _, quad in scene.cards]
    compared = shelf.compare(frame)
    assert shelf.changed_share(compared.changes, back[0]) < SETTINGS.least_card     # the change misses it
    assert not shelf.hides_a_card(frame, compared.changes, NAMED_LEFT)
    assert not shelf.recoloured(frame, compared, NAMED_LEFT)
    assert not shelf.printed(compared, NAMED_LEFT)
    assert shelf.covers_the_grain(compared, NAMED_LEFT)
    assert not shelf.covers_the_grain(compared, [])        # nothing named: the change rules judge
    assert not shelf.covers_the_grain(compared, NAMED_LEFT + back)   # named, it is no other card


@pytest.mark.parametrize("kind", BACKGROUND_KINDS)
def test_light_alone_and_a_camera_moved_cover_no_grain(kind) -> None:
    # the shelf again under other light, a shadow sharp to the pixel, a glare burnt out at its
    # core, a third of the light with twice the sensor's noise, a frame sharper or blurrier than
    # its capture, a camera settled by half a pixel, or moved during the exposure: each keeps the
    # grain's lines where they were
    capture, again = _the_same_table(kind, 1).image, _the_same_table(kind, 2).image
    yy, xx = np.mgrid[0:SIZE[1], 0:SIZE[0]]
    white = 400 * np.exp(-((xx - 400) ** 2 + (yy - 240) ** 2) / (2 * 60.0 ** 2))[..., None]
    frames = {"again": (capture, again), "shadow": (capture, _recoloured_box(again, (0.6, 0.6, 0.6))),
              "glare": (capture, np.clip(again + white, 0, 255).astype(np.uint8)),
              "dark": (capture, _the_same_table(kind, 2, dataclasses.replace(LIGHT, brightness=0.3, noise=6.0)).image),
              "sharper": (cv2.GaussianBlur(capture, (0, 0), 1.5), again),
              "blurrier": (capture, cv2.GaussianBlur(again, (0, 0), 1.5)),
              "settled": (capture, cv2.warpAffine(again, np.float32([[1, 0, 0.5], [0, 1, 0.5]]), SIZE,
                                                  borderMode=cv2.BORDER_REFLECT)),
              "moved": (capture, _the_same_table(kind, 2, dataclasses.replace(LIGHT, motion=(4.0, 30.0))).image)}
    for name, (captured, frame) in frames.items():
        shelf = EmptyShelf(captured)
        assert not shelf.covers_the_grain(shelf.compare(frame), NAMED_LEFT), (kind, name)


#: a small card named (frame px): 70 x 100, about a fifth of the frame's height, as the small
#: cards of the hard scenes
SMALL_NAMED = [np.float32([[120, 200], [190, 200], [190, 300], [120, 300]])]


def _printed_over(shelf: EmptyShelf, compared, rows: slice, columns: slice, strength: float):
    """``compared`` with the frame's fine texture in a part (``rows``, ``columns`` at the shelf's
    width) the shelf's own from elsewhere, uncorrelated with it there, times ``strength``: a card of
    the shelf's light with a print of its own."""
    texture = compared.texture.copy()
    texture[rows, columns] = strength * np.roll(shelf._texture, (40, -60), axis=(0, 1))[rows, columns]
    return compared._replace(texture=texture, detail=shelf_module._detail(texture, shelf.settings))


def test_a_print_stronger_than_a_faint_grain_in_its_place_covers_it() -> None:
    # the class: a small grey card of a stone's light beside the card named, its print 2.5 times
    # as strong as the stone's faint grain there (0.02-0.05) and uncorrelated with it; the shelf
    # saw no change for it, its print is not 3 times the stone's (``printed``), and it is too small
    # for the coarse band's blocks (full-bleed 69000987, the wrong reading of the hard run at
    # f9b1326). Noise in a dim frame decorrelates a faint grain but keeps its strength: a print
    # only as strong as the grain is not judged (development tarot 7300082: the dark corners)
    shelf = EmptyShelf(empty_shelf("stone", SIZE, 2, LIGHT, 1))
    compared = shelf.compare(empty_shelf("stone", SIZE, 2, LIGHT, 2))
    rows, columns = slice(70, 94), slice(138, 155)         # a small card's place beside it, at 160 px wide
    grain = shelf._detail[rows, columns]
    assert ((grain >= SETTINGS.faint_grain) & (grain < SETTINGS.grain_texture)).mean() > 0.5   # faint there
    assert not shelf.covers_the_grain(compared, SMALL_NAMED)                           # the stone again
    assert shelf.covers_the_grain(_printed_over(shelf, compared, rows, columns, 2.5), SMALL_NAMED)
    assert not shelf.covers_the_grain(_printed_over(shelf, compared, rows, columns, 1.0), SMALL_NAMED)
    first_bar_alone = _with(shelf, dataclasses.replace(SETTINGS, faint_grain_print=100.0))
    assert not first_bar_alone.covers_the_grain(_printed_over(shelf, compared, rows, columns, 2.5), SMALL_NAMED)


def test_a_small_grey_card_of_a_stones_light_beside_the_card_read_keeps_the_frame_unsure(monkeypatch) -> None:
    # the class end to end: a small grey card of bricks on a pale slab of the stone's light, under
    # motion blur, beside the card read; the "ok" named that card alone (full-bleed 69000987)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 69_000_987, hard=True)
    assert read(reader, scene, True) == "unsure"
    first_bar_alone, covers = dataclasses.replace(SETTINGS, faint_grain_print=100.0), EmptyShelf.covers_the_grain
    monkeypatch.setattr(EmptyShelf, "covers_the_grain", lambda self, *args: covers(_with(self, first_bar_alone), *args))
    # the shelf step alone's "ok" taken as before session 72 too: its lower bar for pieces of
    # change sends this frame to the stages, which keep it unsure without the rule
    monkeypatch.setattr(reader_module, "ALONE_PIECES", 0.1)
    assert read(reader, scene, True) == "wrong"


def _perforated(compared, rows: slice, columns: slice, step: int):
    """``compared`` with glare in every ``step``-th pixel of a part (``rows``, ``columns`` at the
    shelf's width), both ways: a card's pale frame and bright print seen in specks."""
    glare = compared.glare.copy()
    glare[rows, columns][::step, ::step] = True
    return compared._replace(glare=glare)


def _opened_alone(shelf: EmptyShelf) -> EmptyShelf:
    """``shelf`` opening the hidden grain alone, without the holes left unjudged in it."""
    alone = copy.copy(shelf)
    alone._unjudged = lambda compared, cards: np.zeros_like(compared.glare)  # type: ignore[method-assign]
    return alone


def test_a_hidden_grain_perforated_by_a_cards_bright_specks_covers_it() -> None:
    # the class: a small card of a striped wood's colours beside the card named hides its grain,
    # but its pale frame and bright print are seen as glare, burnt out or changed in specks, which
    # are not judged; the hidden grain between them, opened alone, fell apart into pieces narrower
    # than the opening (placeholder 70000380, the wrong reading of session 55's run)
    shelf = EmptyShelf(empty_shelf("striped_wood", SIZE, 3, LIGHT, 1))
    compared = shelf.compare(empty_shelf("striped_wood", SIZE, 3, LIGHT, 2))
    rows, columns = slice(70, 94), slice(138, 155)         # a small card's place beside it, at 160 px wide
    assert (shelf._detail[rows, columns] >= SETTINGS.grain_texture).mean() > 0.9
    assert not shelf.covers_the_grain(compared, SMALL_NAMED)                           # the wood again
    hidden = _printed_over(shelf, compared, rows, columns, 1.0)
    assert shelf.covers_the_grain(hidden, SMALL_NAMED)
    for step in (2, 3):
        assert shelf.covers_the_grain(_perforated(hidden, rows, columns, step), SMALL_NAMED), step
        assert not _opened_alone(shelf).covers_the_grain(_perforated(hidden, rows, columns, step), SMALL_NAMED), step
        assert not shelf.covers_the_grain(_perforated(compared, rows, columns, step), SMALL_NAMED), step  # specks alone


def test_a_small_card_of_a_striped_woods_colours_in_specks_beside_the_card_read_keeps_the_frame_unsure(
        monkeypatch) -> None:
    # the class end to end: a small card (a ginger cat in a pale frame) on striped wood under a
    # 4.3 px motion blur, touching the card read; the shelf step's "ok" named that card alone
    design = make_design("placeholder")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 70_000_380, hard=True)
    assert read(reader, scene, True) == "right"                      # both named since session 70's glare rule
    _without_the_glares_hidden_texture(monkeypatch)
    assert read(reader, scene, True) == "unsure"
    monkeypatch.setattr(EmptyShelf, "_unjudged", lambda self, compared, cards: np.zeros_like(compared.glare))
    assert read(reader, scene, True) == "wrong"


def test_a_frame_whose_grain_decorrelated_all_over_covers_none() -> None:
    # the class: a frame of cards on striped wood whose fine grain correlates 0.40 with its
    # capture's as a rule; judged all the same, what lies beside the cards would cover over a card
    # (a right reading "ok" of the development scenes)
    design = make_design("tarot")
    scene = design_scene(design, 7_200_020)
    shelf = EmptyShelf(scene.empty_shelf())
    compared, cards = shelf.compare(scene.image), [np.float32(c.quad) for c in scene.cards]
    assert not shelf.covers_the_grain(compared, cards)
    shelf.settings = dataclasses.replace(SETTINGS, grain_usual=0.3)
    assert shelf.covers_the_grain(compared, cards)


def _stripes(size: tuple[int, int], period: float, shift: float = 0.0) -> np.ndarray:
    """A BGR frame of fine diagonal stripes ``period`` px apart, moved ``shift`` px along x."""
    yy, xx = np.mgrid[0:size[1], 0:size[0]].astype(np.float32)
    grey = 120 + 60 * np.sin(2 * np.pi * (xx - shift + 0.6 * yy) / period)
    return cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)


def test_the_shelfs_fine_grain_moved_by_a_fraction_of_a_pixel_is_seen_again_sharp() -> None:
    # the class: a grain finer than two pixels at the comparison's width aliases there, and a
    # camera settled since the capture moves the pattern so made; at the frame's full resolution
    # the grain is the shelf's, moved. What a card puts in its place (rings, another grain) is not
    shelf = EmptyShelf(_stripes(SIZE, 3.5))
    piece = np.zeros((120, 160), bool)
    piece[40:60, 50:70] = True                              # a small card's area at the shelf's width
    for shift in (0.0, 0.5, 1.0, 1.7):       # 1.7 px: half a period, which unshifted correlates at -1
        assert shelf._grain_seen_sharp(_stripes(SIZE, 3.5, shift), piece), shift
    moved = _stripes(SIZE, 3.5, 0.5)
    yy, xx = np.mgrid[160:240, 200:280].astype(np.float32)
    rings = 120 + 60 * np.sin(np.hypot(xx - 240, yy - 200) / 1.2)
    moved[160:240, 200:280] = cv2.cvtColor(rings.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    assert not shelf._grain_seen_sharp(moved, piece)
    assert not shelf._grain_seen_sharp(_stripes(SIZE, 5.0, 0.5), piece)        # another grain


def test_a_grain_aliased_at_the_comparisons_width_covers_no_card_beside_small_cards() -> None:
    # the class end to end: two small cards on striped wood read right, the frame's grain
    # decorrelated at the comparison's width in patches of 0.37 of a small card by a camera
    # settled since the capture (tarot 91600022 of a census, kept unsure); a back of the wood's
    # light left out is no grain seen again, at any resolution
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 91_600_022, kind="small", hard=True)
    shelf = EmptyShelf(scene.empty_shelf())
    compared, cards = shelf.compare(scene.image), [np.float32(c.quad) for c in scene.cards]
    assert shelf.covers_the_grain(compared, cards)                                     # at the width alone
    assert not shelf.covers_the_grain(compared, cards, scene.image)
    assert _with(shelf, dataclasses.replace(SETTINGS, grain_again=1.0)).covers_the_grain(compared, cards, scene.image)
    assert read(reader, scene, True) == "right"
    placeholder = make_design("placeholder")
    for seed in (41_100_601, 42_100_925):
        left_out = design_scene(placeholder, seed, hard=True)
        back_shelf = EmptyShelf(left_out.empty_shelf())
        up = [np.float32(c.quad) for c in left_out.cards if c.face_up]
        assert back_shelf.covers_the_grain(back_shelf.compare(left_out.image), up, left_out.image), seed


def test_a_grain_aliased_at_the_comparisons_width_keeps_a_frame_unsure_without_the_sharp_look(monkeypatch) -> None:
    # the negative control of the scene above: the grain judged at the comparison's width alone
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 91_600_022, kind="small", hard=True)
    monkeypatch.setattr(EmptyShelf, "_grain_seen_sharp", lambda *args: False)
    assert read(reader, scene, True) == "unsure"


@pytest.mark.parametrize("seed", (41_100_601, 42_100_925))
def test_a_back_of_the_striped_woods_light_beside_the_card_read_keeps_the_frame_unsure(seed, monkeypatch) -> None:
    # the class end to end: a ringed back of the striped wood's light beside the card read; the
    # "ok" named the card alone (wrong readings of the runs at 1905957 and e7371ce). A card face
    # down asks "unsure"
    design = make_design("placeholder")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, seed, hard=True)
    assert read(reader, scene, True) == "right"
    monkeypatch.setattr(EmptyShelf, "covers_the_grain", lambda *args: False)
    # the hidden pattern, looked for over fainter blocks since session 48, finds 42100925's back
    # too: here it is looked for as before (0.04), so the grain is tested alone
    before, hides = dataclasses.replace(SETTINGS, coarse_texture=0.04), EmptyShelf.hides_a_card
    monkeypatch.setattr(EmptyShelf, "hides_a_card", lambda self, *args: hides(_with(self, before), *args))
    assert read(reader, scene, True) == "wrong"


def test_a_card_of_the_shelfs_colours_cut_by_the_frame_beside_a_card_named_is_not_read_ok() -> None:
    # the class end to end: a grey card of the stone's colours cut by the frame's edge beside the
    # card named; the shelf saw part of it change, broken, and the "ok" named the other card alone
    # (a wrong reading of the full run at 2d4c5c7)
    design = make_design("fullbleed")
    reader = CardReader(enroll(dict(design.faces), design.back))
    assert read(reader, design_scene(design, 24_000_913, hard=True), True) == "right"


def _reads_the_small_cards_at_their_places(reader, frame, shelf, placements) -> None:
    """``reader``, with ``shelf``, reads ``frame`` "ok" naming the cards ``placements`` laid, each
    over 0.8 of the card there."""
    reader.empty_shelf = shelf
    reading = reader.identify(frame.image)
    assert reading.status == "ok"
    assert sorted(str(c.ingredient) for c in reading.cards) == sorted(p.ingredient for p in placements)
    for card, (_, quad) in zip(sorted(reading.cards, key=lambda c: str(c.ingredient)), sorted(frame.cards)):
        assert shared_area(np.float32(card.quad), np.float32(quad)) >= 0.8 * quad_area(np.float32(quad))


@pytest.mark.parametrize("kind", ("wood", "tablecloth", "stone"))
def test_small_cards_the_stages_left_unread_are_read_closer_around_their_changes(faces, reader, kind,
                                                                              monkeypatch) -> None:
    # the class: small cards (18 % of the frame) side by side, whose changes met in one of no
    # card's shape, that the stages did not read closer (here their own cut-out is turned off: in
    # the development scenes, a thing of a small card's size elsewhere, or an outline round both,
    # kept them from it); the part of the frame around the changes no card explains shows them
    # at the size the outlines read
    placements = [Placement(SHIPPED_FACE_NAMES[2], (0.45, 0.47), 3.0, 0.18),
                  Placement(SHIPPED_FACE_NAMES[5], (0.553, 0.5), -4.0, 0.18)]
    frame, shelf = table_scene(faces, kind, placements)
    monkeypatch.setattr(CardReader, "_zoomed", lambda *args: None)
    _reads_the_small_cards_at_their_places(reader, frame, shelf, placements)
    monkeypatch.setattr(shelf_step, "_read_closer", lambda *args: None)
    assert reader.identify(frame.image).status == "unsure"


@pytest.mark.parametrize("kind", ("felt", "cloth", "striped_wood", "tablecloth"))
def test_small_cards_under_a_finger_are_read_closer_around_the_changes_without_the_finger(faces, reader, kind,
                                                                                      monkeypatch) -> None:
    # the class: a player's finger on one of two small cards (18 % of the frame) runs two card
    # heights off them; the part of the frame around the changes, finger and all, is too large to
    # show the cards any closer. The part around the changes' parts wider than a finger shows
    # them at the size the outlines read (their own cut-out turned off, as above)
    placements = [Placement(SHIPPED_FACE_NAMES[2], (0.5, 0.3), 3.0, 0.18),
                  Placement(SHIPPED_FACE_NAMES[5], (0.52, 0.49), -4.0, 0.18)]
    finger = Finger(1, side=2, along=0.5, depth=0.2, width=0.25)
    frame, shelf = table_scene(faces, kind, placements, dataclasses.replace(LIGHT, fingers=(finger,)))
    monkeypatch.setattr(CardReader, "_zoomed", lambda *args: None)
    _reads_the_small_cards_at_their_places(reader, frame, shelf, placements)
    monkeypatch.setattr(EmptyShelf, "parts", lambda self, region, cards: [])
    monkeypatch.setattr(shelf_step, "OUTLINE_IN_CHANGE", 2.0)    # no outline of the stages read in a change
    assert reader.identify(frame.image).status == "unsure"


@pytest.mark.parametrize(("name", "seed"), (("woodcut", 7_300_008), ("ribbon", 7_300_025)))
def test_a_hard_scene_of_small_cards_reads_right_once_read_closer_around_its_changes(
        name: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: hard development scenes of small cards (seeds 7300000 on), one on a
    # tablecloth whose squares the stages outline, one of two cards whose changes met in one
    _right_and_unsure_without(monkeypatch, name, seed, shelf_step, "_read_closer", lambda *args: None, hard=True)


def test_an_unread_outline_is_not_judged_in_the_part_of_the_frame_read_closer() -> None:
    # the class: an outline the stages drew at the frame's size round small cards and what lies
    # beside them; the part of the frame read closer, with the shelf, judged the outlines there
    # at the size the outline stages read. Beyond that part the outline is judged as before
    shelf = EmptyShelf(empty_shelf("stone", SIZE, 1, LIGHT, 1))
    frame = _brick_print(empty_shelf("stone", SIZE, 1, LIGHT, 1), (220, 120, 420, 400), 0.35)
    outline = np.float32([[200, 100], [440, 100], [440, 420], [200, 420]])
    texture, changes = shelf.texture(frame), shelf.compare(frame).changes
    assert not shelf.shows_the_shelf(texture, changes, outline, [])
    around = np.float32([[190, 90], [450, 90], [450, 430], [190, 430]])
    assert shelf.shows_the_shelf(texture, changes, outline, [], read_closer=around)
    half = np.float32([[190, 90], [450, 90], [450, 250], [190, 250]])
    assert not shelf.shows_the_shelf(texture, changes, outline, [], read_closer=half)


def _not_closer_again(real):
    """``told_by_shelf`` as it was before a part read closer was read with the shelf's same part."""
    def told(looks, frame, reading, shelf, closer=True, compared=None):
        return real(looks, frame, reading, shelf, closer, compared) if closer else reading
    return told


@pytest.mark.parametrize(("name", "seed"), (("tarot", 7_300_037), ("tarot", 7_300_082)))
def test_the_part_read_closer_is_read_with_the_same_part_of_the_empty_shelf(name: str, seed: int,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: small cards whose part of the frame, read closer by the stages alone, stays
    # unsure for the things beside them (a shadow, the table's pattern, a region that may hide a
    # card); the same part of the empty shelf tells those from cards. Hard development scenes. The
    # faces aligned with a change's rectangle, and the thumbnail at its trimmed rectangles, read
    # 7300037's small card in its change at once (``_read_aligned`` since session 48,
    # ``_read_thumbnail`` since session 61): they are off here, so reading closer is tested alone
    monkeypatch.setattr(reader_module.CardReader, "_read_aligned", lambda self, frame, box: None)
    monkeypatch.setattr(reader_module.CardReader, "_read_thumbnail", lambda self, small, scale, box: None)
    _right_and_unsure_without(monkeypatch, name, seed, reader_module, "told_by_shelf",
                              _not_closer_again(reader_module.told_by_shelf), hard=True)


def test_a_card_read_in_a_change_that_fails_verification_leaves_the_change_to_be_read_closer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a small card read from its change's rectangle, misfitted, fails verification and
    # kept the frame unsure; dropped at once, its change is read closer. A hard development scene
    # (the card failing is not named again where its face aligns, session 73's way, here)
    monkeypatch.setattr(shelf_step, "_passing_or_aligned",
                        lambda looks, frame, cards: shelf_step._passing(looks, frame, cards))
    _right_and_unsure_without(monkeypatch, "placeholder", 7_300_060, shelf_step, "_passing",
                              lambda looks, frame, cards: cards, hard=True)


def test_a_scene_whose_unread_outline_lies_in_the_part_read_closer_reads_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the class of ``read_closer`` end to end: two small cards under motion blur, outlined with
    # the shadow beside them by the stages. A hard development scene
    only_the_shelf_unread = shelf_step._only_the_shelf_unread
    _right_and_unsure_without(monkeypatch, "tarot", 7_300_095, shelf_step, "_only_the_shelf_unread",
                              lambda *args: only_the_shelf_unread(*args[:5]), hard=True)


@pytest.mark.parametrize("name", ("ribbon", "fullbleed", "placeholder"))
def test_a_back_the_shelf_sees_no_change_for_is_still_counted_beside_the_cards_read(name: str) -> None:
    # the class: the shelf step names a card from its change, and an "ok" of its own leaves out a
    # back the shelf saw no change for (here it lay there when the shelf was captured; on a
    # striped wood of its colours, the shelf saw it change too little). The count by keypoints,
    # made beside the cards the stages name, is made again beside the cards the shelf step names
    design = make_design(name)
    reader = CardReader(enroll(dict(design.faces), design.back))
    seed, scenes = 7_300_000, 0
    while scenes < 2:
        scene = design_scene(design, seed, kind="face_down")
        seed += 1
        back = [np.asarray(c.quad, np.float32) for c in scene.cards if not c.face_up]
        if len(back) != 1 or len(scene.cards) != 2:
            continue
        scenes += 1
        capture = scene.empty_shelf().copy()
        under = np.zeros(capture.shape[:2], np.uint8)
        cv2.fillConvexPoly(under, np.round(back[0]).astype(np.int32), 1)
        under = cv2.dilate(under, np.ones((9, 9), np.uint8)) > 0
        capture[under] = scene.image[under]                   # the back captured with the shelf
        reader.empty_shelf = EmptyShelf(capture)
        reading = reader.identify(scene.image)
        assert reading.status == "unsure", (seed - 1, reading)
        assert any(c.face_down and shared_area(np.asarray(c.quad, np.float32), back[0]) > 0.5 * quad_area(back[0])
                   for c in reading.cards), (seed - 1, reading)


def _grain_at_the_pitch(inverted: bool) -> np.ndarray:
    """An empty table: coarse grain on its left, a grain at the reader's pixel pitch on its right (a
    chequer of the shelf's resized pixels), with the chequer ``inverted`` as a camera settled by a
    fraction of its pitch sees it."""
    rng = np.random.default_rng(5)
    blobs = cv2.GaussianBlur(rng.normal(0, 1, (480, 640)).astype(np.float32), (0, 0), 8)
    yy, xx = np.mgrid[0:480, 0:640]
    chequer = np.where((yy // 4 + xx // 4 + int(inverted)) % 2 == 0, 1.0, -1.0)
    grain = np.where(xx < 320, 0.25 * blobs / blobs.std(), 0.08 * chequer)
    return np.clip(np.float32([70, 100, 140]) * np.exp(grain)[..., None], 0, 255).astype(np.uint8)


def test_an_outline_over_a_grain_at_the_pixel_pitch_is_the_shelfs_where_nothing_lies_beyond_it() -> None:
    # the class: where the shelf's texture lies at the pixel pitch alone (a fine grain aliased by
    # the resize, sensor noise, JPEG's blocks), it is not seen again once the camera settled by a
    # fraction of a pixel: empty striped tables read unsure (tarot 27100057 under motion blur,
    # full-bleed 27101372 under glare, tarot 27102384 on cloth, of the run at a9167be). A card's
    # print there shows texture beyond the pitch, which the shelf does not
    shelf = EmptyShelf(_grain_at_the_pitch(False))
    settled = _grain_at_the_pitch(True)
    outline = np.float32([[60, 60], [580, 60], [580, 420], [60, 420]])
    compared = shelf.compare(settled)
    assert compared is not None
    assert shelf.shows_the_shelf(shelf.texture(settled), compared.changes, outline, [])
    card = _brick_print(settled, (400, 150, 520, 330), 0.35)
    compared = shelf.compare(card)
    assert compared is not None
    assert not shelf.shows_the_shelf(shelf.texture(card), compared.changes, outline, [])


def test_the_shelf_steps_reason_is_logged_where_the_reading_was_unsure_already(caplog) -> None:
    # the class: a reading the stages left unsure, kept unsure by the shelf step without a word,
    # whose reason then took a probe to find
    unsure = FrameReading("unsure", ())
    with caplog.at_level(logging.DEBUG, logger="drivers.card_reader.shelf_step"):
        assert shelf_step._unsure(unsure, "a change no card named explains") is unsure
        assert shelf_step._unsure(FrameReading("empty", ()), "a card named where nothing changed").status == "unsure"
    assert [record.getMessage() for record in caplog.records] == [
        "card reader: unsure: a change no card named explains", "card reader: unsure: a card named where nothing changed"]


@pytest.mark.parametrize("kind", ("cloth", "felt"))
def test_a_frame_kept_unsure_by_an_unread_outline_where_nothing_changed_says_so(reader, kind, caplog) -> None:
    # the same class where nothing changed: an outline the stages could not read round a card of
    # the shelf's colours, which changed next to nothing and hides the shelf's texture (until
    # session 53, a glare on an empty copper table, ribbon 32100876, read empty since)
    shelf = EmptyShelf(empty_shelf(kind, SIZE, 1, LIGHT, 1))
    card = _brick_print(empty_shelf(kind, SIZE, 1, LIGHT, 2), (220, 120, 420, 400), 0.35)
    outline = np.float32([[220, 120], [420, 120], [420, 400], [220, 400]])
    with caplog.at_level(logging.DEBUG, logger="drivers.card_reader.shelf_step"):
        told = shelf_step.told_by_shelf(reader, card, FrameReading("unsure", [sighting(None, outline, 0.0)]), shelf)
    assert told.status == "unsure", kind
    assert caplog.messages == ["card reader: unsure: an outline the stages could not read is not the shelf's"], kind


def _pieces_in(changes: np.ndarray, boxes: list[tuple[float, float, float, float]], width: float) -> np.ndarray:
    """``changes`` with rectangles drawn changed: ``boxes`` of (x, y, w, h) card widths from the
    mask's top-left, a card ``width`` mask px wide."""
    drawn = changes.copy()
    for x, y, w, h in boxes:
        drawn[int(y * width):int((y + h) * width), int(x * width):int((x + w) * width)] = True
    return drawn


@pytest.mark.parametrize("kind", ("stone", "tablecloth", "striped_wood"))
def test_an_unread_outline_of_the_shelf_with_a_fingers_pieces_in_it_is_the_shelfs(faces, kind) -> None:
    # the class: a finger across an outline of the shelf's own pattern (a stone's slab), seen by
    # the shelf in pieces where its light is the shelf's, away from the frame's edge: the pieces,
    # too small to be a card and not reaching the edge, were taken as a card's possible parts,
    # and the outline, changed over more than a tenth of it, never judged
    frame, shelf = table_scene(faces, kind, one_card())
    card = np.asarray(frame.cards[0][1], np.float32)
    compared = shelf.compare(frame.image)
    assert compared is not None
    width = shelf._card_width(compared.changes, [card])
    outline = np.float32([[20, 250], [200, 250], [200, 450], [20, 450]])        # the shelf beside the card
    top_left = (20 * shelf.scale() / width + 0.1, 250 * shelf.scale() / width + 0.1)

    def judged(boxes: list[tuple[float, float, float, float]], image: np.ndarray = frame.image) -> bool:
        changes = _pieces_in(compared.changes, [(top_left[0] + x, top_left[1] + y, w, h) for x, y, w, h in boxes],
                             width)
        sharp = compared.sharp | (changes & ~compared.changes)       # a finger's edges are sharp, not light's
        unexplained = shelf.unexplained_parts(changes, [card], sharp)
        assert len(unexplained) == len(boxes)
        return shelf.shows_the_shelf(shelf.texture(image), changes, outline, [card], unexplained)

    finger = [(0.0, 0.4, 0.3, 0.2), (0.6, 0.3, 0.25, 0.2)]                # two pieces of a finger
    assert judged([])
    assert judged(finger)
    assert not judged([(0.0, 0.2, 0.6, 0.6)])                           # wider than a finger: a card's part
    assert not judged([(0.0, 0.1 + 0.3 * i, 0.9, 0.2) for i in range(4)])   # more than a finger's pieces
    other = frame.image.copy()                                          # a card's print in the outline
    other[260:440, 30:190] = cv2.resize(faces[SHIPPED_FACE_NAMES[5]], (160, 180))
    assert not judged(finger, other)


@pytest.mark.parametrize(("name", "seed"), (("tarot", 33_100_183), ("ribbon", 33_100_186), ("ribbon", 33_100_208)))
def test_a_scene_whose_unread_outline_a_finger_crosses_in_pieces_reads_right(
        name: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class end to end: seen normal scenes (seeds from 33100000) of a finger on a card, whose
    # change the shelf saw in pieces across an unread outline of a stone's slab, a tablecloth's
    # square or the stripes beside the card
    _right_and_unsure_without(monkeypatch, name, seed, EmptyShelf, "_finger_pieces", lambda *args: False)


def _pieces_beside(shelf: EmptyShelf, compared, card: np.ndarray, share: float, apart: float, burnt: bool):
    """``compared`` with two square changes beside ``card`` (frame px) adding up to ``share`` of the
    least change that may be a card, ``apart`` card widths from each other, their edges sharp, and
    (``burnt``) the frame burnt out round them: a pale card a glare burnt out but for its pieces."""
    least = shelf._least_card([card])
    width = shelf._card_width(compared.changes, [card])
    side = int(round(np.sqrt(share * least / 2)))
    x, y = (card.mean(axis=0) * shelf.scale()).astype(int) + np.array([int(1.6 * width), 0])
    changes, sharp, lit = (np.zeros_like(compared.changes, bool) for _ in range(3))
    for dx in (0, int(apart * width)):
        changes[y:y + side, x + dx:x + dx + side] = True
        sharp[y - 1:y + side + 1, x + dx - 1:x + dx + side + 1] = True
    lit[y - int(width):y + int(width), x - int(width):x + int(apart * width) + int(width)] = burnt
    return compared._replace(changes=changes, sharp=sharp, burnt=lit & ~changes)


def test_a_card_burnt_out_by_a_glare_but_for_its_pieces_keeps_an_ok_unsure(faces) -> None:
    # the class: a glare burns a pale card out beside a card named; the shelf sees it change only
    # in pieces each too small to count, together just under a card's quarter. With the pixels
    # burnt out by them they make one; without a glare there, or too few, or far apart, they do not
    frame, shelf = table_scene(faces, "tablecloth", [Placement(SHIPPED_FACE_NAMES[1], (0.3, 0.5), 5.0, 0.42)])
    card = np.asarray(frame.cards[0][1], np.float32)
    compared = shelf.compare(frame.image)
    assert shelf.lost_in_glare(_pieces_beside(shelf, compared, card, 0.9, 0.3, burnt=True), [card])
    assert not shelf.lost_in_glare(_pieces_beside(shelf, compared, card, 0.9, 0.3, burnt=False), [card])
    assert not shelf.lost_in_glare(_pieces_beside(shelf, compared, card, 0.4, 0.3, burnt=True), [card])
    assert not shelf.lost_in_glare(_pieces_beside(shelf, compared, card, 0.9, 1.6, burnt=True), [card])
    assert not shelf.lost_in_glare(compared, [card])                  # nothing but the card changed


def _burnt_out_band(shelf: EmptyShelf, compared, card: np.ndarray, across: float):
    """``compared`` with a band burnt out from the right of ``card`` (frame px) to the frame's
    right edge, ``across`` card widths wide, its two rims changes in dashes each too small to count
    (14 px, 4 px apart), their edges sharp: a pale finger a glare burnt out, its rims seen in pieces."""
    width = shelf._card_width(compared.changes, [card])
    scaled = card * shelf.scale()
    x0, y = int(scaled[:, 0].max() + shelf.settings.card_margin * width) + 2, int(scaled[:, 1].mean())
    half = int(round(across * width / 2))
    changes, burnt = (np.zeros_like(compared.changes, bool) for _ in range(2))
    burnt[y - half + 2:y + half - 1, x0:] = True
    for rim in (slice(y - half, y - half + 2), slice(y + half - 1, y + half + 1)):
        for x in range(x0, changes.shape[1] - 4, 18):
            changes[rim, x:x + 14] = True
    return compared._replace(changes=changes, sharp=changes.copy(), burnt=burnt)


def test_a_pale_finger_burnt_out_beside_a_card_named_is_no_card_lost_in_a_glare(faces) -> None:
    # the class: a pale finger on the card named, burnt out by bright light or a glare, its rims
    # seen in pieces beside the card: with the burnt pixels between them they made a card's
    # quarter, and kept right readings "ok" unsure (4 of 1500 seen normal scenes from 59900000:
    # placeholder 59900268, ribbon 59900073, woodcut 59900245 and 59900282). A finger comes in from
    # the frame's edge as a band narrower than half a card (``finger_bands``); a card burnt out as
    # wide as a card and reaching the edge is not one
    frame, shelf = table_scene(faces, "tablecloth", [Placement(SHIPPED_FACE_NAMES[1], (0.3, 0.5), 0.0, 0.42)])
    card = np.asarray(frame.cards[0][1], np.float32)
    compared = shelf.compare(frame.image)
    finger = _burnt_out_band(shelf, compared, card, 0.28)
    assert shelf.unexplained_parts(finger.changes, [card], finger.sharp) == []         # a finger's band
    with pytest.MonkeyPatch.context() as patch:        # its rims left unexplained: lost_in_glare's own judgement
        patch.setattr(EmptyShelf, "_in_a_finger_band", lambda self, region, in_pieces: False)
        assert len(shelf.unexplained_parts(finger.changes, [card], finger.sharp)) > 1   # its rims, in pieces
        assert not shelf.lost_in_glare(finger, [card])
    assert shelf.lost_in_glare(_burnt_out_band(shelf, compared, card, 0.9), [card])


def _in_segments(shelf: EmptyShelf, compared, card: np.ndarray, reach: int):
    """``compared`` with a band 0.28 card widths wide from the right of ``card`` (frame px), ``reach``
    px long at the shelf's width, changed in segments each too small to count (12 px, 4 px apart),
    their edges sharp, and the frame burnt out all round it: a finger the shelf saw in pieces where
    it crosses a white cloth burnt out (``reach`` to the frame's edge), or, short of it, the pieces
    of a card's print a glare left."""
    width = shelf._card_width(compared.changes, [card])
    scaled = card * shelf.scale()
    x0, y = int(scaled[:, 0].max() + shelf.settings.card_margin * width) + 2, int(scaled[:, 1].mean())
    half = int(round(0.28 * width / 2))
    changes, burnt = (np.zeros_like(compared.changes, bool) for _ in range(2))
    burnt[y - 3 * half:y + 3 * half, x0:] = True
    for x in range(x0, min(x0 + reach, changes.shape[1]), 16):
        changes[y - half:y + half, x:x + 12] = True
    return compared._replace(changes=changes, sharp=changes.copy(), burnt=burnt & ~changes)


def test_a_finger_seen_in_pieces_over_a_burnt_out_cloth_is_no_card_lost_in_a_glare(faces) -> None:
    # the class: a finger from the frame's edge on the card named crosses a white cloth the frame
    # burns out; the shelf sees it change in pieces, each too small to count, which with the burnt
    # pixels round them made a card's quarter and kept a right "ok" unsure (tarot 64100100 of a
    # probe of session 59). Joined across gaps narrower than a finger they come in from the frame's
    # edge as a band narrower than half a card (``_finger_in_pieces``); the same pieces short of the
    # frame's edge, or a card's rims in dashes, may be a card
    frame, shelf = table_scene(faces, "tablecloth", [Placement(SHIPPED_FACE_NAMES[1], (0.3, 0.5), 0.0, 0.42)])
    card = np.asarray(frame.cards[0][1], np.float32)
    compared = shelf.compare(frame.image)
    finger = _in_segments(shelf, compared, card, 1000)
    assert shelf.unexplained_parts(finger.changes, [card], finger.sharp) == []          # a finger's band
    assert not shelf.lost_in_glare(finger, [card])
    with pytest.MonkeyPatch.context() as patch:        # the pieces left unexplained: lost_in_glare's own judgement
        patch.setattr(EmptyShelf, "_in_a_finger_band", lambda self, region, in_pieces: False)
        assert len(shelf.unexplained_parts(finger.changes, [card], finger.sharp)) > 1    # in pieces
        assert not shelf.lost_in_glare(finger, [card])
    short = _in_segments(shelf, compared, card, 40)                       # three pieces, apart from the edge
    assert not _at_the_edge(short.changes)
    assert shelf.lost_in_glare(short, [card])
    assert shelf.lost_in_glare(_burnt_out_band(shelf, compared, card, 0.9), [card])


def _at_the_edge(mask: np.ndarray) -> bool:
    return bool(mask[0].any() or mask[-1].any() or mask[:, 0].any() or mask[:, -1].any())


def test_a_scene_with_a_card_burnt_out_beside_the_card_named_reads_unsure(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same class end to end: placeholder 51100180 (hard, small cards on a dotted tablecloth, a
    # glare over both), a wrong reading of the smaller run at 3bfb90d: "ok" with the claw alone
    design = make_design("placeholder")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 51_100_180, hard=True)
    assert read(reader, scene, True) == "right"                      # both named since session 70's glare rule
    _without_the_glares_hidden_texture(monkeypatch)
    assert read(reader, scene, True) == "unsure"
    monkeypatch.setattr(EmptyShelf, "lost_in_glare", lambda self, compared, cards: False)
    assert read(reader, scene, True) == "wrong"


class _ReadsAtSightings:
    """Stands in for the reader's ``read_box`` (``shelf_step.CardLooks``): a box centred on a card
    reads, at the card's n-th sighting, the name ``reads[card][n]`` (n from 1), else nothing."""

    threshold = 0.5

    def __init__(self, cards: dict[str, np.ndarray], reads: dict[str, dict[int, str]]) -> None:
        self.cards, self.reads = cards, reads
        self.sightings: dict[str, int] = {}

    def read_box(self, frame, small, scale, box):
        centre = (np.asarray(box) / scale).mean(axis=0)
        card = next((name for name, quad in self.cards.items() if np.linalg.norm(quad.mean(axis=0) - centre) < 5), None)
        if card is None:
            return None
        self.sightings[card] = self.sightings.get(card, 0) + 1
        name = self.reads[card].get(self.sightings[card])
        return None if name is None else sighting(name, self.cards[card], 0.9)


def _read_in_parts_then_outlines(monkeypatch: pytest.MonkeyPatch, faces, reads: dict[str, dict[int, str]],
                                 places: list[Placement]) -> list:
    """``shelf_step._read_changed_region`` of the one change of cards whose changes met (``places``
    on felt), its parts and its outlines each the cards' quads, read as ``reads`` says (the first
    sighting of a card is its part's, the second its outline's)."""
    scene, shelf = table_scene(faces, "felt", places)
    compared = shelf.compare(scene.image)
    (region,) = shelf.unexplained_regions(compared.changes, [], compared.sharp)
    cards = {name: np.asarray(quad, np.float32) for name, quad in scene.cards}
    monkeypatch.setattr(EmptyShelf, "parts", lambda self, region, quads: list(cards.values()))
    monkeypatch.setattr(shelf_step, "outlines_of_change", lambda *args: list(cards.values()))
    small, scale = work_image(scene.image)
    return shelf_step._read_changed_region(_ReadsAtSightings(cards, reads), scene.image, small, scale, compared,
                                           region, [], shelf)


class _ReadsOutlines:
    """Stands in for the reader's ``read_box`` (``shelf_step.CardLooks``): any box within 2 px of a
    quad of ``cards`` reads as that card, every other box nothing; the boxes asked are kept."""

    threshold = 0.5

    def __init__(self, cards: dict[str, np.ndarray]) -> None:
        self.cards = cards
        self.asked: list[np.ndarray] = []

    def read_box(self, frame, small, scale, box):
        box = np.asarray(box, np.float32) / scale
        self.asked.append(box)
        name = next((name for name, quad in self.cards.items() if np.abs(quad - box).max() <= 2), None)
        return None if name is None else sighting(name, self.cards[name], 0.9)


def test_an_outline_the_stages_could_not_read_lying_in_a_change_is_read_as_its_card(
        faces, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: a card with a finger from the frame's edge on it: its change runs too long for a
    # card, and neither its rectangle nor its parts, cut round the finger's base, read; the stages
    # outlined the card and could not read it (their layout put it upside down). That outline,
    # lying in the change, is read as the change's card; one lying beside the change is not read
    finger = Finger(0, side=2, along=0.5, depth=0.25, width=0.35)
    scene, shelf = table_scene(faces, "felt", [Placement(SHIPPED_FACE_NAMES[3], (0.4, 0.45), 30.0, 0.45)],
                               dataclasses.replace(LIGHT, fingers=(finger,)))
    compared = shelf.compare(scene.image)
    outline = np.float32(scene.cards[0][1])
    (region,) = [r for r in shelf.unexplained_regions(compared.changes, [], compared.sharp)
                 if shelf.share_in(r, outline) >= shelf_step.OUTLINE_IN_CHANGE]
    beside = outline + np.float32([np.ptp(outline[:, 0]) + 20, 0])
    monkeypatch.setattr(EmptyShelf, "parts", lambda self, region, quads: [])
    monkeypatch.setattr(shelf_step, "outlines_of_change", lambda *args: [])
    small, scale = work_image(scene.image)

    def read(unread: list[np.ndarray]) -> tuple[list, _ReadsOutlines]:
        looks = _ReadsOutlines({SHIPPED_FACE_NAMES[3]: outline, "beside": beside})
        return shelf_step._read_changed_region(looks, scene.image, small, scale, compared, region, [], shelf,
                                               unread), looks

    assert read([])[0] == []
    found, _ = read([beside, outline])
    assert [card.ingredient for card in found] == [SHIPPED_FACE_NAMES[3]]
    _, looks = read([beside])
    assert not any(np.abs(box - beside).max() <= 2 for box in looks.asked)


def test_a_scene_with_a_card_outlined_and_unread_under_a_finger_reads_right(monkeypatch: pytest.MonkeyPatch) -> None:
    # the same class end to end: tarot 64100049 (a probe of session 59), its colour wheel under a
    # finger from the frame's bottom edge, outlined by the stages and read upside down
    design = make_design("tarot")
    reader = CardReader(enroll(dict(design.faces), design.back))
    scene = design_scene(design, 64_100_049, hard=False)
    assert read(reader, scene, True) == "right"
    changed_region = shelf_step._read_changed_region
    monkeypatch.setattr(shelf_step, "_read_changed_region", lambda *args: changed_region(*args[:8]))
    assert read(reader, scene, True) == "unsure"


#: two cards whose changes met at a corner, and three in a row
TWO_MET = [Placement("fern", (0.4, 0.35), 15.0, 0.22), Placement("claw", (0.485, 0.55), 40.0, 0.22)]
THREE_MET = [*TWO_MET, Placement("toad", (0.57, 0.35), 15.0, 0.22)]


def test_cards_read_some_in_their_parts_and_the_rest_in_their_outlines_explain_their_change(
        faces, monkeypatch: pytest.MonkeyPatch) -> None:
    # the class: two small cards whose changes met, one read in its part, the other's part widened
    # off it by a glare on its corner and read only in its outline: neither reading covers the
    # change alone, the two together do
    found = _read_in_parts_then_outlines(monkeypatch, faces, {"fern": {1: "fern"}, "claw": {2: "claw"}}, TWO_MET)
    assert sorted(card.ingredient for card in found) == ["claw", "fern"], found
    # each card once: one read in its part and its outline alike is not counted twice
    reads = {"fern": {1: "fern", 2: "fern"}, "claw": {1: "claw"}, "toad": {2: "toad"}}
    found = _read_in_parts_then_outlines(monkeypatch, faces, reads, THREE_MET)
    assert sorted(card.ingredient for card in found) == ["claw", "fern", "toad"], found
    assert _read_in_parts_then_outlines(monkeypatch, faces, {"fern": {1: "fern"}, "claw": {}}, TWO_MET) == []


def test_a_card_read_as_two_ingredients_in_its_part_and_its_outline_explains_nothing(
        faces, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = {"fern": {1: "fern", 2: "root"}, "claw": {1: "claw"}, "toad": {2: "toad"}}
    assert _read_in_parts_then_outlines(monkeypatch, faces, reads, THREE_MET) == []
