"""The verification's probability of being right, fitted to readings of scenes whose truth is known.

A card that passes verification carries a probability of being right: that of its lead's band over
the best other face (``verify.lead_probability``). The bands' probabilities are measured here, never
set by hand: a reader reads scenes of known cards, every card it names is verified, and each verdict
whose lead was measured is an example (the lead; whether a face-up card of that ingredient lies
there). ``fitted`` counts them band by band (``verify.fit_lead_probability``).

The benchmark (benchmarks/card_reader_designs.py) counts them on scenes of the designs other than
the one it measures, so the probability it reports on the design left out was never fitted to it;
benchmarks/card_reader_calibrate.py counts them on every design for the shipped settings.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from .designs import DesignScene, lies_at
from .reader import CardReader
from .reading import FrameReading
from .references import References
from .shelf import EmptyShelf
from .verify import SETTINGS, Verdict, VerifySettings, fit_lead_probability
from .zoom import CutOut

#: an example: the lead of a card named, and whether that card lies there
LeadExample = tuple[float, bool]


class _RecordingReader(CardReader):
    """A reader that keeps the verdict of every card it verifies, its outline in the pixels of the
    frame it was given (a small card's, verified in a cut-out of it, brought back)."""

    def __init__(self, references: References, verify: VerifySettings) -> None:
        super().__init__(references, verify=verify)
        self.verdicts: list[tuple[np.ndarray, str, Verdict]] = []
        self._frame: np.ndarray | None = None
        self._parts: list[CutOut] = []

    def _identify(self, frame: np.ndarray) -> FrameReading:
        self._frame, self._parts = frame, []
        return super()._identify(frame)

    def cut_out(self, frame: np.ndarray, scale: float, things: list[np.ndarray]) -> CutOut | None:
        part = super().cut_out(frame, scale, things)
        if part is not None and frame is self._frame:
            self._parts.append(part)
        return part

    def verdict(self, frame: np.ndarray, quad: np.ndarray, ingredient: str) -> Verdict:
        found = super().verdict(frame, quad, ingredient)
        if frame is self._frame:
            placed: np.ndarray | None = quad
        else:
            placed = next((part.to_frame(quad) for part in self._parts if frame is part.image), None)
        if found.measured and placed is not None:
            self.verdicts.append((placed, ingredient, found))
        return found


def lead_examples(references: References, scenes: Sequence[DesignScene], with_shelf: bool = False,
                  settings: VerifySettings = SETTINGS) -> list[LeadExample]:
    """Every measured verdict of ``scenes`` read against ``references`` (``with_shelf``: each scene's
    empty table captured first, as the kit reads): its lead, and whether the card lies there."""
    reader = _RecordingReader(references, settings)
    examples: list[LeadExample] = []
    for scene in scenes:
        reader.verdicts.clear()
        reader.empty_shelf = EmptyShelf(scene.empty_shelf()) if with_shelf else None
        reader.identify(scene.image)
        examples += [(v.lead, any(lies_at(truth, ingredient, quad) for truth in scene.cards))
                     for quad, ingredient, v in reader.verdicts]
    return examples


def fitted(examples: Sequence[LeadExample], settings: VerifySettings = SETTINGS) -> VerifySettings:
    """``settings`` with the probability of each band of the lead counted from ``examples``."""
    if not examples:
        raise ValueError("no card was verified: nothing to count the lead's probability from")
    bands = fit_lead_probability([lead for lead, _ in examples], [right for _, right in examples],
                                 settings.lead_bands)
    return dataclasses.replace(settings, band_right=bands)
