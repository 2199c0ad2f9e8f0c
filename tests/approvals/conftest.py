"""Helpers for the approval tests: ask_user factories (scripted providers are in
`amplifier_hooks.testing`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from amplifier_hooks.engine.resolution import ApprovalAsk


def ask(
    prompt: str = "Run the command?",
    options: list[str] | None = None,
    *,
    source: str = "guard",
    timeout: float = 30.0,
    default: str = "deny",
    data: dict[str, Any] | None = None,
    reason: str | None = None,
) -> ApprovalAsk:
    return ApprovalAsk(
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
def make_ask() -> Callable[..., ApprovalAsk]:
    return ask
