"""Card designs, table backgrounds and scenes with ground truth, for a benchmark no one design can tune.

Issue 15 point 4: the reader's figures must hold on card designs its tuning never saw. This module
makes several visually different card designs at run time (deterministic from a seed, nothing big
committed), backgrounds of several kinds, and scenes over designs x backgrounds x every condition
of issue 3 and of issue 15's independent test, each with the answer a correct reader gives.

    from drivers.card_reader.designs import (DESIGN_NAMES, BACKGROUND_KINDS, NORMAL_KINDS, HARD_KINDS,
                                             make_design, table_background, design_scene, judge)

    design = make_design("ribbon", seed=0)   # CardDesign: .name, .faces {ingredient: 250 x 350 BGR},
                                             # .back (250 x 350 BGR, the card's back)
    table_background("striped_wood", (640, 480), seed=3)   # BGR uint8 H x W x 3
    scene = design_scene(design, seed=17)    # kind drawn from the seed (normal or hard set), or
    scene = design_scene(design, 17, kind="face_down")     # a given kind
    scene.image                              # the frame, BGR uint8
    scene.expected_status                    # "ok" | "unsure" | "empty": what a correct reader answers
    scene.expected_ingredients               # sorted ingredients of an "ok" scene, () otherwise
    scene.cards                              # [CardTruth(ingredient, quad, face_up, light, inside)]
    scene.kind, scene.hard, scene.background, scene.size, scene.conditions
    verdict = judge(scene, reading)          # Verdict(outcome, reason); outcome is "right" |
                                             # "wrong" | "unsure" | "empty" | "read anyway"

Designs (``DESIGN_NAMES``): ``placeholder`` (the shipped faces), ``ribbon`` (the independent
tester's kind: one shared parchment frame, border, emblem, inner frame and title ribbon for all 8
faces; drawn illustrations), ``woodcut`` (black frame, title box on top, duotone prints of
scikit-image's photographs), ``tarot`` (dark blue and gold, arched window, colour photographs, a
coloured band per ingredient), ``fullbleed`` (illustration to the card's edge, a thin light rim, a
small label; drawn and photographed illustrations mixed). Titles are set with DejaVu (the kit's
firmware fonts) or Pillow's own font. The photographs need scikit-image (the ``test`` extra); the
reader never imports this module.

Backgrounds (``BACKGROUND_KINDS``): the cauldron shelves of ``scenes.py`` (iron, copper, wood) and
strongly striped wood planks, stone flags, woven cloth, felt, patterned tablecloths (gingham,
stripes, dots).

Scene kinds. The normal set (``NORMAL_KINDS``) is issue 3 point 2 (35-60 % of the frame height,
640 x 480) on every background: readable ``one``, ``apart``, ``touching``, ``overlap``; ``empty``;
and ``cut``, ``heavy_overlap``, ``covered`` (unsure). The hard set (``HARD_KINDS``) is issue 15's:
readable ``small`` (15-25 % of the frame height), ``large`` (60-85 %), ``resolution`` (320 x 240 to
1280 x 960 frames, 15-85 %), ``dark`` (one card 40-75 % as bright as the other), ``glare`` (glare
over 0.75 on a card), ``same_two`` (two of the same ingredient: ok with it twice); ``empty_pattern``
(striped wood, stone, tablecloths: empty); ``edge_cut`` (a card cut by the frame's edge beside a
whole one), ``three`` (three cards), ``face_down`` (a card's back in view), ``hand`` (a hand over
30-55 % of a card): unsure. Every scene also carries the random conditions of issue 3 (rotation,
upside down, tilt, light, cast, glare, shadow, blur, noise, JPEG, fingers).

A reading is *wrong* when it says ``ok`` with a card that is not there (ingredient or place), or
while a card in view is not named (a face-down card can never be named, so ``ok`` there is wrong).
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from .references import SHIPPED_FACE_NAMES
from .scenes import (
    Conditions,
    Finger,
    Placement,
    Quad,
    compose_scene,
    finger_coverage,
    random_conditions,
    random_finger,
    random_placements,
    scene_quads,
    shelf_background,
)

#: a design's faces and back, width x height (the card's 5:7, as the shipped faces)
FACE_W, FACE_H = 250, 350
#: a box of a face, x0, y0, x1, y1 (pixels, inclusive)
Box = tuple[int, int, int, int]

DESIGN_NAMES = ("placeholder", "ribbon", "woodcut", "tarot", "fullbleed")
BACKGROUND_KINDS = ("iron", "copper", "wood", "striped_wood", "stone", "cloth", "felt", "tablecloth")
#: backgrounds whose pattern has straight light/dark edges a card outline can be mistaken for
PATTERNED = ("striped_wood", "stone", "tablecloth")

NORMAL_KINDS = ("one", "apart", "touching", "overlap", "empty", "cut", "heavy_overlap", "covered")
HARD_KINDS = ("small", "large", "resolution", "dark", "glare", "same_two", "empty_pattern",
              "edge_cut", "three", "face_down", "hand")
READABLE_KINDS = ("one", "apart", "touching", "overlap", "small", "large", "resolution", "dark", "glare",
                  "same_two")
EMPTY_KINDS = ("empty", "empty_pattern")
#: the mix of a normal set (readable kinds dominate: they are what players do; as benchmarks/card_reader)
NORMAL_MIX = {"one": 0.18, "apart": 0.22, "touching": 0.16, "overlap": 0.24,
              "empty": 0.06, "cut": 0.05, "heavy_overlap": 0.04, "covered": 0.05}
#: the hard set: every new condition about equally often, empty patterned shelves a little more
HARD_MIX = {"small": 0.1, "large": 0.08, "resolution": 0.1, "dark": 0.1, "glare": 0.1, "same_two": 0.08,
            "empty_pattern": 0.1, "edge_cut": 0.1, "three": 0.08, "face_down": 0.08, "hand": 0.08}
#: frame sizes of the hard "resolution" kind (issue 15 point 3: 320 x 240 to 1280 x 960)
FRAME_SIZES = ((320, 240), (480, 360), (800, 600), (1024, 768), (1280, 960))


# ---------------------------------------------------------------- card designs


@dataclass(frozen=True)
class CardDesign:
    """One card design: the 8 ingredient faces and the back, upright, BGR uint8 ``FACE_H x FACE_W``.

    ``shared`` (bool ``FACE_H x FACE_W``) marks the pixels of the frame every face shares by design:
    the faces differ only outside it (illustration, title, an ingredient's colour band)."""

    name: str
    seed: int
    faces: dict[str, np.ndarray] = field(repr=False)
    back: np.ndarray = field(repr=False)
    shared: np.ndarray = field(repr=False)


def _font(size: int, bold: bool = True, family: str = "dejavu"):  # type: ignore[no-untyped-def]
    """A Pillow font: DejaVu Sans Condensed from the kit's firmware fonts (read as a file: drivers
    import nothing of firmware), or Pillow's own font when ``family`` is "pillow" or DejaVu is absent."""
    from PIL import ImageFont

    if family == "dejavu":
        name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
        path = Path(__file__).resolve().parents[2] / "firmware" / "fonts" / name
        if path.exists():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def _draw_title(card: np.ndarray, text: str, box: tuple[int, int, int, int], colour: tuple[int, int, int],
                size: int, bold: bool = True, family: str = "dejavu") -> None:
    """Set ``text`` centred in ``box`` (x0, y0, x1, y1) of the BGR ``card``, shrunk until it fits."""
    from PIL import Image, ImageDraw

    x0, y0, x1, y1 = box
    pil = Image.fromarray(cv2.cvtColor(card, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    while True:
        font = _font(size, bold, family)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        if (right - left <= x1 - x0 - 6 and bottom - top <= y1 - y0 - 2) or size <= 8:
            break
        size -= 1
    x = x0 + (x1 - x0 - (right - left)) / 2 - left
    y = y0 + (y1 - y0 - (bottom - top)) / 2 - top
    draw.text((x, y), text, font=font, fill=(colour[2], colour[1], colour[0]))
    card[:] = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)


def _photo(name: str) -> np.ndarray:
    """One of scikit-image's bundled sample photographs, BGR uint8 (scikit-image imported lazily)."""
    from skimage import data

    loaded = getattr(data, "stereo_motorcycle" if name == "motorcycle" else name)()
    rgb = np.asarray(loaded[0] if name == "motorcycle" else loaded)
    if rgb.dtype == bool:
        rgb = rgb.astype(np.uint8) * 255
    if rgb.ndim == 2:
        rgb = np.stack([rgb] * 3, axis=-1)
    return cv2.cvtColor(np.ascontiguousarray(rgb[..., :3]), cv2.COLOR_RGB2BGR)


def _cover(image: np.ndarray, width: int, height: int, rng: np.random.Generator, zoom: float = 1.0) -> np.ndarray:
    """A ``width x height`` crop of ``image`` covering the box (aspect kept), at a place from ``rng``."""
    h, w = image.shape[:2]
    scale = max(width / w, height / h) * zoom
    big = cv2.resize(image, (max(width, int(math.ceil(w * scale))), max(height, int(math.ceil(h * scale)))),
                     interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    oy = int(rng.integers(0, big.shape[0] - height + 1))
    ox = int(rng.integers(0, big.shape[1] - width + 1))
    return big[oy:oy + height, ox:ox + width].copy()


def _drawn_illustration(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A procedurally drawn illustration: a sky gradient, hills, a motif of random shapes, hatching."""
    top = rng.uniform(60, 240, 3)
    bottom = rng.uniform(20, 200, 3)
    t = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    img = (top * (1 - t) + bottom * t) * np.ones((1, width, 1), np.float32)
    img = img.astype(np.uint8)
    xs = np.arange(width)
    for _ in range(int(rng.integers(1, 4))):       # hills
        base = rng.uniform(0.45, 0.85) * height
        amp, freq, phase = rng.uniform(5, 25), rng.uniform(0.01, 0.05), rng.uniform(0, 6.3)
        ys = base + amp * np.sin(xs * freq + phase)
        pts = np.concatenate([np.stack([xs, ys], 1), [[width, height], [0, height]]]).astype(np.int32)
        cv2.fillPoly(img, [pts], tuple(float(c) for c in rng.uniform(10, 220, 3)), cv2.LINE_AA)
    cx, cy = width * rng.uniform(0.3, 0.7), height * rng.uniform(0.3, 0.6)
    for _ in range(int(rng.integers(5, 11))):      # the motif
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        shape = int(rng.integers(4))
        px, py = cx + rng.normal(0, width * 0.15), cy + rng.normal(0, height * 0.12)
        r = rng.uniform(0.05, 0.2) * width
        if shape == 0:
            cv2.ellipse(img, (int(px), int(py)), (int(r), int(r * rng.uniform(0.4, 1.2))), float(rng.uniform(0, 180)),
                        0, 360, colour, -1, cv2.LINE_AA)
        elif shape == 1:
            n = int(rng.integers(3, 8))
            angles = np.sort(rng.uniform(0, 2 * math.pi, n))
            radii = r * rng.uniform(0.5, 1.3, n)
            pts = np.stack([px + radii * np.cos(angles), py + radii * np.sin(angles)], 1).astype(np.int32)
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        elif shape == 2:
            k = int(rng.integers(5, 9))
            angles = np.arange(2 * k) * math.pi / k + rng.uniform(0, 1)
            radii = np.where(np.arange(2 * k) % 2 == 0, r, r * 0.45)
            pts = np.stack([px + radii * np.cos(angles), py + radii * np.sin(angles)], 1).astype(np.int32)
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        else:
            for _ in range(int(rng.integers(3, 8))):
                a = rng.uniform(0, 2 * math.pi)
                cv2.line(img, (int(px), int(py)), (int(px + 1.5 * r * math.cos(a)), int(py + 1.5 * r * math.sin(a))),
                         colour, int(rng.integers(2, 5)), cv2.LINE_AA)
    hatch = tuple(float(c) for c in rng.uniform(0, 80, 3))
    step = int(rng.integers(7, 14))
    for y in range(int(height * 0.7), height, step):   # engraving-like hatching at the foot
        cv2.line(img, (0, y), (width, y + int(rng.integers(-4, 5))), hatch, 1, cv2.LINE_AA)
    return img


def _parchment(rng: np.random.Generator, tone: tuple[float, float, float], grain: float = 14.0) -> np.ndarray:
    noise = rng.normal(0, 1, (FACE_H // 10 + 1, FACE_W // 10 + 1)).astype(np.float32)
    noise = cv2.resize(noise, (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 0.4, (FACE_H, FACE_W)).astype(np.float32)
    return np.clip(np.array(tone, np.float32) + grain * (noise + fine)[..., None], 0, 255).astype(np.uint8)


def _titles() -> dict[str, str]:
    return {"fern": "Fern", "claw": "Bird Claw", "mushroom": "Mushroom", "flower": "Flower",
            "root": "Mandrake Root", "scorpion": "Scorpion", "toad": "Toad", "feather": "Raven Feather"}


def _ribbon_frame(rng: np.random.Generator) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[int, int, int, int]]:
    """The tester's kind of shared frame: parchment, dark border, gold inner frame, emblem, title ribbon.

    Returns the frame, the illustration window (x0, y0, x1, y1) and the title box on the ribbon."""
    card = _parchment(rng, (150, 196, 222))
    ink = (30, 40, 70)
    cv2.rectangle(card, (0, 0), (FACE_W - 1, FACE_H - 1), (25, 35, 60), 9)          # dark border
    cv2.rectangle(card, (13, 13), (FACE_W - 14, FACE_H - 14), (40, 130, 175), 2)    # gold line
    window = (26, 40, FACE_W - 26, 252)
    # the inner frame: thick and dark, about 0.7 of the card (what fooled the reader)
    cv2.rectangle(card, (window[0] - 5, window[1] - 5), (window[2] + 4, window[3] + 4), ink, 5)
    ribbon_y0, ribbon_y1 = 262, 304
    red = (40, 40, 150)
    tails = np.array([[8, ribbon_y0 + 8], [34, ribbon_y0 + 8], [34, ribbon_y1 + 8], [8, ribbon_y1 + 8],
                      [20, (ribbon_y0 + ribbon_y1) // 2 + 8]], np.int32)
    cv2.fillPoly(card, [tails], (30, 30, 110), cv2.LINE_AA)
    cv2.fillPoly(card, [np.array([[FACE_W - 1 - x, y] for x, y in tails], np.int32)], (30, 30, 110), cv2.LINE_AA)
    cv2.rectangle(card, (24, ribbon_y0), (FACE_W - 25, ribbon_y1), red, -1)
    cv2.rectangle(card, (24, ribbon_y0), (FACE_W - 25, ribbon_y1), (20, 20, 80), 2)
    # the emblem: a medallion over the window's top edge
    cx = FACE_W // 2
    cv2.circle(card, (cx, window[1] - 4), 19, (30, 110, 160), -1, cv2.LINE_AA)
    cv2.circle(card, (cx, window[1] - 4), 19, ink, 2, cv2.LINE_AA)
    star = np.array([[cx + r * math.sin(a), window[1] - 4 - r * math.cos(a)]
                     for i, a in enumerate(np.arange(10) * math.pi / 5) for r in [(11 if i % 2 == 0 else 5)]],
                    np.int32)
    cv2.fillPoly(card, [star], (170, 230, 250), cv2.LINE_AA)
    # a small flourish under the ribbon
    cv2.ellipse(card, (cx, 322), (40, 8), 0, 0, 180, ink, 2, cv2.LINE_AA)
    return card, window, (30, ribbon_y0 + 2, FACE_W - 30, ribbon_y1 - 2)


def _design_placeholder(rng: np.random.Generator) -> tuple[dict[str, np.ndarray], np.ndarray, list[Box]]:
    from .references import load_placeholder_faces

    faces = {ing: cv2.resize(f, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
             for ing, f in load_placeholder_faces().items()}
    back = _parchment(rng, (60, 80, 110), 10)
    cv2.rectangle(back, (0, 0), (FACE_W - 1, FACE_H - 1), (48, 44, 58), 12)
    for r in range(20, 130, 18):
        cv2.circle(back, (FACE_W // 2, FACE_H // 2), r, (60, 150, 190), 2, cv2.LINE_AA)
    # benchmarks/card_reader_make_faces.py: the window and the title strip inside the 22 px border
    return faces, back, [(22, 22, FACE_W - 22, FACE_H - 22)]


def _design_ribbon(rng: np.random.Generator) -> tuple[dict[str, np.ndarray], np.ndarray, list[Box]]:
    frame, (x0, y0, x1, y1), title_box = _ribbon_frame(rng)
    faces = {}
    for ing in SHIPPED_FACE_NAMES:
        card = frame.copy()
        card[y0:y1, x0:x1] = _drawn_illustration(x1 - x0, y1 - y0, rng)
        _draw_title(card, _titles()[ing], title_box, (210, 240, 250), 22)
        faces[ing] = card
    back = _parchment(rng, (40, 45, 120), 8)                        # dark red, gold lattice
    cv2.rectangle(back, (0, 0), (FACE_W - 1, FACE_H - 1), (25, 35, 60), 9)
    for d in range(-FACE_H, FACE_W + FACE_H, 25):
        cv2.line(back, (d, 0), (d + FACE_H, FACE_H), (40, 130, 175), 1, cv2.LINE_AA)
        cv2.line(back, (d, FACE_H), (d + FACE_H, 0), (40, 130, 175), 1, cv2.LINE_AA)
    cv2.circle(back, (FACE_W // 2, FACE_H // 2), 40, (30, 110, 160), -1, cv2.LINE_AA)
    cv2.circle(back, (FACE_W // 2, FACE_H // 2), 40, (25, 35, 60), 3, cv2.LINE_AA)
    return faces, back, [(x0, y0, x1, y1), title_box]


#: scikit-image photographs for the woodcut and tarot designs (none cropped as the placeholders are)
_WOODCUT_PHOTOS = ("clock", "moon", "grass", "brick", "gravel", "page", "cell", "camera", "coins", "horse",
                   "text", "microaneurysms")
_TAROT_PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "retina", "motorcycle", "colorwheel", "logo",
                 "immunohistochemistry", "hubble_deep_field")


def _design_woodcut(rng: np.random.Generator) -> tuple[dict[str, np.ndarray], np.ndarray, list[Box]]:
    paper = (205, 225, 232)
    ink = np.array([25, 30, 35], np.float32)
    photos = list(rng.choice(_WOODCUT_PHOTOS, size=len(SHIPPED_FACE_NAMES), replace=False))
    faces = {}
    for ing, name in zip(SHIPPED_FACE_NAMES, photos):
        card = np.empty((FACE_H, FACE_W, 3), np.uint8)
        card[:] = paper
        cv2.rectangle(card, (0, 0), (FACE_W - 1, FACE_H - 1), tuple(float(c) for c in ink), 16)   # black frame
        title = (20, 20, FACE_W - 20, 66)
        cv2.rectangle(card, title[:2], title[2:], tuple(float(c) for c in ink), 2)
        _draw_title(card, _titles()[ing].upper(), title, tuple(int(c) for c in ink), 24, bold=False)
        x0, y0, x1, y1 = 20, 74, FACE_W - 20, FACE_H - 20
        grey = cv2.cvtColor(_cover(_photo(str(name)), x1 - x0, y1 - y0, rng, float(rng.uniform(1.0, 1.6))),
                            cv2.COLOR_BGR2GRAY)
        grey = cv2.equalizeHist(grey).astype(np.float32)[..., None] / 255.0
        levels = np.floor(grey * 4) / 3                                                  # a 4-level print
        card[y0:y1, x0:x1] = np.clip(ink * (1 - levels) + np.array(paper, np.float32) * levels, 0, 255).astype(np.uint8)
        cv2.rectangle(card, (x0, y0), (x1, y1), tuple(float(c) for c in ink), 2)
        faces[ing] = card
    back = np.empty((FACE_H, FACE_W, 3), np.uint8)
    back[:] = paper
    cv2.rectangle(back, (0, 0), (FACE_W - 1, FACE_H - 1), tuple(float(c) for c in ink), 16)
    for r in range(12, 140, 12):
        cv2.ellipse(back, (FACE_W // 2, FACE_H // 2), (r, int(r * 1.4)), 0, 0, 360, tuple(float(c) for c in ink), 3,
                    cv2.LINE_AA)
    return faces, back, [(20, 20, FACE_W - 20, 67), (20, 74, FACE_W - 20, FACE_H - 19)]


def _design_tarot(rng: np.random.Generator) -> tuple[dict[str, np.ndarray], np.ndarray, list[Box]]:
    navy = (80, 40, 25)
    gold = (70, 170, 215)
    photos = list(rng.choice(_TAROT_PHOTOS, size=len(SHIPPED_FACE_NAMES), replace=False))
    numerals = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")
    faces = {}
    frame = _parchment(rng, navy, 6)
    cv2.rectangle(frame, (6, 6), (FACE_W - 7, FACE_H - 7), gold, 3)
    cv2.rectangle(frame, (13, 13), (FACE_W - 14, FACE_H - 14), gold, 1)
    for i, (ing, name) in enumerate(zip(SHIPPED_FACE_NAMES, photos)):
        card = frame.copy()
        x0, y0, x1, y1 = 28, 34, FACE_W - 28, 270
        window = np.zeros((FACE_H, FACE_W), np.uint8)                                    # an arched window
        cv2.rectangle(window, (x0, y0 + (x1 - x0) // 2), (x1, y1), 255, -1)
        cv2.ellipse(window, ((x0 + x1) // 2, y0 + (x1 - x0) // 2), ((x1 - x0) // 2, (x1 - x0) // 2), 0, 180, 360,
                    255, -1, cv2.LINE_AA)
        art = np.zeros_like(card)
        art[y0:y1 + 1, x0:x1 + 1] = _cover(_photo(str(name)), x1 - x0 + 1, y1 - y0 + 1, rng,
                                            float(rng.uniform(1.1, 1.8)))
        a = window.astype(np.float32)[..., None] / 255.0
        card = np.clip(card * (1 - a) + art * a, 0, 255).astype(np.uint8)
        contours, _ = cv2.findContours(window, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        cv2.drawContours(card, contours, -1, gold, 3, cv2.LINE_AA)
        hue = np.uint8([[[int(180 * i / len(SHIPPED_FACE_NAMES)), 170, 200]]])                  # a band per ingredient
        band = tuple(float(c) for c in cv2.cvtColor(hue, cv2.COLOR_HSV2BGR)[0, 0])
        cv2.rectangle(card, (28, 280), (FACE_W - 28, 286), band, -1)
        _draw_title(card, numerals[i], (28, 12, FACE_W - 28, 32), gold, 14, family="pillow")
        _draw_title(card, _titles()[ing], (28, 290, FACE_W - 28, 328), gold, 22, family="pillow")
        faces[ing] = card
    back = _parchment(rng, navy, 6)
    cv2.rectangle(back, (6, 6), (FACE_W - 7, FACE_H - 7), gold, 3)
    stars = np.random.default_rng(int(rng.integers(1 << 30)))
    for _ in range(60):
        x, y = int(stars.integers(18, FACE_W // 2)), int(stars.integers(18, FACE_H // 2))
        for px, py in ((x, y), (FACE_W - 1 - x, FACE_H - 1 - y)):       # the back reads the same turned
            cv2.circle(back, (px, py), int(stars.integers(1, 4)), gold, -1, cv2.LINE_AA)
    cv2.circle(back, (FACE_W // 2, FACE_H // 2), 50, gold, 2, cv2.LINE_AA)
    return faces, back, [(26, 32, FACE_W - 26, 272), (28, 278, FACE_W - 28, 330), (28, 12, FACE_W - 28, 32)]


def _design_fullbleed(rng: np.random.Generator) -> tuple[dict[str, np.ndarray], np.ndarray, list[Box]]:
    rim = (235, 240, 240)
    faces = {}
    sources = list(rng.permutation(["drawn"] * 4 + ["photo"] * 4))
    photos = list(rng.choice(_TAROT_PHOTOS + _WOODCUT_PHOTOS, size=len(SHIPPED_FACE_NAMES), replace=False))
    for ing, source, name in zip(SHIPPED_FACE_NAMES, sources, photos):
        if source == "drawn":
            card = _drawn_illustration(FACE_W, FACE_H, rng)
        else:
            card = _cover(_photo(str(name)), FACE_W, FACE_H, rng, float(rng.uniform(1.0, 1.5)))
        cv2.rectangle(card, (0, 0), (FACE_W - 1, FACE_H - 1), rim, 11)                  # a thin light rim
        label = (FACE_W - 120, FACE_H - 40, FACE_W - 12, FACE_H - 12)
        cv2.rectangle(card, label[:2], label[2:], rim, -1)
        _draw_title(card, _titles()[ing], label, (20, 20, 20), 14, bold=True)
        faces[ing] = card
    back = np.empty((FACE_H, FACE_W, 3), np.uint8)
    back[:] = (60, 110, 30)
    cv2.rectangle(back, (0, 0), (FACE_W - 1, FACE_H - 1), rim, 5)
    _draw_title(back, "ALCHEMISTS", (20, FACE_H // 2 - 25, FACE_W - 20, FACE_H // 2 + 25), rim, 30)
    return faces, back, [(5, 5, FACE_W - 5, FACE_H - 5)]


_MAKERS = {"placeholder": _design_placeholder, "ribbon": _design_ribbon, "woodcut": _design_woodcut,
           "tarot": _design_tarot, "fullbleed": _design_fullbleed}


@functools.lru_cache(maxsize=16)
def _cached_design(name: str, seed: int) -> CardDesign:
    rng = np.random.default_rng([seed, DESIGN_NAMES.index(name)])
    faces, back, own = _MAKERS[name](rng)
    shared = np.ones((FACE_H, FACE_W), bool)
    for x0, y0, x1, y1 in own:
        shared[y0:y1 + 1, x0:x1 + 1] = False
    for image in (*faces.values(), back, shared):
        image.setflags(write=False)
    return CardDesign(name, seed, faces, back, shared)


def make_design(name: str, seed: int = 0) -> CardDesign:
    """The card design ``name`` (one of ``DESIGN_NAMES``), deterministic from ``seed`` (cached, read-only)."""
    if name not in DESIGN_NAMES:
        raise ValueError(f"unknown card design {name!r}; expected one of {DESIGN_NAMES}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"design seed must be an int, not {type(seed).__name__}")
    return _cached_design(name, seed)


# ---------------------------------------------------------------- backgrounds


def _smooth_noise(rng: np.random.Generator, height: int, width: int, cells: int) -> np.ndarray:
    grid = rng.random((cells + 1, int(cells * width / height) + 2)).astype(np.float32)
    return cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC)


def table_background(kind: str, size: tuple[int, int] = (640, 480), seed: int = 0) -> np.ndarray:
    """A surface the cards lie on, BGR uint8 (``size`` = W, H); ``kind`` one of ``BACKGROUND_KINDS``."""
    if kind not in BACKGROUND_KINDS:
        raise ValueError(f"unknown background kind {kind!r}; expected one of {BACKGROUND_KINDS}")
    width, height = size
    rng = np.random.default_rng(seed)
    if kind in ("iron", "copper", "wood"):
        return shelf_background(size, int(rng.integers(1 << 30)), kind)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == "striped_wood":
        # planks with strong, wavy grain stripes and dark seams; light oak to dark walnut
        angle = math.radians(float(rng.uniform(0, 180)))
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        plank = float(rng.uniform(0.18, 0.35)) * height
        warp = 18 * _smooth_noise(rng, height, width, 3) + 4 * _smooth_noise(rng, height, width, 12)
        period = float(rng.uniform(5, 12))
        grain = 0.5 + 0.5 * np.sin(2 * math.pi * (across + warp) / period)
        grain = grain ** float(rng.uniform(1.5, 4))                                      # sharp dark lines
        tone = np.array(rng.choice([[70, 130, 190], [50, 90, 140], [30, 55, 85], [90, 150, 200]]), np.float32)
        index = np.floor(across / plank)
        shade = 0.8 + 0.4 * ((index * 0.6180339) % 1.0)                                # each plank its own tone
        tex = tone * (shade * (1.05 - 0.7 * grain))[..., None]
        seam = np.abs(across / plank - np.round(across / plank)) * plank < 1.5
        tex[seam] *= 0.35
        knots = int(rng.integers(0, 4))
        for _ in range(knots):
            c = (int(rng.integers(width)), int(rng.integers(height)))
            cv2.ellipse(tex, c, (int(rng.integers(6, 16)), int(rng.integers(3, 8))), math.degrees(angle), 0, 360,
                        tuple(float(v) * 0.4 for v in tone), -1, cv2.LINE_AA)
    elif kind == "stone":
        # flagstones: Voronoi cells in greys and ochres, dark mortar between them
        n = int(rng.integers(6, 16))
        seeds = rng.uniform(0, 1, (n, 2)) * (width, height)
        d = np.stack([np.hypot(xx - sx, yy - sy) for sx, sy in seeds])
        order = np.sort(d, axis=0)
        cell = np.argmin(d, axis=0)
        tones = rng.uniform(70, 170, (n, 1)) * rng.uniform(0.85, 1.1, (n, 3))
        tex = tones[cell].astype(np.float32)
        tex *= (0.75 + 0.5 * _smooth_noise(rng, height, width, 20))[..., None]
        tex += rng.normal(0, 10, (height, width, 1)).astype(np.float32)
        mortar = (order[1] - order[0]) < float(rng.uniform(2, 5))
        tex[mortar] = tex[mortar] * 0.3 + 15
    elif kind == "cloth":
        # a woven cloth: warp and weft threads, soft folds
        colour = rng.uniform(40, 200, 3).astype(np.float32)
        pitch = float(rng.uniform(2.5, 5))
        weave = 0.5 + 0.25 * np.sin(2 * math.pi * xx / pitch) * np.sin(2 * math.pi * yy / pitch)
        folds = 0.75 + 0.5 * _smooth_noise(rng, height, width, 2)
        tex = colour * (weave * folds)[..., None] * 1.4
        tex += rng.normal(0, 6, (height, width, 1)).astype(np.float32)
    elif kind == "felt":
        colour = np.array(rng.choice([[40, 90, 30], [30, 30, 120], [90, 50, 30], [60, 60, 60]]), np.float32)
        fibres = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 0.8)
        tex = colour * (1 + 0.12 * fibres + 0.15 * (_smooth_noise(rng, height, width, 4) - 0.5))[..., None]
    else:  # tablecloth
        pattern = str(rng.choice(["gingham", "stripes", "dots"]))
        light = np.array([230, 235, 240], np.float32) * float(rng.uniform(0.85, 1.0))
        dark = rng.uniform(20, 180, 3).astype(np.float32)
        angle = math.radians(float(rng.uniform(-30, 30)))
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        period = float(rng.uniform(0.06, 0.2)) * height
        if pattern == "gingham":
            a = (np.floor(u / period) % 2).astype(np.float32)
            b = (np.floor(v / period) % 2).astype(np.float32)
            mix = (a + b) / 2
        elif pattern == "stripes":
            mix = (np.floor(u / period) % 2).astype(np.float32)
        else:
            cu = (u / period) % 1 - 0.5
            cv_ = (v / period) % 1 - 0.5
            mix = (np.hypot(cu, cv_) < 0.25).astype(np.float32)
        mix = cv2.GaussianBlur(mix, (0, 0), 0.7)
        tex = light * (1 - mix[..., None]) + dark * mix[..., None]
        tex *= (0.85 + 0.3 * _smooth_noise(rng, height, width, 2))[..., None]           # folds
    # the cauldron's round wall darkens the corners a little
    r = np.hypot((xx - width / 2) / (width / 2), (yy - height / 2) / (height / 2))
    tex = tex * np.clip(1.1 - 0.3 * r ** 2, 0.5, 1.1)[..., None]
    return np.clip(tex, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- scenes with ground truth


@dataclass(frozen=True)
class CardTruth:
    """One card in a scene: its ingredient, corners (frame px, clockwise from the card's own top-left),
    whether its face is up, how brightly it is lit against the frame's light, and the share inside."""

    ingredient: str
    quad: Quad
    face_up: bool = True
    light: float = 1.0
    inside: float = 1.0


@dataclass
class DesignScene:
    """A frame and what a correct reader answers for it."""

    image: np.ndarray
    design: str
    background: str
    kind: str
    hard: bool
    expected_status: str
    cards: list[CardTruth]
    seed: int
    conditions: Conditions = field(repr=False, default_factory=Conditions)
    table_seed: int = 0

    def empty_shelf(self) -> np.ndarray:
        """The same table without cards, as the kit captured it before the game (``empty_shelf``)."""
        return empty_shelf(self.background, self.size, self.table_seed, self.conditions, self.seed)

    @property
    def size(self) -> tuple[int, int]:
        return int(self.image.shape[1]), int(self.image.shape[0])

    @property
    def expected_ingredients(self) -> tuple[str, ...]:
        return tuple(sorted(c.ingredient for c in self.cards)) if self.expected_status == "ok" else ()


class _Sighting(Protocol):
    ingredient: str | None
    quad: object


class _Reading(Protocol):
    status: str

    @property
    def cards(self) -> Sequence[_Sighting]: ...


@dataclass(frozen=True)
class Verdict:
    """How a reading of a scene scores: ``outcome`` and, for a wrong one, what was wrong."""

    outcome: str
    reason: str = ""


def _inside_share(quad: np.ndarray, size: tuple[int, int]) -> float:
    frame = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
    area, _ = cv2.intersectConvexConvex(quad.astype(np.float32), frame)
    return float(area) / max(1e-6, float(cv2.contourArea(quad.astype(np.float32))))


def lies_at(truth: CardTruth, ingredient: str, quad: object) -> bool:
    """Whether ``truth`` is a face-up card of ``ingredient`` whose outline holds the centre of ``quad``."""
    centre = np.asarray(quad, np.float64).reshape(4, 2).mean(axis=0)
    return truth.face_up and truth.ingredient == ingredient and cv2.pointPolygonTest(
        np.asarray(truth.quad, np.float32), tuple(map(float, centre)), False) >= 0


def _names_every_card(scene: DesignScene, reading: _Reading) -> str:
    """"" if an ``ok`` reading names every card in view, each at its place; else what is wrong."""
    truths = list(scene.cards)
    named = [c for c in reading.cards]
    if any(c.ingredient is None for c in named):
        return "ok with an unnamed card"
    if len(named) != len(truths):
        return f"ok with {len(named)} cards, {len(truths)} in view"
    free = list(range(len(truths)))
    for card in named:
        match = next((i for i in free if lies_at(truths[i], str(card.ingredient), card.quad)), None)
        if match is None:
            return f"{card.ingredient} read where no such card lies"
        free.remove(match)
    return ""


def judge(scene: DesignScene, reading: _Reading) -> Verdict:
    """Score ``reading`` (anything with ``status`` and ``cards`` of ``ingredient``, ``quad``) against ``scene``.

    ``right``: the expected status (and for ``ok`` exactly the cards in view, each at its place).
    ``wrong``: ``ok`` naming a card that is not there, or while a card in view is not named.
    ``read anyway``: a scene that should be ``unsure`` read ``ok`` naming every card in view right.
    Otherwise the status read: ``unsure`` or ``empty`` (a miss, never wrong).
    """
    if reading.status == "ok":
        if scene.expected_status == "empty":
            return Verdict("wrong", "ok on an empty table")
        problem = _names_every_card(scene, reading)
        if problem:
            truth = ", ".join(sorted(c.ingredient if c.face_up else "(face down)" for c in scene.cards))
            read = ", ".join(sorted(str(c.ingredient) for c in reading.cards))
            return Verdict("wrong", f"{problem}: truth [{truth}], read [{read}]")
        return Verdict("right" if scene.expected_status == "ok" else "read anyway")
    if reading.status == scene.expected_status:
        return Verdict("right")
    return Verdict(reading.status)


def kind_for(seed: int, hard: bool) -> str:
    """The scene kind of ``seed`` in the normal or hard mix."""
    mix = HARD_MIX if hard else NORMAL_MIX
    rng = np.random.default_rng([seed, 0x5EED, int(hard)])
    kinds = list(mix)
    return str(rng.choice(kinds, p=np.array([mix[k] for k in kinds]) / sum(mix.values())))


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area) / max(1e-6, min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32))))


def _scatter(rng: np.random.Generator, ingredients: Sequence[str], size: tuple[int, int], cond: Conditions,
             height: float, max_overlap: float = 0.0, cut: int | None = None,
             cut_share: tuple[float, float] = (0.15, 0.45)) -> list[Placement] | None:
    """Cards of ``ingredients`` at random places, overlapping at most ``max_overlap``, all inside the
    frame except card ``cut``, which has ``cut_share`` of its area outside. None if no layout is found."""
    for _ in range(200):
        places = [Placement(ing, (float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
                            float(rng.uniform(0, 360)), height) for ing in ingredients]
        quads = scene_quads(places, size, cond)
        ok = True
        for i, q in enumerate(quads):
            share = _inside_share(q, size)
            if i == cut:
                ok &= 1 - cut_share[1] <= share <= 1 - cut_share[0]
            else:
                ok &= bool((q[:, 0] >= 3).all() and (q[:, 0] <= size[0] - 4).all()
                           and (q[:, 1] >= 3).all() and (q[:, 1] <= size[1] - 4).all())
            if not ok:
                break
        if ok and all(_overlap(quads[i], quads[j]) <= max_overlap + 1e-6
                      for i in range(len(quads)) for j in range(i)):
            # the cut card lies below the others, as one pushed to the shelf's edge would
            return places if cut is None else [places[cut]] + [p for i, p in enumerate(places) if i != cut]
    return None


def _two_different(rng: np.random.Generator) -> list[str]:
    return [str(x) for x in rng.choice(list(SHIPPED_FACE_NAMES), size=2, replace=False)]


def design_scene(design: CardDesign, seed: int, kind: str | None = None, hard: bool | None = None,
                 background: str | None = None, size: tuple[int, int] | None = None) -> DesignScene:
    """One scene of ``design`` from ``seed``: every condition of issue 3 plus the kind's, truth attached.

    ``kind`` one of ``NORMAL_KINDS`` or ``HARD_KINDS`` (None: drawn from ``seed`` in the mix of the
    ``hard`` set, the normal one when ``hard`` is None); ``background`` one of ``BACKGROUND_KINDS``
    (None: drawn from the seed; patterned ones for ``empty_pattern``); ``size`` the frame (W, H),
    640 x 480 unless the kind is ``resolution``. Deterministic for its arguments.
    """
    if kind is None:
        kind = kind_for(seed, bool(hard))
    if kind not in NORMAL_KINDS + HARD_KINDS:
        raise ValueError(f"unknown scene kind {kind!r}; expected one of {NORMAL_KINDS + HARD_KINDS}")
    if background is not None and background not in BACKGROUND_KINDS:
        raise ValueError(f"unknown background kind {background!r}; expected one of {BACKGROUND_KINDS}")
    is_hard = kind in HARD_KINDS
    rng = np.random.default_rng([seed, DESIGN_NAMES.index(design.name), NORMAL_KINDS.index(kind) if not is_hard
                                 else 100 + HARD_KINDS.index(kind)])
    if size is None:
        size = FRAME_SIZES[int(rng.integers(len(FRAME_SIZES)))] if kind == "resolution" else (640, 480)
    if background is None:
        choices = PATTERNED if kind == "empty_pattern" else BACKGROUND_KINDS
        background = str(choices[int(rng.integers(len(choices)))])
    for _ in range(60):
        cond = random_conditions(rng, size, 2)
        built = _lay_out(rng, kind, size, cond)
        if built is None:
            continue
        places, cond, expected = built
        table_seed = int(rng.integers(1 << 30))
        bg = table_background(background, size, table_seed)
        faces = dict(design.faces)
        composed = compose_scene(faces, places, bg, int(rng.integers(1 << 30)), size, cond, back=design.back)
        cards = [CardTruth(p.ingredient, quad, not p.face_down, p.light,
                           _inside_share(np.asarray(quad, np.float64), size))
                 for p, (_, quad) in zip(places, composed.cards)]
        return DesignScene(composed.image, design.name, background, kind, is_hard, expected, cards, seed, cond,
                           table_seed)
    raise RuntimeError(f"could not lay out a {kind!r} scene of design {design.name!r} for seed {seed}")


#: how far the room's light drifts between the capture of the empty shelf and a frame of the game:
#: brightness (daylight fading, a lamp switched on), colour cast and the gradient across the shelf
SHELF_DRIFT_BRIGHTNESS = (0.8, 1.25)
SHELF_DRIFT_CAST = (0.93, 1.07)
SHELF_DRIFT_UNEVEN = 0.15
#: how far the camera may have settled since the capture, px of a 640 x 480 frame (a bumped kit)
SHELF_SHIFT = 0.7


def empty_shelf(background: str, size: tuple[int, int], table_seed: int, cond: Conditions, seed: int) -> np.ndarray:
    """The table ``background`` of a scene without its cards, as captured before the game: under
    another light (the room's drifts above, no glare or shadow, its own blur, noise and JPEG) and
    with the camera shifted by up to ``SHELF_SHIFT``. Deterministic for its arguments."""
    rng = np.random.default_rng([seed, 0x5E1F])
    bg = table_background(background, size, table_seed)
    shift = float(rng.uniform(-SHELF_SHIFT, SHELF_SHIFT)) * size[0] / 640
    lift = float(rng.uniform(-SHELF_SHIFT, SHELF_SHIFT)) * size[0] / 640
    bg = cv2.warpAffine(bg, np.float32([[1, 0, shift], [0, 1, lift]]), size, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REFLECT)
    light = Conditions(
        brightness=float(np.clip(cond.brightness * rng.uniform(*SHELF_DRIFT_BRIGHTNESS), 0.4, 1.5)),
        cast=tuple(float(c * rng.uniform(*SHELF_DRIFT_CAST)) for c in cond.cast),  # type: ignore[arg-type]
        uneven=float(np.clip(cond.uneven + rng.uniform(-SHELF_DRIFT_UNEVEN, SHELF_DRIFT_UNEVEN), 0, 0.5)),
        uneven_angle=cond.uneven_angle + float(rng.uniform(-30, 30)),
        blur_sigma=float(rng.uniform(0, 1.5)) if rng.random() < 0.6 else 0.0,
        noise=float(rng.uniform(1, 6)),
        jpeg=int(rng.integers(55, 91)) if rng.random() < 0.8 else None)
    return compose_scene({}, [], bg, int(rng.integers(1 << 30)), size, light).image


def _lay_out(rng: np.random.Generator, kind: str, size: tuple[int, int],
             cond: Conditions) -> tuple[list[Placement], Conditions, str] | None:
    """The cards of a ``kind`` scene, its conditions (fingers, glare) and its expected status."""
    ings = _two_different(rng)
    if kind in ("empty", "empty_pattern"):
        return [], cond, "empty"
    if kind in ("one", "apart", "touching", "overlap", "heavy_overlap", "small", "large", "resolution"):
        n = 1 if kind == "one" else 2
        height = None
        if kind == "small":
            height = float(rng.uniform(0.15, 0.25))
        elif kind == "large":
            height = float(rng.uniform(0.6, 0.85))
            n = 1 if height > 0.62 or rng.random() < 0.5 else 2     # two cards that big seldom fit side by side
        elif kind == "resolution":
            height = float(rng.uniform(0.15, 0.85))
            n = 1 if height > 0.6 else int(rng.integers(1, 3))
        arrangement = {"overlap": "overlap", "heavy_overlap": "overlap", "touching": "touching"}.get(kind, "apart")
        overlap = float(rng.uniform(0.02, 0.1)) if kind == "overlap" else float(rng.uniform(0.25, 0.45))
        places = random_placements(rng, ings, n, size, cond, arrangement, overlap, height)
        if places is None:
            return None
        places = [replace(p, ingredient=ings[i]) for i, p in enumerate(places)]
        fingers = _light_finger(rng, places, size, cond)
        return places, replace(cond, fingers=fingers), "unsure" if kind == "heavy_overlap" else "ok"
    if kind in ("covered", "hand"):
        places = random_placements(rng, ings, 1 if kind == "covered" else int(rng.integers(1, 3)), size, cond)
        if places is None:
            return None
        places = [replace(p, ingredient=ings[i]) for i, p in enumerate(places)]
        quad = scene_quads(places, size, cond)[0]
        low, high = (0.3, 0.5) if kind == "covered" else (0.3, 0.55)
        for _ in range(30):
            f = Finger(0, int(rng.integers(4)), float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.5, 0.9)),
                       float(rng.uniform(0.45, 0.7)), float(rng.uniform(-20, 20)))
            if low <= finger_coverage(quad, f, size) <= high:
                return places, replace(cond, fingers=(f,)), "unsure"
        return None
    if kind in ("cut", "edge_cut"):
        chosen = ings[:1] if kind == "cut" else ings
        share = (0.2, 0.45) if kind == "cut" else (0.1, 0.45)
        places = _scatter(rng, chosen, size, cond, float(rng.uniform(0.35, 0.55)), 0.0, cut=0, cut_share=share)
        return (places, cond, "unsure") if places is not None else None
    if kind == "dark":
        places = random_placements(rng, ings, 2, size, cond, str(rng.choice(["apart", "touching"])))
        if places is None:
            return None
        dim = int(rng.integers(2))
        light = float(rng.uniform(0.4, 0.75))
        places = [replace(p, ingredient=ings[i], light=light if i == dim else 1.0) for i, p in enumerate(places)]
        # no scene-wide shadow or glare on top: the dimmed card is the condition
        return places, replace(cond, shadow=None, glare=None), "ok"
    if kind == "glare":
        n = int(rng.integers(1, 3))
        places = random_placements(rng, ings, n, size, cond)
        if places is None:
            return None
        places = [replace(p, ingredient=ings[i]) for i, p in enumerate(places)]
        quad = scene_quads(places, size, cond)[int(rng.integers(n))]
        w = rng.dirichlet([2, 2, 2, 2])
        gx, gy = (w @ quad) / np.array(size, np.float64)      # a point on the card
        glare = (float(gx), float(gy), float(rng.uniform(0.04, 0.09)), float(rng.uniform(0.75, 1.0)))
        return places, replace(cond, glare=glare), "ok"
    if kind == "same_two":
        ing = str(rng.choice(list(SHIPPED_FACE_NAMES)))
        places = random_placements(rng, [ing], 2, size, cond, str(rng.choice(["apart", "touching", "overlap"])),
                                   float(rng.uniform(0.02, 0.1)))
        if places is None:
            return None
        places = [replace(p, ingredient=ing) for p in places]
        return places, replace(cond, fingers=_light_finger(rng, places, size, cond)), "ok"
    if kind == "three":
        three = [str(x) for x in rng.choice(list(SHIPPED_FACE_NAMES), size=3, replace=False)]
        places = _scatter(rng, three, size, cond, float(rng.uniform(0.3, 0.42)), 0.1)
        return (places, cond, "unsure") if places is not None else None
    if kind == "face_down":
        n = int(rng.integers(1, 3))
        places = random_placements(rng, ings, n, size, cond, str(rng.choice(["apart", "touching"])))
        if places is None:
            return None
        down = int(rng.integers(n))
        places = [replace(p, ingredient=ings[i], face_down=i == down) for i, p in enumerate(places)]
        return places, cond, "unsure"
    raise ValueError(f"unknown scene kind {kind!r}")


def _light_finger(rng: np.random.Generator, places: list[Placement], size: tuple[int, int],
                  cond: Conditions) -> tuple[Finger, ...]:
    """Issue 3's finger over up to 12 % of a card, in three scenes of ten."""
    if rng.random() >= 0.3:
        return ()
    card = int(rng.integers(len(places)))
    f = random_finger(rng, scene_quads(places, size, cond)[card], card, size)
    return (f,) if f is not None else ()


def scene_counts(scenes: Sequence[DesignScene]) -> Counter[str]:
    """How many scenes of each kind (for reports)."""
    return Counter(s.kind for s in scenes)


__all__ = [
    "BACKGROUND_KINDS", "DESIGN_NAMES", "EMPTY_KINDS", "FRAME_SIZES", "HARD_KINDS", "HARD_MIX", "NORMAL_KINDS",
    "NORMAL_MIX", "PATTERNED", "READABLE_KINDS", "CardDesign", "CardTruth", "DesignScene", "Verdict",
    "design_scene", "judge", "kind_for", "make_design", "table_background",
]
