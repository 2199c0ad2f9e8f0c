"""`HostSessions`: one coordinator per host session, so module state lasts the session.

An agent CLI calls its hooks once per event, each call a separate process or request.
What a module remembers between events (the progress monitor's streak, answers given
"for this session") lives in a coordinator, so each host ``session_id`` gets one, built
from the bundle on its first call and closed on SessionEnd or after ``idle_timeout``
seconds without a call. Whatever fails inside, a guarding event gets the adapter's
fail-closed answer, never an allow.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amplifier_hooks import events
from amplifier_hooks.approvals.auto import behind_host
from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.engine.registry import HookRegistry
from amplifier_hooks.engine.reply import Reply
from amplifier_hooks.engine.tasks import describe_exception
from amplifier_hooks.hosts.asking import ENTRYPOINT_ENV, host_asking, read_entrypoint
from amplifier_hooks.hosts.base import (
    HostAdapter,
    HostAnswer,
    HostCall,
    HostInputError,
    refuse_payload,
)
from amplifier_hooks.hosts.claude_code import CLAUDE_CODE
from amplifier_hooks.logs import get_logger
from amplifier_hooks.session.coordinator import Coordinator

__all__ = [
    "DEFAULT_IDLE_TIMEOUT",
    "DEFAULT_MAX_SESSIONS",
    "HostDelivers",
    "HostSessions",
    "SessionsFull",
    "answer_in_process",
]

logger = get_logger()

DEFAULT_IDLE_TIMEOUT = 1800.0
"""Seconds without a call after which a session's coordinator is closed."""

DEFAULT_MAX_SESSIONS = 1000
"""Sessions open at once; at the cap the one idle longest is closed for a new one
(docs/security.md): what bounds a server's memory (docs/performance.md, the load
benchmark)."""

SWEEP_EVERY = 30.0
"""Most seconds between two sweeps for idle sessions made by calls (a sweep looks at
every session, so it is not made on every call)."""


class SessionsFull(Exception):
    """Every open session has a call in progress and the cap is reached."""


class HostDelivers:
    """The context sink of a host session: injections go back to the host in the
    answer (``additionalContext``), not into a conversation of ours."""

    def add_message(self, message: dict[str, Any]) -> None:
        return None


@dataclass(slots=True)
class _Session:
    coordinator: Coordinator
    session_id: str
    last_used: float
    busy: int = 0


class HostSessions:
    """Coordinators by host session id (see the module docstring).

    ``coordinator_kwargs`` go to `Coordinator.from_bundle` for every session (an
    ``approval_provider``, an ``approval_store``...); ``session_id`` is always the host's.
    ``clock`` is the monotonic clock idle times are measured with. ``plain_handlers``: where
    every session calls its modules' plain handlers (`amplifier_hooks.engine.offload`), so
    one that blocks holds up no other session; None: on the event loop.
    """

    def __init__(
        self,
        bundle: Bundle | str | os.PathLike[str],
        *,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
        plain_handlers: Executor | None = None,
        **coordinator_kwargs: Any,
    ) -> None:
        if not idle_timeout > 0:
            raise ValueError(
                f"idle_timeout must be a positive number of seconds, got {idle_timeout!r}"
            )
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions!r}")
        self.max_sessions = max_sessions
        self._next_sweep = clock()
        self.bundle: Bundle = bundle if isinstance(bundle, Bundle) else load_bundle(bundle)
        self.idle_timeout = idle_timeout
        self.clock = clock
        self._kwargs = {"context_sink": HostDelivers(), **coordinator_kwargs}
        self._plain_handlers = plain_handlers
        # Ordered by last use, the one idle longest first: every change of a session's
        # ``last_used`` moves it to the end (`_touch`), and the clock never goes back, so
        # at the cap the session to close is found from the front without a list of all.
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        self._opening: dict[str, asyncio.Future[_Session]] = {}
        self._closed = False
        self.opened = 0  # sessions opened and closed so far (what a collector paces on)
        self.closed = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def session_ids(self) -> list[str]:
        """The sessions open now."""
        return list(self._sessions)

    def coordinator(self, session_id: str) -> Coordinator | None:
        """The coordinator of an open session (for tests and diagnostics)."""
        session = self._sessions.get(session_id)
        return None if session is None else session.coordinator

    async def answer(
        self, adapter: HostAdapter, payload: object, *, entrypoint: str | None = None
    ) -> HostAnswer:
        """Parse ``payload``, dispatch it through its session's coordinator, and map the
        outcome back. Never raises (except the caller's own cancellation): a failure is
        the adapter's fail-closed answer. ``entrypoint`` is how the host was started
        (Claude Code's ``$CLAUDE_CODE_ENTRYPOINT``): whether a person is at its prompt."""
        return await (await self.reply(adapter, payload, entrypoint=entrypoint)).finish()

    async def reply(
        self, adapter: HostAdapter, payload: object, *, entrypoint: str | None = None
    ) -> Reply[HostAnswer]:
        """`answer`, with what is left once the host has it in the reply's background:
        the session's observers (the event log's record) are told when it finishes, so a
        server sends the answer first (`Coordinator.reply`). Finish it once, whatever
        happens to the answer: until then the session counts as busy. It never raises but
        for cancellation. A session's last event (SessionEnd) is finished before it is
        answered: a host that exits on its answer leaves a complete log behind."""
        try:
            call = adapter.parse(payload)
        except HostInputError as exc:
            return Reply(refuse_payload(adapter, payload, f"malformed hook input: {exc}"))
        except Exception as exc:
            logger.error(
                "host input parse failed", host=adapter.name, error=describe_exception(exc)
            )
            return Reply(adapter.refuse(None, f"internal error: {describe_exception(exc)}", True))
        try:
            return await self._reply(adapter, call, read_entrypoint(entrypoint))
        except asyncio.CancelledError:
            raise
        except SessionsFull as exc:
            return Reply(adapter.refuse(call, str(exc), call.guarding))
        except Exception as exc:
            logger.error(
                "host call failed",
                host=adapter.name,
                host_event=call.host_event,
                session_id=call.session_id,
                error=describe_exception(exc),
                exc_info=True,
            )
            try:
                answer = adapter.refuse(
                    call, f"internal error: {describe_exception(exc)}", call.guarding
                )
            except Exception:
                answer = HostAnswer(
                    None, exit_code=2, stderr=f"internal error: {describe_exception(exc)}"
                )
            return Reply(answer)

    async def _reply(
        self, adapter: HostAdapter, call: HostCall, entrypoint: str | None
    ) -> Reply[HostAnswer]:
        if self._closed:
            raise RuntimeError("these host sessions are closed")
        if self.clock() >= self._next_sweep:
            await self.expire_idle()
        session = await self._session(call)
        session.busy += 1
        try:
            # Provider auto asks the host, the queue or nobody (approvals.auto).
            with behind_host(host_asking(adapter, call, entrypoint)):
                dispatched = await session.coordinator.reply(call.event, call.data)
        except BaseException:
            self._release(session)
            raise
        observed = dispatched.then(lambda: self._after(session, call))
        try:
            answer = adapter.answer(call, observed.answer)
        except BaseException:
            await observed.finish()  # the observers still see the outcome, as `dispatch` shows it
            raise
        for note in answer.notes:  # what the host could not be told is not dropped unseen
            logger.warning("host answer differs", host=call.host, event=call.host_event, note=note)
        replied = observed.with_answer(answer)
        if call.event == events.SESSION_END:
            await replied.finish()
        return replied

    async def _after(self, session: _Session, call: HostCall) -> None:
        """Once the observers are told: release the session and, after SessionEnd, close
        it."""
        self._release(session)
        if call.event == events.SESSION_END:
            await self.close_session(call.session_id)

    def _release(self, session: _Session) -> None:
        session.busy -= 1
        self._touch(session)

    def _touch(self, session: _Session) -> None:
        session.last_used = self.clock()
        if self._sessions.get(session.session_id) is session:  # not closed meanwhile
            self._sessions.move_to_end(session.session_id)

    async def _session(self, call: HostCall) -> _Session:
        session_id = call.session_id
        session = self._sessions.get(session_id)
        if session is not None:
            session.last_used = self.clock()
            self._sessions.move_to_end(session_id)
            return session
        opening = self._opening.get(session_id)
        if opening is None:
            # The first call of a session builds its coordinator; concurrent calls of the
            # same session wait for that one instead of building their own.
            opening = asyncio.ensure_future(self._open(call))
            self._opening[session_id] = opening
            opening.add_done_callback(lambda _: self._opening.pop(session_id, None))
        return await asyncio.shield(opening)

    async def _open(self, call: HostCall) -> _Session:
        session_id = call.session_id
        await self._make_room()
        kwargs = self._kwargs
        if self._plain_handlers is not None:
            kwargs = {"registry": HookRegistry(plain_handlers=self._plain_handlers), **kwargs}
        coordinator = await Coordinator.from_bundle(self.bundle, session_id=session_id, **kwargs)
        if call.event != events.SESSION_START:
            # The host's SessionStart was not wired, or came before this coordinator (one
            # closed when idle): the coordinator and modules that learn the session at its
            # start (the workspace, a log's first record) still see one, so nothing is
            # judged by the directory this server runs in. Its outcome decides nothing.
            await coordinator.dispatch(
                events.SESSION_START,
                {
                    "workspace": call.workspace,
                    "host": {"name": call.host, "event": None, "opened_by": call.host_event},
                },
            )
        session = _Session(coordinator, session_id, self.clock())
        self._sessions[session_id] = session  # the newest, so last in the order of use
        self.opened += 1
        logger.info("host session opened", session_id=session_id)
        return session

    async def _make_room(self) -> None:
        """At the cap, close the session idle longest; `SessionsFull` if none is idle."""
        while len(self._sessions) + len(self._opening) > self.max_sessions:
            oldest = self._idle_longest()
            if oldest is None:
                raise SessionsFull(
                    f"the hook server has its {self.max_sessions} sessions open, each with a "
                    "call in progress; a new session cannot start until one ends "
                    "(amplifier-hooks serve --max-sessions)"
                )
            logger.warning("session cap reached: closing the one idle longest", session_id=oldest)
            await self.close_session(oldest)

    def _idle_longest(self) -> str | None:
        """The id of the session without a call in progress used longest ago (of two
        used at the same time, the smaller id), or None if every one is busy. The order
        of use puts it first but for the busy ones before it, which were used recently
        unless their calls are long; an open therefore looks at a few sessions, not all."""
        found: _Session | None = None
        for session in self._sessions.values():
            if session.busy:
                continue
            if found is None:
                found = session
            elif session.last_used > found.last_used:
                break  # every later one was used later still
            elif session.session_id < found.session_id:
                found = session
        return None if found is None else found.session_id

    async def close_session(self, session_id: str) -> bool:
        """Close one session's coordinator (its modules' cleanups run); False if it was
        not open."""
        session = self._sessions.pop(session_id, None)
        if session is None:
            return False
        self.closed += 1
        try:
            await session.coordinator.cleanup()
        except Exception as exc:  # cleanup runs every step itself; this is belt and braces
            logger.error(
                "host session cleanup failed", session_id=session_id, error=describe_exception(exc)
            )
        logger.info("host session closed", session_id=session_id)
        return True

    async def expire_idle(self) -> list[str]:
        """Close every session idle for ``idle_timeout`` or longer (none with a call in
        progress); the ids closed. Called by a call when the last sweep is `SWEEP_EVERY`
        seconds (or half the idle timeout) old, and by a server's timer."""
        now = self.clock()
        self._next_sweep = now + min(SWEEP_EVERY, self.idle_timeout / 2)
        idle: list[str] = []
        for sid, s in self._sessions.items():
            if now - s.last_used < self.idle_timeout:
                break  # in the order of use: every later one was used later still
            if s.busy == 0:
                idle.append(sid)
        for sid in idle:
            await self.close_session(sid)
        return idle

    async def aclose(self) -> None:
        """Close every session; later calls get the fail-closed answer."""
        self._closed = True
        for opening in list(self._opening.values()):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await opening
        for sid in list(self._sessions):
            await self.close_session(sid)

    async def __aenter__(self) -> HostSessions:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


async def answer_in_process(
    bundle: Bundle | str | os.PathLike[str] | Path,
    payload: object,
    adapter: HostAdapter | None = None,
    **coordinator_kwargs: Any,
) -> HostAnswer:
    """Answer one hook call with a coordinator of its own (module state does not last
    beyond the call; the host's entrypoint is this process's). A bundle that cannot be
    loaded is the fail-closed answer."""
    if adapter is None:
        return await answer_in_process(bundle, payload, CLAUDE_CODE, **coordinator_kwargs)
    try:
        sessions = HostSessions(bundle, **coordinator_kwargs)
    except Exception as exc:
        return refuse_payload(
            adapter, payload, f"cannot load the bundle: {describe_exception(exc)}"
        )
    async with sessions:
        return await sessions.answer(adapter, payload, entrypoint=os.environ.get(ENTRYPOINT_ENV))
