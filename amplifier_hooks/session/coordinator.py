"""`Coordinator`: the one object an agent runtime holds.

It owns the registry, the channels, the injector, the approval gate, capabilities and
cleanups, and `dispatch` applies every part of a resolution in one place, in one order:
emit -> approvals -> injections -> user messages. Observers (`add_observer`) see the final
outcome of every dispatch, whatever the decision, and of the approval events the gate sends
(they take the same path; see `Coordinator._announce_approval`).

This module holds construction and dispatch. The coordinator is composed of parts it owns,
each in a module named after it: `.observers` (`Observers`), `.cleanups` (`Cleanups`),
`.capabilities` (`Capabilities`) and `.mount_points` (`MountPoints` for the runtime's
objects, `SharedAttributes` for modules); its methods of those names hand over to them.
`amplifier_hooks.session.outcome` is the `Outcome` record. `from_bundle` asks the bundle
loader through `amplifier_hooks.engine.slots.bundle_builder`: the coordinator is below the
loader, which builds coordinators, and never imports it.
"""

from __future__ import annotations

import contextvars
import uuid
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from amplifier_hooks.approvals import (
    ApprovalDecision,
    ApprovalDeferral,
    ApprovalGate,
    ApprovalProvider,
)
from amplifier_hooks.approvals.redact import SCRUB_CAPABILITY
from amplifier_hooks.approvals.store import StoreTarget
from amplifier_hooks.engine.channels import OBSERVABILITY_EVENTS, ContributionChannels, Contributor
from amplifier_hooks.engine.registry import HookRegistry
from amplifier_hooks.engine.reply import Reply
from amplifier_hooks.engine.resolution import UserMessage
from amplifier_hooks.engine.slots import bundle_builder
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.events import SESSION_START, STANDARD_EVENTS, is_valid_event_name
from amplifier_hooks.injection import ContextInjector, ContextSink
from amplifier_hooks.logs import get_logger
from amplifier_hooks.session.capabilities import Capabilities
from amplifier_hooks.session.cleanups import Cleanup, Cleanups
from amplifier_hooks.session.mount_points import MountPoints, SharedAttributes
from amplifier_hooks.session.observers import DEFAULT_OBSERVER_TIMEOUT, Observer, Observers
from amplifier_hooks.session.outcome import Outcome

__all__ = ["Coordinator"]

logger = get_logger()

MessageSink = Callable[[UserMessage, str], Any]
"""Shows a user message to the person: called with the message and the event; may be async."""

APPROVAL_EVENT_ASK = "an approval event cannot ask for approval (it would start another one)"
"""The deny reason when a handler of approval:* returns ask_user."""

# The coordinator and event whose handlers are running in this context (see `dispatching`).
_dispatching: contextvars.ContextVar[tuple[Coordinator, str] | None] = contextvars.ContextVar(
    "amplifier_hooks_dispatching", default=None
)


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
        approval_store: StoreTarget = ":memory:",
        injector: ContextInjector | None = None,
        context_sink: ContextSink | None = None,
        registry: HookRegistry | None = None,
        message_sink: MessageSink | None = None,
        channels: ContributionChannels | None = None,
        approval_gate: ApprovalGate | None = None,
        session_id: str | None = None,
        parent_id: str | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> None:
        self.hooks = registry if registry is not None else HookRegistry()
        if session_id is not None and (not isinstance(session_id, str) or not session_id):
            raise ValueError(f"session_id must be a non-empty string, got {session_id!r}")
        self.session_id: str = session_id or str(uuid.uuid4())
        """Identifies this session in every event (stamped unless the emitter gives one)."""
        self.parent_id: str | None = parent_id
        """The session that spawned this one, if any (stamped on every event too)."""
        self.config: dict[str, Any] = dict(config or {})
        """The session's configuration as a mount plan (``session``, ``hooks``, and the
        sections for other kinds of module), for modules that read it."""
        # Stamped under every emit's data; an emitter's own session_id or parent_id wins.
        self.hooks.set_default_fields(session_id=self.session_id, parent_id=self.parent_id)
        self.mount_points_registry = MountPoints(self.hooks)
        self.channels = channels if channels is not None else ContributionChannels()
        self.injector = injector if injector is not None else ContextInjector()
        if context_sink is not None:
            self.injector.sink = context_sink
        self.approvals = (
            approval_gate
            if approval_gate is not None
            else ApprovalGate(approval_provider, approval_store, registry=self.hooks)
        )
        # What the approval path stores and shows is scrubbed as the event log is.
        self.approvals.scrubber = lambda: self.capabilities.get(SCRUB_CAPABILITY)
        if self.approvals.announce is None and self.approvals.registry is self.hooks:
            # One event path: approval events reach handlers and observers through dispatch.
            self.approvals.announce = self._announce_approval
        self.message_sink: MessageSink = message_sink or log_message
        self.capabilities = Capabilities()
        self.cleanups = Cleanups()
        self.observers = Observers()
        self._shared = SharedAttributes(self)
        self._shared.seal()  # everything set so far is the coordinator's own

    @classmethod
    async def from_bundle(
        cls, bundle: object, *, strict: bool | None = None, **kwargs: Any
    ) -> Coordinator:
        """A coordinator with every module of ``bundle`` (a `Bundle`, or the path of a
        bundle file) mounted: see `amplifier_hooks.bundles.build_coordinator`."""
        coordinator = await bundle_builder.get()(bundle, strict=strict, factory=cls, **kwargs)
        if not isinstance(coordinator, cls):
            raise TypeError(f"{bundle_builder.name} returned {type(coordinator).__name__}")
        return coordinator

    # -- the parts' methods ----------------------------------------------------------------

    def register_capability(self, name: str, value: Any) -> Callable[[], None]:
        """See `Capabilities.register`."""
        return self.capabilities.register(name, value)

    def get_capability(self, name: str, default: Any = None) -> Any:
        """See `Capabilities.get`."""
        return self.capabilities.get(name, default)

    def register_cleanup(self, fn: Cleanup) -> None:
        """Run ``fn`` (sync or async) at `cleanup`, in reverse order of registration."""
        self.cleanups.register(fn)

    async def cleanup(self) -> None:
        """Run every cleanup, newest first (`Cleanups.run`), then close the approval gate."""
        try:
            await self.cleanups.run()
        finally:
            await self.approvals.aclose()

    def add_observer(
        self, callback: Observer, *, timeout: float | None = DEFAULT_OBSERVER_TIMEOUT
    ) -> Callable[[], None]:
        """See `Observers.add`: ``callback(event, outcome)`` after every `dispatch`."""
        return self.observers.add(callback, timeout=timeout)

    @property
    def mount_points(self) -> dict[str, Any]:
        """Mount point -> what is mounted there (see `get`)."""
        return self.mount_points_registry.as_dict()

    def get(self, mount_point: str, name: str | None = None) -> Any:
        """What is mounted at ``mount_point`` (`MountPoints.get`): ``hooks`` is the
        registry; the others hold what the agent runtime mounted."""
        return self.mount_points_registry.get(mount_point, name)

    def mount(self, mount_point: str, obj: Any, name: str | None = None) -> None:
        """For the agent runtime: make ``obj`` visible to modules at ``mount_point``."""
        self.mount_points_registry.mount(mount_point, obj, name)

    def unmount(self, mount_point: str, name: str | None = None) -> None:
        """Take what `mount` put at ``mount_point`` out again."""
        self.mount_points_registry.unmount(mount_point, name)

    def set_shared(self, name: str, value: Any) -> None:
        """Set an attribute every module of this session sees (`SharedAttributes.set`);
        the coordinator's own attributes and methods cannot be replaced (AttributeError)."""
        self._shared.set(name, value)

    def delete_shared(self, name: str) -> None:
        """Remove an attribute set with `set_shared`."""
        self._shared.delete(name)

    @property
    def shared(self) -> dict[str, Any]:
        """The attributes the session's modules set on the coordinator, by name."""
        return self._shared.as_dict()

    # -- channels --------------------------------------------------------------------------

    def register_contributor(
        self, channel: str, name: str, callback: Contributor, *, timeout: float | None = None
    ) -> Callable[[], None]:
        """See `ContributionChannels.register_contributor`."""
        return self.channels.register_contributor(channel, name, callback, timeout=timeout)

    async def collect_contributions(self, channel: str) -> list[Any]:
        """See `ContributionChannels.collect_contributions`."""
        return await self.channels.collect_contributions(channel)

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

    # -- dispatch --------------------------------------------------------------------------

    def dispatching(self) -> str | None:
        """The event whose handlers this coordinator's `dispatch` is running in the current
        context, else None (also during a direct ``hooks.emit`` not nested in a dispatch).

        A handler that also observes outcomes uses it to tell a dispatched event, which its
        observer will see, from one emitted directly, which only the handler sees.
        """
        current = _dispatching.get()
        return current[1] if current is not None and current[0] is self else None

    async def dispatch(self, event: str, data: Mapping[str, Any] | None = None) -> Outcome:
        """Emit ``event`` and apply its resolution: approvals, then injections, then user
        messages; then tell the observers. Returns what the agent should do."""
        return await (await self.reply(event, data)).finish()

    async def reply(self, event: str, data: Mapping[str, Any] | None = None) -> Reply[Outcome]:
        """`dispatch`, with the observers told in the reply's background (`Reply.finish`;
        it never raises but for cancellation). A hook server answers its host in between,
        so the observers' work -- an event log scrubbing and writing its record -- is not
        on the path of the answer the agent waits for. The approval events sent meanwhile
        are observed as they happen, as in `dispatch`."""
        return self._reply(event, await self._apply(event, data, True))

    def _reply(self, event: str, outcome: Outcome) -> Reply[Outcome]:
        async def observe() -> None:
            if self.observers:  # those present when the reply finishes
                await self.observers.notify(event, outcome)

        return Reply(outcome, observe)

    async def _announce_approval(self, event: str, data: dict[str, Any]) -> None:
        """The gate's approval:* events, dispatched like any other event except that an
        ask_user among their results is not asked: asking would start another approval
        (and another approval:required, without end). It fails closed instead: the
        outcome observers see is a deny. The gate ignores the outcome either way."""
        await self._reply(event, await self._apply(event, data, False)).finish()

    async def _apply(self, event: str, data: Mapping[str, Any] | None, may_ask: bool) -> Outcome:
        self.injector.observe(event)
        if self.approvals.deferred and data is not None:
            # The host reports on a call it asked its person about: that completes the
            # question's record.
            await self.approvals.host_reported(event, data)
        if event == SESSION_START and data is not None:
            # The session says where the agent works: "always" answers are scoped to that
            # directory, not to wherever this process runs (a replay, a hook server).
            workspace = data.get("workspace")
            if isinstance(workspace, str) and workspace:
                self.approvals.workspace = workspace
        token = _dispatching.set((self, event))
        try:
            resolution = await self.hooks.emit(event, data)
        finally:
            _dispatching.reset(token)
        final = resolution.data if resolution.data is not None else {}
        messages = resolution.messages
        if messages:
            await self._show(messages, event)
        messages = list(messages)  # the outcome's own list
        suppress = resolution.suppress_output
        if resolution.action == "deny":
            # A deny discards the resolution's injections: the operation does not happen,
            # so context about it would mislead the model.
            return Outcome(
                allowed=False,
                action="deny",
                data=final,
                reason=resolution.reason,
                denied_by=resolution.denied_by,
                messages=messages,
                suppress_output=suppress,
                resolution=resolution,
            )
        decisions: list[ApprovalDecision] = []
        if resolution.approvals and not may_ask:
            asker = resolution.approvals[0].source
            logger.warning("ask_user on an approval event denied", hook_event=event, source=asker)
            return Outcome(
                allowed=False,
                action="deny",
                data=final,
                reason=APPROVAL_EVENT_ASK,
                denied_by=asker,
                messages=messages,
                suppress_output=suppress,
                resolution=resolution,
            )
        if resolution.approvals:
            answers = await self.approvals.decide_all(resolution.approvals, event, final)
            last = answers[-1]
            if isinstance(last, ApprovalDeferral):
                return Outcome(
                    allowed=False,
                    action="ask_user",
                    data=final,
                    reason=last.reason,
                    approvals=[a for a in answers if isinstance(a, ApprovalDecision)],
                    messages=messages,
                    suppress_output=suppress,
                    resolution=resolution,
                    deferred=last,
                )
            decisions = [a for a in answers if isinstance(a, ApprovalDecision)]
            refused = next((d for d in decisions if not d.allowed), None)
            if refused is not None:
                return Outcome(
                    allowed=False,
                    action="deny",
                    data=final,
                    reason=refused.reason or f"approval denied ({refused.via})",
                    denied_by=refused.source,
                    approvals=decisions,
                    messages=messages,
                    suppress_output=suppress,
                    resolution=resolution,
                )
        report = await self.injector.apply(resolution.injections, event)
        # Every dispatch ends here; the report, made for this dispatch alone, hands over
        # its lists without copies.
        return Outcome(
            allowed=True,
            action=resolution.action,
            data=final,
            reason=resolution.reason,
            approvals=decisions,
            injected=report.persisted,
            ephemeral=report.ephemeral,
            dropped=report.dropped,
            messages=messages,
            suppress_output=suppress,
            resolution=resolution,
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
                    error=describe_exception(exc),
                    source=message.source,
                    hook_event=event,
                )
