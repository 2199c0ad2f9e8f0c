"""`Coordinator`: the one object an agent runtime holds.

It owns the registry, the channels, the injector, the approval gate, capabilities and
cleanups, and `dispatch` applies every part of a resolution in one place, in one order:
emit -> approvals -> injections -> user messages.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import structlog

from amplifier_hooks.approvals import ApprovalDecision, ApprovalGate, ApprovalProvider
from amplifier_hooks.approvals.store import ApprovalStore
from amplifier_hooks.channels import OBSERVABILITY_EVENTS, ContributionChannels, Contributor
from amplifier_hooks.events import STANDARD_EVENTS, is_valid_event_name
from amplifier_hooks.injection import AuditRecord, ContextInjector, ContextSink
from amplifier_hooks.registry import HookRegistry
from amplifier_hooks.resolver import Resolution, UserMessage
from amplifier_hooks.result import Action

if TYPE_CHECKING:
    from amplifier_hooks.bundles import Bundle

logger = structlog.get_logger("amplifier_hooks")

MessageSink = Callable[[UserMessage, str], Any]
"""Shows a user message to the person: called with the message and the event; may be async."""

Cleanup = Callable[[], Any]


@dataclass(frozen=True)
class Outcome:
    """What the agent should do after `Coordinator.dispatch`.

    ``action`` is the resolution's action, except that it becomes ``"deny"`` when an
    approval was refused; ``allowed`` is the final verdict. ``data`` is the event data after
    every modify, whatever the verdict.
    """

    allowed: bool
    action: Action
    data: dict[str, Any]
    reason: str | None = None
    denied_by: str | None = None
    approvals: list[ApprovalDecision] = field(default_factory=list)
    injected: list[dict[str, Any]] = field(default_factory=list)
    """Persisted injection messages, as sent to the context sink."""
    ephemeral: list[dict[str, Any]] = field(default_factory=list)
    """Injection messages for the current LLM call only."""
    dropped: list[AuditRecord] = field(default_factory=list)
    """Injections refused by the injector (over a limit, refused role, sink failure)."""
    messages: list[UserMessage] = field(default_factory=list)
    suppress_output: bool = False
    resolution: Resolution | None = None


def log_message(message: UserMessage, event: str) -> None:
    """The default message sink: a structlog record at the message's level."""
    log = getattr(logger, message.level)
    log("hook message", text=message.text, source=message.source, hook_event=event)


class Coordinator:
    """Holds everything hooks need and applies resolutions for an agent runtime."""

    def __init__(
        self,
        *,
        approval_provider: ApprovalProvider | None = None,
        approval_store: ApprovalStore | str | os.PathLike[str] | None = ":memory:",
        injector: ContextInjector | None = None,
        context_sink: ContextSink | None = None,
        registry: HookRegistry | None = None,
        message_sink: MessageSink | None = None,
        channels: ContributionChannels | None = None,
        approval_gate: ApprovalGate | None = None,
    ) -> None:
        self.hooks = registry if registry is not None else HookRegistry()
        self.channels = channels if channels is not None else ContributionChannels()
        self.injector = injector if injector is not None else ContextInjector()
        if context_sink is not None:
            self.injector.sink = context_sink
        self.approvals = (
            approval_gate
            if approval_gate is not None
            else ApprovalGate(approval_provider, approval_store, registry=self.hooks)
        )
        self.message_sink: MessageSink = message_sink or log_message
        self._capabilities: dict[str, Any] = {}
        self._cleanups: list[Cleanup] = []

    @classmethod
    async def from_bundle(
        cls, bundle: Bundle | str | os.PathLike[str], *, strict: bool | None = None, **kwargs: Any
    ) -> Coordinator:
        """A coordinator with every module of ``bundle`` mounted (see `build_coordinator`)."""
        from amplifier_hooks.loader import build_coordinator  # lazy: the loader imports us

        return await build_coordinator(bundle, strict=strict, factory=cls, **kwargs)

    # -- channels and capabilities -------------------------------------------------------

    def register_contributor(
        self, channel: str, name: str, callback: Contributor, *, timeout: float | None = None
    ) -> Callable[[], None]:
        """See `ContributionChannels.register_contributor`."""
        return self.channels.register_contributor(channel, name, callback, timeout=timeout)

    async def collect_contributions(self, channel: str) -> list[Any]:
        """See `ContributionChannels.collect_contributions`."""
        return await self.channels.collect_contributions(channel)

    def register_capability(self, name: str, value: Any) -> Callable[[], None]:
        """Offer ``value`` to other modules under ``name``; returns an unregister function.

        A second registration under the same name replaces the first (logged), so a module
        can deliberately override a default implementation.
        """
        if name in self._capabilities:
            logger.info("capability replaced", capability=name)
        self._capabilities[name] = value

        def unregister() -> None:
            if self._capabilities.get(name) is value:
                del self._capabilities[name]

        return unregister

    def get_capability(self, name: str, default: Any = None) -> Any:
        """The value registered under ``name``, or ``default``."""
        return self._capabilities.get(name, default)

    async def known_events(self) -> list[str]:
        """The standard event names plus every name contributed on ``observability.events``.

        A contribution may be one name or an iterable of names; invalid names are logged
        and left out.
        """
        names: list[str] = list(STANDARD_EVENTS)
        seen = set(names)
        for contribution in await self.collect_contributions(OBSERVABILITY_EVENTS):
            items = [contribution] if isinstance(contribution, str) else contribution
            try:
                iterator = iter(items)
            except TypeError:
                logger.warning("ignored non-name event contribution", value=repr(contribution))
                continue
            for item in iterator:
                if not is_valid_event_name(item):
                    logger.warning("ignored invalid contributed event name", value=repr(item))
                elif item not in seen:
                    seen.add(item)
                    names.append(item)
        return names

    # -- cleanups ------------------------------------------------------------------------

    def register_cleanup(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) at `cleanup`, in reverse order of registration."""
        if not callable(fn):
            raise TypeError(f"cleanup must be callable, got {type(fn).__name__}")
        self._cleanups.append(fn)

    async def cleanup(self) -> None:
        """Run every cleanup, newest first. Each runs even if an earlier one failed;
        KeyboardInterrupt or SystemExit from one is re-raised after all have run."""
        pending_interrupt: BaseException | None = None
        while self._cleanups:
            fn = self._cleanups.pop()
            try:
                value = fn()
                if isinstance(value, Awaitable):
                    await value
            except (KeyboardInterrupt, SystemExit) as exc:
                pending_interrupt = pending_interrupt or exc
            except Exception as exc:
                logger.error(
                    "cleanup failed",
                    cleanup=getattr(fn, "__qualname__", repr(fn)),
                    error=f"{type(exc).__name__}: {exc}",
                    exc_info=exc,
                )
        self.approvals.close()
        if pending_interrupt is not None:
            raise pending_interrupt

    # -- dispatch --------------------------------------------------------------------------

    async def dispatch(self, event: str, data: Mapping[str, Any] | None = None) -> Outcome:
        """Emit ``event`` and apply its resolution: approvals, then injections, then user
        messages. Returns what the agent should do."""
        self.injector.observe(event)
        resolution = await self.hooks.emit(event, data)
        await self._show(resolution.messages, event)
        common: dict[str, Any] = {
            "data": resolution.data if resolution.data is not None else {},
            "messages": list(resolution.messages),
            "suppress_output": resolution.suppress_output,
            "resolution": resolution,
        }
        if resolution.action == "deny":
            # A deny discards the resolution's injections: the operation does not happen,
            # so context about it would mislead the model.
            return Outcome(
                allowed=False,
                action="deny",
                reason=resolution.reason,
                denied_by=resolution.denied_by,
                **common,
            )
        decisions: list[ApprovalDecision] = []
        if resolution.approvals:
            decisions = await self.approvals.decide_all(resolution.approvals, event, common["data"])
            refused = next((d for d in decisions if not d.allowed), None)
            if refused is not None:
                return Outcome(
                    allowed=False,
                    action="deny",
                    reason=refused.reason or f"approval denied ({refused.via})",
                    denied_by=refused.source,
                    approvals=decisions,
                    **common,
                )
        report = await self.injector.apply(resolution.injections, event)
        return Outcome(
            allowed=True,
            action=resolution.action,
            reason=resolution.reason,
            approvals=decisions,
            injected=list(report.persisted),
            ephemeral=list(report.ephemeral),
            dropped=list(report.dropped),
            **common,
        )

    async def _show(self, messages: list[UserMessage], event: str) -> None:
        for message in messages:
            try:
                shown = self.message_sink(message, event)
                if isinstance(shown, Awaitable):
                    await shown
            except Exception as exc:  # a broken display must not break the agent
                logger.error(
                    "message sink failed",
                    error=f"{type(exc).__name__}: {exc}",
                    source=message.source,
                    hook_event=event,
                )
