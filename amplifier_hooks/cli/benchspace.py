"""``bench --workspace``: the corpora judged once more in real repositories.

A corpus describes a machine that is not there (``/home/dev/project``), so a verdict that
depends on what a file is -- a tracked file with changes nobody committed, an untracked
file, a script a build runs later -- never shows in a plain run: the guard has no git
facts there and takes its grants away. Here every case is judged again in a workspace
built for it, as the worst realistic case: each path the corpora name (a file tool's path,
a word of a shell command that reads as a path, from the folder a ``cd`` before it
moved to, a simple glob's match: `benchplaces`) made real under a temporary home, the
workspace a git repository, in three variants:

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
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from amplifier_hooks.bundles import Bundle
from amplifier_hooks.cli.benchplaces import cd_bases, glob_example, placed
from amplifier_hooks.cli.benchrefs import (
    DEFAULT_TAGS,
    file_operands,
    repository_words,
    tag_names,
    tracked_operands,
)
from amplifier_hooks.cli.corpus import Case

__all__ = ["VARIANTS", "Workspaces", "named_paths", "named_repositories", "named_tags",
           "scratch_root", "slow_git", "tracked_paths"]  # fmt: skip

VARIANTS = ("modified", "untracked", "ignored")
GIT_DEADLINE = 5.0
"""Seconds git may take here (the most ah-guard accepts): no fact is lost to a busy machine."""

_FILE_NAMES = frozenset(
    {"Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", "LICENSE", "README",
     "Gemfile", "Procfile", "Jenkinsfile", "Vagrantfile", "Rakefile", "CODEOWNERS", "VERSION",
     "gradlew", "mvnw", "configure", "justfile", "Justfile", "Brewfile", "Podfile",
     "Cartfile", "Caddyfile", "Taskfile", "Fastfile", "Appfile", "Pipfile", "BUILD",
     "WORKSPACE", "OWNERS", "AUTHORS", "NOTICE", "CHANGELOG", "id_rsa", "id_ed25519",
     "id_ecdsa", "credentials", "config", "known_hosts", "authorized_keys", "crontab"}
)  # fmt: skip
"""Names without a suffix that are files, not folders."""
_DOT_FOLDERS = frozenset(
    {".ssh", ".aws", ".config", ".cache", ".venv", ".github", ".claude", ".codex", ".gemini",
     ".local", ".kube", ".docker", ".gnupg", ".npm", ".cargo", ".vscode", ".idea", ".husky",
     ".devcontainer", ".gitlab", ".circleci", ".azure", ".terraform", ".m2", ".gradle",
     ".cursor", ".continue", ".openclaw", ".opencode", ".copilot", ".cline", ".mypy_cache",
     ".pytest_cache", ".next", ".nuxt", ".tox", ".nox", ".yarn", ".pnpm-store", ".bundle"}
)  # fmt: skip
_PROGRAM_FOLDERS = frozenset({"bin", "sbin", "libexec", "scripts", "tools", "hooks", "Scripts"})
"""Folders whose entries with no suffix are programs: files."""
_SUFFIXED = re.compile(r"[A-Za-z0-9_][\w.+-]*\.[A-Za-z0-9]{1,12}")
_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f$`*?\[\]{}()<>|;&!'\"\\@#%^=,]|://")
MAX_DEPTH = 8
MAX_WORD = 160


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


def _words(command: str) -> list[str]:
    """The words of ``command`` as a shell splits them, near enough: which of them read as
    paths is a guess either way (the guard's own reading is what is scored)."""
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # an open quote: the words up to it are still words
        return command.split()


_FILE_PROGRAMS = frozenset(
    {"rm", "rmdir", "mv", "cp", "ln", "touch", "chmod", "chown", "chgrp", "truncate", "shred",
     "unlink", "trash", "trash-put", "tee", "tar", "zip", "rsync", "find", "du", "ls", "cat",
     "dd", "install", "mkdir", "srm", "wipe", "gio", "scp", "sort", "uniq", "split", "cd",
     "remove-item", "ri", "del", "erase", "rd", "move-item", "mi", "move", "copy-item", "cpi",
     "copy", "set-content", "sc", "add-content", "ac", "clear-content", "clc", "out-file",
     "new-item", "ni", "rename-item", "ren", "set-location", "sl"}
)  # fmt: skip
"""Programs whose bare arguments (``rm -rf build``) are paths (PowerShell's in lower case)."""
_COMMAND_KEYS = frozenset({"command", "cmd", "commands", "input", "patch", "patchText", "diff"})
"""Input fields that hold shell commands or patch texts: their words are read."""
_PATH_KEYS = frozenset({"file", "files", "target", "source", "destination", "target_file"})
"""Input fields that are paths whole, besides any whose name says ``path``."""
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "|&", ";;"})
_PREFIXES = frozenset({"sudo", "doas", "env", "nohup", "time", "command", "exec", "xargs"})


def _bare_paths(words: list[str]) -> Iterator[str]:
    """The bare words (``build``) a file program or ``git ... --`` takes as paths."""
    program: str | None = None
    after_dashes = False
    for word in words:
        if word in _SEPARATORS:
            program, after_dashes = None, False
        elif program is None:
            if word not in _PREFIXES and "=" not in word:
                program = os.path.basename(word).lower()
        elif word == "--":
            after_dashes = True
        elif not word.startswith("-") and (
            program in _FILE_PROGRAMS or (program == "git" and after_dashes)
        ):
            yield word


def _path_word(word: str, bare: bool = False) -> str | None:
    """The path a word names, as written (``~/x``, ``/abs``, ``rel/x``), or None; ``bare``:
    a word a file program takes, a path even with no folder or suffix."""
    if word.startswith("-"):
        word = word.partition("=")[2]
    if not word or len(word) > MAX_WORD or _UNSAFE.search(word) or ":" in word:
        return None
    parts = [p for p in word.split("/") if p not in ("", ".")]
    if not parts or ".." in parts or len(parts) > MAX_DEPTH:
        return None
    if any(p.lower().rstrip(". ") in (".git", "git~1") for p in parts) or (
        word[0] == "~" and word[:2] != "~/"
    ):
        return None  # git's own folder, in any case, is not work to make
    if word.startswith(("/", "~/")) or "/" in word.rstrip("/"):
        return word
    name = parts[-1]
    if word.endswith("/") or _SUFFIXED.fullmatch(name) or name in _FILE_NAMES:
        return word
    return word if bare or (name.startswith(".") and len(name) > 1) else None


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def named_tags(case: Case) -> Iterator[str]:
    """The tags ``case``'s shell commands name (`benchrefs.tag_names`)."""
    for key, value in case.call.input.items():
        if key in _COMMAND_KEYS:
            for text in _strings(value):
                yield from tag_names(_words(text))


def named_paths(case: Case) -> Iterator[tuple[str, bool]]:
    """(absolute path, named as a folder) for each path ``case`` names under its home: a
    file tool's path fields whole, a shell command's words that read as paths."""
    for full, folder, _ in _named(case):
        yield full, folder


def tracked_paths(case: Case) -> Iterator[str]:
    """The paths ``case`` names that git must track in every variant (`tracked_operands`)."""
    for full, _, tracked in _named(case):
        if tracked:
            yield full


def named_repositories(case: Case) -> Iterator[str]:
    """The folders below ``case``'s workspace it names as repositories of their own."""
    below = case.call.cwd.rstrip("/") + "/"
    for key, value in case.call.input.items():
        if key in _COMMAND_KEYS:
            for text in _strings(value):
                for word in repository_words(_words(text)):
                    full = _full(case, word)
                    if full.startswith(below) and ".." not in full.split("/"):
                        yield full


def _full(case: Case, word: str) -> str:
    if word.startswith("~/"):
        return os.path.normpath(os.path.join(case.call.home, word[2:]))
    return os.path.normpath(os.path.join(case.call.cwd, word))


def _named(case: Case) -> Iterator[tuple[str, bool, bool]]:
    """(absolute path, made a folder, tracked in every variant) of each named path."""
    call = case.call
    words: list[tuple[str, bool, bool, bool, str | None]] = []  # bare, file, tracked, cd
    for key, value in call.input.items():
        if key in _COMMAND_KEYS:
            for text in _strings(value):
                said = _words(text)
                taken = set(_bare_paths(said))
                files, tracked = file_operands(said), tracked_operands(said)
                for w, base in zip(said, cd_bases(said), strict=True):
                    match = glob_example(w)  # a glob names the files it would match
                    words.append((match or w, w in taken, match is not None or w in files,
                                  w in tracked, base))  # fmt: skip
        elif "path" in key.lower() or key in _PATH_KEYS:
            words.extend((word, True, False, False, None) for word in _strings(value))
    for word, is_bare, is_file, is_tracked, base in words:
        found = _path_word(word, is_bare)
        if found is None:
            continue
        full = _full(case, placed(base, found))
        if full.startswith(call.home.rstrip("/") + "/"):
            folder = found.endswith("/") or (not is_file and _folder_name(full))
            yield full, folder, is_tracked


def _folder_name(path: str) -> bool:
    """Whether a path named with no trailing slash is best made a folder: no suffix and
    not a known file name (``build``, ``src``, ``.ssh``; not ``Makefile`` or ``.env``), and
    not in a folder of programs (``~/.local/bin/git``, ``scripts/deploy``)."""
    above, name = os.path.split(path)
    if os.path.basename(above) in _PROGRAM_FOLDERS:
        return False
    if name.startswith("."):
        return name in _DOT_FOLDERS
    return "." not in name and name not in _FILE_NAMES


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
            _git(top, "init", "-q")
            (top / ".bench-base").write_text("base\n", encoding="utf-8")
            _git(top, "add", ".bench-base")
            _git(top, "commit", "-qm", "base")
            self._tag(top, tags)
            if self.variant == "ignored":
                (top / ".git" / "info").mkdir(parents=True, exist_ok=True)
                (top / ".git" / "info" / "exclude").write_text("*\n!.bench-base\n", "utf-8")
        made = _flat(self._make(path, folder) for path, folder in sorted(files.items()))
        for path in sorted(nested - repos):
            _nest(Path(self.mapped(path)))
        if self.variant != "modified":  # what git names as tracked is tracked, and changed
            self._track([m for m in made if any(_at_or_below(m, t, self) for t in tracked)])
        if self.variant == "modified":
            for repo in sorted(repos):
                _git(Path(self.mapped(repo)), "add", "-A", "-f", ".")
                _git(Path(self.mapped(repo)), "commit", "-qm", "work", "--allow-empty")
            for path in made:
                Path(path).write_text("v2\n", encoding="utf-8")
        for repo in sorted(repos):  # either way, the repository has work not committed
            (Path(self.mapped(repo)) / ".bench-base").write_text("changed\n", encoding="utf-8")
        for path, folder in sorted(files.items()):
            if folder and os.path.isdir(self.mapped(path)):
                (Path(self.mapped(path)) / "draft.txt").write_text("draft\n", encoding="utf-8")

    def _track(self, made: list[str]) -> None:
        """Commit each of ``made`` in its repository (ignored or not), then change it."""
        for path in made:
            top = _top(Path(path))
            if top is not None:
                _git(top, "add", "-f", "--", path)
        for top in {_top(Path(path)) for path in made} - {None}:
            assert top is not None
            _git(top, "commit", "-qm", "tracked", "--allow-empty")
        for path in made:
            Path(path).write_text("v2\n", encoding="utf-8")

    def _tag(self, top: Path, tags: set[str]) -> None:
        """The named ``tags`` on the branch (lightweight in ``untracked``, annotated
        otherwise), and `DEFAULT_TAGS`: one annotated, one lightweight."""
        light = self.variant == "untracked"
        annotated, plain = DEFAULT_TAGS
        for name in sorted(tags - {annotated, plain}):
            _git(top, "tag", name) if light else _git(top, "tag", "-a", name, "-m", name)
        _git(top, "tag", "-a", annotated, "-m", annotated)
        _git(top, "tag", plain)

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


def _nest(folder: Path) -> None:
    """``folder`` a repository of its own: a commit only it has, and a change on top."""
    if not folder.is_dir() or (folder / ".git").exists():
        return
    _git(folder, "init", "-q")
    (folder / "own.txt").write_text("own\n", encoding="utf-8")
    _git(folder, "add", "-A", ".")
    _git(folder, "commit", "-qm", "its own")
    (folder / "own.txt").write_text("changed\n", encoding="utf-8")


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


def _git(folder: Path, *args: str) -> None:
    """git in ``folder`` with none of this machine's settings (its hooks, signing...)."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
         "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=folder, env=env, check=False, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode:
        raise RuntimeError(f"git {args[0]} in {folder}: {done.stderr.strip()[-500:]}")


def remove(root: Path) -> None:
    """Remove the workspaces' folder."""
    shutil.rmtree(root, ignore_errors=True)
