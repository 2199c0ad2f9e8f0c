"""The opt-in amplifier_core alias: reference-style modules load unchanged."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from amplifier_hooks import HookRegistry, HookResult
from amplifier_hooks.amplifier.alias import (
    alias_installed,
    compat_refused,
    compat_requested,
    install_amplifier_core_alias,
    uninstall_amplifier_core_alias,
)
from amplifier_hooks.bundles import BundleError
from amplifier_hooks.bundles.loading import build_coordinator
from amplifier_hooks.bundles.reading import display_path
from amplifier_hooks.testing import ScriptedApprovalProvider

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "bundles"
GUARD_PACKAGE = "amplifier_module_reference_guard"


@pytest.fixture(autouse=True)
def clean_modules() -> Iterator[None]:
    """Each test starts without the alias and without the reference module imported."""

    def purge() -> None:
        uninstall_amplifier_core_alias()
        for name in [n for n in sys.modules if n.split(".")[0] == GUARD_PACKAGE]:
            del sys.modules[name]

    purge()
    yield
    purge()


def test_importing_the_library_does_not_install_the_alias() -> None:
    code = "import sys, amplifier_hooks; print('amplifier_core' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_alias_exposes_the_reference_names_and_is_idempotent() -> None:
    assert install_amplifier_core_alias() is True
    assert install_amplifier_core_alias() is True
    from amplifier_core.hooks import HookRegistry as AliasRegistry
    from amplifier_core.models import HookResult as AliasResult

    assert AliasResult is HookResult and issubclass(AliasRegistry, HookRegistry)
    assert alias_installed()
    with pytest.raises(ModuleNotFoundError):
        __import__("amplifier_core.other")
    uninstall_amplifier_core_alias()
    assert "amplifier_core" not in sys.modules and not alias_installed()


def test_a_real_amplifier_core_is_never_shadowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "amplifier_core"
    package.mkdir()
    (package / "__init__.py").write_text("REAL = True\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert install_amplifier_core_alias() is False
    assert "amplifier_core" not in sys.modules
    import amplifier_core

    assert amplifier_core.REAL is True
    uninstall_amplifier_core_alias()  # leaves the real one alone
    assert sys.modules["amplifier_core"] is amplifier_core
    del sys.modules["amplifier_core"]


@pytest.mark.parametrize(
    ("value", "wanted"),
    [("amplifier_core", True), ("x, amplifier_core", True), ("", False), ("core", False)],
)
def test_compat_env_variable(value: str, wanted: bool) -> None:
    assert compat_requested({"AMPLIFIER_HOOKS_COMPAT": value}) is wanted


async def test_reference_module_loads_unchanged_and_asks_for_production_writes() -> None:
    person = ScriptedApprovalProvider.always("Deny")
    coord = await build_coordinator(FIXTURES / "compat.yaml", approval_provider=person)
    [info] = coord.hooks.handler_info()
    assert (info.event, info.name, info.priority, info.owner) == (
        "tool:pre",
        "production_guard",
        5,
        "reference-guard",
    )
    harmless = await coord.dispatch("tool:pre", {"tool_input": {"file_path": "src/app.py"}})
    assert harmless.allowed and person.prompts == []
    risky = await coord.dispatch(
        "tool:pre", {"tool_input": {"file_path": "/srv/production/app.py"}}
    )
    assert not risky.allowed
    assert person.prompts == ["Allow write to production file: /srv/production/app.py?"]
    # the module's mount returned the registry's unregister function as its cleanup
    await coord.cleanup()
    assert coord.hooks.handler_info() == []


async def test_without_compat_the_error_says_how_to_enable_it() -> None:
    path = FIXTURES / "no_compat.yaml"
    with pytest.raises(BundleError) as info:
        await build_coordinator(path)
    package = ROOT / "tests" / "fixtures" / "modules" / "reference-guard" / GUARD_PACKAGE
    assert str(info.value) == (
        f"{display_path(path)}:5: hooks[0]: module 'reference-guard' could not be loaded: "
        f"importing {GUARD_PACKAGE} from {package} failed: ModuleNotFoundError: No module "
        "named 'amplifier_core' (a module written for amplifier_core: the compatibility "
        "alias is turned off; remove 'compat: off' from the bundle, "
        "AMPLIFIER_HOOKS_COMPAT=off from the environment, or compat=False from the call)"
    )
    assert not alias_installed()


async def test_the_alias_is_on_by_default() -> None:
    coord = await build_coordinator(FIXTURES / "default_compat.yaml")
    assert alias_installed()
    await coord.cleanup()


async def test_the_environment_can_turn_the_alias_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMPLIFIER_HOOKS_COMPAT", "off")
    with pytest.raises(BundleError, match="No module named 'amplifier_core'"):
        await build_coordinator(FIXTURES / "default_compat.yaml")
    assert not alias_installed()
    # a bundle that asks for it by name still gets it
    coord = await build_coordinator(FIXTURES / "compat.yaml")
    assert alias_installed()
    await coord.cleanup()


async def test_caller_can_refuse_the_alias_a_bundle_asks_for() -> None:
    with pytest.raises(BundleError, match="No module named 'amplifier_core'"):
        await build_coordinator(FIXTURES / "compat.yaml", compat=False, strict=True)
    coord = await build_coordinator(FIXTURES / "no_compat.yaml", compat=True)
    assert alias_installed()
    await coord.cleanup()


@pytest.mark.parametrize(
    ("value", "refused"),
    [("off", True), ("none", True), ("0", True), ("x, OFF", True), ("", False), ("on", False)],
)
def test_compat_env_variable_can_refuse(value: str, refused: bool) -> None:
    assert compat_refused({"AMPLIFIER_HOOKS_COMPAT": value}) is refused
