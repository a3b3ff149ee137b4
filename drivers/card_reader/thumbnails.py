"""The outlines' reading of a card: its thumbnail (30 x 42) of the downscaled work image, compared
with every enrolled face's. numpy and OpenCV only.

The work image is the frame downscaled to about 240 px high (``work_image``); a quad in it is
warped to a small upright thumbnail (``WorkImage``), and ``ThumbnailMatcher`` undoes the light (a
per-channel plane fitted on the card frame that all faces share, so colour cast, dim or bright
light and gradients cancel) and compares it, upright and upside down, with every face by
normalised correlation weighted to the pixels where the faces differ (illustration and title, not
the shared frame), and by local correlation of 6 x 6 blocks.
"""

from __future__ import annotations

import cv2
import numpy as np

from .references import CANON_H, CANON_W, References, canonical_card

#: work image height for detection (frames are downscaled to it)
WORK_H = 240
#: thumbnail compared with the references, width x height
THUMB_W, THUMB_H = 30, 42

#: block side for the local correlation
BLOCK = 6


def fine_detail(colour: np.ndarray) -> float:
    """A colour thumbnail's fine detail relative to its brightness: the mean high-pass (what a blur
    of 1.5 px takes away) of its busiest quarter of blocks, where a card half under a hand still
    shows its detail, over its mean level. Every card shows at least its frame's edges and title;
    a glare spot or a lit patch of shelf shows next to none."""
    t = colour.mean(axis=2)
    hp = np.abs(t - cv2.GaussianBlur(t, (0, 0), 1.5))
    bh, bw = THUMB_H // BLOCK, THUMB_W // BLOCK
    per_block = hp[:bh * BLOCK, :bw * BLOCK].reshape(bh, BLOCK, bw, BLOCK).mean(axis=(1, 3))
    return float(np.percentile(per_block, 75)) / max(1.0, float(t.mean()))


def _blocks(t: np.ndarray) -> np.ndarray:
    """BLOCK x BLOCK tiles of a thumbnail, each channel zero-mean and unit-norm: B x (3 * BLOCK**2)."""
    h, w = t.shape[0] // BLOCK, t.shape[1] // BLOCK
    b = t[:h * BLOCK, :w * BLOCK].reshape(h, BLOCK, w, BLOCK, 3).transpose(0, 2, 4, 1, 3)
    b = b.reshape(h * w, 3, BLOCK * BLOCK).astype(np.float32)
    b = b - b.mean(axis=2, keepdims=True)
    sd = np.sqrt((b ** 2).mean(axis=2, keepdims=True))
    b = b / np.maximum(sd, 2.0)                                 # a flat block stays near zero
    return b.reshape(h * w, -1) / np.sqrt(3 * BLOCK * BLOCK)


def _column_medians(x: np.ndarray) -> np.ndarray:
    """``np.median(x, axis=0)``, without its overhead."""
    half = len(x) // 2
    if len(x) % 2:
        return np.partition(x, half, axis=0)[half]
    part = np.partition(x, [half - 1, half], axis=0)
    return (part[half - 1] + part[half]) / 2


def thumbnail(canon: np.ndarray) -> np.ndarray:
    t = cv2.resize(canon, (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(t.astype(np.float32), (3, 3), 0.7)


class ThumbnailMatcher:
    """Descriptors of the enrolled faces and the weighted correlation against them."""

    def __init__(self, refs: References) -> None:
        self.ingredients = list(refs.ingredients)
        thumbs = np.stack([thumbnail(refs.faces[i]) for i in self.ingredients])        # N x H x W x 3
        n = len(self.ingredients)
        grey = thumbs.mean(axis=3)
        margin = np.zeros((THUMB_H, THUMB_W), np.float32)
        my, mx = max(1, THUMB_H // 14), max(1, THUMB_W // 10)
        margin[my:-my, mx:-mx] = 1
        if n >= 3:
            spread = grey.std(axis=0)
            weight = np.clip(spread / 20.0, 0.15, 1)
            ring = np.zeros_like(margin)
            ring[1:-1, 1:-1] = 1
            self.frame_px = ((spread < 8) & (ring > 0)).ravel()
        else:
            weight = np.ones_like(margin)
            self.frame_px = np.zeros(margin.size, bool)
        self.weight = (weight * margin).ravel().astype(np.float32)                    # P
        if self.frame_px.sum() < 40:
            self.frame_px[:] = False
        self.ref = thumbs.reshape(n, -1, 3).transpose(2, 0, 1).copy()                  # 3 x N x P
        self.log_ref = np.ascontiguousarray(np.log1p(thumbs.reshape(n, -1, 3)).transpose(2, 0, 1))   # 3 x N x P
        self.ref_frame_mean = thumbs.reshape(n, -1, 3)[:, self.frame_px, :].mean(axis=(0, 1)) \
            if self.frame_px.any() else None
        self.frame_template = thumbs.mean(axis=0).reshape(-1, 3)                        # P x 3
        yy, xx = np.mgrid[0:THUMB_H, 0:THUMB_W]
        plane = np.stack([np.ones(xx.size), xx.ravel() / THUMB_W - 0.5, yy.ravel() / THUMB_H - 0.5], axis=1)
        on_frame = plane[self.frame_px]
        self._plane = (plane, (on_frame[:, :, None] * on_frame[:, None, :]).reshape(-1, 9), on_frame,
                       np.log(np.maximum(self.frame_template[self.frame_px], 2.0)))     # for flatten_light
        self.n = n
        self.ref_blocks = np.stack([_blocks(t) for t in thumbs])                      # N x B x D
        bw = self.weight.reshape(THUMB_H, THUMB_W)[:THUMB_H // BLOCK * BLOCK, :THUMB_W // BLOCK * BLOCK]
        bw = bw.reshape(THUMB_H // BLOCK, BLOCK, THUMB_W // BLOCK, BLOCK).mean(axis=(1, 3)).ravel()
        self.block_sel = bw > 0.3 if (bw > 0.3).sum() >= 6 else np.ones_like(bw, bool)
        g = thumbs.mean(axis=(0, 3))
        self.layout = ((g - g.mean()) / max(1e-3, float(g.std()))).ravel()          # the shared layout, grey

    def layout_score(self, thumb: np.ndarray) -> float:
        """Correlation of an upright thumbnail's grey with the mean face: is this the card's layout?"""
        g = (np.add.reduce(thumb, axis=2) / 3).ravel()     # the mean of the channels, as thumb.mean(axis=2)
        sd = float(g.std())
        if sd < 1e-3:
            return 0.0
        return float(((g - np.add.reduce(g) / g.size) / sd) @ self.layout) / g.size

    def flatten_light(self, x: np.ndarray) -> np.ndarray:
        """Divide out a per-channel plane of light fitted on the shared frame's pixels (P x 3)."""
        if not self.frame_px.any():
            return x
        plane, outer, on_frame, log_t = self._plane
        ratios = np.log(np.maximum(x[self.frame_px], 2.0)) - log_t               # S x 3
        keeps = np.abs(ratios - _column_medians(ratios)) < 0.35
        if (keeps.sum(axis=0) < 20).any():
            return x
        kept = keeps.T.astype(np.float64)                                           # 3 x S
        # least squares per channel over its kept pixels: (A'A) coef = A' ratios
        gram = (kept @ outer).reshape(3, 3, 3) + 1e-9 * np.eye(3)
        coefs = np.linalg.solve(gram, ((kept * ratios.T) @ on_frame)[:, :, None])[:, :, 0]
        return (x / np.exp(plane @ coefs.T)).astype(np.float32)

    def scores(self, thumb: np.ndarray) -> np.ndarray:
        """Correlation (-1..1) with each face: 2N values, as seen, then the thumbnail turned 180 degrees."""
        return np.concatenate([self.scores_upright(thumb), self.scores_upright(thumb[::-1, ::-1])])

    def block_scores_upright(self, thumb: np.ndarray, trim: float = 0.25) -> np.ndarray:
        """Local correlation with each face (N): per 6x6 block, each channel normalised on its own
        (so a glare spot, a shadow edge or a colour cast only shifts a block's offset and gain);
        the worst quarter of the blocks (a finger, a burnt-out glare) is left out."""
        s = np.einsum("nbd,bd->nb", self.ref_blocks[:, self.block_sel], _blocks(thumb)[self.block_sel])
        k = max(1, int(s.shape[1] * (1 - trim)))
        return np.sort(s, axis=1)[:, ::-1][:, :k].mean(axis=1)

    def match_upright(self, thumb: np.ndarray) -> np.ndarray:
        """Similarity of an upright thumbnail to each face (N): local correlation minus light-corrected distance."""
        return self.block_scores_upright(thumb) - self.distances_upright(thumb)

    def distances_upright(self, thumb: np.ndarray) -> np.ndarray:
        """Robust distance (0..1, lower is closer) of an upright thumbnail to each face (N).

        The thumbnail is first brought to the faces' light by the shared frame (``flatten_light``),
        so absolute colour and level count too (a black night sky is not a grey one); each pixel's
        difference is truncated, so a glare spot or a finger costs a bounded amount.
        """
        x = thumb.reshape(-1, 3).astype(np.float32)
        x = self.flatten_light(x)
        log_x = np.log1p(x)
        d = np.abs(log_x[:, 0] - self.log_ref[0])                                  # N x P, channel by channel
        d += np.abs(log_x[:, 1] - self.log_ref[1])
        d += np.abs(log_x[:, 2] - self.log_ref[2])
        d /= 3
        np.minimum(d, 0.5, out=d)
        return (d @ self.weight) / (0.5 * float(self.weight.sum()))

    def scores_upright(self, thumb: np.ndarray) -> np.ndarray:
        """Correlation (-1..1) of an upright thumbnail with each face (N).

        Each channel is standardised (so colour cast and contrast cancel) and, with 3 faces or more,
        the mean face (the layout all cards share) is subtracted from both sides, so only what tells
        the faces apart is compared.
        """
        x = thumb.reshape(-1, 3).astype(np.float32)
        valid = (x.max(axis=1) < 250) & (x.min(axis=1) > 3)      # drop glare and crushed blacks
        x = self.flatten_light(x)
        w = self.weight * valid
        sw = float(w.sum())
        n = self.n
        if sw < 0.2 * float(self.weight.sum()):
            return np.full(n, -1.0, np.float32)
        total = np.zeros(n, np.float32)
        used = 0
        for c in range(3):
            xc = x[:, c]
            xm = float((w * xc).sum()) / sw
            vx = float((w * (xc - xm) ** 2).sum()) / sw
            if vx < 1.0:             # a flat channel (a grey card's colour, a black sky): no evidence
                continue
            xz = (xc - xm) / np.sqrt(vx)
            r = self.ref[c]
            rm = (r @ w) / sw
            vr = np.maximum(((r - rm[:, None]) ** 2) @ w / sw, 1e-3)
            rz = (r - rm[:, None]) / np.sqrt(vr)[:, None]
            if n >= 3:
                mean = rz.mean(axis=0)
                rz = rz - mean
                xr = xz[None, :] - mean[None, :]
            else:
                xr = np.broadcast_to(xz, rz.shape)
            num = (xr * rz) @ w
            den = np.sqrt(np.maximum((xr * xr) @ w, 1e-6) * np.maximum((rz * rz) @ w, 1e-6))
            total += num / den
            used += 1
        return total / max(1, used)


def work_image(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame downscaled to ``WORK_H`` (a smaller one as it is) and its scale (work px per frame px)."""
    h, w = frame.shape[:2]
    scale = WORK_H / h
    if scale < 1:
        return cv2.resize(frame, (max(1, round(w * scale)), WORK_H), interpolation=cv2.INTER_AREA), scale
    return frame, 1.0


class WorkImage:
    """The downscaled frame the outlines are read in, and the thumbnails of quads in it, each
    warped once (a candidate's is first looked at for glare, then read)."""

    def __init__(self, pixels: np.ndarray) -> None:
        self.pixels = pixels
        self._thumbnails: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}

    def thumbnails(self, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The thumbnails of the card with corners ``quad`` (float32, clockwise from its top-left)
        and of the card turned 180 degrees (``quad`` rolled by two).

        One warp gives both: ``canonical_card`` maps the corners to the image's far edges, one
        pixel beyond its last row and column; warped with that row and column too, the image
        turned holds the turned card's (to the warp's rounding).
        """
        key = quad.tobytes()
        if key not in self._thumbnails:
            canvas = canonical_card(self.pixels, quad, (CANON_W, CANON_H), far_edges=True)
            turned = np.ascontiguousarray(canvas[::-1, ::-1][:CANON_H, :CANON_W])
            self._thumbnails[key] = (thumbnail(canvas[:CANON_H, :CANON_W]), thumbnail(turned))
        return self._thumbnails[key]
