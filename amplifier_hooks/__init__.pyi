"""The public names of `amplifier_hooks`, as type checkers see them (at run time each is
imported on first use: ``__init__.py``)."""

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
