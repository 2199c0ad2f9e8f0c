"""amplifier-hooks: observe, gate and enrich an AI agent runtime with hooks.

The top level holds what the three ways in need — handlers in code, bundles, approvals in
the terminal — and the names of the public contract. Everything else lives in the package
named after its concept: `amplifier_hooks.resolver` (the fold's records), `.registry`,
`.injection`, `.approvals`, `.bundles`, `.kit` (for module authors), `.amplifier`
(Amplifier compatibility), `.testing`.

Every name here is imported on first use (PEP 562 ``__getattr__``), so ``import
amplifier_hooks`` costs almost nothing: a hook module that takes `HookResult` pays for
pydantic, not for the terminal UI, YAML, tiktoken or the bundle models; and a Claude Code
command hook, whose process starts for every tool call, passes its call to a running
server without importing pydantic at all (see docs/claude-code.md, "How state lasts").
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from amplifier_hooks import events
    from amplifier_hooks.approvals import (
        ApprovalDecision,
        ApprovalGate,
        ApprovalProvider,
        ApprovalRequest,
        PolicyApprovalProvider,
        PolicyRule,
        default_provider,
    )
    from amplifier_hooks.bundles import (
        Bundle,
        BundleError,
        build_coordinator,
        load_bundle,
        reload_bundle,
    )
    from amplifier_hooks.channels import ContributionChannels
    from amplifier_hooks.coordinator import Coordinator, Outcome
    from amplifier_hooks.decorators import hook
    from amplifier_hooks.injection import ContextInjector
    from amplifier_hooks.logs import configure_logging
    from amplifier_hooks.registration import HookOptions
    from amplifier_hooks.registry import HookRegistry
    from amplifier_hooks.resolver import Resolution, resolve
    from amplifier_hooks.result import CONTINUE, HookResult

# Public name -> the module it is imported from on first use.
_LAZY: dict[str, str] = {
    "CONTINUE": "amplifier_hooks.result",
    "ApprovalDecision": "amplifier_hooks.approvals",
    "ApprovalGate": "amplifier_hooks.approvals",
    "ApprovalProvider": "amplifier_hooks.approvals",
    "ApprovalRequest": "amplifier_hooks.approvals",
    "Bundle": "amplifier_hooks.bundles",
    "BundleError": "amplifier_hooks.bundles",
    "ContextInjector": "amplifier_hooks.injection",
    "ContributionChannels": "amplifier_hooks.channels",
    "Coordinator": "amplifier_hooks.coordinator",
    "HookOptions": "amplifier_hooks.registration",
    "HookRegistry": "amplifier_hooks.registry",
    "HookResult": "amplifier_hooks.result",
    "Outcome": "amplifier_hooks.coordinator",
    "PolicyApprovalProvider": "amplifier_hooks.approvals",
    "PolicyRule": "amplifier_hooks.approvals",
    "Resolution": "amplifier_hooks.resolver",
    "build_coordinator": "amplifier_hooks.bundles",
    "configure_logging": "amplifier_hooks.logs",
    "default_provider": "amplifier_hooks.approvals",
    "events": "amplifier_hooks.events",
    "hook": "amplifier_hooks.decorators",
    "load_bundle": "amplifier_hooks.bundles",
    "reload_bundle": "amplifier_hooks.bundles",
    "resolve": "amplifier_hooks.resolver",
}

__all__ = [
    "CONTINUE",
    "ApprovalDecision",
    "ApprovalGate",
    "ApprovalProvider",
    "ApprovalRequest",
    "Bundle",
    "BundleError",
    "ContextInjector",
    "ContributionChannels",
    "Coordinator",
    "HookOptions",
    "HookRegistry",
    "HookResult",
    "Outcome",
    "PolicyApprovalProvider",
    "PolicyRule",
    "Resolution",
    "build_coordinator",
    "configure_logging",
    "default_provider",
    "events",
    "hook",
    "load_bundle",
    "reload_bundle",
    "resolve",
]


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
