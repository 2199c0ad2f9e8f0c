"""The library's modules import each other one way only: no import cycles.

A cycle works or fails depending on which module a program happens to import first, so
it is checked two ways: statically, over every module's import-time imports (an import
inside a function or under ``TYPE_CHECKING`` runs later, or never, and does not count),
and dynamically, by importing every module first in a fresh interpreter state. Neither
can be said to import-linter, which does not tell import time from later; which layer may
import which is its job (the contracts in pyproject.toml, tested in test_layers.py).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import amplifier_hooks

PACKAGE_DIR = Path(amplifier_hooks.__file__).parent
PACKAGE = "amplifier_hooks"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _all_modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def _parse(path: Path) -> ast.Module:
    """The module's tree. CPython 3.11 keeps the AST builder's depth counter per
    interpreter, not per thread (python/cpython#106905): a parse in another thread of this
    process (the suite's servers run in threads) can make a correct parse fail with
    "AST constructor recursion depth mismatch". Parsing is pure, so it is done again."""
    source = path.read_text(encoding="utf-8")
    for _ in range(4):
        try:
            return ast.parse(source, filename=str(path))
        except SystemError as exc:
            if "recursion depth mismatch" not in str(exc):
                raise
    return ast.parse(source, filename=str(path))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_statements(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Imports that run when the module is imported (not in functions, not type-only)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _import_time_statements(node.body)
            found += _import_time_statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                found += _import_time_statements(block)
            for handler in node.handlers:
                found += _import_time_statements(handler.body)
        elif isinstance(node, ast.With):
            found += _import_time_statements(node.body)
    return found


def _with_parents(name: str, modules: dict[str, Path]) -> set[str]:
    """Importing ``a.b.c`` runs ``a``, ``a.b`` and ``a.b.c``."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & modules.keys()


def import_graph() -> dict[str, set[str]]:
    """Each module's import-time imports of other modules of the library.

    Importing ``a.b.c`` also runs ``a`` and ``a.b``; those implicit edges are left out when
    they are the importer's own parents (already being imported when it runs). A name a
    module imports from a package explicitly (``from a import thing``) is an edge to ``a``
    unless ``thing`` is a submodule, which is then the edge instead.
    """
    modules = _all_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        own_parents = _with_parents(name, modules)
        edges: set[str] = set()
        tree = _parse(path)
        for node in _import_time_statements(tree.body):
            explicit: set[str] = set()
            if isinstance(node, ast.Import):
                explicit = {alias.name for alias in node.names}
            else:
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    explicit.add(submodule if submodule in modules else base)
            for target in explicit & modules.keys():
                edges |= (_with_parents(target, modules) - own_parents) | {target}
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path ``[a, b, ..., a]``, or None."""
    done: set[str] = set()
    stack: list[str] = []
    on_stack: set[str] = set()

    def visit(node: str) -> list[str] | None:
        stack.append(node)
        on_stack.add(node)
        for following in sorted(graph.get(node, ())):
            if following in on_stack:
                return [*stack[stack.index(following) :], following]
            if following not in done:
                cycle = visit(following)
                if cycle:
                    return cycle
        stack.pop()
        on_stack.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_the_library_has_no_import_cycle() -> None:
    graph = import_graph()
    assert "amplifier_hooks.bundles.loading" in graph  # the walk saw the packages
    assert "amplifier_hooks.amplifier.alias" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The check above can fail: a planted cycle is reported with its path."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_walk_sees_a_planted_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / PACKAGE
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from amplifier_hooks.sub.two import X\n")
    (package / "sub" / "one.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from amplifier_hooks.sub.two import X\n"
        "def later():\n    from amplifier_hooks.sub import two\n"
    )
    (package / "sub" / "two.py").write_text("from . import one\nX = 1\n")
    (package / "three.py").write_text("from amplifier_hooks.sub import X\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE_DIR", package)
    graph = import_graph()
    # Type-only and function-level imports do not count; a package's submodule importing
    # a sibling does not depend on the package it sits in.
    assert graph["amplifier_hooks.sub.one"] == set()
    assert graph["amplifier_hooks.sub.two"] == {"amplifier_hooks.sub.one"}
    assert graph["amplifier_hooks.three"] == {"amplifier_hooks.sub"}
    assert find_cycle(graph) is None
    # A submodule that takes a name from its own package, whose __init__ imports it, is one.
    (package / "sub" / "one.py").write_text("from amplifier_hooks.sub import X\n")
    cycle = find_cycle(import_graph())
    assert cycle == [
        "amplifier_hooks.sub",
        "amplifier_hooks.sub.two",
        "amplifier_hooks.sub.one",
        "amplifier_hooks.sub",
    ]


_IMPORT_EACH_FIRST = """
import importlib, sys, traceback
failed = []
for name in sys.argv[1:]:
    ours = ("amplifier_hooks", "amplifier_core")
    for loaded in [m for m in sys.modules if m.split(".")[0] in ours]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed.append(name + ":\\n" + traceback.format_exc(limit=3))
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


@pytest.mark.parametrize("package", ["amplifier_hooks.bundles", "amplifier_hooks.amplifier"])
def test_every_module_imports_first_on_its_own(package: str) -> None:
    """Whatever module of the package a program imports first, it imports."""
    names = sorted(name for name in _all_modules() if name.startswith(package))
    assert len(names) > 5
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH_FIRST, *names],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
