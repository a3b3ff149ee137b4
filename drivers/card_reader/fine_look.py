"""A finer look at a card the thumbnail reads weakly: its face at the camera's full resolution.

The outline reader compares 30 x 42 thumbnails of the work image with the faces; a glare spot or a
finger on a card with a dark or smooth illustration (a star field, a night sky) can leave it no
face clearly ahead. This look warps the same quad from the full frame to 60 x 84 and compares it
with every face by local correlation (6 x 6 blocks, each channel with its best-fitting plane taken
away and normalised on its own, so a glare spot or a shadow only tilts and shifts a block; the worst
quarter of the blocks, a finger or burnt-out glare, left out), on the blocks where the faces differ.
On the tuning scenes, a card read by it leads the runner-up by 0.2 to 0.55; anything else it is
shown (a finger, glare, two cards merged, a misfitted outline) by at most 0.13.
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

from .references import canonical_card

#: the face size compared, width x height, and the block side
FINE_W, FINE_H, FINE_BLOCK = 60, 84, 6
#: blocks whose grey level differs this much across the faces (standard deviation) count
FINE_SPREAD = 12.0
#: share of the worst blocks left out (a finger, burnt-out glare)
FINE_TRIM = 0.25
#: a lead over the runner-up face below this gives no confidence, this much more gives full confidence
FINE_LEAD, FINE_SPAN = 0.15, 0.2
#: a correlation below this lowers the confidence in proportion
FINE_LEVEL = 0.5
#: the faces are also compared blurred by this much (px at 60 x 84, a Gaussian's sigma): a small
#: card under motion blur or out of focus has lost the detail of its blocks, which the sharp faces
#: keep, and correlates with them weakly however right. Read at their true outlines, the 1060
#: small cards of seen hard scenes of the five designs (seeds from 43100000) reached confidence
#: 0.5 in 707 against the sharp faces, in 883 taking each face's better correlation (the
#: woodcut's 91 of 212 in 176); the 1125 cards of 750 seen normal scenes (33100000 on) in 929
#: and 999 (the placeholder's 194 of 225 in 185: a blurred runner-up closes in). None was named
#: wrong, and of the outlines moved off their card by 0.3 of its width, or turned, one in each
#: set reached 0.5, named right. Against faces blurred by 2 px alone, the small cards of three
#: designs read 489 of 636, by 1 px alone 542
FINE_BLUR = 1.0
#: a face shows at a quad of one frame and not of another (``shows_only_in``) when it correlates
#: with the first at ``FINE_LEVEL`` at least, and with the second by this much less: the lead a
#: card read at full confidence has over the runner-up face (``FINE_LEAD + FINE_SPAN``), so the
#: second shows the face no more than the first shows any other face. Cards placed on a stone
#: table whose light is theirs correlated 0.97 with their face, the table captured there 0.10-0.13
FINE_GONE = FINE_LEAD + FINE_SPAN


def _fine(image: np.ndarray) -> np.ndarray:
    small = cv2.resize(image, (FINE_W, FINE_H), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small.astype(np.float32), (3, 3), 0.7)


def _plane_remover(side: int) -> np.ndarray:
    """The matrix that takes from a flattened ``side`` x ``side`` tile its best-fitting plane."""
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float64) - (side - 1) / 2
    plane = np.stack([np.ones(side * side), xx.ravel(), yy.ravel()], axis=1)
    return (np.eye(side * side) - plane @ np.linalg.pinv(plane)).astype(np.float32)


_REMOVE_PLANE = _plane_remover(FINE_BLOCK)


def _blocks(face: np.ndarray) -> np.ndarray:
    """FINE_BLOCK square tiles of a face, each channel with its plane taken away (a glare spot's or
    a shadow's slope across the tile, not only its level) and unit-norm: B x (3 * FINE_BLOCK**2)."""
    h, w, b = FINE_H // FINE_BLOCK, FINE_W // FINE_BLOCK, FINE_BLOCK
    tiles = face[:h * b, :w * b].reshape(h, b, w, b, 3).transpose(0, 2, 4, 1, 3).reshape(h * w, 3, b * b)
    tiles = tiles @ _REMOVE_PLANE
    sd = np.sqrt((tiles ** 2).mean(axis=2, keepdims=True))
    tiles = tiles / np.maximum(sd, 2.0)                          # a flat block stays near zero
    return tiles.reshape(h * w, -1) / np.sqrt(3 * b * b)


class FineMatcher:
    """The enrolled faces' blocks at 60 x 84, and the comparison of a quad of a frame with them."""

    def __init__(self, faces: Mapping[str, np.ndarray]) -> None:
        self.ingredients = list(faces)
        fine = [_fine(faces[ing]) for ing in self.ingredients]
        grey = np.stack([f.mean(axis=2) for f in fine])
        b = FINE_BLOCK
        spread = grey.std(axis=0)[:FINE_H // b * b, :FINE_W // b * b]
        spread = spread.reshape(FINE_H // b, b, FINE_W // b, b).mean(axis=(1, 3)).ravel()
        self.selected = spread > FINE_SPREAD if len(fine) >= 3 else np.ones_like(spread, bool)
        self.blocks = np.stack([_blocks(f)[self.selected] for f in fine])        # N x B x D
        self.blurred = np.stack([_blocks(cv2.GaussianBlur(f, (0, 0), FINE_BLUR))[self.selected] for f in fine])

    def scores(self, frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """Local correlation (-1..1) of the card at ``quad`` (frame px, clockwise from its own
        top-left) with each face (N)."""
        return self._correlations(self.blocks, self._card_blocks(frame, quad))

    def _card_blocks(self, frame: np.ndarray, quad: np.ndarray) -> np.ndarray:
        card = _fine(canonical_card(frame, quad, (2 * FINE_W, 2 * FINE_H)))
        return np.asarray(_blocks(card)[self.selected])

    @staticmethod
    def _correlations(faces: np.ndarray, card: np.ndarray) -> np.ndarray:
        """Each face's (``faces``: N x B x D blocks) correlation with a ``card``'s blocks, the
        worst ``FINE_TRIM`` of them left out."""
        per_block = np.einsum("nbd,bd->nb", faces, card)
        keep = max(1, int(per_block.shape[1] * (1 - FINE_TRIM)))
        return np.asarray(np.sort(per_block, axis=1)[:, ::-1][:, :keep].mean(axis=1))

    def shows_only_in(self, ingredient: str, frame: np.ndarray, other: np.ndarray, quad: np.ndarray) -> bool:
        """Whether the face of ``ingredient`` shows at ``quad`` (frame px) in ``frame`` and not in
        ``other`` (an image of the frame's size): correlated at ``FINE_LEVEL`` at least with the
        first and by ``FINE_GONE`` less with the second, each the better of sharp and blurred.
        False for an ingredient not enrolled."""
        if ingredient not in self.ingredients:
            return False
        k = self.ingredients.index(ingredient)

        def score(image: np.ndarray) -> float:
            card = self._card_blocks(image, quad)
            return max(float(self._correlations(self.blocks[k:k + 1], card)[0]),
                       float(self._correlations(self.blurred[k:k + 1], card)[0]))

        here = score(frame)
        return here >= FINE_LEVEL and score(other) <= here - FINE_GONE

    def read(self, frame: np.ndarray, quad: np.ndarray) -> tuple[str, float]:
        """The face the card at ``quad`` shows best, and a confidence (0..1) from its lead over the
        runner-up and its own correlation; each face correlated sharp and blurred (``FINE_BLUR``),
        the better of the two."""
        card = self._card_blocks(frame, quad)
        scores = np.maximum(self._correlations(self.blocks, card), self._correlations(self.blurred, card))
        order = np.argsort(scores)[::-1]
        best, runner_up = float(scores[order[0]]), float(scores[order[1]]) if len(order) > 1 else 0.0
        lead = np.clip((best - runner_up - FINE_LEAD) / FINE_SPAN, 0.0, 1.0)
        return self.ingredients[int(order[0])], float(lead * np.clip(best / FINE_LEVEL, 0.0, 1.0))
