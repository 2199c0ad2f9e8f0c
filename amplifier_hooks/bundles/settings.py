"""How a bundle's ``session:`` settings reach the coordinator's injector and approvals.

The rule everywhere: an object or argument the caller gave wins over the bundle, and a
setting the bundle does not write leaves the coordinator as it is. The approval store is
chosen once per coordinator (`store_of`), and the queue provider uses that same store, so
queued questions, remembered answers and the audit never end up in different places.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from amplifier_hooks.approvals import (
    ApprovalBackend,
    ApprovalGate,
    ApprovalProvider,
    open_store,
)
from amplifier_hooks.approvals.store import environment_store
from amplifier_hooks.bundles.amplifier_format import mount_plan
from amplifier_hooks.bundles.format import (
    MEMORY_STORE,
    STATE_STORE,
    ApprovalSettings,
    Bundle,
    SessionSettings,
)
from amplifier_hooks.bundles.reading import BundleError, Problem
from amplifier_hooks.engine.registry import HookRegistry
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.injection import ContextInjector
from amplifier_hooks.logs import get_logger
from amplifier_hooks.ui.providers import default_provider

if TYPE_CHECKING:
    from amplifier_hooks.session.coordinator import Coordinator

logger = get_logger()

CallerOwned = frozenset[str]
"""Names of the coordinator arguments the caller supplied (``injector``,
``approval_provider``, ``approval_store``, ``approval_gate``)."""

_INJECTOR_FIELDS = {
    "injection_size_limit": "size_limit",
    "injection_budget_per_turn": "budget_per_turn",
}
_PROVIDER_FIELDS = ("provider", "policy", "approver")
_BUILD_ONLY_FIELDS = (
    "store",
    "max_prompts",
    "per_seconds",
    "queue_retention_days",
    "audit_retention_days",
)
DAY = 24 * 3600.0


def coordinator_arguments(
    bundle: Bundle, kwargs: Mapping[str, Any]
) -> tuple[dict[str, Any], CallerOwned]:
    """The keyword arguments for the `Coordinator`, the bundle's settings filled in where
    the caller gave nothing, and the names of what the caller gave."""
    arguments = dict(kwargs)
    owned = {name for name in ("injector", "approval_provider", "approval_store") if name in kwargs}
    settings = bundle.session
    if "config" not in arguments:
        arguments["config"] = mount_plan(bundle)
    if "injector" not in arguments:
        arguments["injector"] = ContextInjector(
            size_limit=settings.injection_size_limit,
            budget_per_turn=settings.injection_budget_per_turn,
            refuse_roles=settings.injection_refuse_roles,
        )
    if "approval_gate" in arguments:
        owned |= {"approval_gate", "approval_provider", "approval_store"}
        return arguments, frozenset(owned)
    registry = arguments.get("registry")
    if registry is None:
        registry = arguments["registry"] = HookRegistry()
    approvals = settings.approvals
    store = (
        arguments.pop("approval_store") if "approval_store" in arguments else store_of(approvals)
    )
    owned_store = not isinstance(store, ApprovalBackend)
    if owned_store:
        store = open_store(store)
        days = approvals.queue_retention_days
        store.queue_retention = None if days is None else days * DAY
        kept = approvals.audit_retention_days
        store.audit_retention = None if kept is None else kept * DAY
    if "approval_provider" in arguments:
        provider = arguments.pop("approval_provider")
    else:
        provider = make_provider(approvals, bundle)
    arguments["approval_gate"] = ApprovalGate(
        provider,
        store,
        registry=registry,
        max_prompts=approvals.max_prompts,
        per_seconds=approvals.per_seconds,
        own_store=owned_store,
    )
    return arguments, frozenset(owned)


def store_of(approvals: ApprovalSettings) -> str | None:
    """The store when the caller names none: ``$AMPLIFIER_HOOKS_STORE`` if it is set,
    else the bundle's ``store`` (None for "state": the user's state directory), else
    ":memory:". (A store the caller gives — ``--store``, ``approval_store=`` — comes
    before all of these.)"""
    from_environment = environment_store()
    if from_environment is not None:
        return from_environment
    if approvals.store is None:
        return MEMORY_STORE
    return None if approvals.store == STATE_STORE else approvals.store


def make_provider(approvals: ApprovalSettings, bundle: Bundle) -> ApprovalProvider | None:
    """The provider the settings ask for (None when they name none). A queue provider
    queues in the store of the gate it is installed on (`GATE_STORE`): on a reload
    too, it opens no store of its own."""
    kind = approvals.provider or ("policy" if approvals.policy is not None else None)
    if kind is None:
        return None
    policy = approvals.policy
    extra: dict[str, Any] = {"approver": approvals.approver} if kind == "auto" else {}
    try:
        if policy is not None:  # kind is "policy" or "auto" (validated)
            return default_provider(
                kind, rules=policy.rules, policy_default=policy.default, **extra
            )
        return default_provider(kind, **extra)
    except Exception as exc:
        raise BundleError(
            Problem(
                f"approval provider {kind!r} is not available: {describe_exception(exc)}",
                bundle.path,
                None,
                "session.approvals.provider",
            )
        ) from exc


def provider_for(
    bundle: Bundle, applied: SessionSettings | None, owned: CallerOwned
) -> ApprovalProvider | None:
    """The provider to install on (re)load, or None to leave the coordinator's alone:
    only when the bundle writes provider settings that differ from those applied, and
    the caller did not supply a provider or gate of its own."""
    approvals = bundle.session.approvals
    if owned & {"approval_provider", "approval_gate"}:
        return None
    if not approvals.model_fields_set & set(_PROVIDER_FIELDS):
        return None
    if applied is not None and all(
        getattr(applied.approvals, f) == getattr(approvals, f) for f in _PROVIDER_FIELDS
    ):
        return None
    return make_provider(approvals, bundle)


def apply_session(
    coordinator: Coordinator,
    settings: SessionSettings,
    applied: SessionSettings | None,
    owned: CallerOwned,
    provider: ApprovalProvider | None,
) -> None:
    """Bring a running coordinator in line with ``settings`` (on load and reload)."""
    if "injector" not in owned:
        injector = coordinator.injector
        for name, attribute in _INJECTOR_FIELDS.items():
            if name in settings.model_fields_set:
                setattr(injector, attribute, getattr(settings, name))
        if "injection_refuse_roles" in settings.model_fields_set:
            injector.refuse_roles = frozenset(settings.injection_refuse_roles)
    if provider is not None:
        coordinator.approvals.provider = provider
    if applied is not None:
        changed = [
            f
            for f in _BUILD_ONLY_FIELDS
            if getattr(applied.approvals, f) != getattr(settings.approvals, f)
            # A store the caller or the environment chose is not the bundle's to change.
            and (
                f != "store"
                or (
                    "approval_store" not in owned
                    and store_of(applied.approvals) != store_of(settings.approvals)
                )
            )
        ]
        if changed:
            logger.warning(
                "approval settings changed by a reload take effect only in a new coordinator",
                settings=[f"session.approvals.{f}" for f in changed],
            )
