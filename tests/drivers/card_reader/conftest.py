"""Fixtures for the card reader tests: the shipped faces, their references, a reader."""

from __future__ import annotations

import numpy as np
import pytest

from drivers.card_reader import CardReader, References, enroll, load_placeholder_faces


@pytest.fixture(scope="session")
def faces() -> dict[str, np.ndarray]:
    return load_placeholder_faces()


@pytest.fixture(scope="session")
def references(faces: dict[str, np.ndarray]) -> References:
    return enroll(faces)


@pytest.fixture
def reader(references: References) -> CardReader:
    return CardReader(references)
