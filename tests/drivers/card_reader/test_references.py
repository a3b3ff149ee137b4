"""Enrolment and the reference file: round trip, schema version, damaged files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from drivers.card_reader import (
    SHIPPED_FACE_NAMES,
    SCHEMA_VERSION,
    ReferenceFileError,
    References,
    enroll,
    load_references,
    placeholder_references,
    read_faces,
)
from drivers.card_reader.references import FACE_H, FACE_W, locate_face


def test_placeholder_faces_cover_every_ingredient(faces: dict[str, np.ndarray]) -> None:
    assert tuple(faces) == SHIPPED_FACE_NAMES
    for face in faces.values():
        assert face.dtype == np.uint8 and face.ndim == 3 and face.shape[2] == 3


def test_enroll_builds_one_canonical_face_per_ingredient(references: References) -> None:
    assert references.ingredients == SHIPPED_FACE_NAMES
    for img in references.faces.values():
        assert img.shape == (FACE_H, FACE_W, 3)


def test_placeholder_references_match_a_fresh_enrolment(references: References) -> None:
    shipped = placeholder_references()
    assert shipped.ingredients == references.ingredients


def test_enroll_finds_the_card_in_a_photo_with_a_margin(faces: dict[str, np.ndarray]) -> None:
    face = faces["toad"]
    photo = np.full((face.shape[0] + 120, face.shape[1] + 100, 3), 40, np.uint8)
    photo[60:60 + face.shape[0], 50:50 + face.shape[1]] = face
    quad = locate_face(photo)
    assert abs(quad[0][0] - 50) < 10 and abs(quad[0][1] - 60) < 10        # top-left corner first
    assert abs(quad[2][0] - (50 + face.shape[1])) < 10


def test_save_and_load_round_trip(references: References, tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    references.save(path)
    data = json.loads(path.read_text())
    assert data["version"] == SCHEMA_VERSION and data["schema"] == "labkit.card_reader.references"
    loaded = load_references(path)
    assert loaded.ingredients == references.ingredients
    for ing in SHIPPED_FACE_NAMES:
        assert np.array_equal(loaded.faces[ing], references.faces[ing])      # PNG is lossless


def test_load_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(ReferenceFileError, match="nope.json.*no such file"):
        load_references(tmp_path / "nope.json")


def test_load_file_from_another_version(references: References, tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    data = references.to_json()
    data["version"] = SCHEMA_VERSION + 1
    path.write_text(json.dumps(data))
    with pytest.raises(ReferenceFileError, match="old.json.*another version") as info:
        load_references(path)
    assert isinstance(info.value, ValueError)
    assert info.value.path == str(path)


@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "not valid JSON"),
        ('{"schema": "something else", "version": 1}', "not a card reader reference file"),
        ('{"schema": "labkit.card_reader.references", "version": 2, "faces": {}}', "no enrolled faces"),
        ('{"schema": "labkit.card_reader.references", "version": 2, "faces": {"fern": "AAAA"}}',
         "face of 'fern' cannot be decoded"),
        ('{"schema": "labkit.card_reader.references", "version": 1, "faces": {}}',
         "schema version 1, this kit reads 2"),
    ],
)
def test_load_damaged_file(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ReferenceFileError, match=problem):
        load_references(path)


def test_load_truncated_file(references: References, tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    references.save(path)
    path.write_text(path.read_text()[:5000])
    with pytest.raises(ReferenceFileError, match="cut.json"):
        load_references(path)


@pytest.mark.parametrize(
    "faces, message",
    [
        ({}, "at least one face"),
        ({"fern": np.zeros((100, 80), np.uint8)}, "H x W x 3"),
        ({"fern": np.zeros((100, 80, 3), np.float32)}, "uint8"),
        ({"fern": "fern.png"}, "numpy array"),
        ({"": np.zeros((100, 80, 3), np.uint8)}, "non-empty strings"),
    ],
)
def test_enroll_rejects_bad_input(faces: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        enroll(faces)  # type: ignore[arg-type]


def test_references_without_a_face_are_refused() -> None:
    with pytest.raises(ValueError):
        References({})


def test_the_reader_reads_the_face_names_it_is_given(faces: dict[str, np.ndarray]) -> None:
    """A generic face reader: faces named by the caller, no list of its own."""
    from drivers.card_reader import CardReader
    from drivers.card_reader.scenes import Placement, render_scene

    renamed = {f"face-{k}": faces[name] for k, name in enumerate(SHIPPED_FACE_NAMES[:3])}
    reader = CardReader(enroll(renamed))
    assert reader.references.ingredients == ("face-0", "face-1", "face-2")
    frame = render_scene({"face-1": faces[SHIPPED_FACE_NAMES[1]]},
                         [Placement("face-1", (0.5, 0.5), 0.0, 0.6)])
    reading = reader.identify(frame)
    assert reading.status == "ok" and [card.ingredient for card in reading.cards] == ["face-1"]


def test_read_faces_names_the_missing_file_and_the_names_asked_for(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="alpha.png.*alpha, beta"):
        read_faces(tmp_path, ("alpha", "beta"))
