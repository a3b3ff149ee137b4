"""A real small tmpfs for full-disk tests (root with mount rights only; skipped elsewhere)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_tmpfs(mount_point: Path, size: str) -> Iterator[Path]:
    """Mount a tmpfs of ``size`` (e.g. ``512k``) at ``mount_point``; unmount it afterwards."""
    mount_point.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {result.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)
