"""The packages' layering holds: strict types everywhere, no import cycle inside firmware/.

The import graph counts every import a module makes: at the top, under ``TYPE_CHECKING`` and inside
functions. A cycle hidden behind a lazy import is still a cycle for the next reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "drivers", "firmware")


def test_mypy_strict_passes_on_engine_drivers_and_firmware() -> None:
    # mypy.ini at the root names the few per-module relaxations (numpy- and OpenCV-heavy code)
    stdout, stderr, status = api.run(["--strict", "--no-incremental", "--cache-dir", "/dev/null",
                                      "--config-file", str(ROOT / "mypy.ini"),
                                      *(str(ROOT / package) for package in PACKAGES)])
    assert status == 0, stdout + stderr


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports, wherever in the file the import stands."""
    found: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return found & modules


def import_graph(package: str) -> dict[str, set[str]]:
    paths = {module_name(path): path for path in (ROOT / package).rglob("*.py")}
    modules = set(paths)
    return {name: imports_of(path, modules) - {name} for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that returns to its start, or None."""
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                return [*stack[stack.index(target):], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_firmware_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph("firmware"))
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_sees_a_lazy_import_cycle(tmp_path: Path) -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_drivers_and_engine_never_import_firmware() -> None:
    for package in ("engine", "drivers"):
        for path in (ROOT / package).rglob("*.py"):
            assert not any(name.split(".")[0] == "firmware" for name in imports_of(path, {"firmware"} | set(import_graph("firmware")))), path
