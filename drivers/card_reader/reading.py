"""What the card reader tells of one frame: the cards found in it and the frame's status."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True)
class CardSighting:
    """One card found in a frame: its ingredient (None if unreadable), corners (frame px), confidence,
    and whether it lies face down (its back was seen: the player may turn it over).

    ``quad`` runs clockwise from the card's own top-left corner (as the card reads upright).
    """

    ingredient: str | None
    quad: tuple[Point, Point, Point, Point]
    confidence: float
    face_down: bool = False


@dataclass(frozen=True)
class FrameReading:
    """What one frame shows: status "ok" (every card read), "unsure" or "empty", and the cards."""

    status: str
    cards: list[CardSighting] = field(default_factory=list)

    @property
    def ingredients(self) -> tuple[str, ...]:
        """The ingredients read, sorted (empty unless status is "ok")."""
        if self.status != "ok":
            return ()
        return tuple(sorted(c.ingredient for c in self.cards if c.ingredient is not None))

    @property
    def face_down(self) -> bool:
        """Whether a card in view lies face down (the frame is then unsure)."""
        return any(c.face_down for c in self.cards)

    def to_json(self) -> dict[str, object]:
        return {"status": self.status,
                "cards": [{"ingredient": c.ingredient,
                           "quad": [[round(x, 1), round(y, 1)] for x, y in c.quad],
                           "confidence": round(c.confidence, 3),
                           **({"face_down": True} if c.face_down else {})} for c in self.cards]}


def sighting(ingredient: str | None, quad: np.ndarray, confidence: float, face_down: bool = False) -> CardSighting:
    """A ``CardSighting`` from a quad as an array (frame px)."""
    corners = tuple((float(x), float(y)) for x, y in quad)
    return CardSighting(ingredient, corners, confidence, face_down)  # type: ignore[arg-type]
