"""amplifier-hooks: observe, gate and enrich an AI agent runtime with hooks.

What a handler author needs (`HookResult`, `CONTINUE`, `hook`, `HookSpec`, `events`) is
imported with the package; every other public name is imported on first use (PEP 562
``__getattr__``), so that ``import amplifier_hooks`` in a hook module costs little and
does not pull in the terminal UI, YAML, tiktoken or the bundle models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from amplifier_hooks import events
from amplifier_hooks.decorators import HookSpec, hook
from amplifier_hooks.result import CONTINUE, HookResult

if TYPE_CHECKING:
    from amplifier_hooks._compat import (
        install_amplifier_core_alias,
    )
    from amplifier_hooks.approvals import (
        ApprovalDecision,
        ApprovalDismissed,
        ApprovalGate,
        ApprovalProvider,
        ApprovalRequest,
        ApprovalStore,
        ApprovalStoreError,
        ApprovalTimeout,
        PolicyApprovalProvider,
        PolicyRule,
        default_provider,
    )
    from amplifier_hooks.bundles import (
        ApprovalSettings,
        Bundle,
        BundleError,
        HandlerOverride,
        HookEntry,
        SessionSettings,
        bundle_json_schema,
        load_bundle,
    )
    from amplifier_hooks.channels import (
        OBSERVABILITY_EVENTS,
        ContributionChannels,
    )
    from amplifier_hooks.coordinator import (
        Coordinator,
        Outcome,
    )
    from amplifier_hooks.injection import (
        AuditRecord,
        ContextInjector,
        ContextSink,
        DropReason,
        EncodingUnavailableError,
        InjectionReport,
        InjectionUsage,
    )
    from amplifier_hooks.loader import (
        BundleSession,
        LoadReport,
        ModuleFailure,
        build_coordinator,
        reload_bundle,
    )
    from amplifier_hooks.logs import (
        configure_logging,
    )
    from amplifier_hooks.module_config import (
        ConfigProblem,
        ModuleConfigError,
        parse_module_config,
    )
    from amplifier_hooks.registry import (
        HandlerInfo,
        HookRegistry,
        Unregister,
    )
    from amplifier_hooks.resolver import (
        AskUser,
        HandlerOutcome,
        Injection,
        Resolution,
        TraceEntry,
        UserMessage,
        resolve,
    )

# Public name -> the module it is imported from on first use.
_LAZY: dict[str, str] = {
    "ApprovalDecision": "amplifier_hooks.approvals",
    "ApprovalDismissed": "amplifier_hooks.approvals",
    "ApprovalGate": "amplifier_hooks.approvals",
    "ApprovalProvider": "amplifier_hooks.approvals",
    "ApprovalRequest": "amplifier_hooks.approvals",
    "ApprovalSettings": "amplifier_hooks.bundles",
    "ApprovalStore": "amplifier_hooks.approvals",
    "ApprovalStoreError": "amplifier_hooks.approvals",
    "ApprovalTimeout": "amplifier_hooks.approvals",
    "AskUser": "amplifier_hooks.resolver",
    "AuditRecord": "amplifier_hooks.injection",
    "Bundle": "amplifier_hooks.bundles",
    "BundleError": "amplifier_hooks.bundles",
    "BundleSession": "amplifier_hooks.loader",
    "ConfigProblem": "amplifier_hooks.module_config",
    "ContextInjector": "amplifier_hooks.injection",
    "ContextSink": "amplifier_hooks.injection",
    "ContributionChannels": "amplifier_hooks.channels",
    "Coordinator": "amplifier_hooks.coordinator",
    "DropReason": "amplifier_hooks.injection",
    "EncodingUnavailableError": "amplifier_hooks.injection",
    "HandlerInfo": "amplifier_hooks.registry",
    "HandlerOutcome": "amplifier_hooks.resolver",
    "HandlerOverride": "amplifier_hooks.bundles",
    "HookEntry": "amplifier_hooks.bundles",
    "HookRegistry": "amplifier_hooks.registry",
    "Injection": "amplifier_hooks.resolver",
    "InjectionReport": "amplifier_hooks.injection",
    "InjectionUsage": "amplifier_hooks.injection",
    "LoadReport": "amplifier_hooks.loader",
    "ModuleConfigError": "amplifier_hooks.module_config",
    "ModuleFailure": "amplifier_hooks.loader",
    "OBSERVABILITY_EVENTS": "amplifier_hooks.channels",
    "Outcome": "amplifier_hooks.coordinator",
    "PolicyApprovalProvider": "amplifier_hooks.approvals",
    "PolicyRule": "amplifier_hooks.approvals",
    "Resolution": "amplifier_hooks.resolver",
    "SessionSettings": "amplifier_hooks.bundles",
    "TraceEntry": "amplifier_hooks.resolver",
    "Unregister": "amplifier_hooks.registry",
    "UserMessage": "amplifier_hooks.resolver",
    "build_coordinator": "amplifier_hooks.loader",
    "bundle_json_schema": "amplifier_hooks.bundles",
    "configure_logging": "amplifier_hooks.logs",
    "default_provider": "amplifier_hooks.approvals",
    "install_amplifier_core_alias": "amplifier_hooks._compat",
    "load_bundle": "amplifier_hooks.bundles",
    "parse_module_config": "amplifier_hooks.module_config",
    "reload_bundle": "amplifier_hooks.loader",
    "resolve": "amplifier_hooks.resolver",
}

__all__ = [
    "CONTINUE",
    "OBSERVABILITY_EVENTS",
    "ApprovalDecision",
    "ApprovalDismissed",
    "ApprovalGate",
    "ApprovalProvider",
    "ApprovalRequest",
    "ApprovalSettings",
    "ApprovalStore",
    "ApprovalStoreError",
    "ApprovalTimeout",
    "AskUser",
    "AuditRecord",
    "Bundle",
    "BundleError",
    "BundleSession",
    "ConfigProblem",
    "ContextInjector",
    "ContextSink",
    "ContributionChannels",
    "Coordinator",
    "DropReason",
    "EncodingUnavailableError",
    "HandlerInfo",
    "HandlerOutcome",
    "HandlerOverride",
    "HookEntry",
    "HookRegistry",
    "HookResult",
    "HookSpec",
    "Injection",
    "InjectionReport",
    "InjectionUsage",
    "LoadReport",
    "ModuleConfigError",
    "ModuleFailure",
    "Outcome",
    "PolicyApprovalProvider",
    "PolicyRule",
    "Resolution",
    "SessionSettings",
    "TraceEntry",
    "Unregister",
    "UserMessage",
    "build_coordinator",
    "bundle_json_schema",
    "configure_logging",
    "default_provider",
    "events",
    "hook",
    "install_amplifier_core_alias",
    "load_bundle",
    "parse_module_config",
    "reload_bundle",
    "resolve",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
