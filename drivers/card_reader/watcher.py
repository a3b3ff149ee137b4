"""Stability over a stream of readings: report a shelf only once it has held still for N frames."""

from __future__ import annotations

from dataclasses import dataclass

from .reading import FrameReading

EVENT_KINDS = ("stable", "cleared", "unsure")


@dataclass(frozen=True)
class ShelfEvent:
    """A change worth telling the player: "stable" (with the ingredients), "cleared" or "unsure"
    (``face_down`` when a card lies face down: the player can turn it over)."""

    kind: str
    ingredients: tuple[str, ...] = ()
    face_down: bool = False

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"unknown shelf event kind {self.kind!r}; expected one of {EVENT_KINDS}")


class ShelfWatcher:
    """Turns per-frame readings into events, each reported once.

    - ``stable``: the same cards (as a sorted multiset) read "ok" for ``required_frames`` frames in a row;
    - ``cleared``: the shelf read "empty" for ``required_frames`` frames after something was on it;
    - ``unsure``: "unsure" for ``required_frames`` frames in a row (the screen says "adjust the cards"),
      face down or not (told apart: turning a card over is another thing to ask of the player).

    A single odd frame (a hand passing over) never fires an event; the same state is not re-announced
    until something else has held for ``required_frames`` frames.
    """

    def __init__(self, required_frames: int = 3) -> None:
        if isinstance(required_frames, bool) or not isinstance(required_frames, int) or required_frames < 1:
            raise ValueError(f"required_frames must be a positive integer, not {required_frames!r}")
        self.required_frames = required_frames
        self._key: tuple[str, tuple[str, ...]] | None = None
        self._count = 0
        self._announced: tuple[str, tuple[str, ...]] | None = None
        self._had_cards = False

    def reset(self) -> None:
        """Forget the history (a new scan starts)."""
        self.__init__(self.required_frames)  # type: ignore[misc]

    def update(self, reading: FrameReading) -> ShelfEvent | None:
        """Feed one reading; returns the event it completes, if any."""
        if not isinstance(reading, FrameReading):
            raise TypeError(f"update() takes a FrameReading, not {type(reading).__name__}")
        status = "face_down" if reading.status == "unsure" and reading.face_down else reading.status
        key = (status, reading.ingredients if status == "ok" else ())
        if key == self._key:
            self._count += 1
        else:
            self._key, self._count = key, 1
        if self._count < self.required_frames or key == self._announced:
            return None
        status, ings = key
        if status == "ok":
            self._announced = key
            self._had_cards = True
            return ShelfEvent("stable", ings)
        if status in ("unsure", "face_down"):
            self._announced = key
            self._had_cards = True
            return ShelfEvent("unsure", face_down=status == "face_down")
        # empty
        self._announced = key
        if self._had_cards:
            self._had_cards = False
            return ShelfEvent("cleared")
        return None
