"""Asking a person through Textual: a provider for a running app, an app for programs
that are not Textual apps themselves, and a one-shot inline prompt for everything else.

Requests are shown one at a time, in arrival order; the screen on top says how many more
are waiting. The provider must be called on the app's event loop (from a worker, or any
task of the program that runs the app), which `run_with_approval_ui` arranges.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Generic, Literal, TypeVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Footer, Header, RichLog, Static

from amplifier_hooks.approvals.models import ApprovalDismissed, ApprovalRequest, clean_text
from amplifier_hooks.logs import get_logger
from amplifier_hooks.ui.approval_screen import ApprovalScreen
from amplifier_hooks.ui.choosing import DEFAULT_GUARD

__all__ = ["ApprovalApp", "ApprovalUIClosed", "TextualApprovalProvider", "run_with_approval_ui"]

logger = get_logger()

T = TypeVar("T")
_Outcome = tuple[Literal["ok"], T] | tuple[Literal["error"], BaseException]
"""How the agent ended: its result, or what it raised (SystemExit included)."""


class ApprovalUIClosed(RuntimeError):
    """The approval app was closed (by the person) before the agent finished."""


class TextualApprovalProvider:
    """Shows each request as an `ApprovalScreen` and returns the option chosen.

    With ``app`` set (or bound later with `bind`) the screen is pushed on that running app.
    Without one, each request runs a small Textual app inline in the terminal, so a plain
    script can still ask a person through Textual.
    """

    via: Literal["person"] = "person"

    def __init__(
        self,
        app: App[Any] | None = None,
        *,
        guard: float = DEFAULT_GUARD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.guard = guard
        self.clock = clock
        """What the screens' countdowns read (a test may drive its own)."""
        self._lock = asyncio.Lock()
        self._waiting = 0
        self._current: ApprovalScreen | None = None

    def bind(self, app: App[Any]) -> None:
        """Show future requests on ``app``."""
        self.app = app

    @property
    def waiting(self) -> int:
        """Requests queued behind the one on screen."""
        return self._waiting

    @property
    def current(self) -> ApprovalScreen | None:
        """The screen being answered right now, if any."""
        return self._current

    def _show_queue(self) -> None:
        if self._current is not None:
            self._current.waiting = self._waiting

    async def request_approval(self, request: ApprovalRequest) -> str:
        """Queue ``request``, show it when its turn comes, return the chosen option."""
        # The countdown runs from arrival, as the gate's timeout does, so the screen
        # never promises more time than the agent will actually wait.
        deadline = self.clock() + request.timeout
        self._waiting += 1
        self._show_queue()
        queued = True
        try:
            async with self._lock:
                self._waiting -= 1
                queued = False
                if self.app is None:
                    return await self._ask_inline(request, deadline)
                return await self._ask_on(self.app, request, deadline)
        finally:
            if queued:
                self._waiting -= 1
                self._show_queue()

    async def _ask_on(self, app: App[Any], request: ApprovalRequest, deadline: float) -> str:
        if not app.is_running:
            raise RuntimeError("the Textual app for approvals is not running")
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        screen = ApprovalScreen(
            request,
            answer=answer,
            waiting=self._waiting,
            guard=self.guard,
            deadline=deadline,
            clock=self.clock,
        )
        self._current = screen
        try:
            app.push_screen(screen)
            return await answer
        finally:
            self._current = None
            if answer.cancelled() or not answer.done():
                # Cancelled (the gate's timeout, or the caller went away; cancelling the
                # task cancels the future it awaits): take the question off the screen so
                # nobody answers a question nobody awaits any more.
                answer.cancel()
                if app.is_running and app.screen is screen:
                    screen.withdraw()

    async def _ask_inline(self, request: ApprovalRequest, deadline: float) -> str:
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        prompt_app = _PromptApp(
            request, answer, guard=self.guard, deadline=deadline, clock=self.clock
        )
        run = asyncio.ensure_future(prompt_app.run_async(inline=True))
        try:
            await asyncio.shield(run)
        except asyncio.CancelledError:
            # Let Textual restore the terminal before the cancellation goes on.
            prompt_app.exit()
            await asyncio.wait([run], timeout=5)
            raise
        if not answer.done():
            raise ApprovalDismissed("the approval prompt closed without an answer")
        return answer.result()


class _PromptApp(App[None]):
    """A one-question app, run inline under the shell prompt."""

    def __init__(
        self,
        request: ApprovalRequest,
        answer: asyncio.Future[str],
        *,
        guard: float,
        deadline: float,
        clock: Callable[[], float],
    ) -> None:
        super().__init__()
        self._screen_args = (request, answer, guard, deadline, clock)

    def on_mount(self) -> None:
        request, answer, guard, deadline, clock = self._screen_args
        screen = ApprovalScreen(request, answer=answer, guard=guard, deadline=deadline, clock=clock)
        self.push_screen(screen, callback=lambda _: self.exit())


class ApprovalApp(App[T], Generic[T]):
    """A Textual app that runs an agent as a worker and asks its approvals on screen.

    ``agent`` receives the app's `TextualApprovalProvider` (give it to an `ApprovalGate`
    or a Coordinator); what it returns becomes `agent_result`.
    """

    TITLE = "amplifier-hooks"
    SUB_TITLE = "approvals"
    CSS = """
    #status { padding: 1 2; color: $text-muted; }
    #history { padding: 0 2; }
    """

    def __init__(
        self,
        agent: Callable[[TextualApprovalProvider], Awaitable[T]] | None = None,
        *,
        guard: float = DEFAULT_GUARD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.provider = TextualApprovalProvider(self, guard=guard, clock=clock)
        self._agent = agent
        self._outcome: _Outcome[T] | None = None
        self._early_notes: list[Text] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("The agent is running. Approval requests appear here.", id="status")
        yield RichLog(id="history", markup=False, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        history = self.query_one("#history", RichLog)
        for line in self._early_notes:
            history.write(line)
        self._early_notes.clear()
        if self._agent is not None:
            self.run_worker(self._run_agent(self._agent), name="agent", exit_on_error=False)

    async def _run_agent(self, agent: Callable[[TextualApprovalProvider], Awaitable[T]]) -> None:
        try:
            result = await agent(self.provider)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            # SystemExit and KeyboardInterrupt too: escaping the worker they would stop the
            # event loop with the terminal still in Textual's hands. `agent_result`
            # re-raises them once the app has closed and the terminal is restored.
            self._outcome = ("error", exc)
        else:
            self._outcome = ("ok", result)
        self.exit()

    def note(self, text: str) -> None:
        """Add a line to the history shown behind the approval screens."""
        line = Text(clean_text(text, 500))
        try:
            self.query_one("#history", RichLog).write(line)
        except NoMatches:
            # Asked (and answered) before the app's own screen was composed.
            self._early_notes.append(line)

    def on_approval_screen_answered(self, message: ApprovalScreen.Answered) -> None:
        request = message.request
        if message.choice is not None:
            outcome = f"answered {message.choice!r}"
        elif message.timed_out:
            outcome = f"timed out ({request.default})"
        else:
            outcome = "closed without an answer"
        self.note(f"{time.strftime('%H:%M:%S')}  {request.source}: {request.prompt} — {outcome}")

    def agent_result(self) -> T:
        """The agent's return value; re-raises its exception; `ApprovalUIClosed` if the
        app was closed before the agent finished."""
        if self._outcome is None:
            raise ApprovalUIClosed("the approval UI was closed before the agent finished")
        if self._outcome[0] == "error":
            raise self._outcome[1]
        return self._outcome[1]


async def run_with_approval_ui(
    agent: Callable[[TextualApprovalProvider], Awaitable[T]],
    *,
    guard: float = DEFAULT_GUARD,
    headless: bool = False,
) -> T:
    """Run ``agent(provider)`` as a worker of an `ApprovalApp` and return its result.

    For programs that are not Textual apps: the terminal shows the app while the agent
    runs, and every approval the agent's gate asks for appears there.
    """
    app: ApprovalApp[T] = ApprovalApp(agent, guard=guard)
    await app.run_async(headless=headless)
    return app.agent_result()
