"""Small cards (15-25 % of the frame height) are read in a cut-out of the frame, and never at the
cost of a card outside it; large cards (60-85 %) are read with outlines of their range."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from drivers.card_reader import SHIPPED_FACE_NAMES, CardReader, CardSighting, FrameReading
from drivers.card_reader.designs import BACKGROUND_KINDS, table_background
from drivers.card_reader.thumbnails import WORK_H, work_image
from drivers.card_reader.scenes import Placement, compose_scene
from drivers.card_reader.zoom import (SETTINGS, CutOut, ZoomSettings, covered, cut_around, cut_out, edge_outlines,
                                      larger_than_usual, long_side, small_cards, smaller_than_usual, usual_size)

SIZES = ((640, 480), (1280, 960))


def small_pair(faces: dict[str, np.ndarray], layout: int, size: tuple[int, int] = (640, 480), height: float = 0.18):
    """Two cards of 18 % of the frame side by side, each layout elsewhere, turned otherwise, on another shelf."""
    first, second = SHIPPED_FACE_NAMES[layout], SHIPPED_FACE_NAMES[(layout + 3) % 8]
    cx, cy = 0.3 + 0.07 * layout, 0.35 + 0.05 * layout
    placements = [Placement(first, (cx, cy), 12.0 * layout, height),
                  Placement(second, (cx + 0.16, cy + 0.04), -15.0 * layout, height)]
    return compose_scene(faces, placements, ("wood", "iron", "copper")[layout % 3], seed=layout, size=size)


def truth(shot) -> tuple[str, ...]:
    return tuple(sorted(ingredient for ingredient, _ in shot.cards))


@pytest.mark.parametrize("size", SIZES)
def test_small_cards_are_read_and_never_wrongly(faces, reader, size) -> None:
    # the class: cards at 15-25 % of the frame, below the outline stages' range (0.25-0.72); none of
    # these six layouts was read before the cut-out (each read "unsure")
    shots = [small_pair(faces, layout, size) for layout in range(6)]
    readings = [reader.identify(shot.image) for shot in shots]
    assert all(r.status != "ok" or r.ingredients == truth(s) for r, s in zip(readings, shots)), readings
    assert sum(r.status == "ok" for r in readings) >= 5, readings


def test_a_small_card_far_from_the_pair_read_is_never_dropped(faces, reader) -> None:
    # a third card of the same size beyond the cut-out around the pair: the whole frame is counted
    for layout in range(3):
        shot = small_pair(faces, layout)
        lone = Placement(SHIPPED_FACE_NAMES[(layout + 5) % 8], (0.12, 0.84 - 0.05 * layout), 10.0, 0.18)
        placements = [Placement(ing, (0.3 + 0.07 * layout + 0.16 * i, 0.35 + 0.05 * layout + 0.04 * i),
                                (12.0, -15.0)[i] * layout, 0.18) for i, (ing, _) in enumerate(shot.cards)]
        three = compose_scene(faces, [*placements, lone], ("wood", "iron", "copper")[layout % 3], seed=layout)
        reading = reader.identify(three.image)
        assert reading.status != "ok" or reading.ingredients == truth(three), reading


def test_an_ok_reading_of_small_cards_that_left_one_out_is_read_again_closer(faces, reader, monkeypatch) -> None:
    # the class: small cards lie at the edge of the outline stages' range, where a neighbour is
    # seen least well; an "ok" naming them is checked in a cut-out, here after a first pass that
    # named only one card of the pair
    read_whole = reader._read_whole
    for layout in range(4):
        shot = small_pair(faces, layout)
        calls = []

        def first_pass_drops_one(frame, small, scale, shot=shot, calls=calls):
            calls.append(frame.shape)
            if len(calls) > 1:
                return read_whole(frame, small, scale)
            ingredient, quad = shot.cards[0]
            return FrameReading("ok", [CardSighting(ingredient, tuple(map(tuple, quad)), 0.9)])

        monkeypatch.setattr(reader, "_read_whole", first_pass_drops_one)
        reading = reader.identify(shot.image)
        assert reading.status != "ok" or reading.ingredients == truth(shot), (layout, reading)


def test_an_ok_reading_of_cards_of_the_usual_size_is_not_read_again(faces, reader, monkeypatch) -> None:
    shot = compose_scene(faces, [Placement("fern", (0.35, 0.5), 10.0, 0.45), Placement("toad", (0.7, 0.5), -5.0, 0.45)],
                         "wood", seed=3)
    first = reader.identify(shot.image)
    assert first.status == "ok"
    monkeypatch.setattr("drivers.card_reader.reader.cut_out", lambda *args: pytest.fail("read again closer"))
    assert reader.identify(shot.image) == first


def test_a_cut_out_made_for_a_part_of_a_card_is_cut_again_around_the_card(faces, reader, monkeypatch) -> None:
    # the class: the outlines of a small card's size found its inner frame (a dark deck), so the
    # cut-out was cut for smaller cards and a neighbour may cross its edge
    from drivers.card_reader import reader as reader_module

    shot = compose_scene(faces, [Placement("mushroom", (0.45, 0.5), 25.0, 0.2)], "wood", seed=2)
    small, scale = work_image(shot.image)
    quad = np.float32(shot.cards[0][1]) * scale
    inner_frame = (quad - quad.mean(axis=0)) * 0.75 + quad.mean(axis=0)
    cuts = []

    def cut_out_spy(frame, scale, things, settings):
        cuts.append(max(long_side(q) for q in things))
        return cut_out(frame, scale, things, settings)

    monkeypatch.setattr(reader_module, "small_cards", lambda *args: [inner_frame])
    monkeypatch.setattr(reader_module, "edge_outlines", lambda *args: [])
    monkeypatch.setattr(reader_module, "cut_out", cut_out_spy)
    reading = reader.identify(shot.image)
    assert len(cuts) == 2 and cuts[1] > SETTINGS.larger_than_seen * cuts[0], cuts
    assert reading.status != "ok" or reading.ingredients == truth(shot), reading


def first_pass_unsure_with(read_whole, outline):
    """A stand-in for ``CardReader._read_whole`` whose first reading is "unsure" with one unnamed
    ``outline`` (frame px), and every later one ``read_whole``'s."""
    calls = []

    def first_pass(frame, small, scale):
        calls.append(frame.shape)
        if len(calls) > 1:
            return read_whole(frame, small, scale)
        return FrameReading("unsure", [CardSighting(None, outline, 0.0)])  # type: ignore[arg-type]

    return first_pass


def test_a_large_outline_that_is_no_large_card_does_not_stop_small_cards_being_read_closer(faces, reader,
                                                                                          monkeypatch) -> None:
    # the class: a stone's flag or a tablecloth's square outlined beside a small pair, longer than a
    # card of the usual size; the large cards' range reads no "ok", so the outline is the shelf's
    read_whole = reader._read_whole
    flag = ((20.0, 30.0), (620.0, 30.0), (620.0, 460.0), (20.0, 460.0))
    assert larger_than_usual(np.float32(flag) * WORK_H / 480, WORK_H)
    for layout in range(3):
        shot = small_pair(faces, layout)
        monkeypatch.setattr(reader, "_read_whole", first_pass_unsure_with(read_whole, flag))
        monkeypatch.setattr(reader, "_read_large", lambda *args: None)
        reading = reader.identify(shot.image)
        assert reading.status == "ok" and reading.ingredients == truth(shot), (layout, reading)


def test_small_cards_the_cut_out_sees_no_outline_of_are_read_one_by_one(faces, reader, monkeypatch) -> None:
    # the class: small cards whose light does not stand out from a busy shelf, found by their rims,
    # where the outline stages reading the cut-out see no outline of them
    from drivers.card_reader import reader as reader_module

    monkeypatch.setattr(reader_module.CardReader, "_read_part", lambda *args: None)
    readings = []
    for layout in range(6):
        shot = small_pair(faces, layout)
        readings.append((reader.identify(shot.image), shot))
    assert all(r.status != "ok" or r.ingredients == truth(s) for r, s in readings), readings
    assert sum(r.status == "ok" for r, _ in readings) >= 5, readings


def test_small_cards_read_one_by_one_beside_a_thing_no_card_is_left_unsure(faces, reader, monkeypatch) -> None:
    # a thing of a small card's size on the bare shelf reads as no card: the frame is not "ok"
    from drivers.card_reader import reader as reader_module

    monkeypatch.setattr(reader_module.CardReader, "_read_part", lambda *args: None)
    found = reader_module.small_cards
    bare = np.float32([[20, 200], [80, 200], [80, 284], [20, 284]]) * WORK_H / 480
    monkeypatch.setattr(reader_module, "small_cards", lambda *args: [*found(*args), bare])
    for layout in range(3):
        assert reader.identify(small_pair(faces, layout).image).status != "ok", layout


def test_a_frame_too_coarse_to_name_small_cards_stays_unsure(faces, reader) -> None:
    # cards of 18 % of a 320 x 240 frame (43 px high): the cut-out would be brought up more than
    # ``largest_factor`` times, past naming
    reading = reader.identify(small_pair(faces, 0, (320, 240)).image)
    assert reading.status != "ok"


def test_small_cards_are_found_in_the_work_image_and_cards_of_a_usual_size_are_not(faces) -> None:
    shot = small_pair(faces, 1)
    small, scale = work_image(shot.image)
    things = small_cards(small, [])
    for _, quad in shot.cards:
        assert any(covered(thing, [np.float32(quad) * scale]) for thing in things)
    usual = compose_scene(faces, [Placement("fern", (0.5, 0.5), 10.0, 0.45)], "wood", seed=3)
    assert small_cards(work_image(usual.image)[0], []) == []


def dark_cards_on_a_dark_shelf(layout: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Two navy cards of 18 % of the frame, each with a one-pixel light rim, on a grained shelf a
    little lighter than they are; each layout turned otherwise. The frame and the cards' corners."""
    rng = np.random.default_rng(layout)
    rows = np.mgrid[0:480, 0:640][0].astype(np.float32)
    grain = 60 + 12 * np.sin(rows / 9.0)[..., None] + rng.normal(0, 5, (480, 640, 3))
    frame = np.clip(grain, 0, 255).astype(np.uint8)
    quads = []
    for cx, cy, angle in ((256, 240, 12.0), (384, 216, -20.0)):
        quad = cv2.boxPoints(((cx, cy), (0.18 * 480 / 1.4, 0.18 * 480), angle + 7 * layout)).astype(np.float32)
        corners = np.round(quad).astype(np.int32)
        cv2.fillConvexPoly(frame, corners, (70, 35, 25))
        cv2.polylines(frame, [corners], True, (170, 190, 200), 1, cv2.LINE_AA)
        quads.append(quad)
    return frame, quads


def test_small_cards_whose_light_does_not_stand_out_are_found_by_their_rims() -> None:
    # the class: a dark deck on a dark shelf (the tarot's navy cards): the work image shows no
    # card-sized blob, and a small card's thin rim is lost there; the frame's edges keep it
    for layout in range(4):
        frame, quads = dark_cards_on_a_dark_shelf(layout)
        small, scale = work_image(frame)
        cards = [quad * scale for quad in quads]
        assert not any(covered(card, small_cards(small, [])) for card in cards)
        found = edge_outlines(frame, scale)
        assert all(any(covered(thing, [card]) for thing in found) for card in cards), layout


def test_an_empty_table_shows_no_card_edges_and_usual_cards_none_of_a_small_size(faces) -> None:
    for kind in BACKGROUND_KINDS:
        for seed in range(3):
            assert edge_outlines(table_background(kind, seed=seed), WORK_H / 480) == [], (kind, seed)
    usual = compose_scene(faces, [Placement("fern", (0.5, 0.5), 10.0, 0.45)], "wood", seed=3)
    small, scale = work_image(usual.image)
    assert not [q for q in edge_outlines(usual.image, scale) if not covered(q, [np.float32(usual.cards[0][1]) * scale])]


def test_quads_already_seen_count_only_at_a_small_cards_size() -> None:
    shelf = np.full((WORK_H, 320, 3), 60, np.uint8)
    little = np.float32([[100, 100], [130, 100], [130, 142], [100, 142]])        # 42 px: 0.175 of 240
    usual = np.float32([[100, 40], [175, 40], [175, 145], [100, 145]])          # 105 px: 0.44
    assert [q.tolist() for q in small_cards(shelf, [little, usual])] == [little.tolist()]


def test_the_cut_out_shows_a_card_at_the_share_set_and_maps_back_to_the_frame() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[238:246, 326:334] = 255                                               # a mark at the card's middle
    scale = WORK_H / 480
    card = np.float32([[300, 200], [360, 200], [360, 284], [300, 284]])         # 84 px high in the frame
    part = cut_out(frame, scale, [card * scale])
    assert isinstance(part, CutOut)
    assert part.image.shape[0] == SETTINGS.frame_height
    assert long_side(card) * part.factor / part.image.shape[0] == pytest.approx(SETTINGS.card_share, abs=0.01)
    inside = (card - np.float32([part.x, part.y])) * part.factor
    assert np.allclose(part.to_frame(inside), card, atol=1e-3)
    assert (inside >= 0).all() and (inside[:, 0] <= part.image.shape[1]).all()
    x, y = np.round(inside.mean(axis=0)).astype(int)
    assert (part.image[y, x] == 255).all()


def test_no_cut_out_without_small_cards_or_for_cards_too_far_apart_or_too_coarse() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    scale = WORK_H / 480
    assert cut_out(frame, scale, []) is None
    card = np.float32([[0, 0], [60, 0], [60, 84], [0, 84]])
    apart = [card + np.float32([20, 20]), card + np.float32([560, 380])]
    assert cut_out(frame, scale, [q * scale for q in apart]) is None
    coarse = np.zeros((240, 320, 3), np.uint8)                                   # a 43 px card: x3.5
    tiny = np.float32([[100, 100], [131, 100], [131, 143], [100, 143]])
    assert cut_out(coarse, 1.0, [tiny]) is None
    assert cut_out(coarse, 1.0, [tiny], dataclasses.replace(SETTINGS, largest_factor=4.0)) is not None


def test_the_cut_out_around_changes_is_as_small_as_they_and_the_margin_allow() -> None:
    # two small cards whose changes met in one: the cut-out is made for the changes, not a card
    frame = np.zeros((480, 640, 3), np.uint8)
    frame[200:208, 300:308] = 255                                               # a mark inside the changes
    changes = [np.float32([[250, 150], [330, 150], [330, 260], [250, 260]]),
               np.float32([[340, 170], [420, 170], [420, 280], [340, 280]])]
    part = cut_around(frame, changes)
    assert isinstance(part, CutOut)
    assert part.image.shape[0] == SETTINGS.frame_height
    assert part.factor * (130 + 2 * SETTINGS.change_margin * 480) == pytest.approx(SETTINGS.frame_height, rel=0.02)
    for change in changes:
        inside = (change - np.float32([part.x, part.y])) * part.factor
        assert (inside >= 0).all() and (inside[:, 0] <= part.image.shape[1]).all()
        assert (inside[:, 1] <= part.image.shape[0]).all()
        assert np.allclose(part.to_frame(inside), change, atol=1e-3)
    x, y = np.round((np.float32([304, 204]) - np.float32([part.x, part.y])) * part.factor).astype(int)
    assert (part.image[y, x] == 255).all()


@pytest.mark.parametrize("size", ((640, 480), (1280, 960)))
def test_a_cut_out_takes_the_same_part_of_another_frame_and_knows_its_outline(size: tuple[int, int]) -> None:
    # the empty shelf's frame is cut and brought up as the frame was, pixel for pixel
    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    changes = [np.float32([[250, 150], [330, 150], [330, 260], [250, 260]]) * (size[0] / 640)]
    part = cut_around(frame, changes)
    assert isinstance(part, CutOut)
    assert np.array_equal(part.same_part(frame), part.image)
    corners = part.outline()
    assert np.allclose(corners[0], [part.x, part.y], atol=1e-3)
    assert np.allclose(corners[2] - corners[0], np.float32(part.image.shape[1::-1]) / part.factor, atol=1e-3)


def test_no_cut_out_around_changes_that_fill_the_frame_or_none_at_all() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    assert cut_around(frame, []) is None
    spread = [np.float32([[20, 20], [80, 20], [80, 100], [20, 100]]),
              np.float32([[560, 380], [620, 380], [620, 460], [560, 460]])]
    assert cut_around(frame, spread) is None                                    # no gain over the whole frame
    tall = [np.float32([[300, 30], [360, 30], [360, 420], [300, 420]])]          # 0.81 of the frame with its margin
    assert cut_around(frame, tall) is None
    assert cut_around(frame, tall, dataclasses.replace(SETTINGS, least_gain=1.0)) is not None


def test_a_cut_out_around_a_small_change_is_brought_up_no_more_than_the_largest_factor() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    dot = [np.float32([[300, 200], [310, 200], [310, 210], [300, 210]])]
    part = cut_around(frame, dot)
    assert isinstance(part, CutOut)
    assert part.factor == pytest.approx(SETTINGS.largest_factor, rel=0.01)
    assert part.x <= 300 and part.y <= 200 and part.x + 640 / part.factor >= 310 and part.y + 480 / part.factor >= 210


def test_a_thing_is_covered_by_a_card_sharing_most_of_it() -> None:
    thing = np.float32([[0, 0], [10, 0], [10, 14], [0, 14]])
    assert covered(thing, [thing + np.float32([2, 2])])
    assert not covered(thing, [thing + np.float32([7, 7])])
    assert not covered(thing, [])


def test_the_reader_takes_zoom_settings_and_refuses_anything_else(references) -> None:
    settings = dataclasses.replace(SETTINGS, card_share=0.35)
    assert CardReader(references, zoom=settings).zoom_settings is settings
    with pytest.raises(TypeError, match="zoom must be ZoomSettings, not dict"):
        CardReader(references, zoom={"card_share": 0.35})  # type: ignore[arg-type]


def test_the_zoom_settings_defaults_pass_their_checks_and_canny_takes_its_levels_either_way() -> None:
    assert ZoomSettings() == SETTINGS
    assert dataclasses.replace(SETTINGS, edge_levels=(120, 40)).edge_levels == (120, 40)


@pytest.mark.parametrize(("change", "error"), (
    ({"largest_factor": "3"}, TypeError), ({"covered": True}, TypeError), ({"frame_height": 480.0}, TypeError),
    ({"edge_levels": (40.0, 120)}, TypeError), ({"margin": 0}, ValueError), ({"edge_box": -1.25}, ValueError),
    ({"card_height": (0.3, 0.1)}, ValueError), ({"count_sizes": (1.4, 0.7)}, ValueError),
    ({"least_share": 0.4}, ValueError)))
def test_a_bad_zoom_setting_is_refused_by_name(change: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match=rf"^ZoomSettings\.{next(iter(change))} "):
        dataclasses.replace(SETTINGS, **change)


def large_card(faces: dict[str, np.ndarray], layout: int):
    """One card of 80 % of the frame's height, each layout another face, angle and shelf."""
    placement = Placement(SHIPPED_FACE_NAMES[layout], (0.5 + 0.02 * (layout % 3), 0.5), 8.0 * layout - 20, 0.8)
    return compose_scene(faces, [placement], ("wood", "iron", "copper")[layout % 3], seed=layout)


def test_large_cards_are_read_and_never_wrongly(faces, reader) -> None:
    # the class: a camera close to its shelf, cards above the outline stages' range (0.72 of the
    # height); 7 of these 8 read "unsure" before
    shots = [large_card(faces, layout) for layout in range(8)]
    readings = [reader.identify(shot.image) for shot in shots]
    assert all(r.status != "ok" or r.ingredients == truth(s) for r, s in zip(readings, shots)), readings
    assert sum(r.status == "ok" for r in readings) >= 6, readings


def test_a_frame_left_unsure_beside_a_card_named_at_the_usual_size_is_not_read_again(faces, reader,
                                                                                     monkeypatch) -> None:
    # cards on one shelf lie at one distance: beside a card of the usual size none is small or large
    shot = compose_scene(faces, [Placement("fern", (0.4, 0.5), 10.0, 0.45)], "wood", seed=5)
    quad = tuple(map(tuple, shot.cards[0][1]))
    unsure = FrameReading("unsure", [CardSighting("fern", quad, 0.9)])  # type: ignore[arg-type]
    monkeypatch.setattr(reader, "_read_whole", lambda *args: unsure)
    monkeypatch.setattr(reader, "_read_large", lambda *args: pytest.fail("read for large cards"))
    monkeypatch.setattr("drivers.card_reader.reader.cut_out", lambda *args: pytest.fail("read again closer"))
    assert reader.identify(shot.image) is unsure


def region_around(quads: list[np.ndarray], grown: float) -> tuple[tuple[float, float], ...]:
    """The corners (frame px) of the rectangle around ``quads``, grown about its middle."""
    points = np.vstack(quads)
    middle = points.mean(axis=0)
    low, high = middle + (points.min(axis=0) - middle) * grown, middle + (points.max(axis=0) - middle) * grown
    return ((low[0], low[1]), (high[0], low[1]), (high[0], high[1]), (low[0], high[1]))


def test_an_unnamed_region_of_the_usual_size_does_not_stop_small_cards_being_read_closer(faces, reader,
                                                                                      monkeypatch) -> None:
    # the class: the first pass leaves a small pair unsure with a region of the usual size around
    # both that may hide a card; it is no card seen at that size, so the small cards are looked for
    read_whole, cuts = reader._read_whole, []
    for layout in range(3):
        shot = small_pair(faces, layout)
        region = region_around([np.float32(quad) for _, quad in shot.cards], 1.2)
        assert usual_size(np.float32(region) * WORK_H / 480, WORK_H)
        monkeypatch.setattr(reader, "_read_whole", first_pass_unsure_with(read_whole, region))
        monkeypatch.setattr("drivers.card_reader.reader.cut_out", lambda *args: cuts.append(args) or cut_out(*args))
        reading = reader.identify(shot.image)
        assert reading.status != "ok" or reading.ingredients == truth(shot), (layout, reading)
    assert len(cuts) >= 3, len(cuts)


def test_the_sizes_of_a_card_are_told_apart_by_its_long_side() -> None:
    def card(long: float) -> np.ndarray:
        return np.float32([[0, 0], [long / 1.4, 0], [long / 1.4, long], [0, long]])

    for long, small, usual, large in ((40, True, False, False), (120, False, True, False), (200, False, False, True)):
        assert smaller_than_usual(card(long), WORK_H) is small
        assert usual_size(card(long), WORK_H) is usual
        assert larger_than_usual(card(long), WORK_H) is large
