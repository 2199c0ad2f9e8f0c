"""`ProviderSlot`: the provider a gate asks, and the release of the ones it replaced.

A bundle reload may put another provider in the gate while the old one is still answering
a question. The old one must not be closed under that question, nor left open for ever
(a queue provider can hold a connection pool and a listener). So the slot counts each
provider's unfinished calls, and closes a replaced provider once they are over, or when
the gate closes, whichever comes first.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from amplifier_hooks.approvals.models import ApprovalProvider
from amplifier_hooks.approvals.store import ApprovalBackend
from amplifier_hooks.logs import get_logger

__all__ = ["ProviderSlot", "close_provider"]

logger = get_logger()


async def close_provider(provider: ApprovalProvider) -> None:
    """Release what ``provider`` holds (its ``aclose``, if it has one). A failure is
    logged, never raised: one thing that fails to close must not keep the rest open."""
    closing = getattr(provider, "aclose", None)
    if not callable(closing):
        return
    try:
        await closing()
    except Exception as exc:
        logger.warning("approval provider failed to close", error=repr(exc))


class ProviderSlot:
    """Holds the current provider; closes replaced ones when their questions are over.

    A provider with a ``use_gate_store(backend)`` method is handed ``backend`` (the
    gate's store) when it is installed.
    """

    def __init__(self, backend: ApprovalBackend) -> None:
        self.backend = backend
        self.current: ApprovalProvider | None = None
        self._calls: dict[int, set[asyncio.Future[str]]] = {}
        """Unfinished calls, by id of the provider answering them."""
        self._retired: dict[int, tuple[ApprovalProvider, asyncio.Future[None] | None]] = {}
        """Replaced providers still open, each with the task that will close it (None
        when it was replaced outside a running loop)."""
        self._closing: set[asyncio.Future[None]] = set()

    def install(self, provider: ApprovalProvider | None) -> None:
        """Make ``provider`` the current one; the previous one is retired."""
        previous = self.current
        if provider is previous:
            return
        if provider is not None:
            use_store: Callable[[ApprovalBackend], None] | None = getattr(
                provider, "use_gate_store", None
            )
            if callable(use_store):
                use_store(self.backend)
            again = self._retired.pop(id(provider), None)
            if again is not None and again[1] is not None:
                again[1].cancel()  # installed again before it was closed: it stays open
        self.current = provider
        if previous is not None:
            self._retire(previous)

    def track(self, provider: ApprovalProvider, call: asyncio.Future[str]) -> None:
        """Count ``call`` as unfinished work of ``provider`` until it is done."""
        key = id(provider)
        calls = self._calls.setdefault(key, set())
        calls.add(call)

        def finished(done: asyncio.Future[str]) -> None:
            calls.discard(done)
            if not calls and self._calls.get(key) is calls:
                del self._calls[key]

        call.add_done_callback(finished)

    def withdraw(self) -> None:
        """Cancel every unfinished call, of every provider: the gate is closing, and no
        answer can be applied any more (a queue provider closes its row as withdrawn)."""
        for calls in list(self._calls.values()):
            for call in list(calls):
                call.cancel()

    def _retire(self, provider: ApprovalProvider) -> None:
        closer: asyncio.Future[None] | None = None
        with contextlib.suppress(RuntimeError):  # no running loop: `aclose` closes it
            asyncio.get_running_loop()
            closer = self._start_closer(provider)
        self._retired[id(provider)] = (provider, closer)

    def _start_closer(self, provider: ApprovalProvider) -> asyncio.Future[None]:
        closer = asyncio.ensure_future(self._close_when_idle(provider))
        self._closing.add(closer)
        closer.add_done_callback(self._closing.discard)
        return closer

    async def _close_when_idle(self, provider: ApprovalProvider) -> None:
        while calls := self._calls.get(id(provider)):
            await asyncio.wait(set(calls))
        entry = self._retired.get(id(provider))
        if entry is None or entry[0] is not provider:
            return
        del self._retired[id(provider)]
        await close_provider(provider)

    async def wait_retired(self) -> None:
        """Wait until every replaced provider has finished its calls and been closed."""
        while self._retired or self._closing:
            for key, (provider, closer) in list(self._retired.items()):
                if closer is None:
                    self._retired[key] = (provider, self._start_closer(provider))
            await asyncio.gather(*self._closing, return_exceptions=True)

    async def aclose(self) -> None:
        """Close every provider held: replaced ones (without waiting for their calls any
        longer), then the current one."""
        retired, self._retired = list(self._retired.values()), {}
        for provider, closer in retired:
            if closer is not None:
                closer.cancel()
            await close_provider(provider)
        # Closers that were already closing their provider: let them finish.
        await asyncio.gather(*self._closing, return_exceptions=True)
        if self.current is not None:
            await close_provider(self.current)
