"""amplifier-hooks: observe, gate and enrich an AI agent runtime with hooks.

The top level holds what the three ways in need — handlers in code, bundles, approvals in
the terminal — and the names of the public contract. Everything else lives in the package
named after its concept, one package per layer (docs/architecture.md): `.engine` (results,
registry, the fold), `.session` (the Coordinator), `.approvals`, `.injection`, `.modules`
(for module authors), `.bundles`, `.amplifier` (Amplifier compatibility), `.hosts`,
`.transports`, `.web`, `.ui`, `.cli`, `.testing`, and `.typing` (the records plugin and
host authors annotate with).

Every name here is imported on first use (PEP 562 ``__getattr__``), so ``import
amplifier_hooks`` costs almost nothing: a hook module that takes `HookResult` pays for
pydantic, not for the terminal UI, YAML, tiktoken or the bundle models; and a Claude Code
command hook, whose process starts for every tool call, passes its call to a running
server without importing pydantic at all (see docs/claude-code.md, "How state lasts").

This module is also the composition root: it plugs the upper layers' parts of core
features into the core's extension points (`amplifier_hooks.engine.slots`), each imported
on first use. Python runs it before any module of the package, so they are always plugged.
"""

from __future__ import annotations

import importlib

# Light (typing and collections.abc only): plugging the slots costs a few milliseconds of
# the command hook's start, against about 25 ms for Python itself.
from amplifier_hooks.engine import slots

TYPE_CHECKING = False  # not typing's: importing typing is most of what this would cost
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    # What type checkers read (they cannot run `_LAZY`); each name re-exported with
    # ``as``, as a strict checker wants. tests/test_imports.py checks these are `_LAZY`.
    from amplifier_hooks import events as events
    from amplifier_hooks.approvals import ApprovalDecision as ApprovalDecision
    from amplifier_hooks.approvals import ApprovalGate as ApprovalGate
    from amplifier_hooks.approvals import ApprovalProvider as ApprovalProvider
    from amplifier_hooks.approvals import ApprovalRequest as ApprovalRequest
    from amplifier_hooks.approvals import PolicyApprovalProvider as PolicyApprovalProvider
    from amplifier_hooks.approvals import PolicyRule as PolicyRule
    from amplifier_hooks.bundles import Bundle as Bundle
    from amplifier_hooks.bundles import BundleError as BundleError
    from amplifier_hooks.bundles import build_coordinator as build_coordinator
    from amplifier_hooks.bundles import load_bundle as load_bundle
    from amplifier_hooks.bundles import reload_bundle as reload_bundle
    from amplifier_hooks.engine.channels import ContributionChannels as ContributionChannels
    from amplifier_hooks.engine.decorators import hook as hook
    from amplifier_hooks.engine.fold import resolve as resolve
    from amplifier_hooks.engine.options import HookOptions as HookOptions
    from amplifier_hooks.engine.registry import HookRegistry as HookRegistry
    from amplifier_hooks.engine.resolution import Resolution as Resolution
    from amplifier_hooks.engine.result import CONTINUE as CONTINUE
    from amplifier_hooks.engine.result import HookResult as HookResult
    from amplifier_hooks.injection import ContextInjector as ContextInjector
    from amplifier_hooks.logs import configure_logging as configure_logging
    from amplifier_hooks.session.coordinator import Coordinator as Coordinator
    from amplifier_hooks.session.outcome import Outcome as Outcome
    from amplifier_hooks.ui.providers import default_provider as default_provider
del TYPE_CHECKING  # not a public name

# The public names, each with the module it is imported from on first use: `__all__`
# and `__getattr__` both read this table.
_LAZY: dict[str, str] = {
    "CONTINUE": "amplifier_hooks.engine.result",
    "ApprovalDecision": "amplifier_hooks.approvals",
    "ApprovalGate": "amplifier_hooks.approvals",
    "ApprovalProvider": "amplifier_hooks.approvals",
    "ApprovalRequest": "amplifier_hooks.approvals",
    "Bundle": "amplifier_hooks.bundles",
    "BundleError": "amplifier_hooks.bundles",
    "ContextInjector": "amplifier_hooks.injection",
    "ContributionChannels": "amplifier_hooks.engine.channels",
    "Coordinator": "amplifier_hooks.session.coordinator",
    "HookOptions": "amplifier_hooks.engine.options",
    "HookRegistry": "amplifier_hooks.engine.registry",
    "HookResult": "amplifier_hooks.engine.result",
    "Outcome": "amplifier_hooks.session.outcome",
    "PolicyApprovalProvider": "amplifier_hooks.approvals",
    "PolicyRule": "amplifier_hooks.approvals",
    "Resolution": "amplifier_hooks.engine.resolution",
    "build_coordinator": "amplifier_hooks.bundles",
    "configure_logging": "amplifier_hooks.logs",
    "default_provider": "amplifier_hooks.ui.providers",
    "events": "amplifier_hooks.events",
    "hook": "amplifier_hooks.engine.decorators",
    "load_bundle": "amplifier_hooks.bundles",
    "reload_bundle": "amplifier_hooks.bundles",
    "resolve": "amplifier_hooks.engine.fold",
}

__all__ = sorted(_LAZY)


def _read_foreign_result(values: Mapping[str, Any]) -> HookResult:
    from amplifier_hooks.amplifier.foreign_results import from_foreign

    return from_foreign(values)


async def _build_from_bundle(bundle: Any, **options: Any) -> Coordinator:
    from amplifier_hooks.bundles.loading import build_coordinator

    return await build_coordinator(bundle, **options)


slots.foreign_results.plug(_read_foreign_result)
slots.bundle_builder.plug(_build_from_bundle)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    imported = importlib.import_module(module)
    # `events` is a submodule: the name is the module itself.
    value = imported if module == f"{__name__}.{name}" else getattr(imported, name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
