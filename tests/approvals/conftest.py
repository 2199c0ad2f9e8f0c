"""Helpers for the approval tests: scripted providers and ask_user factories."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from amplifier_hooks.approvals import ApprovalRequest
from amplifier_hooks.resolver import AskUser


class ScriptedProvider:
    """Answers from a script: each item is an answer, an exception to raise, or a callable
    run with the request (it may await). Records every request it was asked."""

    def __init__(self, *answers: object, via: str = "person") -> None:
        self.answers = list(answers)
        self.asked: list[ApprovalRequest] = []
        self.via = via

    async def request_approval(self, request: ApprovalRequest) -> str:
        self.asked.append(request)
        answer = self.answers.pop(0) if self.answers else AssertionError("asked too often")
        if callable(answer) and not isinstance(answer, type):
            answer = answer(request)
            if asyncio.iscoroutine(answer):
                answer = await answer
        if isinstance(answer, BaseException):
            raise answer
        return answer  # type: ignore[return-value]  # tests script non-str answers too


def ask(
    prompt: str = "Run the command?",
    options: list[str] | None = None,
    *,
    source: str = "guard",
    timeout: float = 30.0,
    default: str = "deny",
    data: dict[str, Any] | None = None,
    reason: str | None = None,
) -> AskUser:
    return AskUser(
        source=source,
        prompt=prompt,
        options=options or ["Allow", "Deny"],
        timeout=timeout,
        default=default,  # type: ignore[arg-type]
        reason=reason,
        data=data,
    )


TOOL_DATA: dict[str, Any] = {"tool_name": "bash", "tool_input": {"command": "make deploy"}}


@pytest.fixture
def make_ask() -> Callable[..., AskUser]:
    return ask
