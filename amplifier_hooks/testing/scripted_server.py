"""``python -m amplifier_hooks.testing.scripted_server --script FILE [--port N]``: a
`ScriptedModel` from a JSON script, serving until Ctrl+C, so a person can point a real
agent at it by hand (``ANTHROPIC_BASE_URL`` and ``ANTHROPIC_API_KEY``, printed at start).

The script is a JSON list of turns, one per request of the agent's conversation. A turn is
a string (the model says it), or a list of blocks: a string, ``{"bash": "COMMAND"}``, or
``{"tool": "NAME", "input": {...}}``. For example::

    [[{"bash": "rm -rf build"}], "Done."]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from amplifier_hooks.testing.messages_api import DEFAULT_API_KEY, ScriptedModel, ToolUse, Turn, bash

__all__ = ["load_script", "main"]


class ScriptError(ValueError):
    """A script file that cannot be read as turns; the message says where."""


def load_script(path: Path) -> list[Turn]:
    """The turns of the script at ``path``; `ScriptError` saying what is wrong."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ScriptError(f"{path}: not JSON: {exc}") from None
    if not isinstance(raw, list):
        raise ScriptError(f"{path}: expected a list of turns, got {type(raw).__name__}")
    return [_turn(item, f"{path}: turn {n}") for n, item in enumerate(raw, 1)]


def _turn(item: Any, where: str) -> Turn:
    blocks = item if isinstance(item, list) else [item]
    if not blocks:
        raise ScriptError(f"{where}: a turn needs at least one block")
    return Turn(*(_block(b, f"{where}, block {n}") for n, b in enumerate(blocks, 1)))


def _block(block: Any, where: str) -> str | ToolUse:
    if isinstance(block, str):
        return block
    if isinstance(block, dict) and set(block) == {"bash"} and isinstance(block["bash"], str):
        return bash(block["bash"])
    if (
        isinstance(block, dict)
        and set(block) == {"tool", "input"}
        and isinstance(block["tool"], str)
        and isinstance(block["input"], dict)
    ):
        return ToolUse(block["tool"], block["input"])
    raise ScriptError(
        f'{where}: expected text, {{"bash": "COMMAND"}} or {{"tool": "NAME", "input": {{...}}}}, '
        f"got {json.dumps(block)[:80]}"
    )


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Serve the script until SIGINT or SIGTERM; the exit code (2: a bad script)."""
    parser = argparse.ArgumentParser(
        prog="python -m amplifier_hooks.testing.scripted_server",
        description="A scripted Anthropic Messages API on 127.0.0.1, for a real agent.",
    )
    parser.add_argument("--script", required=True, type=Path, metavar="FILE", help="JSON turns")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--api-key", default=DEFAULT_API_KEY, help=f"({DEFAULT_API_KEY})")
    args = parser.parse_args(argv)
    out = out or sys.stdout
    try:
        turns = load_script(args.script)
    except ScriptError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    return asyncio.run(_serve(ScriptedModel(*turns, api_key=args.api_key, port=args.port), out))


async def _serve(model: ScriptedModel, out: IO[str]) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    async with model:
        out.write(f"ANTHROPIC_BASE_URL={model.base_url}\nANTHROPIC_API_KEY={model.api_key}\n")
        out.flush()
        await stop.wait()
    out.write(f"answered {model.answered} of {len(model.turns)} turns ({model.overran} over)\n")
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
