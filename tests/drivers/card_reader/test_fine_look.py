"""The fine look: a card's face at the camera's resolution, against a glare spot's slope."""

from __future__ import annotations

import numpy as np
import pytest

from drivers.card_reader import CardReader
from drivers.card_reader.designs import make_design
from drivers.card_reader.fine_look import FINE_BLOCK, FINE_LEAD, FINE_LEVEL, FINE_SPAN, FineMatcher, _plane_remover
from drivers.card_reader.scenes import Conditions, Placement, compose_scene, random_scene


@pytest.fixture(scope="module")
def fine(faces: dict[str, np.ndarray]) -> FineMatcher:
    return FineMatcher(faces)


def test_a_tile_s_plane_is_taken_away_and_its_texture_kept() -> None:
    yy, xx = np.mgrid[0:FINE_BLOCK, 0:FINE_BLOCK].astype(np.float32)
    slope = (40 + 7 * xx - 3 * yy).ravel()
    texture = np.random.default_rng(1).normal(0, 5, FINE_BLOCK * FINE_BLOCK).astype(np.float32)
    remove = _plane_remover(FINE_BLOCK)
    assert np.allclose(slope @ remove, 0, atol=1e-3)
    kept = (slope + texture) @ remove
    assert np.corrcoef(kept, texture)[0, 1] > 0.9


@pytest.mark.parametrize("ingredient", ["toad", "flower", "mushroom"])
def test_a_dark_or_smooth_face_under_a_glare_spot_is_read(fine: FineMatcher, faces: dict[str, np.ndarray],
                                                          ingredient: str) -> None:
    glare = Conditions(glare=(0.45, 0.45, 0.08, 0.9), brightness=0.8)
    scene = compose_scene(faces, [Placement(ingredient, (0.5, 0.5), 15, 0.5)], "wood", seed=3, conditions=glare)
    (_, quad), = scene.cards
    read, confidence = fine.read(scene.image, np.float32(quad))
    assert read == ingredient and confidence >= 0.5


def test_a_quad_of_bare_shelf_gives_no_confidence(fine: FineMatcher, faces: dict[str, np.ndarray]) -> None:
    scene = compose_scene(faces, [], "copper", seed=5)
    quad = np.float32([[200, 120], [380, 120], [380, 372], [200, 372]])
    _, confidence = fine.read(scene.image, quad)
    assert confidence < 0.5


def test_the_reader_reads_a_card_only_the_fine_look_can(faces: dict[str, np.ndarray], reader: CardReader,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuning seed 623: a card the thumbnail reads weakly, read once the fine look sees it too."""
    scene = random_scene(faces, 623, kind="overlap")
    assert reader.identify(scene.image).ingredients == scene.ingredients
    monkeypatch.setattr(reader._fine, "read", lambda frame, quad: ("fern", 0.0))
    monkeypatch.setattr(reader, "_second_look", lambda *args: None)
    assert reader.identify(scene.image).status == "unsure"


def _sharp_only(fine: FineMatcher, frame: np.ndarray, quad: np.ndarray) -> tuple[str, float]:
    """``FineMatcher.read`` against the sharp faces alone (its reading before the blurred faces)."""
    scores = fine.scores(frame, quad)
    order = np.argsort(scores)[::-1]
    best, runner_up = float(scores[order[0]]), float(scores[order[1]])
    lead = np.clip((best - runner_up - FINE_LEAD) / FINE_SPAN, 0.0, 1.0)
    return fine.ingredients[int(order[0])], float(lead * np.clip(best / FINE_LEVEL, 0.0, 1.0))


def test_a_small_card_under_motion_blur_is_read_against_the_faces_blurred_alike() -> None:
    # the class: a small card (a fifth of the frame) under motion blur has lost its blocks' fine
    # detail, and correlated weakly with every sharp face, the right one too; its outline moved
    # off the card, or the card read upside down, stays unread
    design = make_design("ribbon")
    fine = FineMatcher(design.faces)
    blur = Conditions(motion=(10.0, 30.0), blur_sigma=1.5, noise=3.0, jpeg=80)
    read_blurred = read_sharp = 0
    for i, ingredient in enumerate(design.faces):
        scene = compose_scene(dict(design.faces), [Placement(ingredient, (0.5, 0.5), 20.0 * i, 0.2)], "wood",
                              seed=i, conditions=blur)
        (_, quad), = scene.cards
        quad = np.float32(quad)
        name, confidence = fine.read(scene.image, quad)
        assert name == ingredient or confidence < 0.5
        read_blurred += name == ingredient and confidence >= 0.5
        name, confidence = _sharp_only(fine, scene.image, quad)
        read_sharp += name == ingredient and confidence >= 0.5
        moved = quad + (quad[1] - quad[0]) * 0.4
        assert fine.read(scene.image, moved)[1] < 0.5
        assert fine.read(scene.image, np.roll(quad, 2, axis=0))[1] < 0.5
    assert read_blurred >= read_sharp + 3, (read_blurred, read_sharp)
