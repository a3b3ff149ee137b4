"""A card's quad: its corners put in order, its sides fitted to an outline's points or to its
straight runs, and snapped to the card's printed edge. numpy and OpenCV only.

Quads are 4 x 2 float32 arrays of work-image (or frame) pixels, clockwise, short side first
(``order_quad``).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

NEXT = [1, 2, 3, 0]      # a quad's corner indices shifted by one, forwards and backwards
_PREV = [3, 0, 1, 2]
#: angle tolerances (numpy scalars, so that comparisons with float32 angles stay in float64): lines
#: within 12 degrees are one side; sides within 25 degrees of parallel or square are a card's pair
_DEG12, _DEG25 = np.radians(12), np.radians(25)


def order_quad(q: np.ndarray) -> np.ndarray:
    """Clockwise (image coordinates) from a corner where a short side starts."""
    q = np.asarray(q, np.float32).reshape(4, 2)
    c = np.add.reduce(q, axis=0) / 4                 # the mean, as q.mean(axis=0) gives it, faster
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]                       # clockwise in image coordinates (y down)
    sides = side_lengths(q)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = q[NEXT]
    return q


def order_quads(qs: np.ndarray) -> np.ndarray:
    """``order_quad`` of each of Q quads (Q x 4 x 2 float32), bit for bit; faster for many quads."""
    c = qs.mean(axis=1)
    ang = np.arctan2(qs[:, :, 1] - c[:, 1:], qs[:, :, 0] - c[:, :1])
    qs = np.take_along_axis(qs, np.argsort(ang, axis=1)[:, :, None], axis=1)   # clockwise (y down)
    e = qs[:, NEXT] - qs
    sides = np.sqrt((e * e).sum(axis=2))
    long_first = sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3]
    qs[long_first] = qs[long_first][:, NEXT]
    return qs


def side_lengths(q: np.ndarray) -> np.ndarray:
    """Lengths of the sides q[i] -> q[i + 1], bit for bit as ``np.linalg.norm`` of each side gives them."""
    e = q[NEXT] - q
    if q.dtype == np.float32:
        return np.sqrt((e * e).sum(axis=1))
    return np.array([np.linalg.norm(v) for v in e])


def _vec_len(v: np.ndarray) -> float:
    """``np.linalg.norm`` of a float64 vector, without its overhead."""
    return math.sqrt(float(v.dot(v)))


def _line_intersection(l1: tuple[np.ndarray, np.ndarray], l2: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    p, d = l1
    r, e = l2
    den = d[0] * e[1] - d[1] * e[0]
    if abs(den) < 1e-6:
        return None
    t = ((r[0] - p[0]) * e[1] - (r[1] - p[1]) * e[0]) / den
    return p + t * d


def fit_quad(points: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Refine quad ``start`` to the outline ``points`` (N x 2): a robust line per side, intersected."""
    quad = start.astype(np.float64)
    pts = points.astype(np.float64)
    pts32 = pts.astype(np.float32)                 # for cv2.fitLine
    for _ in range(2):
        lines = []
        size = max(4.0, _vec_len(quad[2] - quad[0]))
        tol = max(1.5, 0.04 * size)
        near = _near_side_middles(pts, quad, tol)
        if near is None:
            return start
        dirs, sels = near
        for i, sel in enumerate(sels):
            if np.count_nonzero(sel) < 4:
                lines.append((quad[i], dirs[i]))
                continue
            vx, vy, x0, y0 = cv2.fitLine(pts32[sel], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
        new = []
        for i in range(4):
            p = _line_intersection(lines[(i - 1) % 4], lines[i])
            if p is None:
                return start.astype(np.float32)
            new.append(p)
        new_q = np.array(new)
        if not np.isfinite(new_q).all() or np.abs(new_q - quad).max() > 0.3 * size:
            break
        quad = new_q
    return quad.astype(np.float32)


def _near_side_middles(pts: np.ndarray, quad: np.ndarray, tol: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Each side's unit direction (4 x 2) and which of ``pts`` lie within ``tol`` of its middle (4 x N).

    The middle is 22-78 % of the side's length. None if a side has no length. Float64 in.
    """
    d = quad[NEXT] - quad
    lengths = np.array([_vec_len(v) for v in d])
    if (lengths < 1e-6).any():
        return None
    d /= lengths[:, None]
    n = np.stack([-d[:, 1], d[:, 0]], axis=1)
    rel = np.empty((4, len(pts), 2))                                     # 4 x N x 2: pts - each corner
    np.subtract(pts[None, :, 0], quad[:, 0, None], out=rel[..., 0])     # (by coordinate: a broadcast over
    np.subtract(pts[None, :, 1], quad[:, 1, None], out=rel[..., 1])     # rows of two is slow)
    t = (rel @ d[:, :, None])[..., 0]                                    # along each side
    dist = np.abs((rel @ n[:, :, None])[..., 0])
    lengths = lengths[:, None]
    return d, (dist < tol) & (t > 0.22 * lengths) & (t < 0.78 * lengths)


def quad_aspect(q: np.ndarray, sides: list[float] | None = None) -> float:
    s = side_lengths(q).tolist() if sides is None else sides
    short, long_ = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    return long_ / max(1e-6, short)


def angles_ok(q: np.ndarray, max_dev: float = 30.0) -> bool:
    if q.dtype != np.float32:
        return _angles_ok_any(q, max_dev)
    to_prev, to_next = q[_PREV] - q, q[NEXT] - q
    lengths = side_lengths(q)
    dots = (to_prev * to_next).sum(axis=1)         # float32, as ``a @ b`` of each corner's sides
    norms = lengths[_PREV] * lengths
    for dot, norm in zip(dots.tolist(), norms.tolist()):
        if not _right_enough(dot / max(1e-6, norm), max_dev):
            return False
    return True


def _angles_ok_any(q: np.ndarray, max_dev: float) -> bool:
    for i in range(4):
        a = q[(i - 1) % 4] - q[i]
        b = q[(i + 1) % 4] - q[i]
        if not _right_enough(float(a @ b) / max(1e-6, float(np.linalg.norm(a) * np.linalg.norm(b))), max_dev):
            return False
    return True


def _right_enough(cosang: float, max_dev: float) -> bool:
    return abs(math.degrees(math.acos(max(-1.0, min(1.0, cosang)))) - 90) <= max_dev


def _row_medians(x: np.ndarray) -> np.ndarray:
    """``np.median(x, axis=1)`` for a float array with rows of even length, bit for bit."""
    half = x.shape[1] // 2
    assert x.shape[1] == 2 * half
    part = np.partition(x, [half - 1, half], axis=1)
    mid = part[:, half - 1] + part[:, half]
    mid += 0.0                                    # numpy's mean sums from +0.0: no -0.0 medians
    return mid / 2


def hough_quad(points: np.ndarray, shape: tuple[int, int]) -> np.ndarray | None:
    """A quad from the four strongest straight runs of an outline (two roughly parallel pairs).

    Straight card edges collect many votes; a finger's or a glare spot's bump on the outline only a
    few, so they cannot pull a side the way they pull a minimum-area rectangle.
    """
    h, w = shape
    canvas = np.zeros((h, w), np.uint8)
    cv2.polylines(canvas, [points.reshape(-1, 1, 2).astype(np.int32)], True, 255, 1)
    span = float(np.ptp(points[:, 0]) + np.ptp(points[:, 1])) / 2
    lines = cv2.HoughLines(canvas, 1, np.pi / 180, max(10, int(0.2 * span)))
    if lines is None:
        return None
    picked: list[tuple[float, float]] = []
    for rho, theta in lines.reshape(-1, 2)[:60]:
        dup = False
        for r2, t2 in picked:
            dt = abs(theta - t2)
            if dt < _DEG12 and abs(rho - r2) < 0.15 * span:
                dup = True
            if abs(dt - np.pi) < _DEG12 and abs(rho + r2) < 0.15 * span:
                dup = True
        if not dup:
            picked.append((float(rho), float(theta)))
        if len(picked) >= 8:
            break
    if len(picked) < 4:
        return None

    def angle_diff(a: float, b: float) -> float:
        d = abs(a - b) % np.pi
        return min(d, np.pi - d)

    first = picked[0]
    par = [l for l in picked[1:] if angle_diff(l[1], first[1]) < _DEG25]
    perp = [l for l in picked[1:] if abs(angle_diff(l[1], first[1]) - np.pi / 2) < _DEG25]
    if not par or len(perp) < 2:
        return None
    second = par[0]
    p1 = perp[0]
    p2 = next((l for l in perp[1:] if angle_diff(l[1], p1[1]) < _DEG25), None)
    if p2 is None:
        return None

    def meet(a: tuple[float, float], b: tuple[float, float]) -> np.ndarray | None:
        m = np.array([[np.cos(a[1]), np.sin(a[1])], [np.cos(b[1]), np.sin(b[1])]])
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        return np.linalg.solve(m, np.array([a[0], b[0]]))

    corners = [meet(first, p1), meet(p1, second), meet(second, p2), meet(p2, first)]
    if any(c is None for c in corners):
        return None
    quad = np.array(corners, np.float32)
    if not np.isfinite(quad).all() or cv2.contourArea(quad) < 1:
        return None
    return order_quad(quad)


def snap_quad(gray: np.ndarray, quad: np.ndarray, reach: float = 0.2) -> np.ndarray | None:
    """Move each side of ``quad`` to the card's printed edge in ``gray`` (light inside, dark outside).

    Each side is tried at offsets along its normal (up to ``reach`` of the card's short side) and at
    small turns; the position with the strongest light-to-dark step across it (the median over the
    middle of the side, so a finger or a glare spot over part of it cannot pull it) wins, with a
    small preference for staying put. The new corners are the sides' intersections. None if the
    sides cannot be found.
    """
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4)]
    short = min(sides)
    if short < 8:
        return None
    r = max(3.0, reach * short)
    offs = np.arange(-r, r + 0.5, 1.0)
    turns = np.radians([-4.0, -2.0, 0.0, 2.0, 4.0])
    along = np.linspace(0.15, 0.85, 24)
    cos_t = np.array([math.cos(th) for th in turns])
    sin_t = np.array([math.sin(th) for th in turns])
    mids, dirs, normals, bases = [], [], [], []                   # per side; turns along the first axis
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        mid = (a + b) / 2
        d = (b - a) / max(1e-6, sides[i])
        n = np.array([-d[1], d[0]])
        if n @ (mid - centre) < 0:
            n = -n                                                # outward
        dd = np.stack([cos_t * d[0] - sin_t * d[1], sin_t * d[0] + cos_t * d[1]], axis=-1)   # T x 2
        nn = np.stack([-dd[:, 1], dd[:, 0]], axis=-1)
        nn[(nn * n).sum(axis=1) < 0] *= -1                        # outward too
        t = (along - 0.5) * sides[i]                              # A
        bases.append(mid + offs[None, :, None, None] * nn[:, None, None, :]
                     + t[None, None, :, None] * dd[:, None, None, :])                # T x K x A x 2
        mids.append(mid)
        dirs.append(dd)
        normals.append(nn)
    normal = np.array(normals)[:, :, None, None, :]
    steps = _steps_across(gray, np.array(bases), normal).reshape(4, len(turns), len(offs))
    steps = steps - 0.15 * np.abs(offs) - (2.0 * np.abs(turns))[:, None]
    best_k = steps.argmax(axis=2)
    lines = []
    for i in range(4):
        best, best_j = -1e9, -1
        for j in range(len(turns)):                               # the first turn wins a tie
            if steps[i, j, best_k[i, j]] > best:
                best, best_j = float(steps[i, j, best_k[i, j]]), j
        if best < 4.0:
            return None
        k = best_k[i, best_j]
        lines.append((mids[i] + offs[k] * normals[i][best_j], dirs[i][best_j]))
    new = []
    for i in range(4):
        p = _line_intersection(lines[(i - 1) % 4], lines[i])
        if p is None or not np.isfinite(p).all():
            return None
        new.append(p)
    out = np.array(new, np.float32)
    if np.abs(out - q).max() > 0.5 * short + r:
        return None
    return out


def _steps_across(gray: np.ndarray, base: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Median light-inside minus dark-outside step across lines of points (... x A x 2), 1.5 px each way.

    ``normals`` (broadcast against ``base``) point outwards; one median per line of A points.
    """
    inside = (base - 1.5 * normals).astype(np.float32).reshape(-1, base.shape[-2], 2)
    outside = (base + 1.5 * normals).astype(np.float32).reshape(-1, base.shape[-2], 2)
    img = gray.astype(np.float32)
    return _row_medians(sample_rows(img, inside) - sample_rows(img, outside))


#: cv2.remap refuses a map with SHRT_MAX (32767) rows or columns or more; many candidate quads
#: at once (a large frame, a busy background) make more lines than that
REMAP_MAX_ROWS = 32000


def sample_rows(img: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``img`` sampled bilinearly at ``points`` (R x A x 2, x then y), any number of rows R."""
    if points.shape[1] >= REMAP_MAX_ROWS:
        raise ValueError(f"cannot sample {points.shape[1]} points a line (at most {REMAP_MAX_ROWS - 1})")
    parts = [cv2.remap(img, chunk[..., 0], chunk[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
             for chunk in (points[start:start + REMAP_MAX_ROWS]
                           for start in range(0, len(points), REMAP_MAX_ROWS))]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(points.shape[:2], np.float32)


def side_steps(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Light-inside minus dark-outside step across each side of ``quad`` (median over its middle).

    ``quad`` may be Q x 4 x 2 (several quads at once: Q x 4 steps). The step is the best over a few
    positions just inside the side: the printed cut edge is 1-2 px wide at the work size.
    """
    qs = np.asarray(quad, np.float64)
    single = qs.ndim == 2
    qs = qs.reshape(-1, 4, 2)
    along = np.linspace(0.15, 0.85, 20)
    a = qs
    b = qs[:, NEXT]
    d = b - a                                                             # Q x 4 x 2
    n = np.stack([-d[..., 1], d[..., 0]], axis=-1) / np.maximum(np.linalg.norm(d, axis=-1, keepdims=True), 1e-6)
    centre = qs.mean(axis=1, keepdims=True)
    flip = ((n * ((a + b) / 2 - centre)).sum(axis=-1, keepdims=True) < 0)
    n = np.where(flip, -n, n)                                             # outward
    p = a[:, :, None, :] + along[None, None, :, None] * d[:, :, None, :]  # Q x 4 x A x 2
    shifts = np.array([-3.0, -2.0, -1.0, 0.0, 1.0])                        # the cut edge is 1-2 px wide
    base = p[None] + shifts[:, None, None, None, None] * n[None, :, :, None, :]   # S x Q x 4 x A x 2
    steps = _steps_across(gray, base, n[None, :, :, None, :]).reshape(len(shifts), -1, 4).max(axis=0)   # Q x 4
    return steps[0] if single else steps


def overlapping(quads: list[np.ndarray], limit: float = 0.3) -> bool:
    """Whether two quads share more than ``limit`` of the smaller one's area."""
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            a, b = order_quad(quads[i]), order_quad(quads[j])
            area, _ = cv2.intersectConvexConvex(a, b)
            small = min(abs(cv2.contourArea(a)), abs(cv2.contourArea(b)))
            if area > limit * max(1.0, small):
                return True
    return False
