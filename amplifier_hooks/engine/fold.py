"""The fold: handler outcomes in, one `Resolution` out.

Precedence is deny > ask_user > inject_context > modify > continue. The fold is pure — no
I/O, no asyncio — so it can be tested exhaustively on plain values. `HookRegistry.emit`
drives the same `Fold` one outcome at a time (see `calling.call_in_order`), because the
fold decides what the next handler sees (the data after every modify) and whether it runs
at all (not after a deny). `collection.Collection` is the fold of ``emit_and_collect``;
what one handler's call produced is `outcome.HandlerOutcome`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from amplifier_hooks.engine.outcome import HandlerOutcome, failure_reason
from amplifier_hooks.engine.resolution import (
    RESOLUTION_DEFAULTS,
    ApprovalAsk,
    Grant,
    Injection,
    Resolution,
    UserMessage,
    continue_resolution,
)
from amplifier_hooks.engine.result import Action, HookResult, Level
from amplifier_hooks.engine.shortcut import construct, fields
from amplifier_hooks.engine.trace import Ran, TraceEntry, TraceItem, recorded

__all__ = ["Fold", "HandlerOutcome", "failure_reason", "resolve"]

# The fold's rank of each action (precedence), as `_ACTIONS_BY_RANK` lists them.
_MODIFY, _INJECT, _ASK, _DENY = 1, 2, 3, 4


def is_empty_continue(result: HookResult) -> bool:
    """Whether folding ``result`` only adds a trace entry: a continue with nothing to say
    and nothing granted."""
    return (
        result.action == "continue"
        and result.user_message is None
        and not result.suppress_output
        and not result.grant
    )


class Fold:
    """The fold's running state, fed one handler at a time.

    Every rule of the fold lives here: what goes into the trace, which data the next
    handler sees (`data`: replaced whole by each modify), and when the chain ends (`done`:
    after a deny). `resolve` feeds it a list; the registry's emit feeds it each handler's
    outcome as the handler returns, so it can hand `data` to the next handler and stop at
    a deny. Results are taken as valid (a `HookResult` checks itself when it is made; the
    registry validates the ones that skipped that).
    """

    __slots__ = (
        "data",
        "done",
        "_rank",
        "_reason",
        "_denied_by",
        "_injections",
        "_approvals",
        "_first_ask",
        "_messages",
        "_granted",
        "trace",
        "handlers",
        "_suppress",
        "_borrowed",
    )

    def __init__(self, data: dict[str, Any], handlers: Sequence[Ran]) -> None:
        self.data = data
        """The data the next handler gets (a copy of)."""
        self.handlers = handlers
        """The handlers in the order they run (the emit's handler entries, or the outcomes
        `resolve` folds): an item of `trace` is just what the handler did, and the
        resolution's `Trace` makes its entry, with this handler's name and priority, when
        it is read."""
        self.done = False
        """True once a deny has ended the chain: no further handler runs."""
        self.trace: list[TraceItem] = []
        """One item per handler so far: the duration of a call that returned None or a
        empty continue (appended by `call_in_order` too), an ``(action, duration)`` pair
        for another result, or the whole `TraceEntry` of a failure."""
        self._rank = 0
        self._suppress = False
        # `data` is a modify result's own dict: copied once, for the resolution, so the
        # agent never shares a dict with a handler (which may keep and reuse it).
        self._borrowed = False
        # Made when first needed: most emits have none of these, and a Fold is made per emit.
        self._injections: list[Injection] | None = None
        self._approvals: list[ApprovalAsk] | None = None
        self._messages: list[UserMessage] | None = None
        self._first_ask: HookResult | None = None
        self._reason: str | None = None
        self._denied_by: str | None = None
        self._granted: Grant | None = None

    def passed(self, duration: float, result: HookResult | None) -> None:
        """Fold in a handler that returned None or an empty continue (`is_empty_continue`):
        a trace entry only (made when read: see `handlers`)."""
        self.trace.append(duration)

    def add(self, outcome: HandlerOutcome) -> None:
        """Fold in one handler's outcome. Ignored once a deny has ended the fold."""
        if self.done:
            return
        name, priority, result, failure, error, duration, fail_closed = outcome
        if failure is not None:
            action: Action = "continue"
            if fail_closed:
                action = "deny"
                self._deny(name, failure_reason(outcome))
            self.trace.append(TraceEntry(name, priority, action, failure, duration, error))
            return
        if result is None:
            self.passed(duration, result)
        else:
            self.returned(outcome, result, duration)

    def returned(self, ran: Ran, result: HookResult, duration: float) -> bool:
        """Fold in the result of a handler (``ran``: its name and priority): `add` for a
        success, minus the `HandlerOutcome` (the registry's emit calls this directly for
        validated results). True if it was an empty continue (`is_empty_continue`): it
        only added a trace entry.

        Once per modifying or injecting handler per emit: the fields are read from the
        model's field dict (`shortcut.fields`), and the common actions come first.
        """
        values = result.__dict__  # `shortcut.fields`, inlined: once per result per emit
        action = values["action"]
        self.trace.append((action, duration))  # its entry is made when read
        if values["user_message"] is not None or values["suppress_output"]:
            self._tell(values, ran.name)
        elif action == "continue" and not values["grant"]:
            return True
        name = ran.name
        if values["grant"] and self._granted is None:
            self._granted = Grant(name, values["reason"])
        if action == "inject_context":
            if self._rank < _INJECT:
                self._rank = _INJECT
            # `_inject`, inlined: once per injecting handler per emit.
            injection = _tuple_new(
                Injection,
                (  # text, source, role, ephemeral, append_to_last_tool_result, approval
                    values["context_injection"],
                    name,
                    values["context_injection_role"],
                    values["ephemeral"],
                    values["append_to_last_tool_result"],
                    None,
                ),
            )
            if self._injections is None:
                self._injections = [injection]
            else:
                self._injections.append(injection)
            if "extra_injections" in values:
                self._inject_extras(values["extra_injections"], name, None)
        elif action == "modify":
            if self._rank < _MODIFY:
                self._rank = _MODIFY
            # Never None: guaranteed by HookResult validation.
            self.data = values["data"]
            self._borrowed = True
        elif action == "ask_user":
            if self._rank < _ASK:
                self._rank = _ASK
            self._ask(result, name)
        elif action == "deny":
            self._deny(name, result.reason or f"denied by hook handler {name!r}")
        return False

    def _tell(self, values: dict[str, Any], name: str) -> None:
        """Keep the user message and the output suppression of a result's field dict."""
        message = values["user_message"]
        if message is not None:
            if self._messages is None:
                self._messages = []
            self._messages.append(
                UserMessage(
                    message, values["user_message_source"] or name, values["user_message_level"]
                )
            )
        if values["suppress_output"]:
            self._suppress = True

    def _ask(self, result: HookResult, name: str) -> None:
        """Keep an ask_user result, and the injection that rides on its approval."""
        if self._first_ask is None:
            self._first_ask = result
        if self._approvals is None:
            self._approvals = []
        self._approvals.append(
            construct(
                ApprovalAsk,
                {
                    "source": name,
                    "prompt": result.approval_prompt or result.reason or "Allow this operation?",
                    "options": result.options,
                    "timeout": result.approval_timeout,
                    "default": result.approval_default,
                    "reason": result.reason,
                    "data": result.data,
                },
            )
        )
        if result.context_injection:
            self._inject(fields(result), name, len(self._approvals) - 1)

    def _deny(self, name: str, reason: str) -> None:
        self._rank = _DENY
        self._reason = reason
        self._denied_by = name
        self.done = True

    def _inject(self, values: dict[str, Any], source: str, approval: int | None) -> None:
        """Keep the injection(s) of a result whose field dict is ``values``."""
        injections = self._injections
        if injections is None:
            injections = self._injections = []
        # Built without validation: every value comes from a validated HookResult.
        injections.append(
            _tuple_new(
                Injection,
                (  # text, source, role, ephemeral, append_to_last_tool_result, approval
                    values["context_injection"],
                    source,
                    values["context_injection_role"],
                    values["ephemeral"],
                    values["append_to_last_tool_result"],
                    approval,
                ),
            )
        )
        if "extra_injections" in values:
            self._inject_extras(values["extra_injections"], source, approval)

    def _inject_extras(self, extras: Iterable[Any], source: str, approval: int | None) -> None:
        # A result mapped from the reference's 2.x shape may carry several injections;
        # each is kept with its own role and flags, in order, after its first.
        assert self._injections is not None
        for extra in extras:
            self._injections.append(
                Injection(
                    text=extra.text,
                    source=source,
                    role=extra.role,
                    ephemeral=extra.ephemeral,
                    append_to_last_tool_result=extra.append_to_last_tool_result,
                    approval=approval,
                )
            )

    def resolution(self) -> Resolution:
        """The `Resolution` of everything folded so far."""
        data = dict(self.data) if self._borrowed else self.data
        trace = recorded(self.trace, self.handlers)
        if not (self._rank or self._suppress or self._messages or self._granted):
            # Every handler returned None or an empty continue, or failed without failing
            # closed: the common case, whose fields are all defaults but these two.
            return continue_resolution(data, trace)
        # Built straight into the model's field dict: this runs once per emit.
        values = RESOLUTION_DEFAULTS.copy()
        values["data"] = data
        values["trace"] = trace
        injections = self._injections
        messages = self._messages
        values["injections"] = injections if injections is not None else []
        values["approvals"] = self._approvals if self._approvals is not None else []
        values["messages"] = messages if messages is not None else []
        if self._rank:
            values["action"] = _ACTIONS_BY_RANK[self._rank]
            values["reason"] = self._reason
            values["denied_by"] = self._denied_by
        if self._suppress:
            values["suppress_output"] = True
        if self._granted is not None and self._rank < _ASK:
            # A grant allows only what nobody in the same emit denied or asked about.
            values["granted"] = self._granted
            values["grant"] = True
        if injections:
            values["context_injection"] = "\n\n".join([i[0] for i in injections])
            first = injections[0]
            values["context_injection_role"] = first.role
            values["ephemeral"] = first.ephemeral
        ask = self._first_ask
        if ask is not None:
            approval = values["approvals"][0]
            values["approval_prompt"] = approval.prompt
            values["approval_options"] = approval.options
            values["approval_timeout"] = ask.approval_timeout
            values["approval_default"] = ask.approval_default
        if messages:
            # The single-message fields mirror the most severe message for spec-style
            # callers; `messages` keeps every one of them.
            top = max(messages, key=lambda m: _LEVELS.index(m.level))
            values["user_message"] = top.text
            values["user_message_level"] = top.level
            values["user_message_source"] = top.source
        return construct(Resolution, values)


# Builds an `Injection` without its Python-level ``__new__``, on the hot path (once per
# injecting handler per emit), where the constructor with keywords costs more than the
# rest of the handler's fold (``python -m benchmarks.compare`` shows it). The fields go
# in their declared order.
_tuple_new = tuple.__new__

_ACTIONS_BY_RANK: tuple[Action, ...] = ("continue", "modify", "inject_context", "ask_user", "deny")
_LEVELS: tuple[Level, ...] = ("info", "warning", "error")


def resolve(data: dict[str, Any], outcomes: Iterable[HandlerOutcome]) -> Resolution:
    """Fold handler outcomes, in the order the handlers ran, into one `Resolution`.

    Outcomes after a deny are ignored: in a real emit those handlers never run.
    """
    ran: list[HandlerOutcome] = []  # the trace reads each handler's name from its outcome
    fold = Fold(data, ran)
    for outcome in outcomes:  # taken one by one: none is asked for after a deny
        ran.append(outcome)
        fold.add(outcome)
        if fold.done:
            break
    return fold.resolution()
