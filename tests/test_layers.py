"""The package's layers: each subpackage imports only the layers below it, and nothing is a cycle.

Every import of every module counts, at module level or inside a function (a lazy import is still a
dependency). The layers, lowest first, are :data:`LAYERS`; a module may import its own layer and
the layers before it. Inside a layer the module graph must be acyclic too.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "attnspec"

#: Lowest first. ``attnspec`` itself is the package root (``__version__``), below everything.
LAYERS = (
    "attnspec",
    "core",
    "numerics",
    "models",
    "laws",
    "experiments",
    "canonical",
    "real",
    "runner",
    "present",
    "chapters",
    "publish",
    "commands",
    "cli",
)
#: What may sit at the package root: no module of the mathematics or the book machinery.
ROOT_MODULES = {"__init__", "__main__", "cli"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str], tree: ast.Module | None = None) -> set[str]:
    """The attnspec modules that module ``name`` imports, anywhere in its body (or in ``tree``,
    a part of it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree or ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # ``from pkg import mod`` imports the module pkg.mod when there is one
            targets = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target.startswith("attnspec") and target != name:
                found.add(target)
    return found


def layer_of(name: str) -> int:
    parts = name.split(".")
    key = parts[1] if len(parts) > 1 else "attnspec"
    if key == "__main__":
        key = "cli"
    return LAYERS.index(key)


@functools.cache
def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def test_the_package_root_holds_only_the_entry_points():
    root = {p.stem for p in PACKAGE.glob("*.py")}
    assert root == ROOT_MODULES
    subpackages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert subpackages == set(LAYERS[1:-1])


@pytest.mark.parametrize("name", sorted(modules()))
def test_a_module_imports_only_its_layer_and_those_below(name):
    upward = {t for t in graph()[name] if layer_of(t) > layer_of(name)}
    assert not upward, f"{name} (layer {LAYERS[layer_of(name)]}) imports {sorted(upward)}"


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the directed graph as a list of nodes, or None (iterative depth-first)."""
    state: dict[str, int] = {}
    for start in sorted(edges):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(edges[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(child) == 1:
                return path[path.index(child) :] + [child]
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))
    return None


def test_no_import_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle)


@pytest.mark.parametrize("name", sorted(n for n, p in modules().items() if p.name == "__init__.py"))
def test_a_subpackage_init_imports_nothing(name):
    """Importing a module runs its package's ``__init__`` first: one that re-exported its modules
    would make every module of the package depend on all the others. A chapter's folder may name
    its study through a module ``__getattr__`` (PEP 562), which imports it only when asked."""
    path = modules()[name]
    tree = ast.parse(path.read_text())
    tree.body = [
        n for n in tree.body if not (isinstance(n, ast.FunctionDef) and n.name == "__getattr__")
    ]
    found = imports_of(name, path, set(modules()), tree)
    assert not found, f"{name} imports {sorted(found)}"


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_import_reader_sees_relative_lazy_and_from_package_imports(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        "from ..core import cache\n"
        "from .sibling import f\n"
        "def g():\n"
        "    from attnspec.publish.report import Claim\n"
    )
    known = {"attnspec.core", "attnspec.core.cache", "attnspec.laws.sibling", "attnspec.publish"}
    known |= {"attnspec.publish.report", "attnspec.laws.m"}
    found = imports_of("attnspec.laws.m", path, known)
    assert found == {
        "attnspec.core",
        "attnspec.core.cache",
        "attnspec.laws.sibling",
        "attnspec.publish.report",
    }
    assert layer_of("attnspec.publish.report") > layer_of("attnspec.laws.m")
