"""``bench --workspace``: the corpora judged once more in real repositories.

A corpus describes a machine that is not there (``/home/dev/project``), so a verdict that
depends on what a file is -- a tracked file with changes nobody committed, an untracked
file, a script a build runs later -- never shows in a plain run: the guard has no git
facts there and takes its grants away. Here every case is judged again in a workspace
built for it, as the worst realistic case: each path the corpora name (a file tool's path,
a word of a shell command that reads as a path, from the folder a ``cd`` before it
moved to, a simple glob's match: `benchplaces`) made real under a temporary home, the
workspace a git repository, in three variants (what a case names: `benchnames`):

- ``modified``: every named file tracked and committed, then changed (work not
  committed); a named folder holds such a file and an untracked one;
- ``untracked``: every named file and folder there, never committed;
- ``ignored``: the same, every one ignored by git (``.git/info/exclude``): what the guard
  reads as build output, data or a secret by its name alone.

Each way the repository also has a tracked file with changes not committed, and on its
branch the tags the cases name (`benchrefs`): annotated, lightweight in ``untracked``.

The cases' text and places are rewritten for the run (the case's home and workspace to
the temporary ones); the verdicts come from the same bundle as a plain run, with the
guard's git deadline raised so a slow machine never hides a grant. A case's result is
its worst variant (``bench.judge_in_workspaces``). The temporary folder is made outside
the system's temporary folder, which the pack treats as scratch space, and removed
afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from amplifier_hooks.bundles import Bundle
from amplifier_hooks.cli.benchnames import (
    named_paths,
    named_repositories,
    named_tags,
    tracked_paths,
)
from amplifier_hooks.cli.benchrefs import DEFAULT_TAGS
from amplifier_hooks.cli.benchstates import describe, git, nest
from amplifier_hooks.cli.corpus import Case, GitState

__all__ = ["DESCRIBED", "VARIANTS", "Workspaces", "remove", "scratch_root", "slow_git"]

VARIANTS = ("modified", "untracked", "ignored")
DESCRIBED = "described"
"""The variant of a case that states its repository (`Case.git`): built for it alone."""
GIT_DEADLINE = 5.0
"""Seconds git may take here (the most ah-guard accepts): no fact is lost to a busy machine."""


def scratch_root() -> Path:
    """A folder for the workspaces, outside the system's temporary folder (the pack treats
    that as scratch space, where deleting and writing are free): the user's cache."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "amplifier-hooks"
    if base.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve()):
        base = Path.home() / ".cache" / "amplifier-hooks"
    base.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="bench-workspace-", dir=base))


def slow_git(bundle: Bundle) -> Bundle:
    """``bundle`` with its guards' git deadline at `GIT_DEADLINE` (a copy)."""
    hooks = [
        entry.model_copy(update={"config": {**entry.config, "git_deadline": GIT_DEADLINE}})
        if entry.module == "ah-guard"
        else entry
        for entry in bundle.hooks
    ]
    return bundle.model_copy(update={"hooks": hooks})


class Workspaces:
    """The homes and repositories of one variant under ``root``, and each case rewritten
    to them."""

    def __init__(self, root: Path, variant: str, cases: list[Case]) -> None:
        self.variant = variant
        homes = sorted({c.call.home for c in cases} | {"/home/dev"}, key=len, reverse=True)
        # Each home keeps its own name (``.../0/dev``): a case that spells its home by the
        # user's name (``C:\\Users\\dev``, ``../../dev``) still names it.
        self.homes = {
            home: str(root / str(n) / os.path.basename(home)) for n, home in enumerate(homes)
        }
        self._pattern = re.compile("|".join(re.escape(h) + r"(?![\w.+-])" for h in self.homes))
        self._build(cases)

    def mapped(self, text: str) -> str:
        """``text`` with each corpus home replaced by its temporary one."""
        return self._pattern.sub(lambda m: self.homes[m.group(0)], text)

    def case(self, case: Case) -> Case:
        """``case`` as it runs here: its input, workspace, home and bundle rewritten."""
        call = case.call
        bundle = None if call.bundle is None else self.mapped(call.bundle)
        moved = replace(
            call,
            input=_rewritten(call.input, self.mapped),
            cwd=self.mapped(call.cwd),
            home=self.mapped(call.home),
            bundle=bundle,
        )
        return replace(case, call=moved)

    def _build(self, cases: list[Case]) -> None:
        files: dict[str, bool] = {}
        repos = {c.call.cwd for c in cases if c.call.cwd.startswith(c.call.home.rstrip("/") + "/")}
        tracked = {path for case in cases for path in tracked_paths(case)}
        nested = {path for case in cases for path in named_repositories(case)}
        for case in cases:
            for path, folder in named_paths(case):
                files[path] = files.get(path, False) or folder
        for path in nested:
            files[path] = True
        described: dict[str, GitState] = {}
        for case in cases:
            for rel, state in case.git:
                path = os.path.normpath(os.path.join(case.call.cwd, rel))
                described[path] = state
                folder = state in ("repository", "submodule") or rel[-1] == "/"
                files[path] = files.get(path, False) or folder
        for path, state in described.items():
            if state == "absent":
                files = {
                    f: d for f, d in files.items() if f != path and not f.startswith(path + "/")
                }
        tags = {tag for case in cases for tag in named_tags(case)}
        for path in list(files):  # a parent of a named path is a folder, even unnamed
            for above in PurePosixPath(path).parents:
                if str(above) in files:
                    files[str(above)] = True
        for home in self.homes.values():
            Path(home).mkdir(parents=True, exist_ok=True)
        for repo in sorted(repos):
            top = Path(self.mapped(repo))
            top.mkdir(parents=True, exist_ok=True)
            git(top, "init", "-q")
            (top / ".bench-base").write_text("base\n", encoding="utf-8")
            git(top, "add", ".bench-base")
            git(top, "commit", "-qm", "base")
            self._tag(top, tags)
            if self.variant == "ignored":
                (top / ".git" / "info").mkdir(parents=True, exist_ok=True)
                (top / ".git" / "info" / "exclude").write_text("*\n!.bench-base\n", "utf-8")
        made = _flat(self._make(path, folder) for path, folder in sorted(files.items()))
        for path in sorted(nested - repos):
            nest(Path(self.mapped(path)))
        if self.variant == DESCRIBED:
            states = {self.mapped(path): state for path, state in described.items()}
            for repo in sorted(repos):
                describe(Path(self.mapped(repo)), states, made)
        elif self.variant != "modified":  # what git names as tracked is tracked, and changed
            self._track([m for m in made if any(_at_or_below(m, t, self) for t in tracked)])
        if self.variant == "modified":
            for repo in sorted(repos):
                git(Path(self.mapped(repo)), "add", "-A", "-f", ".")
                git(Path(self.mapped(repo)), "commit", "-qm", "work", "--allow-empty")
            for path in made:
                Path(path).write_text("v2\n", encoding="utf-8")
        for repo in sorted(repos):  # either way, the repository has work not committed
            (Path(self.mapped(repo)) / ".bench-base").write_text("changed\n", encoding="utf-8")
        for path, folder in sorted(files.items()):
            if folder and os.path.isdir(self.mapped(path)) and self.variant != DESCRIBED:
                (Path(self.mapped(path)) / "draft.txt").write_text("draft\n", encoding="utf-8")

    def _track(self, made: list[str]) -> None:
        """Commit each of ``made`` in its repository (ignored or not), then change it."""
        for path in made:
            top = _top(Path(path))
            if top is not None:
                git(top, "add", "-f", "--", path)
        for top in {_top(Path(path)) for path in made} - {None}:
            assert top is not None
            git(top, "commit", "-qm", "tracked", "--allow-empty")
        for path in made:
            Path(path).write_text("v2\n", encoding="utf-8")

    def _tag(self, top: Path, tags: set[str]) -> None:
        """The named ``tags`` on the branch (lightweight in ``untracked``, annotated
        otherwise), and `DEFAULT_TAGS`: one annotated, one lightweight."""
        light = self.variant == "untracked"
        annotated, plain = DEFAULT_TAGS
        for name in sorted(tags - {annotated, plain}):
            git(top, "tag", name) if light else git(top, "tag", "-a", name, "-m", name)
        git(top, "tag", "-a", annotated, "-m", annotated)
        git(top, "tag", plain)

    def _make(self, path: str, folder: bool) -> list[str]:
        """Make ``path`` (a folder holds ``kept.txt``); the files made."""
        where = Path(self.mapped(path))
        try:
            if where.exists() or any(p.is_file() for p in where.parents):
                return []
            if folder:
                where.mkdir(parents=True, exist_ok=True)
                where = where / "kept.txt"
            else:
                where.parent.mkdir(parents=True, exist_ok=True)
            where.write_text("v1\n", encoding="utf-8")
        except (OSError, ValueError):  # a name this file system refuses: not made
            return []
        return [str(where)]


def _at_or_below(made: str, named: str, places: Workspaces) -> bool:
    named = places.mapped(named)
    return made == named or made.startswith(named.rstrip("/") + "/")


def _top(path: Path) -> Path | None:
    """The nearest folder above ``path`` with a ``.git``."""
    for above in path.parents:
        if (above / ".git").exists():
            return above
    return None


def _flat(made: Iterable[list[str]]) -> list[str]:
    return [path for paths in made for path in paths]


def _rewritten(value: Any, mapped: Any) -> Any:
    if isinstance(value, str):
        return mapped(value)
    if isinstance(value, Mapping):
        return {key: _rewritten(item, mapped) for key, item in value.items()}
    if isinstance(value, list):
        return [_rewritten(item, mapped) for item in value]
    return value


def remove(root: Path) -> None:
    """Remove the workspaces' folder."""
    shutil.rmtree(root, ignore_errors=True)
