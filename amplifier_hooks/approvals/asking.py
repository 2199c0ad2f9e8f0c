"""`Asking`: one question put to a provider in a task of its own, under the request's deadline.

Its own module because the deadline must hold whatever the provider does (raise, hang,
swallow its cancellation): at the deadline the request's default decides, and what the
provider answers later is only audited, as late. The gate (`gate.ApprovalGate`) decides
what to ask and records the answer; this is the asking, and the background work it leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Awaitable, Callable
from typing import Any

from amplifier_hooks.approvals.decisions import (
    ProviderEscape,
    call_provider,
    failed,
    late_answer,
    make_decision,
    provider_failed,
    read_answer,
    timed_out,
)
from amplifier_hooks.approvals.models import (
    ApprovalDecision,
    ApprovalDismissed,
    ApprovalProvider,
    ApprovalRequest,
    ApprovalTimeout,
    Via,
)
from amplifier_hooks.approvals.open_questions import WITHDRAWN, OpenQuestions
from amplifier_hooks.approvals.provider_slot import ProviderSlot
from amplifier_hooks.approvals.store import ApprovalStoreError
from amplifier_hooks.logs import get_logger

__all__ = ["Asking", "Audit"]

logger = get_logger()

Audit = Callable[[ApprovalRequest, ApprovalDecision], Awaitable[ApprovalDecision]]
"""Writes a decision's audit row (the gate's), returning the decision that stands."""


class Asking:
    """Asks providers for one gate: ``providers`` counts each question against the provider
    it is put to, ``questions`` says whether a cancellation is the gate withdrawing it, and
    ``audit`` records what is decided while nobody waits. ``background`` holds that work
    (late answers, audits) until it is done; the gate drains or cancels it as it closes."""

    def __init__(self, providers: ProviderSlot, questions: OpenQuestions, audit: Audit) -> None:
        self._providers = providers
        self._open = questions
        self._audit = audit
        self.background: set[asyncio.Future[Any]] = set()

    async def ask(
        self,
        provider: ApprovalProvider,
        request: ApprovalRequest,
        via: Via,
        answering: ApprovalProvider | None = None,
    ) -> ApprovalDecision:
        """Ask ``answering`` (default: ``provider``, the one installed, whose question
        this counts as) in a task of its own, so that the deadline holds whatever the
        provider does (even swallowing its cancellation): at the deadline the request's
        default decides, and a later answer is only audited, as late."""
        limit = None if math.isinf(request.timeout) else request.timeout
        asking = asyncio.ensure_future(call_provider(answering or provider, request))
        self._providers.track(provider, asking)
        try:
            done, _ = await asyncio.wait({asking}, timeout=limit)
        except asyncio.CancelledError:
            # Our caller is being cancelled: stop asking, record why nothing was decided,
            # then let the cancellation through (it must never be swallowed).
            asking.cancel()
            self._watch_late(asking, request)
            why = failed(request, "cancelled while waiting for approval")
            writing = asyncio.ensure_future(self._audit(request, why))
            self.background.add(writing)
            writing.add_done_callback(self.background.discard)
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(writing)  # a second cancellation stops only the wait
            raise
        if not done:
            asking.cancel()
            self._watch_late(asking, request)
            return timed_out(request)
        try:
            answer = asking.result()
        except ApprovalTimeout:
            return timed_out(request)
        except ApprovalDismissed as exc:
            dismissed = str(exc) or "the question was dismissed without an answer"
            return make_decision(request, False, None, via, reason=dismissed)
        except asyncio.CancelledError:
            if self._open.withdrawing:
                return failed(request, WITHDRAWN)
            return failed(request, "the approval request was cancelled")
        except ApprovalStoreError as exc:  # a queue provider's store: its message names it
            return failed(request, str(exc))
        except ProviderEscape as exc:
            if isinstance(exc.original, KeyboardInterrupt):
                raise exc.original from None
            return provider_failed(request, exc.original)
        except BaseException as exc:  # GeneratorExit and the like fail closed too
            return provider_failed(request, exc)
        return read_answer(request, answer, via)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def _watch_late(self, asking: asyncio.Future[str], request: ApprovalRequest) -> None:
        """Audit whatever the provider still answers after the gate stopped waiting."""

        def finished(task: asyncio.Future[str]) -> None:
            self.background.discard(task)
            if task.cancelled() or task.exception() is not None:
                return
            answer = task.result()
            logger.warning(
                "late approval answer ignored", source=request.source, answer=repr(answer)
            )
            self._spawn(self._audit(request, late_answer(request, answer)))

        if not asking.done():
            self.background.add(asking)
            asking.add_done_callback(finished)
