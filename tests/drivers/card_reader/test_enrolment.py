"""Enrolment knows which way up a face is and says when faces look alike or blank, and when the
captured back looks like a face or shows nothing."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from drivers.card_reader import enroll
from drivers.card_reader.designs import DESIGN_NAMES, make_design
from drivers.card_reader.enrolment import SETTINGS, EnrolmentSettings, alike_faces, back_warnings, upright_faces
from tests.drivers.card_reader.ribbon_design import ribbon_faces


@pytest.mark.parametrize("design", ["shipped", "ribbon"])
def test_photos_turned_90_or_180_degrees_are_stored_upright_with_a_warning(design, faces) -> None:
    source = dict(faces) if design == "shipped" else ribbon_faces()
    upright = enroll(source)
    assert upright.warnings == ()
    turned = dict(source)
    turned["toad"] = np.ascontiguousarray(np.rot90(source["toad"], 2))          # a scan fed upside down
    if design == "ribbon":   # the shipped faces turned 90 degrees: locate_face finds another outline (left)
        turned["fern"] = np.ascontiguousarray(np.rot90(source["fern"], 1))      # a photo on its side
        turned["root"] = np.ascontiguousarray(np.rot90(source["root"], -1))     # ... the other side
    refs = enroll(turned)
    def alike(a: np.ndarray, b: np.ndarray) -> float:
        x, y = a.astype(float).ravel(), b.astype(float).ravel()
        return float(np.corrcoef(x, y)[0, 1])

    for ing in ("toad", "fern", "root") if design == "ribbon" else ("toad",):
        stored, wanted = refs.faces[ing], upright.faces[ing]
        assert alike(stored, wanted) > 0.8 > alike(stored[::-1, ::-1], wanted), ing
    assert {w.split("'")[1] for w in refs.warnings if "upside down" in w} <= {"toad", "fern", "root"}
    assert any("'toad'" in w for w in refs.warnings)


def test_upright_faces_leaves_upright_faces_alone_and_needs_three(faces) -> None:
    fixed, warnings = upright_faces(faces)
    assert warnings == [] and all(fixed[i] is faces[i] for i in faces)
    two = {name: faces[name][::-1, ::-1] for name in list(faces)[:2]}
    assert upright_faces(two) == (two, [])


def test_faces_alike_or_blank_are_warned_about(references) -> None:
    faces = dict(references.faces)
    assert alike_faces(faces) == []
    faces["claw"] = faces["fern"].copy()
    faces["toad"] = np.full_like(faces["toad"], 120)
    warnings = alike_faces(faces)
    assert any("'fern' and 'claw'" in w for w in warnings)
    assert any("'toad'" in w and "card back" in w for w in warnings)


@pytest.mark.parametrize("name", DESIGN_NAMES)
def test_a_real_back_passes_the_back_checks(name: str) -> None:
    design = make_design(name)
    refs = enroll(dict(design.faces), design.back)
    assert refs.back is not None
    assert back_warnings(refs.back, refs.faces) == []
    assert not any("back" in w for w in refs.warnings)


@pytest.mark.parametrize("turned", [False, True])
def test_a_back_captured_face_up_is_named_as_that_face(references, turned: bool) -> None:
    faces = dict(references.faces)
    back = faces["scorpion"][::-1, ::-1] if turned else faces["scorpion"]
    warnings = back_warnings(np.ascontiguousarray(back), faces)
    assert len(warnings) == 1 and "'scorpion'" in warnings[0] and "face up" in warnings[0]


def test_a_blank_back_is_warned_about_and_still_enrolled(faces) -> None:
    blank = np.full((350, 250, 3), 130, np.uint8)
    refs = enroll(faces, blank)
    assert refs.back is not None
    assert any("back shows almost no detail" in w for w in refs.warnings)


def test_the_enrolment_settings_defaults_pass_their_checks() -> None:
    assert EnrolmentSettings() == SETTINGS


@pytest.mark.parametrize(("change", "error"), (
    ({"turned_by": "0.15"}, TypeError), ({"alike": True}, TypeError), ({"layout_size": 30}, TypeError),
    ({"layout_size": (30.0, 42)}, TypeError), ({"blank": -12.0}, ValueError), ({"layout_size": (30, 0)}, ValueError)))
def test_a_bad_enrolment_setting_is_refused_by_name(change: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match=rf"^EnrolmentSettings\.{next(iter(change))} "):
        dataclasses.replace(SETTINGS, **change)
