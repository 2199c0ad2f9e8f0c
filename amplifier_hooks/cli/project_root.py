"""Where an agent CLI's project settings go: the project root, found as the agent finds it.

Claude Code reads ``.claude/settings.json`` at its project root, not in whatever folder a
person happens to be in; ``install`` run in ``proj/build`` must write ``proj/.claude``.
The root is ``$CLAUDE_PROJECT_DIR`` when set (Claude Code sets it for its hooks), else the
git root of the current folder, else the current folder -- and the command says which.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

__all__ = ["PROJECT_DIR_ENV", "project_root"]

PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR"


def project_root(
    cwd: Path | None = None, environ: Mapping[str, str] | None = None
) -> tuple[Path, str]:
    """The project root and, in words, why it is that folder."""
    env = os.environ if environ is None else environ
    here = (cwd or Path.cwd()).absolute()
    given = env.get(PROJECT_DIR_ENV, "").strip()
    if given:
        return Path(given).expanduser().absolute(), f"the project root: ${PROJECT_DIR_ENV}"
    top = _git_root(here)
    if top is not None:
        return top, f"the project root: the git root of {here}"
    return here, f"this folder: not in a git repository and no ${PROJECT_DIR_ENV}"


def _git_root(here: Path) -> Path | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=here,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    line = done.stdout.strip()
    return Path(line) if done.returncode == 0 and line else None
