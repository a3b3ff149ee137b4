"""Packaging: the install is quiet and ships every data file the kit reads at run time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_build_warns_of_nothing_and_ships_the_data_files(tmp_path: Path) -> None:
    source = tmp_path / "src"  # a copy, so the build leaves nothing in the checkout
    source.mkdir()
    shutil.copy(ROOT / "setup.py", source)
    for package in ("engine", "drivers", "firmware"):
        shutil.copytree(ROOT / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
        cwd=source, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONWARNINGS": "always"})
    assert done.returncode == 0, done.stderr
    # setuptools 65 says "Installing 'firmware.fonts' as data is deprecated" (a
    # SetuptoolsDeprecationWarning), newer ones "is absent from the `packages` configuration"
    assert "Warning" not in done.stderr, done.stderr
    built = tmp_path / "lib"
    for lang in ("en", "ru", "pl", "sk"):
        assert (built / "firmware" / "locale" / lang / "LC_MESSAGES" / "labkit.mo").is_file()
    assert (built / "firmware" / "fonts" / "DejaVuSansCondensed.ttf").is_file()
    assert (built / "firmware" / "fonts" / "DejaVuSans.ttf").is_file()
    assert (built / "firmware" / "scripts" / "walkthrough.txt").is_file()
    assert (built / "firmware" / "default_config.toml").is_file()
    assert len(list((built / "drivers" / "card_reader" / "faces").glob("*.png"))) == 8
    assert not list(built.rglob("__pycache__"))
