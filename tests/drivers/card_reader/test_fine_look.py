"""The fine look: a card's face at the camera's resolution, against a glare spot's slope."""

from __future__ import annotations

import numpy as np
import pytest

from drivers.card_reader import CardReader
from drivers.card_reader.fine_look import FINE_BLOCK, FineMatcher, _plane_remover
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
