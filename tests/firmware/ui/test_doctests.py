"""The examples in the docstrings of firmware.ui run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("firmware.ui.app", "firmware.ui.history", "firmware.ui.steps", "firmware.ui.game",
           "firmware.ui.actions", "firmware.ui.reveal", "firmware.ui.settings", "firmware.ui.menu")


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
