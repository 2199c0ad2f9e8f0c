"""What a path git ignores holds, by its name: output a build, an install or a run makes
again (build folders, dependency folders, caches, compiled files, coverage, logs,
temporary files), or data nothing makes again (databases, Terraform state, env files,
experiment stores, uploads, local settings, keys and keystores).

Ignored is not regenerable: projects ignore their local database and their state as
they ignore ``build/``. Deleting, emptying or writing over an ignored path is granted
only when its name says it is made again (`regenerable`); a name that says it holds data
is asked; any other name gets no grant (issue 34). The one home of both tables.

A path is read as git reports it (relative to the repository's top, a folder ending with
``/``), each of its names in any case (macOS and Windows file systems ignore case).
"""

from __future__ import annotations

import re
from typing import Literal

from amplifier_hooks.guard.secrets import secret_kind

__all__ = ["IgnoredKind", "ignored_kind"]

IgnoredKind = Literal["regenerable", "data"]

_MADE_AGAIN_NAMES = frozenset(
    {  # dependency folders: an install makes them again
     "node_modules", "bower_components", "jspm_packages", ".pnpm-store", "vendor", "pods",
     ".venv", "venv", ".eggs", ".dart_tool", ".pub-cache", ".stack-work", "elm-stuff",
     ".terraform", ".gradle",
     # build outputs
     "build", "dist", "out", "target", "_build", ".build", "obj", "bin", "deriveddata",
     "dist-newstyle", ".next", ".nuxt", ".svelte-kit", ".output", ".docusaurus",
     "storybook-static", ".serverless",
     # caches
     ".cache", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".pytype",
     ".pyre", ".tox", ".nox", ".hypothesis", ".turbo", ".parcel-cache", ".angular", ".vite",
     ".webpack", ".sass-cache", ".eslintcache", ".stylelintcache",
     # coverage
     "coverage", "htmlcov", ".nyc_output", ".coverage", "coverage.xml", "lcov.info",
     # logs and temporary files; a desktop's own files
     "logs", "log", "tmp", "temp", ".tmp", ".temp", ".ds_store", "thumbs.db", "desktop.ini"}
)  # fmt: skip
"""Names (of a folder or a file) a build, an install, a test run or the desktop makes
again."""
_MADE_AGAIN_SUFFIXES = (
    ".pyc", ".pyo", ".pyd", ".o", ".a", ".so", ".dylib", ".dll", ".class", ".tsbuildinfo",
    ".log", ".tmp", ".temp", ".swp", ".swo", ".egg-info",
)  # fmt: skip
"""Compiled files, logs and editors' swap files, by how their name ends."""
_MADE_AGAIN_SHAPES = re.compile(r"^(?:\.coverage\..+|cmake-build-.+|npm-debug\.log.*)$")
"""coverage.py's parallel data files, CLion's build folders, npm's debug logs."""

_DATA_NAMES = frozenset(
    {"mlruns", "mlartifacts", "wandb", ".neptune", "lightning_logs", ".aim", "uploads",
     "pgdata", ".pgdata", "postgres-data", "postgres_data", "mysql-data", "mysql_data",
     "terraform.tfstate.d", "dump.rdb"}
)  # fmt: skip
"""Experiment stores (MLflow, Weights & Biases, Neptune, Lightning, Aim), uploads and
database servers' data folders, Terraform's workspaces' states."""
_DATA_SUFFIXES = (
    ".sqlite", ".sqlite3", ".db", ".db3", ".s3db", ".sl3", ".duckdb", ".mdb", ".accdb",
    ".realm", ".rdb", ".sql", ".dump", ".bak", ".backup",
)  # fmt: skip
"""Databases (and their dumps), and a person's backups, by how their name ends."""
_JOURNALS = re.compile(r"(?:-wal|-shm|-journal)$")
"""SQLite's write-ahead log, shared memory and journal: half of the database's data."""
_LOCAL_SETTINGS = re.compile(r"^(?=.*\.)(?:.*[-_.])?local(?:[-_.].*)?$")
"""``settings.local.json``, ``local_settings.py``, ``config.local.yaml``, ``app.local``: a
person's settings for this machine, kept out of git for that reason."""


def ignored_kind(path: str) -> IgnoredKind | None:
    """What the ignored ``path`` holds by its names: "data" when any name says data (the
    strictest wins: ``build/app.sqlite3``), "regenerable" when one says it is made again,
    None when no name says (a person's ``notes/private.md``: no grant)."""
    names = [n.lower() for n in path.rstrip("/").split("/") if n not in ("", ".")]
    kind: IgnoredKind | None = None
    for index, name in enumerate(names):
        if _made_again(name):
            kind = "regenerable"
        elif _holds_data(name, index == len(names) - 1):
            return "data"
    return kind


def _made_again(name: str) -> bool:
    return (
        name in _MADE_AGAIN_NAMES
        or name.endswith(_MADE_AGAIN_SUFFIXES)
        or _MADE_AGAIN_SHAPES.match(name) is not None
    )


def _holds_data(name: str, last: bool) -> bool:
    bare = _JOURNALS.sub("", name)
    if bare in _DATA_NAMES or ".tfstate" in bare or bare.endswith(_DATA_SUFFIXES):
        return True
    if secret_kind(bare) is not None:  # `.env`, keys and keystores (guard/secrets.py)
        return True
    return last and _LOCAL_SETTINGS.match(bare) is not None
