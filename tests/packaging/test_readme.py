"""The README and docs/ name only files that are in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a path into one of the repository's top folders, as the docs write them
REPO_PATH = re.compile(
    r"(?<![\w/.~$-])((?:engine|drivers|firmware|tests|docs|systemd|benchmarks)/[\w./-]*[\w])")
BENCH = re.compile(r"\./dev bench (\w+)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_every_named_file_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    missing = sorted({path for path in REPO_PATH.findall(text)
                      if not (ROOT / path).exists() and not (doc.parent / path).exists()
                      and not any(ROOT.glob(path))})
    assert not missing, f"{doc.name} names files the repository does not have: {missing}"
    benches = sorted({name for name in BENCH.findall(text)
                      if not (ROOT / "benchmarks" / f"{name}.py").exists()})
    assert not benches, f"{doc.name} names benchmarks that do not exist: {benches}"
    assert "RULES.md" not in text, f"{doc.name} cites RULES.md, a file outside the repository"
