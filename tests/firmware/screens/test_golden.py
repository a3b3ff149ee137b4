"""Golden images: every sample screen, both display sizes, all four languages, pixel-exact.

Regenerate after an intended change with ``LABKIT_UPDATE_GOLDEN=1`` and look at the diff::

    LABKIT_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/firmware/screens -q
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware.i18n import LANGUAGES
from firmware.screens import RENDERERS, render_view
from firmware.screens.gallery import SAMPLES
from firmware.screens.draw import COLOUR, MONO

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("LABKIT_UPDATE_GOLDEN") == "1"
CASES = [(name, size, lang) for name in SAMPLES for size in (MONO, COLOUR) for lang in LANGUAGES]


def golden_path(name: str, size: tuple[int, int], lang: str) -> Path:
    return GOLDEN / f"{name}-{size[1]}-{lang}.png"


@pytest.mark.parametrize(("name", "size", "lang"), CASES,
                         ids=[f"{n}-{s[1]}-{l}" for n, s, l in CASES])
def test_screen_matches_golden(name: str, size: tuple[int, int], lang: str,
                               tmp_path: Path) -> None:
    image = render_view(SAMPLES[name], size, lang)
    path = golden_path(name, size, lang)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        image.save(path, optimize=True)
        return
    assert path.exists(), f"no golden {path.name}; run with LABKIT_UPDATE_GOLDEN=1"
    with Image.open(path) as stored:
        expected = stored.convert(image.mode)
    assert expected.size == image.size
    if expected.tobytes() != image.tobytes():
        actual = tmp_path / path.name
        image.save(actual)
        diff = ImageChops.difference(expected.convert("RGB"), image.convert("RGB"))
        changed = sum(1 for x in range(diff.width) for y in range(diff.height) if diff.getpixel((x, y)) != (0, 0, 0))
        pytest.fail(f"{path.name}: {changed} pixel(s) differ; actual image saved to {actual}")


def test_every_screen_has_a_sample() -> None:
    sampled = {type(view) for view in SAMPLES.values()}
    assert set(RENDERERS) <= sampled, set(RENDERERS) - sampled


def test_no_stale_goldens() -> None:
    if UPDATE:
        pytest.skip("updating goldens")
    expected = {golden_path(*case).name for case in CASES}
    stored = {path.name for path in GOLDEN.glob("*.png")}
    assert stored <= expected, f"goldens without a sample: {sorted(stored - expected)}"
