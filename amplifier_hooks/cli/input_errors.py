"""Which errors are bad input, and how a command says so: one line, exit code 2.

Shared by the command line (`amplifier_hooks.cli.dispatch`) and the workspace server
answering a relayed ``test`` (`amplifier_hooks.cli.served_trial`), so both say it alike.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO

__all__ = ["input_error", "report_input_error"]


_INPUT_ERRORS = (
    ("amplifier_hooks.cli.trace_files", "TraceError"),
    ("amplifier_hooks.bundles.reading", "BundleError"),
    ("amplifier_hooks.approvals.store.records", "ApprovalStoreError"),
    ("amplifier_hooks.cli.corpus", "CorpusError"),
    ("amplifier_hooks.cli.test", "TestInputError"),
)
"""The errors that are bad input (one line, exit 2), by module and name."""


def report_input_error(args: argparse.Namespace, exc: Exception, out: IO[str], err: IO[str]) -> int:
    """Say that ``exc`` (bad input) stopped the command: one line on ``err``, and for
    ``test --json`` a JSON answer on ``out`` (a script reads stdout); the exit code, 2."""
    err.write(f"error: {exc}\n")
    if args.command == "test" and args.json:
        import json

        out.write(json.dumps({"ok": False, "error": str(exc), "exit_code": 2}) + "\n")
    return 2


def input_error(exc: Exception) -> bool:
    """Whether ``exc`` is bad input. Only the modules already loaded are looked at (an
    error of a module that was never imported cannot have been raised): no command pays
    for importing them."""
    kinds = tuple(
        getattr(module, name)
        for module_name, name in _INPUT_ERRORS
        if (module := sys.modules.get(module_name)) is not None
    )
    return isinstance(exc, kinds)
