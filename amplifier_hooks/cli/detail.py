"""What the replay app's detail pane shows for one event."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from amplifier_hooks.approvals.models import clean_text
from amplifier_hooks.cli.report import LEVEL_STYLE, OUTCOME_STYLE
from amplifier_hooks.cli.steps import Step
from amplifier_hooks.cli.words import plural

__all__ = ["render_detail"]


def render_detail(step: Step) -> RenderableType:
    """The detail pane for one step: what happened and which handler did what."""
    parts: list[RenderableType] = []
    head = Table.grid(padding=(0, 1))
    head.add_column(style="bold", no_wrap=True, min_width=8)
    head.add_column(overflow="fold")
    head.add_row("Event", Text(f"#{step.index} {step.event} (trace line {step.line})"))
    head.add_row("Call", Text(clean_text(step.summary, 300, middle=True)))
    head.add_row("Outcome", Text(step.outcome_text, style=OUTCOME_STYLE[step.outcome]))
    if step.by:
        head.add_row("By", Text(", ".join(step.by), style="magenta"))
    if step.reason:
        head.add_row("Reason", Text(clean_text(step.reason, 500)))
    if step.note:
        head.add_row("Replay", Text(step.note))
    parts.append(head)

    def section(title: str, lines: list[Text]) -> None:
        if lines:
            parts.append(Text(f"\n{title}", style="bold underline"))
            parts.extend(lines)

    section(
        "Approvals",
        [
            Text(
                f"{a.source}: {clean_text(a.prompt, 300, newlines=True)}\n  → "
                f"{a.choice or ('allowed' if a.allowed else 'denied')} via {a.via}"
                + (" (remembered)" if a.remembered else ""),
                style="green" if a.allowed else "red",
            )
            for a in step.approvals
        ],
    )
    section("Changed", [Text(f"{c.path}: {c.after}", style="cyan") for c in step.changes])
    section(
        "Injected context",
        [
            Text(
                f"[{i.role}, {'ephemeral' if i.ephemeral else 'persisted'}, "
                f"{plural(i.tokens, 'token')}, "
                f"from {i.source}]\n{clean_text(i.text, 2000, newlines=True)}",
                style="blue",
            )
            for i in step.injected
        ],
    )
    section(
        "Dropped",
        [
            Text(f"{d.source}: {d.reason} ({plural(d.bytes, 'byte')})", style="yellow")
            for d in step.dropped
        ],
    )
    section(
        "Messages",
        [
            Text(
                f"{m.level} [{m.source}] {clean_text(m.text, 500)}",
                style=LEVEL_STYLE.get(m.level, ""),
            )
            for m in step.messages
        ],
    )
    if step.handlers:
        handlers = Table(title="Handlers", title_justify="left", box=None, padding=(0, 1))
        for column in ("handler", "prio", "action", "ms"):
            handlers.add_column(column, justify="right" if column in ("prio", "ms") else "left")
        for run in step.handlers:
            action = run.action if run.failure is None else f"{run.action} ({run.failure})"
            handlers.add_row(
                Text(run.handler),
                str(run.priority),
                Text(action, style="red" if run.failure else ""),
                f"{run.ms:.2f}",
            )
        parts.append(Text(""))
        parts.append(handlers)
    return Group(*parts)
