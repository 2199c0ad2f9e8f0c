"""Render the approval screen headless and save it as docs/approval-screen.svg.

    .venv/bin/python scripts/screenshot_approval.py [output.svg]

The screen is the real `ApprovalScreen`, driven by Textual's test pilot: an agent asks
three approvals at once through an `ApprovalGate`, and the first one is captured with the
other two counted as waiting. Nothing is drawn by hand.

The output is the same on every run (tests/test_screenshot.py regenerates it and compares
it with the committed file): the countdown reads a clock that stands still, and the
id Textual derives for the SVG's styles is replaced by a fixed one.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from pathlib import Path

from amplifier_hooks.approvals import ApprovalGate
from amplifier_hooks.engine.resolution import ApprovalAsk
from amplifier_hooks.ui.approval_app import ApprovalApp, TextualApprovalProvider

OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "approval-screen.svg"
SIZE = (80, 24)
"""A default terminal: what fits here fits anywhere."""
WORKSPACE = "/home/ada/src/shop"
"""Where the agent works, as the screen names it (not the checkout the script runs in)."""
CLOCK = 1000.0
"""What the countdowns read: a clock that never moves, so the screen says 5:00 left."""
SVG_ID = re.compile(r"terminal-\d+")
"""The id Textual gives an exported screenshot (a hash that changes from run to run)."""

ASKS = [
    (
        ApprovalAsk(
            source="production_guard",
            prompt="Allow write to production file: /srv/production/app.env?",
            options=["Allow once", "Allow always", "Deny"],
            timeout=300.0,
            default="deny",
            reason="Production file requires explicit user approval",
        ),
        {
            "tool_name": "write_file",
            "tool_input": {"file_path": "/srv/production/app.env", "content": "DEBUG=0\n"},
        },
    ),
    (
        ApprovalAsk(
            source="shell_guard",
            prompt="Run rm -rf build?",
            options=["Allow", "Deny"],
            timeout=300.0,
            default="deny",
        ),
        {"tool_name": "bash", "tool_input": {"command": "rm -rf build"}},
    ),
    (
        ApprovalAsk(
            source="net_guard",
            prompt="Fetch https://example.org?",
            options=["Allow", "Deny"],
            timeout=300.0,
            default="deny",
        ),
        {"tool_name": "web_fetch", "tool_input": {"url": "https://example.org"}},
    ),
]


async def capture() -> str:
    async def agent(provider: TextualApprovalProvider) -> None:
        gate = ApprovalGate(provider, workspace=WORKSPACE)
        await asyncio.gather(*(gate.decide(ask, "tool:pre", data) for ask, data in ASKS))

    app: ApprovalApp[None] = ApprovalApp(agent, guard=0.0, clock=lambda: CLOCK)
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + 10
        while not (
            app.provider.current is not None
            and app.provider.current.armed
            and app.provider.waiting == len(ASKS) - 1
            and app.screen is app.provider.current
        ):
            if time.monotonic() > deadline:
                raise RuntimeError("the approval screen did not appear")
            await pilot.pause(0.02)
        # Some widgets (the footer's key list) fill in a moment later: capture until two
        # frames in a row agree, so the file does not change from run to run.
        svg = ""
        for _ in range(50):
            await pilot.pause(0.05)
            frame = app.export_screenshot(title="amplifier-hooks: approval required")
            if frame == svg:
                break
            svg = frame
        app.exit()
    return normalise(svg)


def normalise(svg: str) -> str:
    """``svg`` with Textual's per-run id made fixed."""
    return SVG_ID.sub("terminal-approval", svg)


def main() -> None:
    """Write the screenshot to the path given, or to docs/approval-screen.svg."""
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else OUTPUT
    svg = asyncio.run(capture())
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(svg, encoding="utf-8")
    print(f"wrote {output}")


if __name__ == "__main__":
    main()
