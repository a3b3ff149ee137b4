"""User interfaces the daemon drives: the contract (``base``) and the lab kit's own (``LabUi``).

``from firmware.ui import LabUi`` loads the flows; importing ``firmware.ui.base`` alone stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["LabUi"]


def __getattr__(name: str) -> Any:
    if name == "LabUi":
        from firmware.ui.app import LabUi

        return LabUi
    raise AttributeError(f"module 'firmware.ui' has no attribute {name!r}")
