"""From a bundle to a running coordinator, the way every command needs it.

The one place that knows where the default bundle and demo trace live, which approval
provider a run gets, and how the loader is called.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from amplifier_hooks.approvals import ApprovalProvider, ApprovalStoreError, PolicyApprovalProvider
from amplifier_hooks.approvals.store import STORE_ENV, environment_store
from amplifier_hooks.bundles import Bundle
from amplifier_hooks.bundles.format import MEMORY_STORE
from amplifier_hooks.bundles.loading import LoadReport, MountedBundle, build_coordinator
from amplifier_hooks.bundles.settings import store_of
from amplifier_hooks.engine.resolution import UserMessage
from amplifier_hooks.modules.replay import REPLAY_CAPABILITY, Replay
from amplifier_hooks.session.coordinator import Coordinator

ApprovalMode = Literal["policy", "allow", "deny", "queue"]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
"""The source checkout the package runs from (bundles/ and examples/ live there)."""
DEFAULT_BUNDLE = PROJECT_ROOT / "bundles" / "default.md"
DEMO_TRACE = PROJECT_ROOT / "examples" / "traces" / "demo.jsonl"


def run_store(bundle: Bundle, store: str | None) -> str | None:
    """The approval store a run uses, by the one rule (docs/shared-approvals.md): ``--store``,
    else ``$AMPLIFIER_HOOKS_STORE``, else the bundle's setting, else ":memory:". None
    means the user's state file."""
    return store if store is not None else store_of(bundle.session.approvals)


def mode_provider(bundle: Bundle, mode: ApprovalMode, store: str | None) -> ApprovalProvider:
    """The provider for a ``--approvals`` mode: ``queue`` asks the approvers watching the
    run's store (`run_store`: the same store that holds its remembered answers and audit);
    the others answer by policy (`policy_provider`). ``queue`` with an in-process store is
    refused (`ApprovalStoreError`): no approver could ever see its questions."""
    if mode != "queue":
        return policy_provider(bundle, mode)
    from amplifier_hooks.approvals.queue import GATE_STORE, QueueApprovalProvider

    if run_store(bundle, store) == MEMORY_STORE:
        where = (
            "--store" if store is not None
            else f"${STORE_ENV}" if environment_store() is not None
            else "the bundle's session.approvals.store, or its default"
        )  # fmt: skip
        raise ApprovalStoreError(
            "--approvals queue needs a store that approvers can reach, and this run's is "
            f"{MEMORY_STORE} ({where}): pass --store PATH|URL or set ${STORE_ENV}"
        )
    return QueueApprovalProvider(GATE_STORE)


def policy_provider(bundle: Bundle, mode: ApprovalMode) -> PolicyApprovalProvider:
    """The provider that answers approvals without a person.

    ``policy``: the bundle's ``session.approvals.policy`` rules if it writes any, else a
    policy with no rules, which denies. ``allow``/``deny``: every question answered so
    (once: nothing is remembered), whatever the bundle's rules or remembered answers say.
    """
    if mode in ("allow", "deny"):
        # A fixed answer is exactly what applies: remembered decisions are not consulted.
        return PolicyApprovalProvider(default=mode, uses_memory=False)
    if mode != "policy":
        raise ValueError(f"unknown approvals mode {mode!r}: expected policy, allow or deny")
    policy = bundle.session.approvals.policy
    if policy is None:
        return PolicyApprovalProvider()
    return PolicyApprovalProvider(policy.rules, default=policy.default)


def _quiet(message: UserMessage, event: str) -> None:
    """Message sink for replays: messages are shown with their event, not logged."""


async def open_coordinator(
    bundle: Bundle,
    *,
    provider: ApprovalProvider | None,
    store: str | None = None,
    strict: bool | None = None,
    replay: Replay | None = None,
) -> tuple[Coordinator, LoadReport | None]:
    """Mount ``bundle`` into a new coordinator that asks ``provider`` for approvals.

    ``store`` (a path, URL or ``":memory:"``: the ``--store`` flag) comes before
    ``$AMPLIFIER_HOOKS_STORE`` and the bundle's setting; None leaves the choice to them
    (`run_store`). ``replay`` is registered as the `REPLAY_CAPABILITY` before any module
    mounts, so modules with side effects hold them back. Raises `BundleError` for a bad
    bundle (or any module failure when strict).
    """
    kwargs: dict[str, Any] = {"approval_provider": provider, "message_sink": _quiet}
    if store is not None:
        kwargs["approval_store"] = store

    def factory(**arguments: Any) -> Coordinator:
        coordinator = Coordinator(**arguments)
        if replay is not None:
            coordinator.register_capability(REPLAY_CAPABILITY, replay)
        return coordinator

    coordinator = await build_coordinator(bundle, strict=strict, factory=factory, **kwargs)
    session = MountedBundle.of(coordinator)
    return coordinator, session.report if session is not None else None
