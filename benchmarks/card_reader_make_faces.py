"""Generate the placeholder ingredient faces shipped in drivers/card_reader/faces/ (run once).

The real cards' artwork cannot ship with the kit, so the simulator and the tests use placeholder
faces: photographs bundled with scikit-image framed in one shared card layout (outer edge, parchment
border, illustration window, title strip), as the real cards of one game share their frame and differ
by illustration and title. Needs scikit-image (the ``test`` extra); the reader itself never imports it.

    .venv/bin/python benchmarks/card_reader_make_faces.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

FACE_W, FACE_H = 250, 350
EDGE = 6          # dark cut edge, px
BORDER = 22       # parchment border (from the card's edge), px
TITLE_H = 58      # title strip height, px

#: ingredient id -> (English title, scikit-image sample, crop box as fractions x0, y0, x1, y1)
PLACEHOLDERS: dict[str, tuple[str, str, tuple[float, float, float, float]]] = {
    "fern": ("Fern", "chelsea", (0.05, 0.0, 0.75, 1.0)),
    "claw": ("Bird claw", "astronaut", (0.1, 0.0, 0.75, 0.85)),
    "mushroom": ("Mushroom", "coffee", (0.15, 0.0, 0.8, 1.0)),
    "flower": ("Flower", "rocket", (0.25, 0.0, 0.75, 1.0)),
    "root": ("Mandrake root", "camera", (0.1, 0.0, 0.8, 1.0)),
    "scorpion": ("Scorpion", "coins", (0.0, 0.0, 0.55, 1.0)),
    "toad": ("Toad", "hubble_deep_field", (0.2, 0.1, 0.7, 0.9)),
    "feather": ("Raven feather", "immunohistochemistry", (0.2, 0.0, 0.8, 1.0)),
}

#: further photographs for the benchmark's "more enrolled faces" scaling runs
EXTRA_SAMPLES = ["retina", "motorcycle_left", "moon", "brick", "gravel", "page", "text", "grass",
                 "colorwheel", "cell", "microaneurysms", "horse"]


def sample_bgr(name: str) -> np.ndarray:
    """One scikit-image sample as a BGR uint8 image."""
    from skimage import data  # only the generator needs scikit-image

    if name == "motorcycle_left":
        rgb = data.stereo_motorcycle()[0]
    else:
        rgb = getattr(data, name)()
    rgb = np.asarray(rgb)
    if rgb.dtype == bool:
        rgb = rgb.astype(np.uint8) * 255
    if rgb.dtype != np.uint8:
        rgb = (255 * (rgb - rgb.min()) / max(1e-9, float(rgb.max() - rgb.min()))).astype(np.uint8)
    if rgb.ndim == 2:
        rgb = np.stack([rgb] * 3, axis=-1)
    return cv2.cvtColor(rgb[..., :3], cv2.COLOR_RGB2BGR)


def card_frame() -> np.ndarray:
    """The shared card frame: dark cut edge, parchment border, ornaments; window and title left blank."""
    card = np.empty((FACE_H, FACE_W, 3), np.uint8)
    card[:] = (48, 44, 58)                                   # dark cut edge
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W]
    parchment = np.stack([178 + 0 * xx, 206 + 0 * xx, 226 + 0 * xx], axis=-1).astype(np.float32)
    parchment += 8 * np.sin(xx / 9.0)[..., None] * np.cos(yy / 13.0)[..., None]
    inner = (slice(EDGE, FACE_H - EDGE), slice(EDGE, FACE_W - EDGE))
    card[inner] = np.clip(parchment[inner], 0, 255).astype(np.uint8)
    # thin gold line around the illustration window and title strip, corner ornaments
    cv2.rectangle(card, (BORDER - 5, BORDER - 5), (FACE_W - BORDER + 4, FACE_H - BORDER + 4),
                  (60, 150, 190), 2)
    for cx, cy in [(BORDER - 5, BORDER - 5), (FACE_W - BORDER + 4, BORDER - 5),
                   (BORDER - 5, FACE_H - BORDER + 4), (FACE_W - BORDER + 4, FACE_H - BORDER + 4)]:
        cv2.circle(card, (cx, cy), 6, (40, 110, 160), -1)
    return card


def make_face(title: str, photo: np.ndarray, crop: tuple[float, float, float, float]) -> np.ndarray:
    """One placeholder face: the shared frame, the photograph in the window, the title below."""
    card = card_frame()
    h, w = photo.shape[:2]
    x0, y0, x1, y1 = (int(crop[0] * w), int(crop[1] * h), int(crop[2] * w), int(crop[3] * h))
    win_w = FACE_W - 2 * BORDER
    win_h = FACE_H - 2 * BORDER - TITLE_H
    part = photo[y0:y1, x0:x1]
    # cover the window keeping the aspect ratio
    scale = max(win_w / part.shape[1], win_h / part.shape[0])
    part = cv2.resize(part, (int(np.ceil(part.shape[1] * scale)), int(np.ceil(part.shape[0] * scale))),
                      interpolation=cv2.INTER_AREA)
    oy = (part.shape[0] - win_h) // 2
    ox = (part.shape[1] - win_w) // 2
    card[BORDER:BORDER + win_h, BORDER:BORDER + win_w] = part[oy:oy + win_h, ox:ox + win_w]
    # title strip
    ty = BORDER + win_h + 6
    cv2.rectangle(card, (BORDER, ty), (FACE_W - BORDER, FACE_H - BORDER), (150, 190, 215), -1)
    font = cv2.FONT_HERSHEY_COMPLEX
    size = 0.9
    while cv2.getTextSize(title, font, size, 2)[0][0] > win_w - 16:
        size -= 0.05
    (tw, th), _ = cv2.getTextSize(title, font, size, 2)
    cv2.putText(card, title, ((FACE_W - tw) // 2, ty + (TITLE_H - 6 + th) // 2 - 2), font, size,
                (30, 30, 60), 2, cv2.LINE_AA)
    return card


def make_faces() -> dict[str, np.ndarray]:
    return {ing: make_face(title, sample_bgr(sample), crop)
            for ing, (title, sample, crop) in PLACEHOLDERS.items()}


def make_extra_faces(count: int, seed: int = 7) -> dict[str, np.ndarray]:
    """``count`` further faces (ids ``extra00``...) for the enrolment-size scaling runs."""
    rng = np.random.default_rng(seed)
    names = EXTRA_SAMPLES + [s for _, s, _ in PLACEHOLDERS.values()]
    out = {}
    for i in range(count):
        name = names[i % len(names)]
        x0, y0 = rng.uniform(0, 0.4, 2)
        crop = (float(x0), float(y0), float(x0 + 0.6), float(y0 + 0.6))
        out[f"extra{i:02d}"] = make_face(f"Extra {i}", sample_bgr(name), crop)
    return out


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "drivers/card_reader/faces"
    out.mkdir(parents=True, exist_ok=True)
    for ing, face in make_faces().items():
        cv2.imwrite(str(out / f"{ing}.png"), face)
        print(out / f"{ing}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
