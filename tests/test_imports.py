"""What `import amplifier_hooks` costs: nothing until a name is used; a handler author's
names bring pydantic, not the terminal UI, YAML, tiktoken or the bundles."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
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
    module = importlib.import_module(amplifier_hooks._public_names()[name])
    expected = module if module.__name__.endswith(f".{name}") else getattr(module, name)
    assert value is expected
    assert name in dir(amplifier_hooks)


def type_checker_imports(source: str) -> dict[str, str]:
    """Name -> module of each ``from M import N as N`` under ``if TYPE_CHECKING:`` (a
    submodule imported from its package counts as the submodule itself)."""
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.module:
                for alias in statement.names:
                    if alias.asname == alias.name:  # re-exported: a public name
                        found[alias.name] = statement.module
    return found


def test_run_time_reads_the_names_type_checkers_read() -> None:
    """The imports under TYPE_CHECKING are the one list of public names; at run time
    `_public_names` reads the same lines (without a parser), so both see the same."""
    imports = type_checker_imports(inspect.getsource(amplifier_hooks))
    assert imports == amplifier_hooks._public_names()
    assert amplifier_hooks.__all__ == sorted(imports)
    # The check can fail: a public name the type checkers are not told of.
    assert "Extra" not in type_checker_imports(
        "if TYPE_CHECKING:\n    from m import Extra\n"  # not re-exported with ``as``
    )
    assert type_checker_imports("if TYPE_CHECKING:\n    from m import Extra as Extra\n") == {
        "Extra": "m"
    }


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchThing'"):
        amplifier_hooks.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(amplifier_hooks, "NoSuchThing")


def test_star_import_gets_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from amplifier_hooks import *", namespace)
    assert set(amplifier_hooks.__all__) <= set(namespace)


def test_a_public_import_wrapped_over_lines_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "__init__.py"
    wrapped = "    from m import (\n        Extra as Extra,\n    )\n"
    source.write_text(f"TYPE_CHECKING = False\nif TYPE_CHECKING:\n{wrapped}del TYPE_CHECKING\n")
    monkeypatch.setattr(amplifier_hooks, "__file__", str(source))
    monkeypatch.setattr(amplifier_hooks, "_public", None)
    with pytest.raises(ImportError, match="on one line"):
        amplifier_hooks._public_names()
