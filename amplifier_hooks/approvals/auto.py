"""`AutoApprovalProvider`: approval provider ``auto`` -- ask whoever can answer, where they are.

Outside an agent CLI host (the ``run`` replay, a program of its own) ``auto`` is what it
always was: the ``local`` provider its maker chose (the Textual screen on a terminal,
else the policy). Behind a host -- a hook call of Claude Code answered by ``serve`` or
by the per-workspace server of the command hooks -- nobody sits at this process's
terminal, so a question goes, in this order:

1. to a policy rule that matches it, when the bundle wrote ``policy`` rules;
2. to the host's own permission prompt, where the host can show one for this call
   (Claude Code: PreToolUse in an interactive session; not under ``claude -p``; an MCP
   client that takes elicitations, asked by the proxy through `HostAsking.asker`);
3. to the shared queue, when an approver is present: an ``amplifier-hooks approve``
   console (or ``approve --web``) whose heartbeat in this session's store is under
   `PRESENCE_WINDOW` seconds old -- or always, with ``approver: present``;
4. else it is denied, and the reason says how a person can answer next time.

The host's own prompt comes before the queue: the person who started an interactive
session is right there, while an approver's heartbeat says only that someone watches
the store (which a team may share). Remembered answers ("always", from the queue)
apply on every route.

Where the gate runs a question behind a host, the host session says so with
`behind_host` (a context variable: one value per hook call, so concurrent calls of
different sessions never see each other's).
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from amplifier_hooks.approvals.host_prompt import HostApprovalProvider
from amplifier_hooks.approvals.models import ApprovalDismissed, ApprovalProvider, ApprovalRequest
from amplifier_hooks.approvals.policy import PolicyApprovalProvider
from amplifier_hooks.approvals.provider_slot import close_provider
from amplifier_hooks.approvals.queue import GATE_STORE, QueueApprovalProvider
from amplifier_hooks.approvals.store import (
    MEMORY,
    PRESENCE_WINDOW,
    ApprovalBackend,
    ApprovalStoreError,
    default_store_path,
    environment_store,
)
from amplifier_hooks.engine.options import positive_seconds
from amplifier_hooks.logs import get_logger

__all__ = [
    "ApproverSetting",
    "AutoApprovalProvider",
    "HostAsking",
    "Unanswerable",
    "behind_host",
    "current_host",
]

logger = get_logger()

ApproverSetting = Literal["auto", "present", "absent"]
"""Whether an approver watches the queue: ``auto`` reads the heartbeats, ``present`` and
``absent`` say so without looking (``session.approvals.approver``)."""

PRESENCE_BUDGET = 1.0
"""Seconds spent reading the heartbeats before a question is routed; a store that does
not answer in time counts as nobody watching (the question is then denied, not lost)."""


@dataclass(frozen=True)
class HostAsking:
    """What the host of the hook call being answered can do with a question."""

    host: str
    """The host's name, as people know it (``"Claude Code"``)."""
    can_ask: bool
    """The host shows its own permission prompt for this call."""
    why_not: str = ""
    """Why it cannot (said in the deny's reason), when it cannot."""
    asker: ApprovalProvider | None = None
    """Who puts the question to the host's person, where the host asks through us rather
    than through an answer of its own (an MCP client's elicitation); None: the host's
    own permission prompt (`HostApprovalProvider`)."""


_HOST: ContextVar[HostAsking | None] = ContextVar("amplifier_hooks_host_asking", default=None)


def behind_host(asking: HostAsking) -> contextlib.AbstractContextManager[None]:
    """Questions asked inside this block (``with behind_host(...)``) come from a hook call
    of ``asking.host``."""
    return _BehindHost(asking)


class _BehindHost:
    """`behind_host`'s block: a class, not a generator, as every host call enters one."""

    __slots__ = ("asking", "token")

    def __init__(self, asking: HostAsking) -> None:
        self.asking = asking

    def __enter__(self) -> None:
        self.token = _HOST.set(self.asking)

    def __exit__(self, *exc: object) -> None:
        _HOST.reset(self.token)


def current_host() -> HostAsking | None:
    """The host of the hook call being answered; None outside a host."""
    return _HOST.get()


class Unanswerable:
    """Denies a question nobody can answer here, with a reason that says how to answer."""

    via: Literal["policy"] = "policy"
    """No person decided: the ``auto`` rules did."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def request_approval(self, request: ApprovalRequest) -> str:
        raise ApprovalDismissed(self.reason)


class AutoApprovalProvider:
    """Routes each question (see the module docstring). ``local`` answers outside a
    host; ``policy`` (its rules) answers what it matches behind one; ``approver`` and
    ``window`` decide whether an approver is present."""

    via: Literal["person"] = "person"
    """For a gate that does not route: the strictest (questions are rate-limited)."""

    def __init__(
        self,
        local: ApprovalProvider,
        *,
        policy: PolicyApprovalProvider | None = None,
        approver: ApproverSetting = "auto",
        window: float = PRESENCE_WINDOW,
    ) -> None:
        if approver not in ("auto", "present", "absent"):
            raise ValueError(f"approver must be auto, present or absent, got {approver!r}")
        self.local = local
        self.policy = policy
        self.approver: ApproverSetting = approver
        self.window = positive_seconds(window, "window")
        self.queue = QueueApprovalProvider(GATE_STORE)
        self.host_prompt = HostApprovalProvider()
        self.backend: ApprovalBackend | None = None
        """The gate's store: where heartbeats are read and questions queued."""

    def use_gate_store(self, backend: ApprovalBackend) -> None:
        """Called by the gate that installs this provider (see `ProviderSlot`)."""
        self.backend = backend
        # An in-process store has no approver to watch it; the queue provider would warn
        # about that on every session, though it is asked only with `approver: present`.
        if backend.name != MEMORY or self.approver == "present":
            self.queue.use_gate_store(backend)

    async def route(self, request: ApprovalRequest) -> ApprovalProvider:
        """The provider that answers ``request`` (the gate asks this one)."""
        host = current_host()
        if host is None:
            return self.local
        if self.policy is not None and self.policy.decide(request)[1] is not None:
            return self.policy
        if host.can_ask:
            return host.asker or self.host_prompt
        if await self.approver_present():
            return self.queue
        return Unanswerable(self.how_to_answer(host, request))

    async def approver_present(self) -> bool:
        """Whether a question queued now would be seen (see `ApproverSetting`)."""
        if self.approver != "auto":
            return self.approver == "present"
        backend = self.backend
        if backend is None or backend.name == MEMORY:
            return False
        try:
            return bool(await backend.approvers(self.window, budget=PRESENCE_BUDGET))
        except ApprovalStoreError as exc:
            logger.warning("cannot read approver heartbeats", store=backend.name, error=str(exc))
            return False

    def how_to_answer(self, host: HostAsking, request: ApprovalRequest) -> str:
        """The deny's reason: the question, why nobody was asked, and how to answer."""
        store = self.backend.name if self.backend is not None else MEMORY
        nobody = f"{host.host} {host.why_not}" if host.why_not else f"{host.host} cannot ask"
        if store == MEMORY:
            answer = (
                "this session keeps approvals in memory, where no approver can see them: "
                "name a store (session.approvals.store: state) and run "
                "`amplifier-hooks approve` in a terminal to answer questions like this"
            )
        else:
            answer = (
                f"run `{approve_command(store)}` in a terminal to answer questions like this "
                "(then try again)"
            )
        return (
            f"{request.prompt} -- needs a person's answer and nobody could be asked: "
            f"{nobody}, and no approver console is watching the queue. To go on, "
            f"{answer}, or {allow_in_bundle(request)}."
        )

    async def request_approval(self, request: ApprovalRequest) -> str:
        """For callers that do not route first: route, then ask."""
        provider = await self.route(request)
        return await provider.request_approval(request)

    async def aclose(self) -> None:
        for provider in (self.local, self.policy, self.queue):
            if provider is not None:
                await close_provider(provider)


def approve_command(store: str) -> str:
    """``amplifier-hooks approve``, with ``--store`` unless it opens that store anyway."""
    try:
        default = environment_store() or str(default_store_path())
    except ApprovalStoreError:  # a bad $AMPLIFIER_HOOKS_STORE: name the store explicitly
        default = ""
    if store == default:
        return "amplifier-hooks approve"
    return f"amplifier-hooks approve --store {store}"


GUARD_KEY = "guard:"
"""How the key of a question the guard asks begins: ``guard:<rule id>:<call>``."""


def allow_in_bundle(request: ApprovalRequest) -> str:
    """How to let this call through in the bundle: a guard rule is named by its id, to
    put under the guard's ``disable``; another hook's question by its reason."""
    if request.key.startswith(GUARD_KEY):
        rule = request.key[len(GUARD_KEY) :].split(":", 1)[0]
        if rule:
            return f"allow it in the bundle (ah-guard config: `disable: [{rule}]`)"
    why = request.reason or f"asked by {request.source or 'a hook'}"
    return f"allow it in the bundle ({why})"
