"""``amplifier-hooks doctor``: per agent CLI, what is wired, to which bundle, whether the
host will run it, and one harmless probe through the hook (`amplifier_hooks.hosts.doctor`).

Exit 0 when every wired hook will run and answers its probe; 1 otherwise (also when
nothing is wired: nothing is guarded).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import IO, Any

from amplifier_hooks.hosts.doctor import Wiring, diagnose

__all__ = ["add_parser", "report_lines", "run"]


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        "doctor",
        parents=[common],
        help="say what is wired into each agent CLI and whether it will run",
        description="For Claude Code, Codex, Gemini CLI and Copilot CLI, in the user's "
        "settings and the project's: which events run which bundle, what would stop the "
        "host from running them (its program not on PATH, hook trust, folder trust, a "
        "missing bundle), and the answer of one harmless probe (the shell running "
        "`true`) sent through the installed hook. For OpenClaw: our plugin in "
        "~/.openclaw/openclaw.json, the Node that would run it, and the paths no plugin "
        "guards (`openclaw agent exec`, plugins.enabled/allow/deny, a missing "
        "load.paths folder).",
    )
    parser.add_argument(
        "--project", metavar="DIR", default=".", help="the project to check (default: .)"
    )
    parser.add_argument("--no-probe", action="store_true", help="send no probe")
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def report_lines(found: list[Wiring]) -> list[str]:
    """The human report, one block per wired file."""
    if not found:
        return ["no amplifier-hooks hooks are wired into any agent CLI here: nothing is guarded"]
    lines: list[str] = []
    for wiring in found:
        profile = wiring.profile
        lines.append(f"{profile.title} ({wiring.scope}): {wiring.file}")
        lines.append(f"  events: {', '.join(wiring.events) or '-'}")
        lines.append(f"  bundle: {', '.join(wiring.bundles) or '-'}")
        status = "will run" if wiring.runs else "WILL NOT RUN"
        lines.append(f"  status: {status}")
        lines += [f"  problem: {problem}" for problem in wiring.problems]
        lines += [f"  note: {note}" for note in wiring.notes]
        if wiring.probe is not None:
            lines.append(f"  probe ({wiring.probe.event}, `true`): {wiring.probe.verdict}")
    return lines


def _as_json(wiring: Wiring) -> dict[str, Any]:
    probe = wiring.probe
    return {
        "host": wiring.profile.command,
        "scope": wiring.scope,
        "file": str(wiring.file),
        "events": list(wiring.events),
        "bundles": list(wiring.bundles),
        "runs": wiring.runs,
        "problems": list(wiring.problems),
        "notes": list(wiring.notes),
        "probe": None
        if probe is None
        else {
            "event": probe.event,
            "exit_code": probe.exit_code,
            "stdout": probe.stdout,
            "verdict": probe.verdict,
            "ok": probe.ok,
        },
    }


def run(args: argparse.Namespace, out: IO[str]) -> int:
    found = diagnose(Path(args.project).absolute(), send_probe=not args.no_probe)
    if args.json:
        out.write(json.dumps([_as_json(w) for w in found], indent=2) + "\n")
    else:
        out.write("\n".join(report_lines(found)) + "\n")
    healthy = all(w.runs and (w.probe is None or w.probe.ok) for w in found)
    return 0 if found and healthy else 1
