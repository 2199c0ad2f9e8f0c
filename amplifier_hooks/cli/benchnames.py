"""What a bench case names (`benchspace`): the paths its file tool fields and shell words
point at, the tags and nested repositories its commands speak of, and which of those git
must track. Which words read as paths is a guess either way; the guard's own reading of
the same call is what is scored.

- A file tool's path fields (``file_path``, ``target``...) are paths whole.
- A shell command's word is a path when it has a folder or a suffix (``src/a.py``), is a
  known file name (``Makefile``), starts with a dot (``.env``), or is a bare operand of a
  file program (``rm -rf build``); read from the folder a ``cd`` before it moved to
  (`benchplaces`); a simple glob names one file it would match.
- A path named with no suffix is made a folder unless it is a known file name or sits in
  a folder of programs.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

from amplifier_hooks.cli.benchplaces import cd_bases, glob_example, placed
from amplifier_hooks.cli.benchrefs import (
    file_operands,
    repository_words,
    tag_names,
    tracked_operands,
)
from amplifier_hooks.cli.corpus import Case

__all__ = ["named_paths", "named_repositories", "named_tags", "tracked_paths"]

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
