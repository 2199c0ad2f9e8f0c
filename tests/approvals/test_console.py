"""The console provider: the panel it prints and the answers it reads."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import time
from collections.abc import Iterator

import pytest
from rich.console import Console

from amplifier_hooks.approvals import ApprovalDismissed, ApprovalGate, ApprovalRequest
from amplifier_hooks.ui.console import ConsoleApprovalProvider

from .conftest import ask

REQUEST = ApprovalRequest(
    prompt="Allow write to production file?",
    options=["Allow once", "Allow always", "Deny"],
    timeout=300,
    event="tool:pre",
    source="production_guard",
    reason="Production file requires explicit approval",
    details={"tool": "write_file", "path": "/srv/production/app.env"},
)


class Pipe:
    """A pipe standing in for the keyboard."""

    def __init__(self) -> None:
        read, self.write_fd = os.pipe()
        self.reader = os.fdopen(read, "r")

    def type(self, text: str) -> None:
        os.write(self.write_fd, text.encode())

    def close_keyboard(self) -> None:
        os.close(self.write_fd)


@pytest.fixture
def pipe() -> Iterator[Pipe]:
    p = Pipe()
    yield p
    p.reader.close()
    with contextlib.suppress(OSError):  # already closed by the test
        os.close(p.write_fd)


LONG = 45.0
"""Seconds before a wait is declared hung: the tests wait for what they expect, and this
only bounds a failure."""


class Output(io.StringIO):
    """The console's output; a test can wait until the provider has asked for an answer
    a given number of times, without polling on a clock."""

    def __init__(self) -> None:
        super().__init__()
        self.written = asyncio.Event()

    def write(self, text: str) -> int:
        self.written.set()
        return super().write(text)

    async def asked(self, times: int = 1) -> None:
        """Wait until "Your answer" has been printed ``times`` times."""

        async def wait() -> None:
            while self.getvalue().count("Your answer") < times:
                self.written.clear()
                await self.written.wait()

        try:
            await asyncio.wait_for(wait(), LONG)
        except TimeoutError:
            raise AssertionError(f"the provider never asked {times} times") from None


def _provider(stream: object, guard: float = 0.0) -> tuple[ConsoleApprovalProvider, Output]:
    out = Output()
    console = Console(file=out, width=90, color_system=None)
    return ConsoleApprovalProvider(console, stream, guard=guard), out  # type: ignore[arg-type]


async def _when_asked(out: Output, times: int = 1) -> None:
    """Wait until the provider has asked for an answer ``times`` times."""
    await out.asked(times)


def test_panel_shows_prompt_details_options_and_the_default() -> None:
    provider, out = _provider(io.StringIO())
    provider.clock = lambda: 1000.0  # the time left is what the test says, however slow
    provider.console.print(provider.render(REQUEST, 1000.0 + 300, waiting=2))
    text = out.getvalue()
    for expected in (
        "Approval required",
        "Allow write to production file?",
        "production_guard",
        "tool:pre",
        "write_file",
        "/srv/production/app.env",
        "Production file requires explicit approval",
        "[1] Allow once (a)",
        "[2] Allow always (l)",
        "[3] Deny (d)",
        "No answer in 5:00: denied (the default).",
        "2 more waiting.",
    ):
        assert expected in text, expected


def test_panel_shows_hostile_text_literally() -> None:
    provider, out = _provider(io.StringIO())
    request = ApprovalRequest(
        prompt="[bold red]Approved already[/] \x1b[2J", details={"command": "ls\x1b]0;x\x07"}
    )
    provider.console.print(provider.render(request, time.monotonic() + 5))
    text = out.getvalue()
    assert "[bold red]Approved already[/] \\x1b[2J" in text
    assert "ls\\x1b]0;x\\x07" in text and "\x1b" not in text


@pytest.mark.parametrize(
    ("typed", "option"), [("3", "Deny"), ("l", "Allow always"), ("allow once", "Allow once")]
)
async def test_reads_a_number_a_letter_or_the_option(pipe: Pipe, typed: str, option: str) -> None:
    provider, out = _provider(pipe.reader)
    task = asyncio.create_task(provider.request_approval(REQUEST))
    await _when_asked(out)
    pipe.type(typed + "\n")
    assert await asyncio.wait_for(task, LONG) == option


async def test_unclear_answers_are_asked_again(pipe: Pipe) -> None:
    provider, out = _provider(pipe.reader)
    task = asyncio.create_task(provider.request_approval(REQUEST))
    await _when_asked(out)
    pipe.type("maybe\n\n")
    await _when_asked(out, times=3)
    pipe.type("d\n")
    assert await asyncio.wait_for(task, LONG) == "Deny"
    assert "Not an option: maybe" in out.getvalue()


async def test_typeahead_before_the_guard_is_discarded(pipe: Pipe) -> None:
    pipe.type("1\n")  # typed before the question appeared: must not approve
    provider, out = _provider(pipe.reader, guard=0.05)
    task = asyncio.create_task(provider.request_approval(REQUEST))
    await _when_asked(out)
    pipe.type("3\n")
    assert await asyncio.wait_for(task, LONG) == "Deny"


async def test_end_of_input_dismisses(pipe: Pipe) -> None:
    provider, out = _provider(pipe.reader)
    task = asyncio.create_task(provider.request_approval(REQUEST))
    await _when_asked(out)
    pipe.close_keyboard()
    with pytest.raises(ApprovalDismissed):
        await asyncio.wait_for(task, LONG)


async def test_plain_text_streams_work_too() -> None:
    provider, _ = _provider(io.StringIO("nope\nDeny\n"))
    assert await provider.request_approval(REQUEST) == "Deny"
    with pytest.raises(ApprovalDismissed):
        await provider.request_approval(REQUEST)


async def test_gate_timeout_cancels_the_read_and_the_next_question_works(pipe: Pipe) -> None:
    provider, out = _provider(pipe.reader)
    gate = ApprovalGate(provider)
    timed_out = await gate.decide(ask(timeout=0.1), "tool:pre", {})
    assert timed_out.via == "timeout" and not timed_out.allowed
    task = asyncio.create_task(gate.decide(ask(), "tool:pre", {}))
    await _when_asked(out, times=2)
    pipe.type("1\n")
    decision = await asyncio.wait_for(task, LONG)
    assert (decision.allowed, decision.choice, decision.via) == (True, "Allow", "person")


async def test_questions_are_asked_one_at_a_time_in_order(pipe: Pipe) -> None:
    provider, out = _provider(pipe.reader)
    first = asyncio.create_task(provider.request_approval(REQUEST))
    second = asyncio.create_task(
        provider.request_approval(REQUEST.model_copy(update={"prompt": "Second question?"}))
    )
    await _when_asked(out)
    assert "Second question?" not in out.getvalue()
    pipe.type("a\n")
    assert await asyncio.wait_for(first, LONG) == "Allow once"
    await _when_asked(out, times=2)
    assert "Second question?" in out.getvalue()
    pipe.type("d\n")
    assert await asyncio.wait_for(second, LONG) == "Deny"
