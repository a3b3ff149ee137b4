"""The engine imports only the standard library (its strict typing: tests/test_layering.py)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_imports_only_the_standard_library() -> None:
    import ast
    import sys

    for path in (ROOT / "engine").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [alias.name for alias in node.names] if isinstance(node, ast.Import)
                else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            for name in names:
                top = name.split(".")[0]
                assert top == "engine" or top in sys.stdlib_module_names, f"{path.name} imports {name}"
