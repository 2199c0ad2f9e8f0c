"""What every ``HOST install`` says beyond what it wrote: whether the host will run our
hooks (the words ``doctor`` uses), and whether the bundle does anything (an empty one
guards nothing, so it is refused unless asked for)."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

from amplifier_hooks.hosts.doctor import installed_wiring

__all__ = [
    "EmptyBundleError",
    "add_allow_empty",
    "bundle_note",
    "check_not_empty",
    "will_not_run",
]


class EmptyBundleError(ValueError):
    """A bundle with no handler at all, installed without ``--allow-empty``."""


def add_allow_empty(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--allow-empty",
        action="store_true",
        help="install a bundle that has no module (it guards and records nothing)",
    )


def check_not_empty(bundle: Path, handled: Iterable[str], allow_empty: bool) -> None:
    """Raise `EmptyBundleError` when ``bundle`` listens to nothing, unless allowed."""
    if not list(handled) and not allow_empty:
        raise EmptyBundleError(
            f"{bundle} has no module that handles any event: installed, it would guard and "
            "record nothing (every call allowed); add modules to it, or pass --allow-empty"
        )


def bundle_note(bundle: Path, handled: Iterable[str]) -> str | None:
    """One line for an empty bundle installed with ``--allow-empty`` (None: not empty)."""
    if list(handled):
        return None
    return f"note: {bundle} is empty: it guards and records nothing"


def will_not_run(command: str, path: Path, project: Path) -> str | None:
    """``status: WILL NOT RUN: ...`` where doctor would say it (None: it will run)."""
    wiring = installed_wiring(command, path, project)
    if wiring is None or wiring.runs:
        return None
    return "status: WILL NOT RUN: " + "; ".join(wiring.problems)
