"""``labkit vision`` CLI: JSON lines on success, one JSON error and exit code 2 on failure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from drivers.card_reader import SHIPPED_FACE_NAMES, SCHEMA_VERSION, References
from drivers.card_reader.cli import main
from drivers.card_reader.scenes import Placement, render_scene

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def faces_dir(tmp_path_factory: pytest.TempPathFactory, faces: dict[str, np.ndarray]) -> Path:
    folder = tmp_path_factory.mktemp("faces")
    for ing, img in faces.items():
        cv2.imwrite(str(folder / f"{ing}.png"), img)
    return folder


@pytest.fixture(scope="module")
def refs_file(tmp_path_factory: pytest.TempPathFactory, references: References) -> Path:
    path = tmp_path_factory.mktemp("refs") / "cards.json"
    references.save(path)
    return path


@pytest.fixture(scope="module")
def shelf_images(tmp_path_factory: pytest.TempPathFactory, faces: dict[str, np.ndarray]) -> list[Path]:
    folder = tmp_path_factory.mktemp("shelf")
    two = render_scene(faces, [Placement("fern", (0.28, 0.5), -10, 0.45), Placement("toad", (0.72, 0.5), 190, 0.45)])
    empty = render_scene(faces, [], seed=3)
    paths = [folder / "two.png", folder / "empty.jpg"]
    cv2.imwrite(str(paths[0]), two)
    cv2.imwrite(str(paths[1]), empty)
    return paths


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_enroll_writes_a_reference_file(faces_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "refs.json"
    assert main(["enroll", str(faces_dir), str(out)]) == 0
    assert lines(capsys) == [{"enrolled": list(SHIPPED_FACE_NAMES), "references": str(out)}]
    assert json.loads(out.read_text())["version"] == SCHEMA_VERSION


def test_identify_prints_one_json_line_per_image(refs_file: Path, shelf_images: list[Path],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["identify", str(refs_file)] + [str(p) for p in shelf_images]) == 0
    two, empty = lines(capsys)
    assert two["image"] == str(shelf_images[0]) and two["status"] == "ok"
    cards = two["cards"]
    assert isinstance(cards, list) and sorted(c["ingredient"] for c in cards) == ["fern", "toad"]
    for card in cards:
        assert set(card) == {"ingredient", "quad", "confidence"}
        assert len(card["quad"]) == 4 and all(len(p) == 2 for p in card["quad"])
        assert 0.0 <= card["confidence"] <= 1.0
    assert empty == {"image": str(shelf_images[1]), "status": "empty", "cards": []}


def test_missing_face_file(faces_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    partial = tmp_path / "faces"
    partial.mkdir()
    for ing in SHIPPED_FACE_NAMES[:-1]:
        (partial / f"{ing}.png").write_bytes((faces_dir / f"{ing}.png").read_bytes())
    assert main(["enroll", str(partial), str(tmp_path / "r.json")]) == 2
    (err,) = lines(capsys)
    assert err["error"]["kind"] == "missing_face"  # type: ignore[index]
    assert "feather.png" in err["error"]["message"]  # type: ignore[index]
    assert not (tmp_path / "r.json").exists()


def test_unreadable_face_file(faces_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "faces"
    broken.mkdir()
    for ing in SHIPPED_FACE_NAMES:
        (broken / f"{ing}.png").write_bytes((faces_dir / f"{ing}.png").read_bytes())
    (broken / "toad.png").write_text("not a picture")
    assert main(["enroll", str(broken), str(tmp_path / "r.json")]) == 2
    (err,) = lines(capsys)
    assert err["error"]["kind"] == "unreadable_image" and "toad.png" in err["error"]["message"]  # type: ignore[index]


def test_unreadable_image(refs_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "shelf.png"
    bad.write_bytes(b"\x89PNG garbage")
    assert main(["identify", str(refs_file), str(bad)]) == 2
    (err,) = lines(capsys)
    assert err == {"image": str(bad), "error": {
        "kind": "unreadable_image",
        "message": f"cannot read image {str(bad)!r} (not a picture OpenCV can decode)"}}


def test_missing_image(refs_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["identify", str(refs_file), str(tmp_path / "nope.png")]) == 2
    (err,) = lines(capsys)
    assert err["error"]["kind"] == "missing_image" and "nope.png" in err["error"]["message"]  # type: ignore[index]


def test_a_missing_image_does_not_hide_the_others(refs_file: Path, shelf_images: list[Path],
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.png")
    given = [str(shelf_images[0]), missing, str(shelf_images[1])]
    assert main(["identify", str(refs_file), *given]) == 2
    out = lines(capsys)
    assert [line["image"] for line in out] == given  # type: ignore[index]
    assert out[1]["error"]["kind"] == "missing_image"  # type: ignore[index]
    assert "error" not in out[0] and len(out[0]["cards"]) == 2  # type: ignore[arg-type]
    assert "error" not in out[2] and out[2]["status"] == "empty"


def test_reference_file_from_another_version(refs_file: Path, shelf_images: list[Path], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(refs_file.read_text())
    data["version"] = 0
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    assert main(["identify", str(old), str(shelf_images[0])]) == 2
    (err,) = lines(capsys)
    assert err["error"]["kind"] == "bad_references"  # type: ignore[index]
    assert "old.json" in err["error"]["message"] and "another version" in err["error"]["message"]  # type: ignore[index]


def test_usage_errors_are_json_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert lines(capsys)[0]["error"]["kind"] == "usage"  # type: ignore[index]
    assert main(["identify", "refs.json"]) == 2
    assert lines(capsys)[0]["error"]["kind"] == "usage"  # type: ignore[index]


def test_runs_as_a_module(refs_file: Path, shelf_images: list[Path]) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "drivers.card_reader.cli", "identify", str(refs_file),
                           str(shelf_images[0])], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "ok"
    done = subprocess.run([sys.executable, "-m", "drivers.card_reader.cli", "identify", "/nonexistent.json",
                           str(shelf_images[0])], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["kind"] == "bad_references"


def test_enroll_with_the_back(faces_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from drivers.card_reader import load_references
    from drivers.card_reader.designs import make_design

    back = tmp_path / "back.png"
    cv2.imwrite(str(back), make_design("tarot").back)
    out = tmp_path / "cards.json"
    assert main(["enroll", str(faces_dir), str(out), "--back", str(back)]) == 0
    assert lines(capsys) == [{"enrolled": list(SHIPPED_FACE_NAMES), "references": str(out), "back": True}]
    assert load_references(out).back is not None


def test_a_back_laid_face_up_is_enrolled_with_a_warning(faces_dir: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from drivers.card_reader import load_references

    out = tmp_path / "refs.json"
    back = tmp_path / "back.png"
    cv2.imwrite(str(back), cv2.imread(str(faces_dir / "toad.png")))
    assert main(["enroll", str(faces_dir), str(out), "--back", str(back)]) == 0
    [printed] = lines(capsys)
    assert printed["back"] is True
    assert any("'toad'" in w and "face up" in w for w in printed["warnings"])
    assert load_references(out).back is not None


def test_a_missing_back_is_named_and_nothing_is_written(faces_dir: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cards.json"
    assert main(["enroll", str(faces_dir), str(out), "--back", str(tmp_path / "nope.png")]) == 2
    error = lines(capsys)[0]["error"]
    assert error["kind"] == "missing_image" and "nope.png" in error["message"]  # type: ignore[index]
    assert not out.exists()


def test_identify_reads_against_the_empty_shelf_given(refs_file: Path, faces: dict[str, np.ndarray], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from drivers.card_reader.designs import empty_shelf, table_background
    from drivers.card_reader.scenes import Conditions, compose_scene

    light = Conditions(brightness=0.9, cast=(1.05, 1.0, 0.92), uneven=0.3, noise=3.0, jpeg=80)
    frame = compose_scene(faces, [], table_background("stone", (640, 480), 1), 1, (640, 480), light).image
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    cv2.imwrite(str(tmp_path / "shelf.png"), empty_shelf("stone", (640, 480), 1, light, 1))
    assert main(["identify", str(refs_file), str(tmp_path / "frame.png")]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "unsure"      # the stone's patches, alone
    assert main(["identify", str(refs_file), str(tmp_path / "frame.png"),
                 "--empty-shelf", str(tmp_path / "shelf.png")]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "empty"
    assert main(["identify", str(refs_file), str(tmp_path / "frame.png"),
                 "--empty-shelf", str(tmp_path / "nowhere.png")]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["kind"] == "missing_image"
