"""The ``test`` command: what a bundle would decide about one tool call, running nothing.

``amplifier-hooks test BUNDLE -- COMMAND...`` judges a shell command; ``--tool read
--path P`` a file tool; ``--payload FILE`` a hook input as an agent CLI posts it. The
bundle's ``tool:pre`` handlers decide (`amplifier_hooks.cli.probe`); when the bundle has a
guard that explains itself (capability ``guard.explain``), each piece of the command is
shown with its decision, rule and reason.

Exit codes tell the decision: 0 allow (a grant: the host skips its own prompt), 3 ask,
4 deny, 5 no opinion (the call goes on to the host, which decides); 2 is bad input, as
everywhere.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from amplifier_hooks import events
from amplifier_hooks.bundles import Bundle, load_bundle
from amplifier_hooks.cli.arguments import add_bundle_argument
from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.cli.probe import Judged, Probe, ToolCall, event_data
from amplifier_hooks.cli.report import make_console, write_json
from amplifier_hooks.cli.screen import Screen
from amplifier_hooks.hosts import HostAdapter, host_commands
from amplifier_hooks.hosts.base import HostInputError, decode_input
from amplifier_hooks.tool_names import canonical_tool
from amplifier_hooks.toolcalls import clean_text

__all__ = ["EXIT_CODES", "TestInputError", "add_parser", "judge", "run", "tool_call"]

EXIT_CODES = {"allow": 0, "ask": 3, "deny": 4, "no opinion": 5}
"""The exit code of each decision (2 stays "bad input"); no opinion has its own, so a
script never reads it as a grant."""

_SHORT = {"read": "read_file", "write": "write_file", "edit": "edit_file", "shell": "bash"}
_FILE_TOOLS = ("read_file", "write_file", "edit_file", "multi_edit", "notebook_edit")
# The input field the words after `--` fill, per tool.
_TEXT_FIELD = {
    "bash": "command",
    "write_file": "content",
    "edit_file": "new_string",
    "grep": "pattern",
    "glob": "pattern",
    "web_fetch": "url",
    "web_search": "query",
}
_STYLE = {"deny": "bold red", "ask": "bold yellow", "allow": "bold green", "no opinion": "bold"}
SHOWN_LIMIT = 400
"""Characters of a command, piece or reason shown (the middle of a longer one is cut)."""


EMPTY_WARNING = (
    "bundle {name} has no module: nothing guards this call; no opinion, so the host decides alone"
)


class TestInputError(ValueError):
    """A call that cannot be built from the command line or a payload file."""


_BY_EVENT = {"BeforeTool": "gemini", "before_tool_call": "openclaw"}
"""The host a payload is read as when --host is not given, by its event name."""


def _adapters() -> dict[str, HostAdapter]:
    return host_commands()


def _host_of(payload: object) -> str:
    """Whose hook input ``payload`` looks like, when ``--host`` does not say."""
    if not isinstance(payload, dict):
        return "claude-code"
    event = payload.get("hook_event_name")
    if isinstance(event, str) and event in _BY_EVENT:
        return _BY_EVENT[event]
    if isinstance(event, str) and event.startswith("tool.execute."):
        return "opencode"
    if "preToolUse" in payload or payload.get("hookName") == "tool_call":
        return "cline"
    if "toolName" in payload and "toolArgs" in payload:
        return "copilot"
    return "claude-code"


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``test`` to the CLI; its parser."""
    test = add_command(
        commands,
        common,
        "test",
        "Judge one tool call with BUNDLE's tool:pre hooks, as an agent CLI host "
        "would send it, and run nothing: a shell command (the words after --, joined by "
        "spaces), a file tool (--tool read --path P) or a host's hook input (--payload). "
        "Prints the decision and, when the bundle has a guard, each piece of the command "
        "with its rule and reason. Exit code: 0 allow (a grant), 3 ask, 4 deny, 5 no opinion "
        "(the host decides) (2: bad input).",
    )
    add_bundle_argument(test)
    test.add_argument("words", nargs="*", metavar="COMMAND", help="the command, after --")
    test.add_argument(
        "--tool",
        default=None,
        help="tool: bash (default), read, write, edit, grep, glob, web_fetch..., or the "
        "host's name (Read, Write...)",
    )
    test.add_argument("--path", metavar="P", help="the file tool's path")
    test.add_argument(
        "--payload",
        metavar="FILE",
        help="a PreToolUse/BeforeTool/preToolUse hook input (JSON) as the host sends it, or "
        "what the OpenCode or OpenClaw plugin sends ('-': stdin)",
    )
    test.add_argument(
        "--host",
        choices=sorted(_adapters()),
        default=None,
        help="whose payload it is (default: gemini for BeforeTool, openclaw for "
        "before_tool_call, opencode for tool.execute.before, cline for its PreToolUse "
        "input, copilot for toolName and toolArgs, else claude-code)",
    )
    test.add_argument("--cwd", metavar="DIR", help="the agent's workspace (default: here)")
    test.add_argument("--json", action="store_true", help="print JSON")
    test.add_argument(
        "--no-server",
        action="store_true",
        help="judge in this process, slower to start (by default the background server for "
        "BUNDLE in this folder judges, as for the command hooks; started if none runs)",
    )
    return test


def _canonical(tool: str) -> str:
    """Our name for ``tool``: a short name, or any host's (`tool_names`)."""
    return canonical_tool(_SHORT.get(tool, tool))


def tool_call(
    tool: str | None, path: str | None, words: list[str], cwd: str, home: str
) -> ToolCall:
    """The call the command line describes; `TestInputError` when it describes none."""
    canonical = _canonical(tool or "bash")
    text = " ".join(words)
    tool_input: dict[str, Any] = {}
    if path is not None:
        tool_input["file_path" if canonical in _FILE_TOOLS else "path"] = path
    if text:
        field = _TEXT_FIELD.get(canonical)
        if field is None:
            raise TestInputError(f"--tool {tool}: takes no words after --, only --path")
        tool_input[field] = text
    if canonical == "bash" and not text:
        raise TestInputError("no command to judge: give one after --, or --tool and --path")
    if canonical in _FILE_TOOLS and path is None:
        raise TestInputError(f"--tool {tool}: needs --path")
    return ToolCall(canonical, tool_input, cwd, home)


def _payload_data(path: str, host: str | None) -> tuple[dict[str, Any], str | None]:
    raw = os.read(0, 1 << 26) if path == "-" else Path(path).read_bytes()
    payload = decode_input(raw)
    host = host or _host_of(payload)
    if host == "copilot" and isinstance(payload, dict) and "hook_event_name" not in payload:
        # Copilot's input names no event (its hook command passes --event): it is a tool call.
        payload = {**payload, "hook_event_name": "preToolUse"}
    call = _adapters()[host].parse(payload)
    if call.event != events.TOOL_PRE:
        raise TestInputError(
            f"{path}: a {call.host_event} input; test judges tool calls (PreToolUse, BeforeTool, "
            "preToolUse, tool.execute.before, before_tool_call)"
        )
    return call.data, call.workspace


def run(args: argparse.Namespace, out: IO[str], loaded: Callable[[], None] | None = None) -> int:
    """Judge the call ``args`` describe and print the decision; the exit code. ``loaded``
    is called once the bundle is mounted (the CLI turns its logs back on then: a bundle
    that fails to load is one clean error, not a log line and then the error)."""
    return asyncio.run(judge(args, out, loaded))


async def judge(
    args: argparse.Namespace,
    out: IO[str],
    loaded: Callable[[], None] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    screen: Screen | None = None,
) -> int:
    """`run` on a running event loop. ``environ`` and ``screen`` are the caller's when the
    workspace's server judges for a ``test`` process (`amplifier_hooks.cli.served_trial`):
    its environment, for the bundle's ``${VAR}`` and ``~``, and its terminal."""
    data, cwd, home = _call_of(args, os.environ if environ is None else environ)
    bundle = load_bundle(args.bundle, environ=environ)
    judged = await _judge(bundle, data, cwd, home, loaded)
    code = EXIT_CODES[judged.said]
    warning = None if bundle.hooks else EMPTY_WARNING.format(name=bundle.name)
    if args.json:
        write_json(out, {**_as_json(bundle.name, data, judged, code), "warning": warning})
    else:
        console = make_console(out, screen)
        _print(console, bundle.name, data, judged)
        if warning is not None:
            console.print(Text(f"warning: {warning}", style="bold yellow"))
    return code


def _call_of(args: argparse.Namespace, env: Mapping[str, str]) -> tuple[dict[str, Any], str, str]:
    """The ``tool:pre`` data of the call ``args`` describe, its workspace and home."""
    home = env.get("HOME") or str(Path.home())
    cwd = os.path.abspath(args.cwd or os.getcwd())
    try:
        if args.payload is not None:
            if args.words or args.tool or args.path:
                raise TestInputError("--payload is the whole call: no command, --tool or --path")
            data, workspace = _payload_data(args.payload, args.host)
            cwd = args.cwd or workspace or cwd
        else:
            data = event_data(tool_call(args.tool, args.path, args.words, cwd, home))
    except (TestInputError, HostInputError, OSError) as exc:
        raise TestInputError(str(exc)) from None
    return data, cwd, home


async def _judge(
    bundle: Bundle,
    data: dict[str, Any],
    cwd: str,
    home: str,
    loaded: Callable[[], None] | None,
) -> Judged:
    async with Probe(bundle) as probe:
        await probe.open(cwd, home)
        if loaded is not None:
            loaded()
        return await probe.judge_data(data, cwd, home)


def _as_json(bundle: str, data: dict[str, Any], judged: Judged, code: int) -> dict[str, Any]:
    return {
        "bundle": bundle,
        "tool": data.get("tool_name"),
        "input": {k: v for k, v in (data.get("tool_input") or {}).items()},
        "workspace": data.get("workspace"),
        "decision": judged.said,
        "granted": judged.granted,
        "by": judged.by,
        "rule": judged.rule,
        "reason": judged.reason,
        "pieces": [asdict(piece) for piece in judged.pieces],
        "exit_code": code,
    }


def _shown(value: object) -> str:
    """Untrusted text made safe to print: control characters escaped (a command may hold
    escape sequences that would repaint the terminal), cut in the middle when long."""
    return clean_text(str(value), SHOWN_LIMIT, middle=True)


def _print(console: Console, bundle: str, data: dict[str, Any], judged: Judged) -> None:
    tool_input = data.get("tool_input") or {}
    what = tool_input.get("command") if data.get("tool_name") == "bash" else None
    line = Text(f"{judged.said:<5} ", style=_STYLE[judged.said])
    line.append(f"{_shown(data.get('tool_name'))} ")
    line.append(_shown(what if what is not None else json.dumps(tool_input, ensure_ascii=False)))
    console.print(line)
    detail = "granted (the host is told to allow it)" if judged.granted else None
    if judged.by or judged.reason:
        rule = f" [{judged.rule}]" if judged.rule else ""
        detail = f"{judged.by or '?'}{rule}: {judged.reason or 'no reason given'}"
    shown = _shown(detail or "no grant and nothing to object to: the host decides")
    console.print(Text(f"  bundle {bundle}: {shown}", style="dim"))
    if not judged.pieces:
        return
    table = Table(box=None, padding=(0, 1), title="Pieces", title_justify="left")
    for column in ("decision", "piece", "rule", "reason"):
        table.add_column(column, overflow="fold")
    for piece in judged.pieces:
        table.add_row(
            Text(piece.decision or "-", style=_STYLE.get(piece.decision or "", "")),
            Text(_shown(piece.text)),
            Text(piece.rule or "-", style="magenta"),
            Text(_shown(piece.reason or "")),
        )
    console.print(table)
