"""amplifier-hooks: observe, gate and enrich an AI agent runtime with hooks."""

from amplifier_hooks import events
from amplifier_hooks.amplifier.alias import install_amplifier_core_alias
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
from amplifier_hooks.bundles.loading import (
    BundleSession,
    LoadReport,
    ModuleFailure,
    build_coordinator,
    reload_bundle,
)
from amplifier_hooks.channels import OBSERVABILITY_EVENTS, ContributionChannels
from amplifier_hooks.coordinator import Coordinator, Outcome
from amplifier_hooks.decorators import hook
from amplifier_hooks.injection import (
    AuditRecord,
    ContextInjector,
    ContextSink,
    DropReason,
    EncodingUnavailableError,
    InjectionReport,
    InjectionUsage,
)
from amplifier_hooks.kit.config import ConfigProblem, ModuleConfigError, parse_module_config
from amplifier_hooks.logs import configure_logging
from amplifier_hooks.registration import HookOptions
from amplifier_hooks.registry import HandlerInfo, HookRegistry, Unregister
from amplifier_hooks.resolver import (
    AskUser,
    HandlerOutcome,
    Injection,
    Resolution,
    TraceEntry,
    UserMessage,
    resolve,
)
from amplifier_hooks.result import CONTINUE, HookResult

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
    "HookOptions",
    "HookRegistry",
    "HookResult",
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
