"""What `import amplifier_hooks` costs: nothing until a name is used; a handler author's
names bring pydantic, not the terminal UI, YAML, tiktoken or the bundles."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import amplifier_hooks

HEAVY = ("textual", "rich", "yaml", "tiktoken")


def imported_after(code: str) -> set[str]:
    """Top-level packages in sys.modules after running ``code`` in a fresh interpreter."""
    report = "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    probe = f"{code}\nimport json, sys\n{report}"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_package_leaves_ui_yaml_and_tiktoken_alone() -> None:
    loaded = imported_after("import amplifier_hooks")
    assert "amplifier_hooks" in loaded
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_importing_the_package_imports_not_even_pydantic() -> None:
    """A command hook's process starts on every tool call: the package alone must be free."""
    loaded = imported_after("import amplifier_hooks")
    assert loaded.isdisjoint({"pydantic", "aiohttp", *HEAVY}), sorted(loaded)


def test_the_events_submodule_is_a_public_name_too() -> None:
    loaded = imported_after("import amplifier_hooks\nassert amplifier_hooks.events.TOOL_PRE")
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_a_handler_module_gets_what_it_needs_without_the_heavy_parts() -> None:
    loaded = imported_after(
        "from amplifier_hooks import CONTINUE, HookResult, events, hook\n"
        "HookResult(action='inject_context', context_injection='x')"
    )
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_the_runtime_objects_load_without_ui_or_yaml() -> None:
    """A coordinator needs its registry and injector, not the terminal UI or bundle YAML
    (tiktoken is loaded by the injector, when it is built)."""
    loaded = imported_after("from amplifier_hooks import Coordinator, HookRegistry")
    assert loaded.isdisjoint({"textual", "yaml", "tiktoken"}), loaded


@pytest.mark.parametrize("name", sorted(amplifier_hooks.__all__))
def test_every_public_name_resolves_to_its_module_object(name: str) -> None:
    value = getattr(amplifier_hooks, name)
    module = importlib.import_module(amplifier_hooks._PUBLIC[name])
    expected = module if module.__name__.endswith(f".{name}") else getattr(module, name)
    assert value is expected
    assert name in dir(amplifier_hooks)


def stub_imports(source: str) -> dict[str, str]:
    """Name -> module of each ``from M import N as N`` in a stub (a submodule imported
    from its package: the submodule's own path)."""
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if alias.asname == alias.name:  # re-exported: a public name
                    module = node.module
                    is_submodule = module == "amplifier_hooks"
                    found[alias.name] = f"{module}.{alias.name}" if is_submodule else module
    return found


def test_type_checkers_read_the_names_run_time_imports() -> None:
    """``__init__.pyi`` (what type checkers read) and ``_PUBLIC`` (what ``__getattr__``
    imports) list the same names from the same modules, and ``__all__`` is all of them."""
    stub = Path(amplifier_hooks.__file__).with_suffix(".pyi").read_text(encoding="utf-8")
    assert stub_imports(stub) == amplifier_hooks._PUBLIC
    assert amplifier_hooks.__all__ == sorted(amplifier_hooks._PUBLIC)
    names = ast.literal_eval(stub.partition("__all__ = ")[2])
    assert sorted(names) == sorted(amplifier_hooks._PUBLIC)
    # The check can fail: a name imported without ``as`` is not re-exported.
    assert stub_imports("from m import Extra\n") == {}


def test_no_module_hides_imports_behind_its_own_type_checking_flag() -> None:
    """``TYPE_CHECKING = False`` (instead of typing's) hides imports from the run time to
    save typing's import; the command hook's start is stdlib-only without it, so none
    may come back."""
    package = Path(amplifier_hooks.__file__).parent
    offenders = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if re.search(r"^\s*TYPE_CHECKING\s*=", path.read_text(encoding="utf-8"), re.MULTILINE)
    ]
    assert offenders == []


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchThing'"):
        amplifier_hooks.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(amplifier_hooks, "NoSuchThing")


def test_star_import_gets_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from amplifier_hooks import *", namespace)
    assert set(amplifier_hooks.__all__) <= set(namespace)
