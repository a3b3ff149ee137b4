"""Synthetic cauldron scenes: ingredient cards laid on a shelf, as the cauldron camera would see them.

Used by the simulator's replay camera (``render_scene``), by the tests and by the benchmark
(``random_scene``, every condition of issue 3 point 2, deterministic from a seed). numpy and OpenCV
only. Frames are BGR uint8, like picamera2's "RGB888" and OpenCV's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]

#: card aspect, height / width (the shipped faces are 250 x 350)
CARD_ASPECT = 1.4


@dataclass(frozen=True)
class Placement:
    """Where one card lies: centre (fractions of the frame), rotation in degrees, height fraction.

    ``angle`` turns the card clockwise on the shelf; 180 lays it upside down. ``face_down`` shows the
    card's back (``compose_scene``'s ``back``); ``light`` is how brightly the card is lit against the
    frame's light (a card in a shadow: 0.4-0.75), the shadow reaching a little beyond its edge.
    """

    ingredient: str
    center: tuple[float, float] = (0.5, 0.5)
    angle: float = 0.0
    height: float = 0.5
    face_down: bool = False
    light: float = 1.0


@dataclass(frozen=True)
class Finger:
    """A finger over card ``card`` (index in the placements), entering across its edge.

    ``side`` 0..3 picks the card edge (top, right, bottom, left in the card's own frame), ``along``
    (0..1) the point on it, ``depth`` how far the fingertip reaches into the card (fraction of the
    card height), ``width`` the finger's width (fraction of the card width).
    """

    card: int
    side: int = 1
    along: float = 0.5
    depth: float = 0.25
    width: float = 0.3
    angle: float = 0.0


@dataclass(frozen=True)
class Conditions:
    """Camera and lighting conditions applied to a scene (all neutral by default)."""

    tilt: float = 0.0                 # degrees off the camera axis
    tilt_axis: float = 0.0            # direction of the tilt axis in the image, degrees
    brightness: float = 1.0           # 0.5 .. 1.4
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)   # B, G, R gains
    uneven: float = 0.0               # 0 .. 0.5: strength of a light gradient across the frame
    uneven_angle: float = 0.0         # its direction, degrees
    glare: tuple[float, float, float, float] | None = None   # x, y (fractions), radius (fraction of H), strength
    shadow: tuple[float, float, float, float] | None = None  # x, y, radius (fractions), darkening 0..1
    blur_sigma: float = 0.0           # gaussian blur, px
    motion: tuple[float, float] | None = None   # motion blur length px, direction degrees
    noise: float = 0.0                # sensor noise sigma, grey levels
    jpeg: int | None = None           # JPEG quality
    fingers: tuple[Finger, ...] = ()


@dataclass
class Scene:
    """A rendered frame and its truth: each visible card's ingredient and quad (frame pixels)."""

    image: np.ndarray
    cards: list[tuple[str, Quad]]
    expected_status: str = "ok"
    notes: dict[str, object] = field(default_factory=dict)

    @property
    def ingredients(self) -> tuple[str, ...]:
        return tuple(sorted(ing for ing, _ in self.cards))


# ---------------------------------------------------------------- backgrounds


def _value_noise(rng: np.random.Generator, height: int, width: int, octaves: int = 5) -> np.ndarray:
    """Smooth fractal noise in 0..1 (sum of upscaled random grids)."""
    out = np.zeros((height, width), np.float32)
    total = 0.0
    for octave in range(octaves):
        cells = 3 * 2 ** octave
        grid = rng.random((cells + 1, int(cells * width / height) + 1)).astype(np.float32)
        layer = cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC)
        amp = 0.55 ** octave
        out += amp * layer
        total += amp
    out /= total
    return np.clip((out - out.min()) / max(1e-6, float(out.max() - out.min())), 0, 1)


def shelf_background(size: tuple[int, int] = (640, 480), seed: int = 0, kind: str | None = None) -> np.ndarray:
    """A cauldron-like shelf: dark iron, copper or charred wood, vignetted (BGR uint8, ``size`` = W, H)."""
    width, height = size
    rng = np.random.default_rng(seed)
    kinds = ("iron", "copper", "wood")
    kind = kind or kinds[int(rng.integers(len(kinds)))]
    noise = _value_noise(rng, height, width)
    if kind == "iron":
        base = np.array([52, 50, 48], np.float32)
        tex = base + 40 * (noise[..., None] - 0.5)
    elif kind == "copper":
        base = np.array([38, 62, 98], np.float32)
        tex = base * (0.6 + 0.8 * noise[..., None])
    elif kind == "wood":
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        grain = np.sin((yy + 25 * noise) / (4.0 + 3 * rng.random())) * 0.5 + 0.5
        base = np.array([30, 45, 66], np.float32)
        tex = base * (0.6 + 0.5 * grain[..., None] + 0.4 * noise[..., None])
    else:
        raise ValueError(f"unknown background kind {kind!r}; expected one of {kinds}")
    # rivets / specks
    for _ in range(int(rng.integers(0, 12))):
        c = (int(rng.integers(width)), int(rng.integers(height)))
        cv2.circle(tex, c, int(rng.integers(2, 6)), (float(base[0] * 1.5),) * 3, -1, cv2.LINE_AA)
    # the cauldron's round wall darkens the corners
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    r = np.hypot((xx - width / 2) / (width / 2), (yy - height / 2) / (height / 2))
    tex *= np.clip(1.15 - 0.45 * r ** 2, 0.35, 1.1)[..., None]
    return np.clip(tex, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- geometry


def _tilt_homography(width: int, height: int, tilt: float, axis: float) -> np.ndarray:
    """Homography of a flat shelf seen by a camera tilted ``tilt`` degrees about an in-image axis."""
    f = 1.1 * width
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]], np.float64)
    a = math.radians(axis)
    rvec = np.array([math.cos(a), math.sin(a), 0.0]) * math.radians(tilt)
    rot, _ = cv2.Rodrigues(rvec)
    h = k @ rot @ np.linalg.inv(k)
    # keep the frame centre where it was
    c = h @ np.array([width / 2, height / 2, 1.0])
    shift = np.array([[1, 0, width / 2 - c[0] / c[2]], [0, 1, height / 2 - c[1] / c[2]], [0, 0, 1]])
    return shift @ h


def placement_corners(p: Placement, size: tuple[int, int]) -> np.ndarray:
    """The card's corners on the (untilted) shelf, clockwise from the card's own top-left, 4 x 2."""
    width, height = size
    ch = p.height * height
    cw = ch / CARD_ASPECT
    base = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]])
    a = math.radians(p.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return base @ rot.T + np.array([p.center[0] * width, p.center[1] * height])


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)


def scene_quads(placements: Sequence[Placement], size: tuple[int, int],
                conditions: Conditions | None = None) -> list[np.ndarray]:
    """Each card's four corners in the final frame (after the camera tilt)."""
    cond = conditions or Conditions()
    h = _tilt_homography(size[0], size[1], cond.tilt, cond.tilt_axis)
    return [_apply(h, placement_corners(p, size)) for p in placements]


# ---------------------------------------------------------------- rendering


def _finger_mask(quad: np.ndarray, finger: Finger, size: tuple[int, int]) -> np.ndarray:
    """Float mask (0..1) of a finger over the card with corners ``quad`` (frame pixels)."""
    width, height = size
    tl, tr, br, bl = quad
    edges = [(tl, tr, bl - tl), (tr, br, tl - tr), (br, bl, tr - br), (bl, tl, br - bl)]
    a, b, inward = edges[finger.side % 4]
    card_h = float(np.linalg.norm(bl - tl))
    card_w = float(np.linalg.norm(tr - tl))
    inward = inward / max(1e-6, float(np.linalg.norm(inward)))
    ang = math.radians(finger.angle)
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    direction = rot @ inward
    entry = a + finger.along * (b - a)
    tip = entry + direction * finger.depth * card_h
    root = entry - direction * 2.0 * card_h        # the rest of the hand, off the card
    thickness = max(3, int(round(finger.width * card_w)))
    mask = np.zeros((height, width), np.uint8)
    cv2.line(mask, (int(root[0]), int(root[1])), (int(tip[0]), int(tip[1])), 255, thickness, cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0


def finger_coverage(quad: np.ndarray, finger: Finger, size: tuple[int, int]) -> float:
    """Fraction of the card's area the finger covers."""
    card = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillConvexPoly(card, np.round(quad).astype(np.int32), 1)
    fm = _finger_mask(quad, finger, size) > 0.5
    return float((fm & (card > 0)).sum()) / max(1, int(card.sum()))


def _motion_kernel(length: float, angle: float) -> np.ndarray:
    n = max(1, int(math.ceil(length)))
    if n % 2 == 0:
        n += 1
    k = np.zeros((n, n), np.float32)
    c = n // 2
    a = math.radians(angle)
    dx, dy = math.cos(a) * (length - 1) / 2, math.sin(a) * (length - 1) / 2
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1,
             cv2.LINE_AA)
    return k / max(1e-6, float(k.sum()))


def compose_scene(faces: Mapping[str, np.ndarray], placements: Sequence[Placement],
                  background: np.ndarray | str | None = None, seed: int = 0,
                  size: tuple[int, int] = (640, 480), conditions: Conditions | None = None,
                  back: np.ndarray | None = None) -> Scene:
    """Lay ``placements`` (later ones on top) on ``background`` under ``conditions``; returns image and truth.

    ``background`` is a BGR image (resized to ``size``), a background kind ("iron", "copper",
    "wood") or None for one chosen from ``seed``. ``back`` is the card back shown by face-down
    placements. Deterministic for a given seed.
    """
    width, height = size
    if width < 16 or height < 16:
        raise ValueError(f"scene size {size} is too small")
    cond = conditions or Conditions()
    rng = np.random.default_rng(seed)
    if background is None or isinstance(background, str):
        bg = shelf_background(size, seed=int(rng.integers(1 << 30)), kind=background)
    else:
        bg = cv2.resize(np.asarray(background, np.uint8), size, interpolation=cv2.INTER_AREA)
    img = bg.astype(np.float32)
    quads = scene_quads(placements, size, cond)
    for p, quad in zip(placements, quads):
        if p.face_down and back is None:
            raise ValueError(f"a face-down {p.ingredient!r} card needs the card back (back=...)")
        if p.ingredient not in faces:
            raise KeyError(f"no face for ingredient {p.ingredient!r}")
        face = np.asarray(back if p.face_down else faces[p.ingredient])
        side = float(np.linalg.norm(quad[3] - quad[0]))
        # pre-shrink the face so the warp does not alias
        scale = min(1.0, 1.5 * side / face.shape[0])
        if scale < 1.0:
            face = cv2.resize(face, (max(2, int(face.shape[1] * scale)), max(2, int(face.shape[0] * scale))),
                              interpolation=cv2.INTER_AREA)
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        hmat = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        warped = cv2.warpPerspective(face.astype(np.float32), hmat, size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT)
        alpha = np.zeros((height * 4, width * 4), np.uint8)  # anti-aliased card outline
        cv2.fillConvexPoly(alpha, np.round(quad * 4).astype(np.int32), 255)
        a = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255.0
        # a card casts a faint contact shadow on what lies below
        shadow = cv2.GaussianBlur(a[..., 0], (0, 0), max(1.0, side * 0.02))[..., None]
        img = img * (1 - 0.35 * shadow * (1 - a))
        img = img * (1 - a) + warped * a
    for finger in cond.fingers:
        fm = _finger_mask(quads[finger.card], finger, size)[..., None]
        tone = np.array([120, 150, 200], np.float32) * float(rng.uniform(0.8, 1.15))
        shade = cv2.GaussianBlur(fm[..., 0], (0, 0), max(1.0, finger.width * 20))[..., None]
        img = img * (1 - fm) + (tone * (0.6 + 0.45 * shade)) * fm
    # lighting
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = np.full((height, width), cond.brightness, np.float32)
    if cond.uneven:
        a = math.radians(cond.uneven_angle)
        t = ((xx - width / 2) * math.cos(a) + (yy - height / 2) * math.sin(a)) / (0.5 * math.hypot(width, height))
        light *= 1 + cond.uneven * t
    if cond.shadow is not None:
        sx, sy, sr, dark = cond.shadow
        blob = np.zeros((height, width), np.float32)
        axes = (max(2, int(sr * width)), max(2, int(sr * height * 0.7)))
        cv2.ellipse(blob, (int(sx * width), int(sy * height)), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        blob = cv2.GaussianBlur(blob, (0, 0), max(2.0, 0.25 * min(axes)))
        light *= 1 - dark * blob
    for p, quad in zip(placements, quads):
        if p.light != 1.0:
            # a shadow over the card, its soft edge a few percent of the card beyond the card's
            side = float(np.linalg.norm(quad[3] - quad[0]))
            patch = np.zeros((height, width), np.float32)
            centre = quad.mean(axis=0)
            grown = centre + (quad - centre) * 1.08
            cv2.fillConvexPoly(patch, np.round(grown).astype(np.int32), 1.0)
            patch = cv2.GaussianBlur(patch, (0, 0), max(1.0, 0.03 * side))
            light *= 1 - (1 - p.light) * patch
    img = img * light[..., None] * np.array(cond.cast, np.float32)
    if cond.glare is not None:
        gx, gy, gr, strength = cond.glare
        d2 = (xx - gx * width) ** 2 + (yy - gy * height) ** 2
        img = img + (255 * strength * np.exp(-d2 / (2 * (gr * height) ** 2)))[..., None]
    img = np.clip(img, 0, 255)
    if cond.blur_sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), cond.blur_sigma)
    if cond.motion is not None and cond.motion[0] > 1:
        img = cv2.filter2D(img, -1, _motion_kernel(*cond.motion))
    if cond.noise > 0:
        img = img + rng.normal(0, cond.noise, img.shape).astype(np.float32)
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    if cond.jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(cond.jpeg)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth: list[tuple[str, Quad]] = [
        (p.ingredient, tuple((float(x), float(y)) for x, y in q))  # type: ignore[misc]
        for p, q in zip(placements, quads)
    ]
    return Scene(out, truth)


def render_scene(faces: Mapping[str, np.ndarray], placements: Sequence[Placement],
                 background: np.ndarray | str | None = None, seed: int = 0,
                 size: tuple[int, int] = (640, 480), conditions: Conditions | None = None) -> np.ndarray:
    """The frame only of :func:`compose_scene` (what the replay camera shows), BGR uint8 H x W x 3."""
    return compose_scene(faces, placements, background, seed, size, conditions).image


# ---------------------------------------------------------------- random scenes for tests and benchmark


def _overlap_fraction(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area) / max(1e-6, min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32))))


def _inside(q: np.ndarray, size: tuple[int, int], margin: float = 3.0) -> bool:
    return bool((q[:, 0] >= margin).all() and (q[:, 0] <= size[0] - 1 - margin).all()
                and (q[:, 1] >= margin).all() and (q[:, 1] <= size[1] - 1 - margin).all())


def random_conditions(rng: np.random.Generator, size: tuple[int, int], n_cards: int,
                      finger_prob: float = 0.3) -> Conditions:
    """Random conditions over the whole range of issue 3 point 2 (fingers filled in later)."""
    blur = float(rng.uniform(0, 1.5)) if rng.random() < 0.6 else 0.0
    motion = (float(rng.uniform(2, 7)), float(rng.uniform(0, 180))) if rng.random() < 0.35 else None
    return Conditions(
        tilt=float(rng.uniform(0, 20)),
        tilt_axis=float(rng.uniform(0, 180)),
        brightness=float(rng.uniform(0.5, 1.4)),
        cast=tuple(float(g) for g in rng.uniform(0.8, 1.2, 3)) if rng.random() < 0.7 else (1.0, 1.0, 1.0),  # type: ignore[arg-type]
        uneven=float(rng.uniform(0, 0.5)) if rng.random() < 0.6 else 0.0,
        uneven_angle=float(rng.uniform(0, 360)),
        glare=((float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.04, 0.12)),
                float(rng.uniform(0.3, 0.9))) if rng.random() < 0.35 else None),
        shadow=((float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.15, 0.4)),
                 float(rng.uniform(0.2, 0.45))) if rng.random() < 0.35 else None),
        blur_sigma=blur,
        motion=motion,
        noise=float(rng.uniform(1, 6)),
        jpeg=int(rng.integers(55, 91)) if rng.random() < 0.8 else None,
    )


def random_placements(rng: np.random.Generator, ingredients: Sequence[str], n_cards: int,
                      size: tuple[int, int], cond: Conditions, arrangement: str = "apart",
                      overlap: float = 0.0, height: float | None = None,
                      allow_cut: bool = False) -> list[Placement] | None:
    """Random card placements of one arrangement ("apart", "touching", "overlap"); None if none fit.

    All cards of one scene share their height (they lie on the same shelf at the same distance).
    """
    width, fh = size
    h = height if height is not None else float(rng.uniform(0.37, 0.58))
    tilt_h = _tilt_homography(width, fh, cond.tilt, cond.tilt_axis)
    chosen = [str(x) for x in rng.choice(list(ingredients), size=n_cards, replace=True)]
    for _ in range(60):
        first = Placement(chosen[0], (float(rng.uniform(0.25, 0.75)), float(rng.uniform(0.3, 0.7))),
                          float(rng.uniform(0, 360)), h)
        places = [first]
        if n_cards == 2:
            second_angle = float(rng.uniform(0, 360))
            direction = float(rng.uniform(0, 2 * math.pi))
            # find the centre distance giving the wanted contact, by bisection
            def at(d: float) -> Placement:
                return Placement(chosen[1], (first.center[0] + d * math.cos(direction) / width * fh,
                                             first.center[1] + d * math.sin(direction)), second_angle, h)

            def ov(d: float) -> float:
                return _overlap_fraction(_apply(tilt_h, placement_corners(first, size)),
                                         _apply(tilt_h, placement_corners(at(d), size)))
            target = {"apart": 0.0, "touching": 0.0, "overlap": overlap}[arrangement]
            lo, hi = 0.0, 1.5 * h
            if ov(hi) > 0:
                continue
            for _ in range(24):
                mid = (lo + hi) / 2
                if ov(mid) > target + (1e-4 if target == 0 else 0):
                    lo = mid
                else:
                    hi = mid
            d = hi
            if arrangement == "apart":
                d += float(rng.uniform(0.03, 0.2)) * h
            elif arrangement == "touching":
                d += 0.6 / fh
            places.append(at(d))
        quads = [_apply(tilt_h, placement_corners(p, size)) for p in places]
        if allow_cut or all(_inside(q, size) for q in quads):
            return places
    return None


def random_finger(rng: np.random.Generator, quad: np.ndarray, card: int, size: tuple[int, int],
                  max_cover: float = 0.12) -> Finger | None:
    """A finger over ``card`` covering at most ``max_cover`` of it (at least a third of that)."""
    for _ in range(20):
        f = Finger(card, int(rng.integers(4)), float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.1, 0.45)),
                   float(rng.uniform(0.18, 0.3)), float(rng.uniform(-35, 35)))
        cover = finger_coverage(quad, f, size)
        while cover > max_cover and f.depth > 0.04:
            f = replace(f, depth=f.depth * 0.8)
            cover = finger_coverage(quad, f, size)
        if max_cover / 3 <= cover <= max_cover:
            return f
    return None


SCENE_KINDS = ("one", "apart", "touching", "overlap", "empty", "cut", "heavy_overlap", "covered")


def random_scene(faces: Mapping[str, np.ndarray], seed: int, size: tuple[int, int] = (640, 480),
                 kind: str | None = None, ingredients: Sequence[str] | None = None) -> Scene:
    """One benchmark scene from ``seed``: every condition of issue 3 point 2, truth attached.

    Kinds a reader must read ("ok"): "one" card (golem test), two cards "apart", "touching", or
    "overlap" (up to 10% of a card's area). Kinds it must not read: "empty" shelf; "cut" (a card half
    out of the frame), "heavy_overlap" (25-45%), "covered" (a hand over 30-50% of a card): "unsure".
    """
    rng = np.random.default_rng(seed)
    if kind is None:
        kind = str(rng.choice(["one", "apart", "apart", "touching", "overlap", "overlap"]))
    if kind not in SCENE_KINDS:
        raise ValueError(f"unknown scene kind {kind!r}; expected one of {SCENE_KINDS}")
    ings = list(ingredients) if ingredients is not None else list(faces)
    for _ in range(50):
        cond = random_conditions(rng, size, 2)
        n = 1 if kind in ("one", "cut", "covered") else 2
        if kind == "empty":
            return replace(compose_scene(faces, [], None, int(rng.integers(1 << 30)), size, cond),
                           expected_status="empty")
        arrangement = {"overlap": "overlap", "heavy_overlap": "overlap", "touching": "touching"}.get(kind, "apart")
        overlap = float(rng.uniform(0.02, 0.1)) if kind == "overlap" else float(rng.uniform(0.25, 0.45))
        places = random_placements(rng, ings, n, size, cond, arrangement, overlap, allow_cut=kind == "cut")
        if places is None:
            continue
        if kind == "cut":
            p = places[0]
            # push the card out of the frame until 20-45% of it is outside
            direction = float(rng.uniform(0, 2 * math.pi))
            want = float(rng.uniform(0.2, 0.45))
            for step in range(1, 200):
                c = (0.5 + step * 0.005 * math.cos(direction), 0.5 + step * 0.005 * math.sin(direction))
                q = scene_quads([replace(p, center=c)], size, cond)[0]
                inside, _ = cv2.intersectConvexConvex(
                    q.astype(np.float32),
                    np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32))
                if 1 - inside / cv2.contourArea(q.astype(np.float32)) >= want:
                    places = [replace(p, center=c)]
                    break
        quads = scene_quads(places, size, cond)
        fingers: list[Finger] = []
        if kind == "covered":
            f = None
            for _ in range(30):
                f = Finger(0, int(rng.integers(4)), float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.5, 0.8)),
                           float(rng.uniform(0.45, 0.65)), float(rng.uniform(-20, 20)))
                if 0.3 <= finger_coverage(quads[0], f, size) <= 0.5:
                    break
                f = None
            if f is None:
                continue
            fingers.append(f)
        elif kind != "cut" and rng.random() < 0.3:
            card = int(rng.integers(len(places)))
            f = random_finger(rng, quads[card], card, size)
            if f is not None:
                fingers.append(f)
        cond = replace(cond, fingers=tuple(fingers))
        scene = compose_scene(faces, places, None, int(rng.integers(1 << 30)), size, cond)
        scene.expected_status = "unsure" if kind in ("cut", "heavy_overlap", "covered") else "ok"
        scene.notes = {"kind": kind, "conditions": cond}
        return scene
    raise RuntimeError(f"could not lay out a {kind!r} scene for seed {seed}")
