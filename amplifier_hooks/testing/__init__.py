"""Test helpers for hooks, modules and runtimes built on amplifier-hooks.

One public place for what a test suite otherwise writes again in every file:

- `ScriptedApprovalProvider` answers approval requests from a script (answers, exceptions
  to raise, functions of the request, or `NO_ANSWER`) and records every request.
- `EventRecorder` records what handlers were called with and the outcome observers saw.
- `RecordingSink` is a context sink that keeps the persisted injection messages.
- `returns(result)` is a handler that always returns ``result``.
- `capture_logs()` collects the library's log records as dicts, whatever the host set up.
- `make_coordinator(...)` builds a `Harness`: a coordinator with an in-memory approval store,
  wired to all of the above (the fixture factory: wrap it in a ``@pytest.fixture``).

`amplifier_hooks.testing.servers` stops the per-workspace hook servers an agent CLI's
command hooks started (`stop_hook_servers`), so none outlives a test.

Submodules drive a real agent CLI (they need aiohttp, so they load only when imported):

- `amplifier_hooks.testing.turns`: `Turn`, `Text`, `ToolUse`, `CustomToolCall` -- what a
  scripted model says, the same for every API stand-in -- and `load_script` for script files.
- `amplifier_hooks.testing.messages_api`: `ScriptedModel`, a scripted stand-in for the
  Anthropic Messages API on loopback that records what reached the model.
- `amplifier_hooks.testing.responses_api`: `ScriptedResponses`, the same for the OpenAI
  Responses API (Codex, GitHub Copilot CLI).
- `amplifier_hooks.testing.gemini_api`: `ScriptedGemini`, the same for the Gemini API
  (Gemini CLI).
- `amplifier_hooks.testing.chat_completions`: `ScriptedChat`, the same for the OpenAI Chat
  Completions API (OpenCode, Cline, OpenClaw).
- `amplifier_hooks.testing.claude_code`: `ClaudeCode`, the real Claude Code CLI in a sandbox
  (own project dir and HOME) talking to a `ScriptedModel`; likewise
  `amplifier_hooks.testing.gemini_cli.GeminiCli` (Gemini CLI and a `ScriptedGemini`) and
  `amplifier_hooks.testing.copilot_cli.CopilotCli` (Copilot CLI and a `ScriptedResponses`).

Each stand-in also runs from the command line on a script file: ``python -m
amplifier_hooks.testing.responses_api --script FILE --port N`` (likewise ``gemini_api``,
``chat_completions``, ``messages_api``).

Nothing here imports pytest, and nothing here is used by the library itself.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from amplifier_hooks.approvals.models import ApprovalRequest
from amplifier_hooks.engine.resolution import UserMessage
from amplifier_hooks.engine.result import HookResult
from amplifier_hooks.logs import LOGGER_NAME, restored
from amplifier_hooks.session.coordinator import Coordinator
from amplifier_hooks.session.outcome import Outcome

__all__ = [
    "NO_ANSWER",
    "EventRecorder",
    "Harness",
    "RecordedCall",
    "RecordingSink",
    "ScriptedApprovalProvider",
    "capture_logs",
    "make_coordinator",
    "returns",
]


class _NoAnswer:
    def __repr__(self) -> str:
        return "NO_ANSWER"


NO_ANSWER: Final = _NoAnswer()
"""A script item (or ``then``) for a person who never answers: only the gate's deadline
ends the question."""

ScriptItem = str | BaseException | _NoAnswer | Callable[[ApprovalRequest], Any]
"""An answer; an exception to raise; `NO_ANSWER`; or a function of the request returning
one of those (it may be async)."""


class ScriptedApprovalProvider:
    """An approval provider that answers from a script and records every request.

    Each request takes the next item of ``answers``. When the script is used up, ``then``
    answers every further request; without ``then`` the provider raises `AssertionError`
    (which the gate turns into a deny), so a test notices a question it did not expect.
    ``via="policy"`` makes the gate treat the answers as a policy's, not a person's.
    """

    def __init__(
        self, *answers: ScriptItem, then: ScriptItem | None = None, via: str = "person"
    ) -> None:
        self.answers: list[ScriptItem] = list(answers)
        self.then = then
        self.via = via
        self.asked: list[ApprovalRequest] = []
        """Every request, in the order asked."""

    @classmethod
    def always(cls, answer: ScriptItem, *, via: str = "person") -> ScriptedApprovalProvider:
        """A provider that gives ``answer`` to every request."""
        return cls(then=answer, via=via)

    @property
    def prompts(self) -> list[str]:
        """The prompt of every request, in the order asked."""
        return [request.prompt for request in self.asked]

    async def request_approval(self, request: ApprovalRequest) -> str:
        self.asked.append(request)
        if self.answers:
            item: Any = self.answers.pop(0)
        elif self.then is not None:
            item = self.then
        else:
            item = AssertionError(f"approval asked more often than scripted: {request.prompt!r}")
        if callable(item) and not isinstance(item, type | BaseException | _NoAnswer):
            item = item(request)
            if inspect.isawaitable(item):
                item = await item
        if isinstance(item, _NoAnswer):
            await asyncio.Event().wait()  # never set: the gate's deadline decides
        if isinstance(item, BaseException):
            raise item
        return item  # type: ignore[no-any-return]  # a test may script a wrong type on purpose


@dataclass(frozen=True)
class RecordedCall:
    """One handler call: the event and a copy of the data the handler was given."""

    event: str
    data: dict[str, Any]
    handler: str


class EventRecorder:
    """Records handler calls (`handler`) and dispatch outcomes (`observe`, an observer)."""

    def __init__(self) -> None:
        self.calls: list[RecordedCall] = []
        self.outcomes: list[tuple[str, Outcome]] = []

    @property
    def events(self) -> list[str]:
        """The event of every observed outcome, in order."""
        return [event for event, _ in self.outcomes]

    def outcome(self, event: str) -> Outcome:
        """The last outcome observed for ``event`` (`LookupError` if there was none)."""
        for seen, outcome in reversed(self.outcomes):
            if seen == event:
                found: Outcome = outcome
                return found
        raise LookupError(f"no outcome observed for {event!r}; observed: {self.events}")

    def observe(self, event: str, outcome: Outcome) -> None:
        """An observer for `Coordinator.add_observer`."""
        self.outcomes.append((event, outcome))

    def handler(
        self, result: HookResult | None = None, *, name: str = "recorder"
    ) -> Callable[[str, dict[str, Any]], Awaitable[HookResult | None]]:
        """A handler that records each call and returns ``result``."""

        async def record(event: str, data: dict[str, Any]) -> HookResult | None:
            self.calls.append(RecordedCall(event, dict(data), name))
            return result

        record.__name__ = record.__qualname__ = name
        return record

    def attach(
        self, coordinator: Coordinator, *events: str, priority: int = 0
    ) -> Callable[[], None]:
        """Observe ``coordinator``'s outcomes, and record calls of ``events`` (a handler at
        ``priority`` for each). Returns one function that undoes all of it."""
        undo = [coordinator.add_observer(self.observe)]
        undo += [
            coordinator.hooks.register(event, self.handler(), priority, "recorder")
            for event in events
        ]

        def detach() -> None:
            for step in undo:
                step()

        return detach


class RecordingSink:
    """A context sink that keeps every persisted injection message."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def add_message(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    @property
    def contents(self) -> list[str]:
        return [str(message.get("content")) for message in self.messages]


def returns(result: HookResult | None) -> Callable[[str, dict[str, Any]], Any]:
    """A handler that always returns ``result`` (None: continue)."""

    async def handler(event: str, data: dict[str, Any]) -> HookResult | None:
        return result

    return handler


@dataclass
class Harness:
    """A coordinator for a test, and what it recorded."""

    coordinator: Coordinator
    approvals: ScriptedApprovalProvider | None
    recorder: EventRecorder
    sink: RecordingSink
    shown: list[tuple[str, UserMessage]] = field(default_factory=list)
    """User messages the coordinator showed, with their event."""

    async def dispatch(self, event: str, data: dict[str, Any] | None = None) -> Outcome:
        return await self.coordinator.dispatch(event, data)


def make_coordinator(
    answers: Iterable[ScriptItem] | ScriptedApprovalProvider | None = None,
    **coordinator_kwargs: Any,
) -> Harness:
    """A `Harness` around a new `Coordinator` (keyword arguments pass through).

    ``answers`` scripts a `ScriptedApprovalProvider` (or is one); None leaves the
    coordinator without a provider, so every ask_user is denied. The approval store is
    in memory unless ``approval_store`` says otherwise. An `EventRecorder` observes every
    outcome; a `RecordingSink` takes persisted injections; shown user messages are kept.
    """
    if answers is None or isinstance(answers, ScriptedApprovalProvider):
        provider = answers
    else:
        provider = ScriptedApprovalProvider(*answers)
    sink = RecordingSink()
    shown: list[tuple[str, UserMessage]] = []
    coordinator_kwargs.setdefault("approval_store", ":memory:")
    if "injector" not in coordinator_kwargs:  # an injector given keeps its own sink
        coordinator_kwargs.setdefault("context_sink", sink)
    coordinator_kwargs.setdefault(
        "message_sink", lambda message, event: shown.append((event, message))
    )
    coordinator = Coordinator(approval_provider=provider, **coordinator_kwargs)
    recorder = EventRecorder()
    coordinator.add_observer(recorder.observe)
    return Harness(coordinator, provider, recorder, sink, shown)


class _Collect(logging.Handler):
    def __init__(self, into: list[dict[str, Any]]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        fields = getattr(record, "structlog", None)
        entry = dict(fields) if isinstance(fields, dict) else {"event": record.getMessage()}
        entry["log_level"] = record.levelname.lower()
        self.into.append(entry)


@contextmanager
def capture_logs() -> Iterator[list[dict[str, Any]]]:
    """The library's log records in the block, as dicts (``event``, ``log_level``, fields).

    Every level is captured, and nothing reaches the host's handlers meanwhile.
    """
    captured: list[dict[str, Any]] = []
    with restored():
        library = logging.getLogger(LOGGER_NAME)
        library.handlers = [_Collect(captured)]
        library.setLevel(logging.DEBUG)
        library.propagate = False
        yield captured
