"""Enrolled card faces: building, saving and loading the reference file. numpy and OpenCV only.

A reference file is JSON (no pickle) carrying a schema name and version; each enrolled face is kept as
a small canonical card image (PNG, base64) from which the reader derives its descriptors at load time.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .detect import Detector
from .quad_fit import order_quad

log = logging.getLogger(__name__)

SCHEMA = "labkit.card_reader.references"
SCHEMA_VERSION = 2

#: The placeholder faces shipped in ``faces/`` (``<name>.png``; the game's ingredients, in the app's
#: order), for the synthetic decks and the stand-alone CLI. The reader itself reads whatever face
#: names it is given: the kit passes the engine's ingredient ids.
SHIPPED_FACE_NAMES = ("fern", "claw", "mushroom", "flower", "root", "scorpion", "toad", "feather")

#: the canonical (upright) card image the reader warps a found card to, width x height
CANON_W, CANON_H = 100, 140
#: an enrolled face as the reference file keeps it: large enough for its keypoints
FACE_W, FACE_H = 150, 210


class ReferenceFileError(ValueError):
    """A reference file that cannot be used: missing, damaged, or from another schema version."""

    def __init__(self, path: str | os.PathLike[str], problem: str) -> None:
        super().__init__(f"reference file {os.fspath(path)!r}: {problem}")
        self.path = os.fspath(path)
        self.problem = problem


def check_frame(frame: object, what: str = "frame") -> np.ndarray:
    """``frame`` as a BGR uint8 H x W x 3 array, or ValueError naming the problem."""
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"{what} must be a numpy array, not {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise ValueError(f"{what} must be uint8, not {frame.dtype}")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"{what} must be H x W x 3 (BGR), not shape {frame.shape}")
    if frame.shape[0] < 32 or frame.shape[1] < 32:
        raise ValueError(f"{what} is too small: {frame.shape[1]} x {frame.shape[0]}")
    return frame


def canonical_card(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CANON_W, CANON_H),
                   far_edges: bool = False) -> np.ndarray:
    """Warp the card with corners ``quad`` (clockwise from its top-left) to an upright ``size`` image.

    The corners go to the image's far edges, one pixel beyond its last row and column;
    ``far_edges`` warps that row and column too (the image is one pixel larger each way).
    """
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    out_size = (w + 1, h + 1) if far_edges else (w, h)
    return cv2.warpPerspective(image, m, out_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def locate_face(image: np.ndarray) -> np.ndarray:
    """The card's quad in an enrolment photo or scan (the whole image if it is a tight scan).

    The image is padded with a dark margin and searched like a frame, so a scan cropped to the card
    and a photo of the card on the shelf both give the same outline the reader will find later.
    """
    h, w = image.shape[:2]
    pad = max(8, int(0.15 * max(h, w)))
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(30, 30, 30))
    scale = 240.0 / padded.shape[0]
    small = cv2.resize(padded, (max(1, round(padded.shape[1] * scale)), 240), interpolation=cv2.INTER_AREA)
    cands = [c for c in Detector(min_card_height=0.2, max_card_height=1.0).find(small) if c.fitted]
    whole = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    if w > h:          # a landscape scan: the card lies on its side; read it turned clockwise
        whole = np.roll(whole, -1, axis=0)
    if not cands:
        return whole
    best = max(cands, key=lambda c: cv2.contourArea(c.quad))
    quad = best.quad / scale - pad
    if cv2.contourArea(quad) < 0.3 * w * h and min(w, h) > 0:
        return whole
    quad = order_quad(quad)
    # keep the face's own "up": start from the corner nearest the image's top-left for portrait
    # images (the enrolment photo is taken straight, card upright)
    starts = [0, 2]
    best_start = min(starts, key=lambda s: float(quad[s, 0] + quad[s, 1]))
    return np.roll(quad, -best_start, axis=0)


@dataclass
class References:
    """Enrolled faces: ingredient id -> upright card image (FACE_H x FACE_W x 3, BGR), and the
    cards' back when it was enrolled (the reader then says a card lies face down)."""

    faces: dict[str, np.ndarray]
    #: what enrolment found worth telling (a face turned upright, faces alike); not saved
    warnings: tuple[str, ...] = ()
    back: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError("references need at least one enrolled face")
        for ing, img in self.faces.items():
            if not isinstance(ing, str) or not ing:
                raise ValueError(f"ingredient ids must be non-empty strings, not {ing!r}")
            if img.shape != (FACE_H, FACE_W, 3) or img.dtype != np.uint8:
                raise ValueError(f"face {ing!r} must be a {FACE_W}x{FACE_H} BGR uint8 image, got {img.shape}")
        if self.back is not None and (self.back.shape != (FACE_H, FACE_W, 3) or self.back.dtype != np.uint8):
            raise ValueError(f"the back must be a {FACE_W}x{FACE_H} BGR uint8 image, got {self.back.shape}")

    @property
    def ingredients(self) -> tuple[str, ...]:
        return tuple(self.faces)

    def to_json(self) -> dict[str, object]:
        faces = {ing: _png_text(img, f"face {ing!r}") for ing, img in self.faces.items()}
        back = {} if self.back is None else {"back": _png_text(self.back, "the back")}
        return {"schema": SCHEMA, "version": SCHEMA_VERSION, "size": [FACE_W, FACE_H], "faces": faces, **back}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the reference file (JSON, atomically replaced)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    def __repr__(self) -> str:
        back = ", back" if self.back is not None else ""
        return f"References(<{', '.join(self.faces)}>{back})"


def _png_text(image: np.ndarray, what: str) -> str:
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise ValueError(f"cannot encode {what}")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def _png_image(text: object) -> np.ndarray | None:
    try:
        buf = np.frombuffer(base64.b64decode(text, validate=True), np.uint8)  # type: ignore[arg-type]
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    except (ValueError, TypeError, cv2.error):
        return None
    if img is None or img.shape != (FACE_H, FACE_W, 3):
        return None
    return np.asarray(img, np.uint8)


def enroll(faces: Mapping[str, np.ndarray], back: np.ndarray | None = None) -> References:
    """Build references from one straight photo or scan per ingredient (BGR uint8 images), and of
    the cards' back if given (any way up: a back is found by its keypoints, turned or not).

    Raises ValueError naming the face (or the back) if an image is not a usable BGR uint8 picture.
    """
    if not faces:
        raise ValueError("enroll needs at least one face")
    out: dict[str, np.ndarray] = {}
    for ing, image in faces.items():
        if not isinstance(ing, str) or not ing:
            raise ValueError(f"ingredient ids must be non-empty strings, not {ing!r}")
        img = check_frame(image, f"face {ing!r}")
        out[ing] = canonical_card(img, locate_face(img), (FACE_W, FACE_H))
    from .enrolment import alike_faces, back_warnings, upright_faces   # the fine look they use imports this module

    out, warnings = upright_faces(out)
    warnings += alike_faces(out)
    enrolled_back = None
    if back is not None:
        img = check_frame(back, "the back")
        enrolled_back = canonical_card(img, locate_face(img), (FACE_W, FACE_H))
        warnings += back_warnings(enrolled_back, out)
    for warning in warnings:
        log.warning("enrolment: %s", warning)
    return References(out, tuple(warnings), enrolled_back)


def load_references(path: str | os.PathLike[str]) -> References:
    """Read a reference file; ReferenceFileError (a ValueError) names the path and the problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReferenceFileError(path, "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReferenceFileError(path, f"cannot read it ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReferenceFileError(path, f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ReferenceFileError(path, f"not a card reader reference file (schema {SCHEMA!r} expected)")
    version = data.get("version")
    if version != SCHEMA_VERSION:
        raise ReferenceFileError(
            path, f"made by another version of the kit (schema version {version!r}, this kit reads "
                  f"{SCHEMA_VERSION}); enrol the cards again")
    faces_data = data.get("faces")
    if not isinstance(faces_data, dict) or not faces_data:
        raise ReferenceFileError(path, "damaged: no enrolled faces")
    faces: dict[str, np.ndarray] = {}
    for ing, blob in faces_data.items():
        img = _png_image(blob)
        if img is None:
            raise ReferenceFileError(path, f"damaged: the face of {ing!r} cannot be decoded")
        faces[str(ing)] = img
    back = None
    if "back" in data:
        back = _png_image(data["back"])
        if back is None:
            raise ReferenceFileError(path, "damaged: the cards' back cannot be decoded")
    return References(faces, back=back)


def shipped_faces_dir() -> Path:
    """Folder of the placeholder faces shipped with the kit (``<id>.png`` for the 8 ingredients)."""
    return Path(__file__).resolve().parent / "faces"


def read_faces(folder: str | os.PathLike[str], names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Load ``<name>.png`` for each face name from ``folder``; FileNotFoundError / ValueError name the file."""
    out = {}
    for ing in names:
        path = Path(folder) / f"{ing}.png"
        if not path.is_file():
            raise FileNotFoundError(f"missing face file {os.fspath(path)!r} (one <name>.png per face: "
                                    f"{', '.join(names)})")
        img = cv2.imread(os.fspath(path), cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError(f"cannot read face file {os.fspath(path)!r} as an image")
        out[ing] = img
    return out


def load_placeholder_faces(names: tuple[str, ...] = SHIPPED_FACE_NAMES) -> dict[str, np.ndarray]:
    """The shipped placeholder faces of ``names``, name -> BGR image."""
    return read_faces(shipped_faces_dir(), names)


_placeholder_cache: dict[tuple[str, ...], References] = {}


def placeholder_references(names: tuple[str, ...] = SHIPPED_FACE_NAMES) -> References:
    """References enrolled from the shipped placeholder faces of ``names`` (the simulator's deck)."""
    if names not in _placeholder_cache:
        _placeholder_cache[names] = enroll(load_placeholder_faces(names))
    return References(dict(_placeholder_cache[names].faces))
